import type { Caller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { decodePageToken, parseMaxResults } from '../../http/pagination.js';
import { ID_PATTERN, invalidValue } from '../../http/params.js';
import { ProblemError, problems } from '../../http/problems.js';
import { COUNT_OPERATORS, hasKeyword, leavesOf, type QueryNode } from '../../query/ast.js';
import { parseQuery, QueryError } from '../../query/parse.js';
import type { Tier } from '../../store/schema.js';
import { parseSelection, type Selection } from '../expansions.js';
import { tierWayOut } from '../../seed/way-out.js';
import { REGISTRATION_URL } from '../graph/tiers.js';
import { postExpansions } from '../posts/service.js';
import type { View } from '../view.js';
import { RELEASE, SEARCH_RANGES, type SearchIndex } from './service.js';
import type { SearchScope } from './store.js';

/**
 * The requests of search and counts, parsed from their query parameters at the edge (the routes
 * call these): who may ask (the full archive's tiers), the query in the query language, the time
 * window of each index, the page tokens. Services take what these return.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const RECENT_DAYS = 7;
/** The full archive's default window when no time is given (the public platform's 30 days). */
const ARCHIVE_DEFAULT_DAYS = 30;
/** The first post of the public platform: the full archive starts there. */
const ARCHIVE_START = '2006-03-21T00:00:00.000Z';
/** Without end_time, results end 30 s before now; an explicit end_time must be 10 s in the past. */
const DEFAULT_END_LAG_MS = 30_000;
const MIN_END_LAG_MS = 10_000;

const SELF_SERVE_LIMITS = { recent: 512, all: 1024 };
const ENTERPRISE_LIMIT = 4096;
/** Tiers with the full archive (search/all and counts/all). */
const ARCHIVE_TIERS: readonly Tier[] = ['pro', 'enterprise', 'pay-per-use'];

export type Granularity = 'minute' | 'hour' | 'day';

/** A search: its query, selection, page size, window and order (with where the page starts). */
export interface SearchRequest {
  ast: QueryNode;
  selection: Selection;
  maxResults: number;
  scope: SearchScope;
  order: { by: 'recency'; after?: { createdAt: string; id: string } } | { by: 'relevancy'; offset: number };
}

/** A counts request: its query, granularity, window, and the end of the page asked for (ms). */
export interface CountsRequest {
  index: SearchIndex;
  ast: QueryNode;
  granularity: Granularity;
  scope: SearchScope;
  pageEnd: number;
}

const GRANULARITIES: readonly Granularity[] = ['minute', 'hour', 'day'];

const day = (d: Date) => d.toISOString().slice(0, 10);

function requireArchiveTier(ctx: PlatformContext, caller: Caller, index: SearchIndex): void {
  if (index !== 'all' || ARCHIVE_TIERS.includes(caller.app.tier)) return;
  const problem = problems.clientForbidden({
    reason: 'client-not-enrolled',
    registration_url: REGISTRATION_URL,
    detail: `The full-archive search and counts are not available to apps on the ${caller.app.tier} tier. Use an app on the pro or enterprise tier.${tierWayOut(ctx, ARCHIVE_TIERS)}`,
  });
  throw new ProblemError(403, { ...problem, client_id: caller.app.id, required_enrollment: 'Appropriate Level of API Access' });
}

/** `query`: its length on the caller's tier, then the grammar; the date rules of the count operators. */
function parseSearchQuery(ctx: PlatformContext, caller: Caller, index: SearchIndex, raw: unknown): QueryNode {
  const text = typeof raw === 'string' ? raw : '';
  const limit = caller.app.tier === 'enterprise' ? ENTERPRISE_LIMIT : SELF_SERVE_LIMITS[index];
  if ([...text].length > limit) {
    throw invalidValue('query', text, `The \`query\` query parameter value is ${[...text].length} characters long; queries may be at most ${limit} characters on this endpoint for apps on the ${caller.app.tier} tier`);
  }
  let ast: QueryNode;
  try {
    ast = parseQuery(text);
  } catch (err) {
    if (err instanceof QueryError) throw invalidValue('query', text, `There were errors processing your request: ${err.message} of the \`query\` query parameter`);
    throw err;
  }
  const today = day(ctx.clock.now());
  if (today < RELEASE.newIndex) {
    const counted = leavesOf(ast).find((l) => (COUNT_OPERATORS as readonly string[]).includes(l.kind));
    if (counted) {
      const why = today >= RELEASE.countOperatorsDeprecated ? 'count-based operators are deprecated on the recent and full-archive search endpoints since Jan 19, 2026' : 'it arrives with the new search index on May 4, 2026';
      throw invalidValue('query', text, `The operator ${counted.raw} is not available on search: ${why}`);
    }
  }
  return ast;
}

function parseTime(name: string, raw: unknown): Date | undefined {
  if (raw === undefined || raw === '') return undefined;
  const text = String(raw);
  const time = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text) ? new Date(text) : new Date(NaN);
  if (Number.isNaN(time.getTime())) throw invalidValue(name, text, `The \`${name}\` query parameter value [${text}] is not a valid RFC 3339 date-time, e.g. 2026-01-31T12:00:00Z`);
  return time;
}

function parseId(name: string, raw: unknown): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!ID_PATTERN.test(String(raw))) throw invalidValue(name, raw, `The \`${name}\` query parameter value [${String(raw)}] is not a post id`);
  return String(raw);
}

