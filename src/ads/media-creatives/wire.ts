import { Type, type Static } from '@sinclair/typebox';
import { CREATIVE_TYPES } from '../account-media/service.js';
import { AdsId, AdsTime, Entity, Nullable, OneOf } from '../http/entity-schema.js';
import { wireTime } from '../http/time.js';
import type { MediaCreativeRow } from './store.js';

export const MediaCreativeSchema = Entity('MediaCreative', 'Account media attached to a line item (spec 001 "Media creative")', {
  line_item_id: AdsId,
  landing_url: Nullable(Type.String()),
  creative_type: OneOf(CREATIVE_TYPES),
  id: AdsId,
  entity_status: OneOf(['ACTIVE']),
  created_at: AdsTime,
  account_media_id: AdsId,
  updated_at: AdsTime,
  approval_status: OneOf(['ACCEPTED']),
  deleted: Type.Boolean(),
});
type MediaCreative = Static<typeof MediaCreativeSchema>;

/** The media creative object (spec 001 "Media creative"). */
export function mediaCreativeWire(m: MediaCreativeRow): MediaCreative {
  return {
    line_item_id: m.line_item_id,
    landing_url: m.landing_url,
    creative_type: m.creative_type as MediaCreative['creative_type'],
    id: m.id,
    entity_status: m.entity_status as MediaCreative['entity_status'],
    created_at: wireTime(m.created_at),
    account_media_id: m.account_media_id,
    updated_at: wireTime(m.updated_at),
    approval_status: m.approval_status as MediaCreative['approval_status'],
    deleted: m.deleted === 1,
  };
}
