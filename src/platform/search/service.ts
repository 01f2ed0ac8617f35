import type { Caller } from '../../auth/authenticate.js';
import type { AppContext } from '../../context.js';
import { decodePageToken, encodePageToken, page, parseMaxResults, type PageMeta } from '../../http/pagination.js';
import { ID_PATTERN, invalidParameter } from '../../http/params.js';
import { ProblemError } from '../../http/problems.js';
import { COUNT_OPERATORS, hasKeyword, leavesOf, type QueryNode } from '../../query/ast.js';
import { parseQuery, QueryError } from '../../query/parse.js';
import { compileSql } from '../../query/sql.js';
import type { Tier } from '../../store/schema.js';
import { parseSelection } from '../expansions.js';
import { compositeKey } from '../graph/query.js';
import { renderPosts, type PageResult } from '../graph/render.js';
import { tierWayOut } from '../../seed/way-out.js';
import { REGISTRATION_URL } from '../graph/tiers.js';
import { postExpansions } from '../posts/service.js';
import type { PostRow } from '../posts/wire.js';
import type { View } from '../view.js';
import { countByBucket, resolveUsers, searchByRecency, searchByRelevancy, type SearchScope } from './store.js';

/** The two indexes of spec 000's search and counts: the last 7 days, and the full archive. */
export type SearchIndex = 'recent' | 'all';

const DAY_MS = 24 * 60 * 60 * 1000;
const RECENT_DAYS = 7;
/** The full archive's default window when no time is given (the public platform's 30 days). */
const ARCHIVE_DEFAULT_DAYS = 30;
/** The first post of the public platform: the full archive starts there. */
const ARCHIVE_START = '2006-03-21T00:00:00.000Z';
/** Without end_time, results end 30 s before now; an explicit end_time must be 10 s in the past. */
const DEFAULT_END_LAG_MS = 30_000;
const MIN_END_LAG_MS = 10_000;

/** Release history (spec 000 "Versioning"), by the injected clock. */
export const RELEASE = {
  /** "count-based operators deprecated on the recent and full-archive search endpoints". */
  countOperatorsDeprecated: '2026-01-19',
  /** "search endpoints moved to a new index; min_likes:, min_replies:, min_reposts: operators; retweets no longer in keyword search results". */
  newIndex: '2026-05-04',
};

const SELF_SERVE_LIMITS = { recent: 512, all: 1024 };
const ENTERPRISE_LIMIT = 4096;
/** Tiers with the full archive (search/all and counts/all). */
const ARCHIVE_TIERS: readonly Tier[] = ['pro', 'enterprise', 'pay-per-use'];

export const SEARCH_RANGES = { recent: { min: 10, max: 100, default: 10 }, all: { min: 10, max: 500, default: 10 } } as const;

const day = (d: Date) => d.toISOString().slice(0, 10);
const bad = (ctx: AppContext, name: string, value: unknown, message: string) => invalidParameter(ctx.problems, name, value === undefined ? [] : [String(value)], message);

function requireArchiveTier(ctx: AppContext, caller: Caller, index: SearchIndex): void {
  if (index !== 'all' || ARCHIVE_TIERS.includes(caller.app.tier)) return;
  const problem = ctx.problems.clientForbidden({
    reason: 'client-not-enrolled',
    registration_url: REGISTRATION_URL,
    detail: `The full-archive search and counts are not available to apps on the ${caller.app.tier} tier. Use an app on the pro or enterprise tier.${tierWayOut(ctx, ARCHIVE_TIERS)}`,
  });
  throw new ProblemError(403, { ...problem, client_id: caller.app.id, required_enrollment: 'Appropriate Level of API Access' });
}

