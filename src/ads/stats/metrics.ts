import type { AdsDeliveryKind } from '../../store/schema-ads.js';

/**
 * The analytics metrics, by metric group, in spec 001's names (the tweet dialect answers
 * `retweets` and `tweets_send`: src/ads/http/names.ts), as the public platform's answer lists
 * them. Plaza reports what its delivery observed (src/ads/delivery/): impressions, likes,
 * replies, reposts, follows, clicks and spend; every other metric (videos, conversions, cards)
 * is null, as the public platform answers where nothing happened.
 */
export const METRIC_GROUPS = {
  ENGAGEMENT: [
    'impressions', 'posts_send', 'qualified_impressions', 'follows', 'app_clicks', 'reposts', 'likes', 'engagements', 'clicks',
    'card_engagements', 'poll_card_vote', 'replies', 'url_clicks', 'carousel_swipes',
  ],
  BILLING: ['billed_engagements', 'billed_charge_local_micro'],
  VIDEO: [
    'video_total_views', 'video_views_25', 'video_views_50', 'video_views_75', 'video_views_100', 'video_cta_clicks', 'video_content_starts',
    'video_3s100pct_views', 'video_6s_views', 'video_15s_views',
  ],
  MEDIA: ['media_views', 'media_engagements'],
  WEB_CONVERSION: ['conversion_purchases', 'conversion_sign_ups', 'conversion_site_visits', 'conversion_downloads', 'conversion_custom'],
  MOBILE_CONVERSION: [
    'mobile_conversion_spent_credits', 'mobile_conversion_installs', 'mobile_conversion_content_views', 'mobile_conversion_add_to_wishlists',
    'mobile_conversion_checkouts_initiated', 'mobile_conversion_reservations', 'mobile_conversion_tutorials_completed',
    'mobile_conversion_achievements_unlocked', 'mobile_conversion_searches', 'mobile_conversion_add_to_carts',
    'mobile_conversion_payment_info_additions', 'mobile_conversion_re_engages', 'mobile_conversion_shares', 'mobile_conversion_rates',
    'mobile_conversion_logins', 'mobile_conversion_updates', 'mobile_conversion_levels_achieved', 'mobile_conversion_invites',
    'mobile_conversion_key_page_views', 'mobile_conversion_downloads', 'mobile_conversion_purchases', 'mobile_conversion_sign_ups',
    'mobile_conversion_site_visits',
  ],
  LIFE_TIME_VALUE_MOBILE_CONVERSION: [
    'mobile_conversion_lifetime_value_purchases', 'mobile_conversion_lifetime_value_sign_ups', 'mobile_conversion_lifetime_value_updates',
    'mobile_conversion_lifetime_value_tutorials_completed', 'mobile_conversion_lifetime_value_reservations',
    'mobile_conversion_lifetime_value_add_to_carts', 'mobile_conversion_lifetime_value_add_to_wishlists',
    'mobile_conversion_lifetime_value_checkouts_initiated', 'mobile_conversion_lifetime_value_levels_achieved',
    'mobile_conversion_lifetime_value_achievements_unlocked', 'mobile_conversion_lifetime_value_shares',
    'mobile_conversion_lifetime_value_invites', 'mobile_conversion_lifetime_value_payment_info_additions',
    'mobile_conversion_lifetime_value_spent_credits', 'mobile_conversion_lifetime_value_rates',
  ],
} as const;
export type MetricGroup = keyof typeof METRIC_GROUPS;
export const METRIC_GROUP_NAMES = Object.keys(METRIC_GROUPS) as MetricGroup[];

/** What happened in one time bucket of one entity: events by kind, billed events, spend. */
export interface Tally {
  counts: Partial<Record<AdsDeliveryKind, number>>;
  billedEngagements: number;
  charge: number;
}

export const emptyTally = (): Tally => ({ counts: {}, billedEngagements: 0, charge: 0 });

export function addTally(into: Tally, from: Tally): void {
  for (const [kind, n] of Object.entries(from.counts) as Array<[AdsDeliveryKind, number]>) into.counts[kind] = (into.counts[kind] ?? 0) + n;
  into.billedEngagements += from.billedEngagements;
  into.charge += from.charge;
}

const count = (t: Tally, ...kinds: AdsDeliveryKind[]) => kinds.reduce((n, k) => n + (t.counts[k] ?? 0), 0);

/**
 * The metrics Plaza observes, from a bucket's tally. `observed` says which a source can know at
 * all (organic posts: impressions, likes, replies and reposts only); the rest stay null.
 */
const OBSERVED: Record<string, (t: Tally) => number> = {
  impressions: (t) => count(t, 'impression'),
  likes: (t) => count(t, 'like'),
  replies: (t) => count(t, 'reply'),
  reposts: (t) => count(t, 'repost'),
  follows: (t) => count(t, 'follow'),
  clicks: (t) => count(t, 'click', 'url_click'),
  url_clicks: (t) => count(t, 'url_click'),
  engagements: (t) => count(t, 'like', 'reply', 'repost', 'follow', 'click', 'url_click'),
  billed_engagements: (t) => t.billedEngagements,
  billed_charge_local_micro: (t) => t.charge,
};
export const ORGANIC_METRICS = ['impressions', 'likes', 'replies', 'reposts', 'engagements'];

/**
 * The `metrics` object of one entity: each metric of the groups asked for, an array with a value
 * per bucket, or null where nothing happened in the whole series (or Plaza cannot observe it).
 */
export function metricsOf(groups: readonly MetricGroup[], buckets: readonly Tally[], observable?: readonly string[]): Record<string, number[] | null> {
  const metrics: Record<string, number[] | null> = {};
  for (const group of groups) {
    for (const name of METRIC_GROUPS[group]) {
      const measure = OBSERVED[name];
      if (!measure || (observable && !observable.includes(name))) {
        metrics[name] = null;
        continue;
      }
      const series = buckets.map(measure);
      metrics[name] = series.some((v) => v !== 0) ? series : null;
    }
  }
  return metrics;
}
