import type { UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { selectFieldsJson } from '../../http/fields.js';
import type { RawJson } from '../../http/json-body.js';
import { invalidParameter } from '../../http/params.js';
import { ProblemError, type Problem, problems } from '../../http/problems.js';
import { fromJson, toJson, type DbOrTx } from '../../store/store.js';
import { hiddenPosts, ResponseReads } from '../expansions.js';
import { requireWriteAccess } from '../graph/access.js';
import { mediaKeysOf } from '../posts/wire.js';
import type { View } from '../view.js';
import { addMediaMetrics, findMediaByIdList, findMediaByKeys, livePostsCarrying, mediaMetricHours, setMediaMetadata } from './store.js';
import { mediaAnalyticsObject, mediaCounts, mediaDeclaration, type MediaCounts, type MediaRow } from './wire.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** The longest window GET /2/media/analytics reads. */
export const ANALYTICS_MAX_DAYS = 90;
export const ALT_TEXT_MAX = 1000;

const ownersOf = (row: MediaRow) => [row.owner_user_id, ...(fromJson<string[]>(row.additional_owners) ?? [])];

/**
 * Which of `rows` a viewer may see: their own (uploaded or shared with them through
 * additional_owners), and media that a live post the viewer may see carries (the protected-account
 * rule of posts applies to their media). Direct-message media shows only to its owners.
 * Answers the keys hidden behind posts the viewer may not see apart from the keys seen.
 */
async function visibleMedia(ctx: PlatformContext, view: View, rows: readonly MediaRow[], reads: ResponseReads): Promise<{ visible: Set<string>; hidden: Set<string> }> {
  const visible = new Set(rows.filter((m) => view.viewerId !== undefined && ownersOf(m).includes(view.viewerId)).map((m) => m.media_key));
  const rest = rows.filter((m) => !visible.has(m.media_key) && !m.media_category?.startsWith('dm_')).map((m) => m.media_key);
  const hidden = new Set<string>();
  if (rest.length === 0) return { visible, hidden };
  const wanted = new Set(rest);
  const carriers = (await livePostsCarrying(reads.db, rest)).filter((p) => mediaKeysOf(p).some((k) => wanted.has(k)));
  const hiddenIds = await hiddenPosts(ctx, view, carriers, reads);
  for (const post of carriers) {
    for (const key of mediaKeysOf(post)) {
      if (!wanted.has(key)) continue;
      if (hiddenIds.has(post.id)) hidden.add(key);
      else visible.add(key);
    }
  }
  for (const key of visible) hidden.delete(key);
  return { visible, hidden };
}

/** GET /2/media and /2/media/{media_key}: the media the viewer may see, in the order asked; partial errors for the others. */
export async function lookupMedia(
  ctx: PlatformContext,
  view: View,
  keys: readonly string[],
  parameter: 'media_keys' | 'media_key',
  fields: ReadonlySet<string>,
): Promise<{ data: RawJson[]; errors: Problem[] }> {
  const reads = new ResponseReads(ctx);
  const rows = await reads.mediaByKeys(keys);
  const { visible, hidden } = await visibleMedia(ctx, view, rows, reads);
  const byKey = new Map(rows.map((m) => [m.media_key, m]));
  // What the owner-only metrics fields read, when selected.
  const mediaView = await mediaDeclaration.withViewData(ctx.store.db, view, fields, rows.filter((m) => visible.has(m.media_key)));
  const data: RawJson[] = [];
  const errors: Problem[] = [];
  for (const key of keys) {
    const row = byKey.get(key);
    if (row && visible.has(key)) data.push(selectFieldsJson(mediaDeclaration, row, fields, mediaView));
    else if (row && hidden.has(key)) errors.push(problems.notAuthorizedForResource({ value: key, resource_id: key, resource_type: 'media', section: 'data', parameter }));
    else errors.push(problems.resourceNotFound({ parameter, value: key, resource_id: key, resource_type: 'media' }));
  }
  return { data, errors };
}

/** The caller's own media by id: others' are refused, missing ones not found (parameter `parameter`). */
export async function ownMedia(db: DbOrTx, caller: UserCaller, id: string, parameter: string): Promise<MediaRow> {
  const [row] = await findMediaByIdList(db, [id]);
  if (!row) throw new ProblemError(404, problems.resourceNotFound({ parameter, value: id, resource_id: id, resource_type: 'media', detail: `Could not find media with ${parameter}: [${id}].` }));
  if (row.owner_user_id !== caller.user.id) {
    throw new ProblemError(403, problems.notAuthorizedForResource({ value: id, resource_id: id, resource_type: 'media', section: 'data', parameter }));
  }
  return row;
}

export interface MediaMetadataInput {
  alt_text?: { text: string };
  [name: string]: unknown;
}

/**
 * POST /2/media/metadata: the uploader sets the alt text (at most 1,000 characters; it becomes the
 * media's alt_text field) and the other metadata of the reference, which are kept and answered as
 * associated_metadata. A later call replaces the kinds it names and keeps the others.
 */
export async function createMediaMetadata(ctx: PlatformContext, caller: UserCaller, id: string, metadata: MediaMetadataInput | undefined): Promise<{ id: string; associated_metadata: Record<string, unknown> }> {
  requireWriteAccess(caller);
  if (!metadata || Object.keys(metadata).length === 0) {
    throw invalidParameter('metadata', [], 'The `metadata` body field needs at least one kind of metadata, e.g. alt_text: {text}');
  }
  const altText = metadata.alt_text?.text;
  if (altText !== undefined && [...altText].length > ALT_TEXT_MAX) {
    throw invalidParameter('metadata.alt_text.text', [], `The \`metadata.alt_text.text\` body field is longer than ${ALT_TEXT_MAX} characters`);
  }
  return ctx.store.db.transaction().execute(async (tx) => {
    const row = await ownMedia(tx, caller, id, 'id');
    const { alt_text: _alt, ...others } = metadata;
    const kept = { ...(fromJson<Record<string, unknown>>(row.metadata) ?? {}), ...others };
    const nextAlt = altText === undefined ? row.alt_text : altText;
    await setMediaMetadata(tx, id, nextAlt, Object.keys(kept).length > 0 ? toJson(kept) : null);
    return { id, associated_metadata: { ...(nextAlt !== null ? { alt_text: { text: nextAlt } } : {}), ...kept } };
  });
}

export type Granularity = 'hourly' | 'daily' | 'total';

export interface MediaAnalyticsRequest {
  keys: string[];
  start: Date;
  end: Date;
  granularity: Granularity;
  fields: ReadonlySet<string>;
}

/** Parses start_time and end_time: RFC 3339, start before end, at most ANALYTICS_MAX_DAYS apart. */
export function analyticsWindow(startText: string, endText: string): { start: Date; end: Date } {
  const parse = (name: string, text: string) => {
    const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text) ? new Date(text) : new Date(NaN);
    if (Number.isNaN(at.getTime())) throw invalidParameter(name, [text], `The \`${name}\` query parameter value [${text}] is not an RFC 3339 date-time, e.g. 2026-01-02T03:04:05Z`);
    return at;
  };
  const start = parse('start_time', startText);
  const end = parse('end_time', endText);
  if (end.getTime() <= start.getTime()) throw invalidParameter('end_time', [endText], `The \`end_time\` query parameter value [${endText}] must be after start_time [${startText}]`);
  if (end.getTime() - start.getTime() > ANALYTICS_MAX_DAYS * DAY) {
    throw invalidParameter('end_time', [endText], `The window from start_time to end_time may be at most ${ANALYTICS_MAX_DAYS} days`);
  }
  return { start, end };
}