/** `query`: its length on the caller's tier, then the grammar; the date rules of the count operators. */
function parseSearchQuery(ctx: AppContext, caller: Caller, index: SearchIndex, raw: unknown): QueryNode {
  const text = typeof raw === 'string' ? raw : '';
  const limit = caller.app.tier === 'enterprise' ? ENTERPRISE_LIMIT : SELF_SERVE_LIMITS[index];
  if ([...text].length > limit) {
    throw bad(ctx, 'query', text, `The \`query\` query parameter value is ${[...text].length} characters long; queries may be at most ${limit} characters on this endpoint for apps on the ${caller.app.tier} tier`);
  }
  let ast: QueryNode;
  try {
    ast = parseQuery(text);
  } catch (err) {
    if (err instanceof QueryError) throw bad(ctx, 'query', text, `There were errors processing your request: ${err.message} of the \`query\` query parameter`);
    throw err;
  }
  const today = day(ctx.clock.now());
  if (today < RELEASE.newIndex) {
    const counted = leavesOf(ast).find((l) => (COUNT_OPERATORS as readonly string[]).includes(l.kind));
    if (counted) {
      const why = today >= RELEASE.countOperatorsDeprecated ? 'count-based operators are deprecated on the recent and full-archive search endpoints since Jan 19, 2026' : 'it arrives with the new search index on May 4, 2026';
      throw bad(ctx, 'query', text, `The operator ${counted.raw} is not available on search: ${why}`);
    }
  }
  return ast;
}

function parseTime(ctx: AppContext, name: string, raw: unknown): Date | undefined {
  if (raw === undefined || raw === '') return undefined;
  const text = String(raw);
  const time = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text) ? new Date(text) : new Date(NaN);
  if (Number.isNaN(time.getTime())) throw bad(ctx, name, text, `The \`${name}\` query parameter value [${text}] is not a valid RFC 3339 date-time, e.g. 2026-01-31T12:00:00Z`);
  return time;
}

function parseId(ctx: AppContext, name: string, raw: unknown): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!ID_PATTERN.test(String(raw))) throw bad(ctx, name, raw, `The \`${name}\` query parameter value [${String(raw)}] is not a post id`);
  return String(raw);
}

/** start_time/end_time/since_id/until_id with the reference's exclusions and each index's window. */
function parseScope(ctx: AppContext, index: SearchIndex, query: Record<string, unknown>, view: View, ast: QueryNode): SearchScope {
  const now = ctx.clock.now();
  if (query.start_time && query.since_id) throw bad(ctx, 'since_id', query.since_id, 'The `since_id` query parameter cannot be used with `start_time`');
  if (query.end_time && query.until_id) throw bad(ctx, 'until_id', query.until_id, 'The `until_id` query parameter cannot be used with `end_time`');
  const start = parseTime(ctx, 'start_time', query.start_time);
  const end = parseTime(ctx, 'end_time', query.end_time);
  const floor = index === 'recent' ? new Date(now.getTime() - RECENT_DAYS * DAY_MS) : new Date(ARCHIVE_START);
  if (start && start < floor) {
    throw bad(ctx, 'start_time', query.start_time, `The \`start_time\` query parameter value [${String(query.start_time)}] must be on or after ${floor.toISOString()}`);
  }
  if (end && end.getTime() > now.getTime() - MIN_END_LAG_MS) {
    throw bad(ctx, 'end_time', query.end_time, `The \`end_time\` query parameter value [${String(query.end_time)}] must be at least 10 seconds before the request time (${now.toISOString()})`);
  }
  const endTime = end ?? new Date(now.getTime() - DEFAULT_END_LAG_MS);
  const defaultStart = index === 'recent' ? floor : new Date(Math.max(new Date(ARCHIVE_START).getTime(), endTime.getTime() - ARCHIVE_DEFAULT_DAYS * DAY_MS));
  const startTime = start ?? (query.since_id ? floor : defaultStart);
  if (startTime >= endTime) throw bad(ctx, 'end_time', query.end_time, 'The `end_time` query parameter value must be after the `start_time` query parameter value');
  return {
    startTime: startTime.toISOString(),
    endTime: endTime.toISOString(),
    sinceId: parseId(ctx, 'since_id', query.since_id),
    untilId: parseId(ctx, 'until_id', query.until_id),
    viewerId: view.viewerId,
    excludeReposts: day(now) >= RELEASE.newIndex && hasKeyword(ast),
  };
}

/** next_token and pagination_token name the same thing; one of them. */
function pageToken(ctx: AppContext, query: Record<string, unknown>): { name: string; key?: string } {
  if (query.next_token && query.pagination_token) throw bad(ctx, 'pagination_token', query.pagination_token, 'Send one of `next_token` and `pagination_token`, not both');
  const name = query.next_token ? 'next_token' : 'pagination_token';
  return { name, key: decodePageToken(ctx.problems, query[name], name) };
}

