import { Type, type Static } from '@sinclair/typebox';
import { AdsId, AdsTime, Entity, Nullable, OneOf } from '../http/entity-schema.js';
import { wireTime } from '../http/time.js';
import { CREATIVE_TYPES } from './service.js';
import type { AccountMediaRow } from './store.js';

export const AccountMediaSchema = Entity('AccountMedia', 'A media of the media library placed for a creative type (spec 001 "Account media")', {
  video_id: Nullable(Type.String({ description: 'The media id, for videos' })),
  media_url: Nullable(Type.String()),
  creative_type: OneOf(CREATIVE_TYPES),
  id: AdsId,
  created_at: AdsTime,
  updated_at: AdsTime,
  media_key: Type.String(),
  deleted: Type.Boolean(),
});

/** The account media object (spec 001 "Account media"): video_id for videos, media_url for the file. */
export function accountMediaWire(a: AccountMediaRow): Static<typeof AccountMediaSchema> {
  return {
    video_id: a.media_type === 'video' ? a.media_id : null,
    media_url: a.media_url,
    creative_type: a.creative_type as Static<typeof AccountMediaSchema>['creative_type'],
    id: a.id,
    created_at: wireTime(a.created_at),
    updated_at: wireTime(a.updated_at),
    media_key: a.media_key,
    deleted: a.deleted === 1,
  };
}
