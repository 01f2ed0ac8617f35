import { wireTime } from '../http/time.js';
import type { PromotedAccountRow, PromotedPostRow } from './store.js';

/** The promoted post object. */
export function promotedPostWire(p: PromotedPostRow) {
  return {
    line_item_id: p.line_item_id,
    id: p.id,
    entity_status: p.entity_status,
    created_at: wireTime(p.created_at),
    updated_at: wireTime(p.updated_at),
    approval_status: p.approval_status,
    post_id: p.post_id,
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
