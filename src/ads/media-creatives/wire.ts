import { wireTime } from '../http/time.js';
import type { MediaCreativeRow } from './store.js';

/** The media creative object (spec 001 "Media creative"). */
export function mediaCreativeWire(m: MediaCreativeRow) {
  return {
    line_item_id: m.line_item_id,
    landing_url: m.landing_url,
    creative_type: m.creative_type,
    id: m.id,
    entity_status: m.entity_status,
    created_at: wireTime(m.created_at),
    account_media_id: m.account_media_id,
    updated_at: wireTime(m.updated_at),
    approval_status: m.approval_status,
    deleted: m.deleted === 1,
  };
}
