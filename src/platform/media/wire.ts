import type { ResourceDeclaration } from '../../http/fields.js';
import { fromJson } from '../../store/store.js';
import type { MediaTable } from '../../store/schema.js';
import type { View } from '../view.js';
import type { MediaMetricHourTable } from '../../store/schema-media-dm.js';

export type MediaRow = MediaTable;

/** The media object: defaults media_key and type (spec 000: at least these in includes.media). */
export const mediaDeclaration: ResourceDeclaration<MediaRow, View> = {
  resource: 'media',
  fieldsParam: 'media.fields',
  defaults: ['media_key', 'type'],
  fields: {
    media_key: (m) => m.media_key,
    type: (m) => m.type,
    alt_text: (m) => m.alt_text ?? undefined,
    duration_ms: (m) => m.duration_ms ?? undefined,
    height: (m) => m.height ?? undefined,
    preview_image_url: (m) => m.preview_image_url ?? undefined,
    public_metrics: (m) => (m.type === 'photo' ? undefined : { view_count: m.view_count }),
    url: (m) => m.url ?? undefined,
    variants: (m) => {
      const variants = fromJson<unknown[]>(m.variants) ?? [];
      return variants.length > 0 ? variants : undefined;
    },
    width: (m) => m.width ?? undefined,
  },
  viewKeys: {},
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
