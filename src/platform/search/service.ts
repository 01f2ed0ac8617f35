import type { PlatformContext } from '../context.js';
import { encodePageToken, page, type PageMeta } from '../../http/pagination.js';
import { compileSql } from '../../query/sql.js';
import { compositeKey } from '../graph/query.js';
import { renderPosts, type PageResult } from '../graph/render.js';
import type { PostRow } from '../posts/wire.js';
import type { View } from '../view.js';
import type { CountsRequest, Granularity, SearchRequest } from './request.js';
import { countByBucket, resolveUsers, searchByRecency, searchByRelevancy } from './store.js';
import { singleWord } from './term-hours.js';

/** The two indexes of spec 000's search and counts: the last 7 days, and the full archive. */
export type SearchIndex = 'recent' | 'all';

/** Release history (spec 000 "Versioning"), by the injected clock. */
export const RELEASE = {
  /** "count-based operators deprecated on the recent and full-archive search endpoints". */
  countOperatorsDeprecated: '2026-01-19',
  /** "search endpoints moved to a new index; min_likes:, min_replies:, min_reposts: operators; retweets no longer in keyword search results". */
  newIndex: '2026-05-04',
};

export const SEARCH_RANGES = { recent: { min: 10, max: 100, default: 10 }, all: { min: 10, max: 500, default: 10 } } as const;

/**
 * GET /2/posts/search/recent and /2/posts/search/all: posts matching `query`, newest first
 * (sort_order=recency) or most engaged first (relevancy), with the post lookup's fields and
 * expansions. Protected authors' posts only for approved followers; deleted posts and
 * superseded edit versions never.
 */
export async function searchPosts(ctx: PlatformContext, view: View, { ast, selection, maxResults, scope, order }: SearchRequest): Promise<PageResult> {
  const where = compileSql(await resolveUsers(ctx.store.db, ast), ctx.store.dialect);
  let items: PostRow[];
  let meta: PageMeta;
  const sortOrder = order.by;
  if (order.by === 'recency') {
    const rows = await searchByRecency(ctx.store.db, where, scope, maxResults + 1, order.after);
    ({ items, meta } = page(rows, maxResults, (p: PostRow) => compositeKey(p.created_at, p.id), { ids: (p) => p.id }));
  } else {
    const offset = order.offset;
    const rows = await searchByRelevancy(ctx.store.db, where, scope, maxResults + 1, offset);
    ({ items, meta } = page(rows, maxResults, () => `offset ${offset + maxResults}`));
  }
  const result = await renderPosts(ctx, view, selection, items, meta);
  if (result.meta && sortOrder === 'relevancy' && items.length > 0) {
    // newest_id and oldest_id name the page's newest and oldest posts, whatever their order.
    // The store already left out what the viewer may not see, so `items` is what `data` holds.
    const byId = items.map((p) => p.id).sort((a, b) => (BigInt(a) < BigInt(b) ? 1 : -1));
    Object.assign(result.meta, { newest_id: byId[0], oldest_id: byId[byId.length - 1] });
  }
  return result;
}

const BUCKET: Record<Granularity, { ms: number; prefix: number }> = {
  minute: { ms: 60_000, prefix: 16 },
  hour: { ms: 3_600_000, prefix: 13 },
  day: { ms: 24 * 60 * 60 * 1000, prefix: 10 },
};
/** Full-archive counts pages hold 31 days (shared/reference §9); recent counts answer all 7 days at once. */
const ARCHIVE_PAGE_MS = 31 * 24 * 60 * 60 * 1000;

export interface CountsResult {
  data: Array<{ start: string; end: string; post_count: number }>;
  meta: { total_post_count: number; next_token?: string };
}

/** The start of the bucket holding `t`. */
function bucketStart(t: number, g: Granularity): number {
  return Math.floor(t / BUCKET[g].ms) * BUCKET[g].ms;
}

/**
 * GET /2/posts/counts/recent and /2/posts/counts/all: how many posts match `query` per minute,
 * hour (default) or day, oldest bucket first, every bucket of the window listed (zeros too).
 * Full-archive pages hold 31 days and page backwards in time with next_token.
 */
export async function countPosts(ctx: PlatformContext, { index, ast, granularity, scope, pageEnd }: CountsRequest): Promise<CountsResult> {
  const windowStart = Date.parse(scope.startTime);
  const pageStart = index === 'all' ? Math.max(windowStart, pageEnd - ARCHIVE_PAGE_MS) : windowStart;
  const pageScope = { ...scope, startTime: new Date(pageStart).toISOString(), endTime: new Date(pageEnd).toISOString() };
  const where = compileSql(await resolveUsers(ctx.store.db, ast), ctx.store.dialect);
  const counts = await countByBucket(ctx.store.db, ctx.store.dialect, where, pageScope, BUCKET[granularity].prefix, singleWord(ast));

  const data: CountsResult['data'] = [];
  let total = 0;
  for (let at = bucketStart(pageStart, granularity); at < pageEnd; at += BUCKET[granularity].ms) {
    const start = new Date(Math.max(at, pageStart)).toISOString();
    const end = new Date(Math.min(at + BUCKET[granularity].ms, pageEnd)).toISOString();
    const n = counts.get(new Date(at).toISOString().slice(0, BUCKET[granularity].prefix)) ?? 0;
    total += n;
    data.push({ start, end, post_count: n });
  }
  const meta: CountsResult['meta'] = { total_post_count: total };
  if (pageStart > windowStart) meta.next_token = encodePageToken(`end ${pageStart}`);
  return { data, meta };
}

