import { wireTime } from '../http/time.js';
import type { PromotedAccountRow, PromotedPostRow } from './store.js';

/** Plaza's 'post' names, or the public platform's 'tweet' names for the promoted_tweets alias. */
export type Dialect = 'post' | 'tweet';

/** The promoted post object: post_id (tweet_id in the 'tweet' dialect). */
export function promotedPostWire(p: PromotedPostRow, dialect: Dialect = 'post') {
  return {
    line_item_id: p.line_item_id,
    id: p.id,
    entity_status: p.entity_status,
    created_at: wireTime(p.created_at),
    updated_at: wireTime(p.updated_at),
    approval_status: p.approval_status,
    [dialect === 'post' ? 'post_id' : 'tweet_id']: p.post_id,
    deleted: p.deleted === 1,
  };
}

/** The promoted account object. */
export function promotedAccountWire(p: PromotedAccountRow) {
  return {
    line_item_id: p.line_item_id,
    user_id: p.user_id,
    id: p.id,
    entity_status: p.entity_status,
    created_at: wireTime(p.created_at),
    updated_at: wireTime(p.updated_at),
    approval_status: p.approval_status,
    deleted: p.deleted === 1,
  };
}
