import { Type, type Static } from '@sinclair/typebox';
import type { AdsAccountUserTable } from '../../store/schema-ads.js';
import { AdsId, AdsTime, Entity, PlatformIdText } from '../http/entity-schema.js';
import { fromJson } from '../../store/store.js';
import { wireTime } from '../http/time.js';
import { promotableUserId, type PromotedAccountRow, type PromotedPostRow } from './store.js';

const promotedCommon = {
  line_item_id: AdsId,
  id: AdsId,
  entity_status: Type.String(),
  created_at: AdsTime,
  updated_at: AdsTime,
  approval_status: Type.String(),
  deleted: Type.Boolean(),
};

export const PromotedPostSchema = Entity('PromotedPost', 'A post attached to a line item', { ...promotedCommon, post_id: PlatformIdText });
export const PromotedAccountSchema = Entity('PromotedAccount', 'A user attached to a PROMOTED_ACCOUNT line item', { ...promotedCommon, user_id: PlatformIdText });
export const PromotableUserSchema = Entity('PromotableUser', 'A user whose posts the account may promote', {
  id: AdsId,
  account_id: AdsId,
  user_id: PlatformIdText,
  promotable_user_type: Type.Union([Type.Literal('FULL'), Type.Literal('RETWEETS_ONLY')]),
  created_at: AdsTime,
  updated_at: AdsTime,
  deleted: Type.Boolean(),
});

/** The promoted post object. */
export function promotedPostWire(p: PromotedPostRow): Static<typeof PromotedPostSchema> {
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
export function promotedAccountWire(p: PromotedAccountRow): Static<typeof PromotedAccountSchema> {
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
export function promotableUserWire(u: AdsAccountUserTable): Static<typeof PromotableUserSchema> {
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