const floorTo = (ms: number, unit: number) => Math.floor(ms / unit) * unit;

/**
 * GET /2/media/analytics: the owner's view and playback counts of their media, per hour, per day
 * (UTC) or in total over the window; media of others are not the caller's to measure.
 */
export async function mediaAnalytics(ctx: PlatformContext, caller: UserCaller, request: MediaAnalyticsRequest): Promise<{ data: Record<string, unknown>[]; errors: Problem[] }> {
  const rows = await findMediaByKeys(ctx.store.db, request.keys);
  const byKey = new Map(rows.map((m) => [m.media_key, m]));
  const errors: Problem[] = [];
  const own: string[] = [];
  for (const key of request.keys) {
    const row = byKey.get(key);
    if (!row) errors.push(problems.resourceNotFound({ parameter: 'media_keys', value: key, resource_id: key, resource_type: 'media' }));
    else if (row.owner_user_id !== caller.user.id) {
      errors.push(problems.notAuthorizedForResource({ value: key, resource_id: key, resource_type: 'media', section: 'data', parameter: 'media_keys' }));
    } else own.push(key);
  }
  const startMs = request.start.getTime();
  const endMs = request.end.getTime();
  const unit = request.granularity === 'hourly' ? HOUR : request.granularity === 'daily' ? DAY : 0;
  const bucketStarts: number[] = [];
  if (unit === 0) bucketStarts.push(startMs);
  else for (let t = floorTo(startMs, unit); t < endMs; t += unit) bucketStarts.push(t);
  const hours = await mediaMetricHours(ctx.store.db, own, new Date(floorTo(startMs, HOUR)).toISOString(), new Date(endMs).toISOString());
  const data = own.map((key) => {
    const buckets = bucketStarts.map((t) => ({ timestamp: new Date(t).toISOString(), counts: mediaCounts(ZERO_HOUR) }));
    for (const hour of hours) {
      if (hour.media_key !== key) continue;
      const t = Date.parse(hour.hour);
      const index = unit === 0 ? 0 : Math.floor((floorTo(t, unit) - bucketStarts[0]) / unit);
      const bucket = buckets[index];
      if (bucket) addCounts(bucket.counts, mediaCounts(hour));
    }
    return mediaAnalyticsObject(key, request.start.toISOString(), buckets, request.fields);
  });
  return { data, errors };
}

const ZERO_HOUR = { video_views: 0, playback_start: 0, playback25: 0, playback50: 0, playback75: 0, playback_complete: 0, watch_time_ms: 0 };

function addCounts(into: MediaCounts, more: MediaCounts): void {
  for (const name of Object.keys(into) as (keyof MediaCounts)[]) into[name] += more[name];
}

const hourOf = (ctx: PlatformContext) => new Date(floorTo(ctx.clock.now().getTime(), HOUR)).toISOString();

/** One view of each video and GIF among these media keys (a post lookup showed them), in this hour's bucket. */
export async function recordMediaViews(ctx: PlatformContext, db: DbOrTx, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  const played = (await findMediaByKeys(db, [...new Set(keys)])).filter((m) => m.type === 'video' || m.type === 'animated_gif').map((m) => m.media_key);
  await addMediaMetrics(db, played, hourOf(ctx), { video_views: 1 });
}

/** A whole fetch of a video's or GIF's file: one playback started and watched to the end. */
export async function recordPlayback(ctx: PlatformContext, row: MediaRow): Promise<void> {
  // Images and subtitle files are not played.
  if (row.type !== 'video' && row.type !== 'animated_gif') return;
  await addMediaMetrics(ctx.store.db, [row.media_key], hourOf(ctx), {
    playback_start: 1, playback25: 1, playback50: 1, playback75: 1, playback_complete: 1, watch_time_ms: row.duration_ms ?? 0,
  });
}
