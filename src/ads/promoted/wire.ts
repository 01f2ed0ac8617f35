import type { AdsAccountUserTable } from '../../store/schema-ads.js';
import { fromJson } from '../../store/store.js';
import { wireTime } from '../http/time.js';
import { promotableUserId, type PromotedAccountRow, type PromotedPostRow } from './store.js';

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

/**
 * A promotable user: whose posts the account may promote. FULL for the account's own user (its
 * administrator), RETWEETS_ONLY for the users who joined the account (their posts may be
 * promoted, not composed as them).
 */
export function promotableUserWire(u: AdsAccountUserTable) {
  const permissions = fromJson<string[]>(u.permissions) ?? [];
  return {
    id: promotableUserId(u.account_id, u.user_id),
    account_id: u.account_id,
    user_id: u.user_id,
    promotable_user_type: permissions.includes('ACCOUNT_ADMIN') ? 'FULL' : 'RETWEETS_ONLY',
    created_at: wireTime(u.created_at),
    updated_at: wireTime(u.created_at),
    deleted: false,
  };
}
