import type { ResourceDeclaration } from '../../http/fields.js';
import { fromJson, type DbOrTx } from '../../store/store.js';
import type { MediaTable } from '../../store/schema.js';
import { mediaMetricHours, livePostsCarrying } from './store.js';
import { mediaKeysOf } from '../posts/wire.js';
import { promotedMetrics as promotedPostMetrics } from '../analytics/post-metrics.js';
import type { View } from '../view.js';
import type { MediaWire } from './schema.js';
import type { MediaMetricHourTable } from '../../store/schema-media-dm.js';

export type MediaRow = MediaTable;

/** Playback quartile counts of a video or GIF, in the shape of MediaNonPublicMetrics. */
export interface MediaPlaybacks {
  playback_0_count: number;
  playback_25_count: number;
  playback_50_count: number;
  playback_75_count: number;
  playback_100_count: number;
}

/** What the owner-only media fields read besides the media row, for the media the viewer owns. */
export interface MediaViewerData {
  playbacks: ReadonlyMap<string, MediaPlaybacks>;
  /** Media shown only in the owner's promoted-only posts: their counts are promoted, not organic. */
  promoted: ReadonlySet<string>;
}

declare module '../view.js' {
  interface View {
    /** Owner-only media metrics (media.fields non_public_metrics, organic_metrics, promoted_metrics), when selected. */
    mediaData?: MediaViewerData;
  }
}

export const PRIVATE_MEDIA_FIELDS = ['non_public_metrics', 'organic_metrics', 'promoted_metrics'] as const;

const playable = (m: MediaRow) => m.type === 'video' || m.type === 'animated_gif';

/**
 * The private metrics of a media are its uploader's to see, as a post's are its author's
 * (src/platform/analytics/post-metrics.ts); for anyone else the fields are left out. Only videos
 * and GIFs are played, so only they have them.
 */
const ownedData = (m: MediaRow, view: View) => (view.viewerId !== undefined && view.viewerId === m.owner_user_id && playable(m) ? view.mediaData : undefined);

function nonPublicMetrics(m: MediaRow, view: View): MediaPlaybacks | undefined {
  return ownedData(m, view)?.playbacks.get(m.media_key);
}

const NO_PLAYBACKS: MediaPlaybacks = { playback_0_count: 0, playback_25_count: 0, playback_50_count: 0, playback_75_count: 0, playback_100_count: 0 };

function organicMetrics(m: MediaRow, view: View) {
  const data = ownedData(m, view);
  const playbacks = data?.playbacks.get(m.media_key);
  if (!data || !playbacks) return undefined;
  return data.promoted.has(m.media_key) ? { ...NO_PLAYBACKS, view_count: 0 } : { ...playbacks, view_count: m.view_count };
}

function promotedMetrics(m: MediaRow, view: View) {
  const data = ownedData(m, view);
  const playbacks = data?.playbacks.get(m.media_key);
  if (!data || !playbacks || !data.promoted.has(m.media_key)) return undefined;
  return { ...playbacks, view_count: m.view_count };
}


/**
 * The view with the totals of the media the viewer owns among `rows`, when an owner-only field is
 * selected; the view itself otherwise. A media is promoted when every live post showing it is one
 * of the owner's promoted-only posts (the post rule of post-metrics.ts); shown anywhere else, its
 * plays are counted organic, as Plaza cannot tell which post a play came from.
 */
export async function withMediaViewData(db: DbOrTx, view: View, selected: ReadonlySet<string>, rows: readonly MediaRow[]): Promise<View> {
  if (view.viewerId === undefined || !PRIVATE_MEDIA_FIELDS.some((f) => selected.has(f))) return view;
  const keys = [...new Set(rows.filter((m) => m.owner_user_id === view.viewerId && playable(m)).map((m) => m.media_key))];
  if (keys.length === 0) return view;
  const [hours, posts] = await Promise.all([mediaMetricHours(db, keys, '0000', '9999'), livePostsCarrying(db, keys)]);
  const playbacks = new Map(keys.map((k) => [k, { ...NO_PLAYBACKS }]));
  for (const h of hours) {
    const p = playbacks.get(h.media_key)!;
    p.playback_0_count += h.playback_start;
    p.playback_25_count += h.playback25;
    p.playback_50_count += h.playback50;
    p.playback_75_count += h.playback75;
    p.playback_100_count += h.playback_complete;
  }
  const shownIn = new Map<string, boolean[]>();
  const wanted = new Set(keys);
  for (const post of posts) {
    const isPromoted = promotedPostMetrics(post, view, undefined) !== undefined;
    for (const key of mediaKeysOf(post)) if (wanted.has(key)) shownIn.set(key, [...(shownIn.get(key) ?? []), isPromoted]);
  }
  const promoted = new Set([...shownIn].filter(([, flags]) => flags.length > 0 && flags.every(Boolean)).map(([key]) => key));
  return { ...view, mediaData: { playbacks, promoted } };
}

