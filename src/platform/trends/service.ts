import type { UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { parseSelectionText } from '../../http/fields.js';
import type { Problem } from '../../http/problems.js';
import { hashtagVolume, type HashtagVolume } from './store.js';
import { problems } from '../../http/problems.js';

/** Trends count the hashtags of the last 24 hours by Plaza's clock. */
export const TREND_WINDOW_MS = 24 * 60 * 60 * 1000;
export const MAX_TRENDS = { min: 1, max: 50, default: 20 } as const;
/** How many personalized trends one answer holds (the endpoint has no max_trends). */
export const PERSONALIZED_TRENDS = 20;

export const TREND_FIELDS = ['post_count', 'trend_name'] as const;
export const PERSONALIZED_TREND_FIELDS = ['category', 'post_count', 'trend_name', 'trending_since'] as const;
/** Without trend.fields a trend has its name and count, as the public platform's example shows. */
const TREND_DEFAULTS = ['trend_name', 'post_count'];
const PERSONALIZED_DEFAULTS = ['trend_name'];

/** WOEID 1 is the whole world; these countries' WOEIDs filter by the country code of posts' geo. */
export const WORLDWIDE_WOEID = 1;
export const COUNTRY_WOEIDS: Readonly<Record<number, string>> = {
  23424747: 'AR', 23424748: 'AU', 23424768: 'BR', 23424775: 'CA', 23424829: 'DE', 23424950: 'ES', 23424819: 'FR',
  23424975: 'GB', 23424846: 'ID', 23424848: 'IN', 23424853: 'IT', 23424856: 'JP', 23424868: 'KR', 23424900: 'MX',
  23424908: 'NG', 23424909: 'NL', 23424938: 'SA', 23424969: 'TR', 23424977: 'US', 23424942: 'ZA',
};

export interface TrendsRequest {
  woeid: number;
  maxTrends: number;
  fields: ReadonlySet<string>;
}

export function parseTrendFields(raw: string | undefined): ReadonlySet<string> {
  const asked = parseSelectionText('trend.fields', raw, TREND_FIELDS);
  return new Set([...TREND_DEFAULTS, ...asked]);
}

export function parsePersonalizedTrendFields(raw: string | undefined): ReadonlySet<string> {
  const asked = parseSelectionText('personalized_trend.fields', raw, PERSONALIZED_TREND_FIELDS);
  return new Set([...PERSONALIZED_DEFAULTS, ...asked]);
}

const pick = (fields: ReadonlySet<string>, all: Record<string, unknown>) => Object.fromEntries(Object.entries(all).filter(([k]) => fields.has(k)));

function window(ctx: PlatformContext): { since: string; until: string } {
  const now = ctx.clock.now();
  return { since: new Date(now.getTime() - TREND_WINDOW_MS).toISOString(), until: now.toISOString() };
}

/**
 * GET /2/trends/by/woeid/{woeid}: the most used hashtags of the window, worldwide (WOEID 1) or in
 * a known country (posts whose geo carries its country code). An unknown WOEID is a
 * resource-not-found item, as a lookup of something that does not exist.
 */
export async function trendsByWoeid(ctx: PlatformContext, request: TrendsRequest): Promise<{ data: Record<string, unknown>[]; errors: Problem[] }> {
  const country = COUNTRY_WOEIDS[request.woeid];
  if (request.woeid !== WORLDWIDE_WOEID && !country) {
    const value = String(request.woeid);
    return { data: [], errors: [problems.resourceNotFound({ parameter: 'woeid', value, resource_id: value, resource_type: 'place', detail: `Could not find trends for woeid: [${value}].` })] };
  }
  const volumes = await hashtagVolume(ctx.store.db, ctx.store.dialect, { ...window(ctx), limit: request.maxTrends, country });
  return { data: volumes.map((v) => pick(request.fields, { trend_name: `#${v.tag}`, post_count: v.posts })), errors: [] };
}

/** "1,234 posts" below ten thousand, then "12.5K posts" and "1.2M posts", as the platform's client shows them. */
export function postCountText(n: number): string {
  const unit = n === 1 ? 'post' : 'posts';
  if (n < 10_000) return `${n.toLocaleString('en-US')} ${unit}`;
  const [div, suffix] = n < 1_000_000 ? [1_000, 'K'] : [1_000_000, 'M'];
  return `${(Math.floor((n / div) * 10) / 10).toString()}${suffix} ${unit}`;
}

function personalized(v: HashtagVolume, fields: ReadonlySet<string>): Record<string, unknown> {
  return pick(fields, {
    trend_name: `#${v.tag}`,
    post_count: postCountText(v.posts),
    // Where the trend comes from for this user: the accounts they follow, or only what they liked.
    category: v.from_follows > 0 ? 'Trending in your network' : 'Trending in your likes',
    trending_since: v.first_at,
  });
}

/**
 * GET /2/users/personalized_trends: the hashtags of the window among the posts of the accounts
 * the caller follows and the posts the caller liked, minus muted and blocked accounts.
 */
export async function personalizedTrends(ctx: PlatformContext, caller: UserCaller, fields: ReadonlySet<string>): Promise<{ data: Record<string, unknown>[]; errors: Problem[] }> {
  const volumes = await hashtagVolume(ctx.store.db, ctx.store.dialect, { ...window(ctx), limit: PERSONALIZED_TRENDS, viewerId: caller.user.id });
  return { data: volumes.map((v) => personalized(v, fields)), errors: [] };
}
