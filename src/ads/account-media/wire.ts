import { wireTime } from '../http/time.js';
import type { AccountMediaRow } from './store.js';

/** The account media object (spec 001 "Account media"): video_id for videos, media_url for the file. */
export function accountMediaWire(a: AccountMediaRow) {
  return {
    video_id: a.media_type === 'video' ? a.media_id : null,
    media_url: a.media_url,
    creative_type: a.creative_type,
    id: a.id,
    created_at: wireTime(a.created_at),
    updated_at: wireTime(a.updated_at),
    media_key: a.media_key,
    deleted: a.deleted === 1,
  };
}