/**
 * The media object: defaults media_key and type (spec 000: at least these in includes.media).
 * `withViewData` loads what the owner-only fields read.
 */
export const mediaDeclaration: ResourceDeclaration<MediaRow, View, MediaWire> & { withViewData: typeof withMediaViewData } = {
  withViewData: withMediaViewData,
  resource: 'media',
  fieldsParam: 'media.fields',
  defaults: ['media_key', 'type'],
  fields: {
    media_key: (m) => m.media_key,
    type: (m) => m.type,
    alt_text: (m) => m.alt_text ?? undefined,
    duration_ms: (m) => m.duration_ms ?? undefined,
    height: (m) => m.height ?? undefined,
    non_public_metrics: nonPublicMetrics,
    organic_metrics: organicMetrics,
    preview_image_url: (m) => m.preview_image_url ?? undefined,
    promoted_metrics: promotedMetrics,
    public_metrics: (m) => (m.type === 'video' || m.type === 'animated_gif' ? { view_count: m.view_count } : undefined),
    url: (m) => m.url ?? undefined,
    variants: (m) => {
      const variants = fromJson<NonNullable<MediaWire['variants']>>(m.variants) ?? [];
      return variants.length > 0 ? variants : undefined;
    },
    width: (m) => m.width ?? undefined,
  },
};

/** The counters of media analytics (shared/reference S167 MediaAnalytics), in the order they are written. */
export const MEDIA_ANALYTICS_COUNTERS = [
  'cta_url_clicks', 'cta_watch_clicks', 'play_from_tap', 'playback25', 'playback50', 'playback75', 'playback_complete', 'playback_start', 'video_views', 'watch_time_ms',
] as const;
export type MediaAnalyticsCounter = (typeof MEDIA_ANALYTICS_COUNTERS)[number];
export type MediaCounts = Record<MediaAnalyticsCounter, number>;
/** media_analytics.fields: the counters (totals of the window), media_key, timestamp and timestamped_metrics. */
export const MEDIA_ANALYTICS_FIELDS = [...MEDIA_ANALYTICS_COUNTERS, 'media_key', 'timestamp', 'timestamped_metrics'].sort();
/** Returned whatever media_analytics.fields says. */
const MEDIA_ANALYTICS_DEFAULTS = ['media_key', 'timestamped_metrics'];

/**
 * Counts of what Plaza sees happen to a media: views are post lookups that show it, playbacks are
 * fetches of its file. Plaza shows no call-to-action and plays nothing by itself, so the CTA
 * clicks are none and every playback started from a request (a tap).
 */
export function mediaCounts(row: Omit<MediaMetricHourTable, 'media_key' | 'hour'>): MediaCounts {
  return {
    cta_url_clicks: 0,
    cta_watch_clicks: 0,
    play_from_tap: row.playback_start,
    playback25: row.playback25,
    playback50: row.playback50,
    playback75: row.playback75,
    playback_complete: row.playback_complete,
    playback_start: row.playback_start,
    video_views: row.video_views,
    watch_time_ms: row.watch_time_ms,
  };
}

/** One MediaAnalytics object: the selected totals of the window and its buckets. */
export function mediaAnalyticsObject(
  mediaKey: string,
  windowStart: string,
  buckets: ReadonlyArray<{ timestamp: string; counts: MediaCounts }>,
  selected: ReadonlySet<string>,
): Record<string, unknown> {
  const wants = (name: string) => selected.has(name) || MEDIA_ANALYTICS_DEFAULTS.includes(name);
  const out: Record<string, unknown> = { media_key: mediaKey };
  if (wants('timestamp')) out.timestamp = windowStart;
  for (const counter of MEDIA_ANALYTICS_COUNTERS) {
    if (wants(counter)) out[counter] = buckets.reduce((sum, b) => sum + b.counts[counter], 0);
  }
  if (wants('timestamped_metrics')) out.timestamped_metrics = buckets.map((b) => ({ timestamp: b.timestamp, metrics: b.counts }));
  return out;
}
