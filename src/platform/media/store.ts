import type { DbOrTx } from '../../store/store.js';
import type { MediaUploadTable } from '../../store/schema-posts.js';
import type { PostRow } from '../posts/wire.js';
import type { MediaMetricHourTable } from '../../store/schema-media-dm.js';
import type { MediaRow } from './wire.js';

export type MediaUploadRow = MediaUploadTable;

export async function findMediaByKeys(db: DbOrTx, keys: readonly string[]): Promise<MediaRow[]> {
  if (keys.length === 0) return [];
  return db.selectFrom('media').selectAll().where('media_key', 'in', keys).execute();
}

export async function findMediaByIdList(db: DbOrTx, ids: readonly string[]): Promise<MediaRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('media').selectAll().where('id', 'in', ids).execute();
}

export async function insertMedia(db: DbOrTx, row: MediaRow): Promise<void> {
  await db.insertInto('media').values(row).execute();
}

export async function findUpload(db: DbOrTx, id: string): Promise<MediaUploadRow | undefined> {
  return db.selectFrom('media_uploads').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertUpload(db: DbOrTx, row: MediaUploadRow): Promise<void> {
  await db.insertInto('media_uploads').values(row).execute();
}

/** Open upload sessions whose time ran out by `now`, the oldest first. */
export async function expiredOpenUploads(db: DbOrTx, now: string, limit: number): Promise<Array<{ id: string }>> {
  return db.selectFrom('media_uploads').select('id').where('state', '=', 'uploading').where('expires_at', '<=', now).orderBy('expires_at').limit(limit).execute();
}

/** Moves an upload from one state to the next; false when it was not in `from` (another request got there first). */
export async function moveUpload(db: DbOrTx, id: string, from: string, to: string): Promise<boolean> {
  const result = await db.updateTable('media_uploads').set({ state: to }).where('id', '=', id).where('state', '=', from).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Live posts carrying any of these media keys (posts keep their media keys as a JSON array of strings). */
export async function livePostsCarrying(db: DbOrTx, keys: readonly string[]): Promise<PostRow[]> {
  if (keys.length === 0) return [];
  return db
    .selectFrom('posts')
    .selectAll()
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or(keys.map((k) => eb('media_keys', 'like', `%"${k}"%`))))
    .execute();
}

/** The first post that showed each of these media, by media key, for those one has. */
export async function mediaSourcePosts(db: DbOrTx, keys: readonly string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await db.selectFrom('media').select(['media_key', 'source_post_id']).where('media_key', 'in', keys).where('source_post_id', 'is not', null).execute();
  return new Map(rows.map((r) => [r.media_key, r.source_post_id!]));
}

/** Records `postId` as the first post showing those of these media that no post showed before. */
export async function markMediaSource(db: DbOrTx, keys: readonly string[], postId: string): Promise<void> {
  if (keys.length === 0) return;
  await db.updateTable('media').set({ source_post_id: postId }).where('media_key', 'in', keys).where('source_post_id', 'is', null).execute();
}

export async function setMediaMetadata(db: DbOrTx, id: string, altText: string | null, metadata: string | null): Promise<void> {
  await db.updateTable('media').set({ alt_text: altText, metadata }).where('id', '=', id).execute();
}

type MetricName = Exclude<keyof MediaMetricHourTable, 'media_key' | 'hour'>;
const ZERO_METRICS: Record<MetricName, number> = { video_views: 0, playback_start: 0, playback25: 0, playback50: 0, playback75: 0, playback_complete: 0, watch_time_ms: 0 };

/** Adds counts to the hour bucket of each media key. */
export async function addMediaMetrics(db: DbOrTx, keys: readonly string[], hour: string, add: Partial<Record<MetricName, number>>): Promise<void> {
  const names = Object.keys(add) as MetricName[];
  if (keys.length === 0 || names.length === 0) return;
  for (const key of keys) {
    await db
      .insertInto('media_metric_hours')
      .values({ media_key: key, hour, ...ZERO_METRICS, ...add })
      .onConflict((oc) => oc.columns(['media_key', 'hour']).doUpdateSet((eb) => Object.fromEntries(names.map((n) => [n, eb(eb.ref(`media_metric_hours.${n}`), '+', add[n]!)]))))
      .execute();
  }
}

/** The hour buckets of these media from `from` (inclusive) to `to` (exclusive), oldest first. */
export async function mediaMetricHours(db: DbOrTx, keys: readonly string[], from: string, to: string): Promise<MediaMetricHourTable[]> {
  if (keys.length === 0) return [];
  return db.selectFrom('media_metric_hours').selectAll().where('media_key', 'in', keys).where('hour', '>=', from).where('hour', '<', to).orderBy('hour').execute();
}
