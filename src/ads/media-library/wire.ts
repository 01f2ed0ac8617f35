import type { MediaTable } from '../../store/schema.js';
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

/**
 * media_status: processing is done when the media row exists (the platform stores it when the
 * upload's FINALIZE succeeds); an upload still open is transcoding, one that expired failed.
 */
export function mediaStatus(e: Pick<LibraryEntry, 'media' | 'upload'>, now: Date): string {
  if (e.media) return 'TRANSCODE_COMPLETED';
  if (e.upload && e.upload.expires_at > now.toISOString()) return 'TRANSCODING';
  return 'TRANSCODE_FAILED';
}

const posterUrl = (poster: MediaTable | undefined, media: MediaTable | undefined) => poster?.url ?? media?.preview_image_url ?? null;

/** The media library object (spec 001 "Media library object"); videos and GIFs add their own fields. */
export function mediaLibraryWire(e: LibraryEntry, now: Date) {
  const { entry, media } = e;
  const base = {
    posted: entry.posted === 1,
    name: entry.name ?? UNTITLED,
    file_name: entry.file_name,
    media_url: media?.url ?? null,
    media_category: entry.media_category,
    media_key: entry.media_key,
    created_at: wireTime(entry.created_at),
    updated_at: wireTime(entry.updated_at),
    media_status: mediaStatus(e, now),
    media_type: entry.media_type,
    deleted: entry.deleted === 1,
  };
  if (entry.media_type === 'IMAGE') return base;
  return {
    ...base,
    duration: media?.duration_ms ?? null,
    description: entry.description,
    poster_media_url: posterUrl(e.poster, media),
    poster_media_key: entry.poster_media_key,
    title: entry.title,
    aspect_ratio: aspectRatio(media?.width ?? null, media?.height ?? null),
  };
}