const RECENCY_KEY = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z) ([0-9]{1,19})$/;
const OFFSET_KEY = /^offset ([0-9]{1,9})$/;

/**
 * GET /2/posts/search/recent and /2/posts/search/all: posts matching `query`, newest first
 * (sort_order=recency) or most engaged first (relevancy), with the post lookup's fields and
 * expansions. Protected authors' posts only for approved followers; deleted posts and
 * superseded edit versions never.
 */
export async function searchPosts(ctx: AppContext, caller: Caller, view: View, index: SearchIndex, query: Record<string, unknown>): Promise<PageResult> {
  requireArchiveTier(ctx, caller, index);
  const ast = parseSearchQuery(ctx, caller, index, query.query);
  const selection = parseSelection(ctx, query, postExpansions);
  const maxResults = parseMaxResults(ctx.problems, query.max_results, SEARCH_RANGES[index]);
  const scope = parseScope(ctx, index, query, view, ast);
  const sortOrder = query.sort_order ?? 'recency';
  if (sortOrder !== 'recency' && sortOrder !== 'relevancy') throw bad(ctx, 'sort_order', sortOrder, `The \`sort_order\` query parameter value [${String(sortOrder)}] is not one of [recency, relevancy]`);
  const token = pageToken(ctx, query);
  const where = compileSql(await resolveUsers(ctx.store.db, ast), ctx.store.dialect);
  const invalidToken = (): never => {
    throw bad(ctx, token.name, query[token.name], `The \`${token.name}\` query parameter value [${String(query[token.name])}] is not a valid token`);
  };

  let items: PostRow[];
  let meta: PageMeta;
  if (sortOrder === 'recency') {
    const m = token.key === undefined ? undefined : (RECENCY_KEY.exec(token.key) ?? invalidToken());
    const rows = await searchByRecency(ctx.store.db, where, scope, maxResults + 1, m ? { createdAt: m[1], id: m[2] } : undefined);
    ({ items, meta } = page(rows, maxResults, (p: PostRow) => compositeKey(p.created_at, p.id), { ids: (p) => p.id }));
  } else {
    const m = token.key === undefined ? undefined : (OFFSET_KEY.exec(token.key) ?? invalidToken());
    const offset = m ? Number(m[1]) : 0;
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

export type Granularity = 'minute' | 'hour' | 'day';
const BUCKET: Record<Granularity, { ms: number; prefix: number }> = {
  minute: { ms: 60_000, prefix: 16 },
  hour: { ms: 3_600_000, prefix: 13 },
  day: { ms: DAY_MS, prefix: 10 },
};
/** Full-archive counts pages hold 31 days (shared/reference §9); recent counts answer all 7 days at once. */
const ARCHIVE_PAGE_MS = 31 * DAY_MS;

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
export async function countPosts(ctx: AppContext, caller: Caller, view: View, index: SearchIndex, query: Record<string, unknown>): Promise<CountsResult> {
  requireArchiveTier(ctx, caller, index);
  const ast = parseSearchQuery(ctx, caller, index, query.query);
  const granularity = (query.granularity ?? 'hour') as Granularity;
  if (!(granularity in BUCKET)) throw bad(ctx, 'granularity', granularity, `The \`granularity\` query parameter value [${String(granularity)}] is not one of [minute, hour, day]`);
  const scope = parseScope(ctx, index, query, view, ast);
  const token = pageToken(ctx, query);
  let pageEnd = Date.parse(scope.endTime);
  if (token.key !== undefined) {
    const m = /^end ([0-9]{1,15})$/.exec(token.key);
    const at = m ? Number(m[1]) : NaN;
    if (!(at > Date.parse(scope.startTime) && at <= pageEnd)) throw bad(ctx, token.name, query[token.name], `The \`${token.name}\` query parameter value [${String(query[token.name])}] is not a valid token`);
    pageEnd = at;
  }
  const windowStart = Date.parse(scope.startTime);
  const pageStart = index === 'all' ? Math.max(windowStart, pageEnd - ARCHIVE_PAGE_MS) : windowStart;
  const pageScope = { ...scope, startTime: new Date(pageStart).toISOString(), endTime: new Date(pageEnd).toISOString() };
  const counts = await countByBucket(ctx.store.db, compileSql(await resolveUsers(ctx.store.db, ast), ctx.store.dialect), pageScope, BUCKET[granularity].prefix);

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