/** start_time/end_time/since_id/until_id with the reference's exclusions and each index's window. */
function parseScope(ctx: PlatformContext, index: SearchIndex, query: Record<string, unknown>, view: View, ast: QueryNode): SearchScope {
  const now = ctx.clock.now();
  if (query.start_time && query.since_id) throw invalidValue('since_id', query.since_id, 'The `since_id` query parameter cannot be used with `start_time`');
  if (query.end_time && query.until_id) throw invalidValue('until_id', query.until_id, 'The `until_id` query parameter cannot be used with `end_time`');
  const start = parseTime('start_time', query.start_time);
  const end = parseTime('end_time', query.end_time);
  const floor = index === 'recent' ? new Date(now.getTime() - RECENT_DAYS * DAY_MS) : new Date(ARCHIVE_START);
  if (start && start < floor) {
    throw invalidValue('start_time', query.start_time, `The \`start_time\` query parameter value [${String(query.start_time)}] must be on or after ${floor.toISOString()}`);
  }
  if (end && end.getTime() > now.getTime() - MIN_END_LAG_MS) {
    throw invalidValue('end_time', query.end_time, `The \`end_time\` query parameter value [${String(query.end_time)}] must be at least 10 seconds before the request time (${now.toISOString()})`);
  }
  const endTime = end ?? new Date(now.getTime() - DEFAULT_END_LAG_MS);
  const defaultStart = index === 'recent' ? floor : new Date(Math.max(new Date(ARCHIVE_START).getTime(), endTime.getTime() - ARCHIVE_DEFAULT_DAYS * DAY_MS));
  const startTime = start ?? (query.since_id ? floor : defaultStart);
  if (startTime >= endTime) throw invalidValue('end_time', query.end_time, 'The `end_time` query parameter value must be after the `start_time` query parameter value');
  return {
    startTime: startTime.toISOString(),
    endTime: endTime.toISOString(),
    sinceId: parseId('since_id', query.since_id),
    untilId: parseId('until_id', query.until_id),
    viewerId: view.viewerId,
    excludeReposts: day(now) >= RELEASE.newIndex && hasKeyword(ast),
  };
}

/** next_token and pagination_token name the same thing; one of them, and `invalid` refuses its value. */
function pageToken(query: Record<string, unknown>): { key?: string; invalid(): never } {
  if (query.next_token && query.pagination_token) throw invalidValue('pagination_token', query.pagination_token, 'Send one of `next_token` and `pagination_token`, not both');
  const name = query.next_token ? 'next_token' : 'pagination_token';
  return {
    key: decodePageToken(query[name], name),
    invalid: () => {
      throw invalidValue(name, query[name], `The \`${name}\` query parameter value [${String(query[name])}] is not a valid token`);
    },
  };
}

const RECENCY_KEY = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z) ([0-9]{1,19})$/;
const OFFSET_KEY = /^offset ([0-9]{1,9})$/;


/** GET /2/posts/search/{recent,all}'s parameters, in the order the public platform checks them. */
export function parseSearchRequest(ctx: PlatformContext, caller: Caller, view: View, index: SearchIndex, query: Record<string, unknown>): SearchRequest {
  requireArchiveTier(ctx, caller, index);
  const ast = parseSearchQuery(ctx, caller, index, query.query);
  const selection = parseSelection(query, postExpansions);
  const maxResults = parseMaxResults(query.max_results, SEARCH_RANGES[index]);
  const scope = parseScope(ctx, index, query, view, ast);
  const sortOrder = query.sort_order ?? 'recency';
  if (sortOrder !== 'recency' && sortOrder !== 'relevancy') throw invalidValue('sort_order', sortOrder, `The \`sort_order\` query parameter value [${String(sortOrder)}] is not one of [recency, relevancy]`);
  const token = pageToken(query);
  if (sortOrder === 'recency') {
    const m = token.key === undefined ? undefined : (RECENCY_KEY.exec(token.key) ?? token.invalid());
    return { ast, selection, maxResults, scope, order: { by: 'recency', after: m ? { createdAt: m[1], id: m[2] } : undefined } };
  }
  const m = token.key === undefined ? undefined : (OFFSET_KEY.exec(token.key) ?? token.invalid());
  return { ast, selection, maxResults, scope, order: { by: 'relevancy', offset: m ? Number(m[1]) : 0 } };
}

/** GET /2/posts/counts/{recent,all}'s parameters; a next_token names the end of an earlier page's window. */
export function parseCountsRequest(ctx: PlatformContext, caller: Caller, view: View, index: SearchIndex, query: Record<string, unknown>): CountsRequest {
  requireArchiveTier(ctx, caller, index);
  const ast = parseSearchQuery(ctx, caller, index, query.query);
  const granularity = (query.granularity ?? 'hour') as Granularity;
  if (!GRANULARITIES.includes(granularity)) throw invalidValue('granularity', granularity, `The \`granularity\` query parameter value [${String(granularity)}] is not one of [minute, hour, day]`);
  const scope = parseScope(ctx, index, query, view, ast);
  const token = pageToken(query);
  let pageEnd = Date.parse(scope.endTime);
  if (token.key !== undefined) {
    const m = /^end ([0-9]{1,15})$/.exec(token.key);
    const at = m ? Number(m[1]) : NaN;
    if (!(at > Date.parse(scope.startTime) && at <= pageEnd)) token.invalid();
    pageEnd = at;
  }
  return { index, ast, granularity, scope, pageEnd };
}
