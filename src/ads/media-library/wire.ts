import { Type, type Static } from '@sinclair/typebox';
import type { MediaTable } from '../../store/schema.js';
import { AdsTime, Entity, Nullable, OneOf } from '../http/entity-schema.js';
import { wireTime } from '../http/time.js';
import type { LibraryEntry } from './store.js';

/** The label a library object without a name shows (spec 001 "Media library"). */
export const UNTITLED = 'Untitled';

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** Width:height in lowest terms, e.g. 1280x720 is "16:9". */
export function aspectRatio(width: number | null, height: number | null): string | null {
  if (!width || !height) return null;
  const d = gcd(width, height);
  return `${width / d}:${height / d}`;
}

export const MEDIA_CATEGORIES = ['POST_IMAGE', 'POST_GIF', 'POST_VIDEO', 'PROMO_VIDEO'] as const;
const MEDIA_STATUSES = ['TRANSCODE_COMPLETED', 'TRANSCODING', 'TRANSCODE_FAILED'] as const;
const text = Type.String();

const libraryFields = {
  posted: Type.Boolean({ description: 'Used by a post made through the advertising interface' }),
  name: text,
  file_name: Nullable(text),
  media_url: Nullable(text),
  media_category: OneOf(MEDIA_CATEGORIES),
  media_key: text,
  created_at: AdsTime,
  updated_at: AdsTime,
  media_status: OneOf(MEDIA_STATUSES),
  deleted: Type.Boolean(),
};
const ImageSchema = Entity('MediaLibraryImage', 'An image of the media library (spec 001 "Media library object")', { ...libraryFields, media_type: Type.Literal('IMAGE') });
const VideoSchema = Entity('MediaLibraryVideo', 'A video or GIF of the media library: "for videos and GIFs also duration, description, poster_media_url, poster_media_key, title, aspect_ratio" (spec 001)', {
  ...libraryFields,
  media_type: OneOf(['GIF', 'VIDEO']),
  duration: Nullable(Type.Integer({ minimum: 0, description: 'Milliseconds' })),
  description: Nullable(text),
  poster_media_url: Nullable(text),
  poster_media_key: Nullable(text),
  title: Nullable(text),
  aspect_ratio: Nullable(Type.String({ pattern: '^[0-9]+:[0-9]+$' })),
});
export const MediaLibrarySchema = Type.Union([ImageSchema, VideoSchema]);
type MediaLibraryObject = Static<typeof MediaLibrarySchema>;

/**
 * media_status: processing is done when the media row exists (the platform stores it when the
 * upload's FINALIZE succeeds); an upload still open is transcoding, one that expired failed.
 */
export function mediaStatus(e: Pick<LibraryEntry, 'media' | 'upload'>, now: Date): MediaLibraryObject['media_status'] {
  if (e.media) return 'TRANSCODE_COMPLETED';
  if (e.upload && e.upload.expires_at > now.toISOString()) return 'TRANSCODING';
  return 'TRANSCODE_FAILED';
}

const posterUrl = (poster: MediaTable | undefined, media: MediaTable | undefined) => poster?.url ?? media?.preview_image_url ?? null;

/** The media library object (spec 001 "Media library object"); videos and GIFs add their own fields. */
export function mediaLibraryWire(e: LibraryEntry, now: Date): MediaLibraryObject {
  const { entry, media } = e;
  const base = <T extends MediaLibraryObject['media_type']>(media_type: T) => ({
    posted: entry.posted === 1,
    name: entry.name ?? UNTITLED,
    file_name: entry.file_name,
    media_url: media?.url ?? null,
    media_category: entry.media_category as MediaLibraryObject['media_category'],
    media_key: entry.media_key,
    created_at: wireTime(entry.created_at),
    updated_at: wireTime(entry.updated_at),
    media_status: mediaStatus(e, now),
    media_type,
    deleted: entry.deleted === 1,
  });
  if (entry.media_type === 'IMAGE') return base('IMAGE');
  return {
    ...base(entry.media_type as 'GIF' | 'VIDEO'),
    duration: media?.duration_ms ?? null,
    description: entry.description,
    poster_media_url: posterUrl(e.poster, media),
    poster_media_key: entry.poster_media_key,
    title: entry.title,
    aspect_ratio: aspectRatio(media?.width ?? null, media?.height ?? null),
  };
}
