import type { UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { invalidParameter } from '../../http/params.js';
import type { Problem } from '../../http/problems.js';
import { flushImpressions } from './recording.js';
import { hourlyImpressions, livePostAuthors, referenceStampsOf, stampsOf, type Stamped } from './store.js';
import { problems } from '../../http/problems.js';

/** Every metric of the Analytics object (reference AnalyticsFieldsParameter, less id, timestamp and timestamped_metrics). */
export const METRICS = [
  'app_install_attempts', 'app_opens', 'bookmarks', 'detail_expands', 'email_tweet', 'engagements', 'follows', 'hashtag_clicks',
  'impressions', 'likes', 'media_views', 'permalink_clicks', 'quote_tweets', 'replies', 'retweets', 'shares', 'unfollows', 'unlikes',
  'url_clicks', 'user_profile_clicks',
] as const;
export type Metric = (typeof METRICS)[number];
export const ANALYTICS_FIELDS = [...METRICS, 'id', 'timestamp', 'timestamped_metrics'].sort();

export const GRANULARITIES = ['hourly', 'daily', 'weekly', 'total'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** A window cut finer than this many buckets is refused: the answer would be mostly empty buckets. */
export const MAX_BUCKETS = 1_000;

export interface AnalyticsRequest {
  ids: string[];
  start: Date;
  end: Date;
  granularity: Granularity;
  /** analytics.fields as asked; empty when absent. */
  fields: ReadonlySet<string>;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Where the bucket holding `t` starts: UTC hours, UTC days, weeks from Monday 00:00 UTC, or the window's start. */
function bucketStart(t: number, granularity: Granularity, start: number): number {
  switch (granularity) {
    case 'hourly':
      return Math.floor(t / HOUR) * HOUR;
    case 'daily':
      return Math.floor(t / DAY) * DAY;
    case 'weekly': {
      const day = Math.floor(t / DAY) * DAY;
      const weekday = (new Date(day).getUTCDay() + 6) % 7;
      return day - weekday * DAY;
    }
    case 'total':
      return start;
  }
}

function bucketStarts(req: AnalyticsRequest): number[] {
  const start = req.start.getTime();
  const end = req.end.getTime();
  if (req.granularity === 'total') return [start];
  const step = req.granularity === 'hourly' ? HOUR : req.granularity === 'daily' ? DAY : 7 * DAY;
  const first = bucketStart(start, req.granularity, start);
  // checkWindow has bounded the count.
  const count = Math.ceil((end - first) / step);
  return Array.from({ length: count }, (_, i) => first + i * step);
}

/** The window is checked before anything is read. */
export function checkWindow(req: Pick<AnalyticsRequest, 'start' | 'end' | 'granularity'>, rawEnd: string): void {
  if (req.end.getTime() <= req.start.getTime()) {
    throw invalidParameter('end_time', [rawEnd], 'The `end_time` query parameter value must be after the `start_time` query parameter value');
  }
  if (req.granularity === 'total') return;
  const step = req.granularity === 'hourly' ? HOUR : req.granularity === 'daily' ? DAY : 7 * DAY;
  const first = bucketStart(req.start.getTime(), req.granularity, req.start.getTime());
  const count = Math.ceil((req.end.getTime() - first) / step);
  if (count > MAX_BUCKETS) {
    throw invalidParameter('granularity', [req.granularity], `A ${req.granularity} breakdown of this window has ${count} buckets; at most ${MAX_BUCKETS} are allowed: shorten the window or choose a coarser granularity`);
  }
}

type Counts = Record<Metric, number>;
const zero = (): Counts => Object.fromEntries(METRICS.map((m) => [m, 0])) as Counts;

/**
 * GET /2/posts/analytics: the engagement of the caller's own posts over [start_time, end_time),
 * per bucket. Impressions come from the ledger; likes, reposts, replies, quotes and bookmarks from
 * their own tables by when they were made. Plaza observes no clicks, expands, shares, opens or
 * follows from a post: those count 0. Someone else's post, or a missing one, is an item of `errors`.
 */
export async function postsAnalytics(ctx: PlatformContext, caller: UserCaller, req: AnalyticsRequest): Promise<{ data: Record<string, unknown>[]; errors: Problem[] }> {
  const db = ctx.store.db;
  const posts = new Map((await livePostAuthors(db, req.ids)).map((p) => [p.id, p.author_id]));
  const errors: Problem[] = [];
  const own: string[] = [];
  for (const id of new Set(req.ids)) {
    const author = posts.get(id);
    if (author === undefined) errors.push(problems.resourceNotFound({ parameter: 'ids', value: id, resource_id: id, resource_type: 'post' }));
    else if (author !== caller.user.id) errors.push(problems.notAuthorizedForResource({ value: id, resource_id: id, resource_type: 'post', section: 'data', parameter: 'ids' }));
    else own.push(id);
  }
  if (own.length === 0) return { data: [], errors };

  const startIso = req.start.toISOString();
  const endIso = req.end.toISOString();
  // The ledger is kept by the hour: the hour holding start_time counts whole.
  const firstHour = new Date(Math.floor(req.start.getTime() / HOUR) * HOUR).toISOString();
  // Impressions this process counted and has not written yet are part of the answer.
  await flushImpressions(ctx);
  const [impressions, likes, bookmarks, retweets, replies, quotes] = await Promise.all([
    hourlyImpressions(db, own, firstHour, endIso),
    stampsOf(db, 'likes', own, startIso, endIso),
    stampsOf(db, 'bookmarks', own, startIso, endIso),
    referenceStampsOf(db, 'reposted_post_id', own, startIso, endIso),
    referenceStampsOf(db, 'in_reply_to_post_id', own, startIso, endIso),
    referenceStampsOf(db, 'quoted_post_id', own, startIso, endIso),
  ]);

  const starts = bucketStarts(req);
  const buckets = new Map(own.map((id) => [id, new Map(starts.map((s) => [s, zero()]))]));
  const bucketOf = (postId: string, at: string) => {
    const t = Math.max(new Date(at).getTime(), req.start.getTime());
    return buckets.get(postId)?.get(bucketStart(t, req.granularity, req.start.getTime()));
  };
  for (const row of impressions) {
    const b = bucketOf(row.post_id, row.hour);
    if (b) b.impressions += Number(row.impressions);
  }
  const tally = (rows: Stamped[], metric: Metric) => {
    for (const row of rows) {
      const b = bucketOf(row.post_id, row.created_at);
      if (b) {
        b[metric]++;
        b.engagements++;
      }
    }
  };
  tally(likes, 'likes');
  tally(bookmarks, 'bookmarks');
  tally(retweets, 'retweets');
  tally(replies, 'replies');
  tally(quotes, 'quote_tweets');

  const fields = req.fields.size > 0 ? req.fields : new Set(['id', 'timestamped_metrics']);
  const selectedMetrics = METRICS.filter((m) => fields.has(m));
  const bucketMetrics = selectedMetrics.length > 0 ? selectedMetrics : METRICS;
  const pick = (counts: Counts, metrics: readonly Metric[]) => Object.fromEntries(metrics.map((m) => [m, counts[m]]));

  const data = own.map((id) => {
    const perBucket = buckets.get(id)!;
    const total = zero();
    for (const counts of perBucket.values()) for (const m of METRICS) total[m] += counts[m];
    const item: Record<string, unknown> = { id };
    if (fields.has('timestamp')) item.timestamp = startIso;
    Object.assign(item, pick(total, selectedMetrics));
    if (fields.has('timestamped_metrics')) {
      item.timestamped_metrics = [...perBucket].map(([s, counts]) => ({ timestamp: new Date(s).toISOString(), metrics: pick(counts, bucketMetrics) }));
    }
    return item;
  });
  return { data, errors };
}
