import { decodePageToken, parseMaxResults, type MaxResultsRange } from '../../http/pagination.js';
import { ID_PATTERN, invalidParameter, parseEnumList } from '../../http/params.js';
import type { Selection } from '../expansions.js';
import type { TimeWindow } from '../timelines/store.js';

/**
 * Query parameters shared by the list endpoints, parsed at the edge (routes) before anything is
 * read, so bad input is an invalid-request naming the parameter and services take typed requests.
 */
export interface PageRequest {
  maxResults: number;
  /** The id to continue after (exclusive), from `pagination_token`. */
  after?: string;
}

/** The values of `exclude` on post lists. */
export const EXCLUDE = ['replies', 'retweets'];

/** A list request as services take it: the field selection and the page, parsed by the route. */
export interface ListRequest<Page = PageRequest, S = Selection> {
  selection: S;
  page: Page;
}

function badToken(tokenName: string, raw: unknown) {
  return invalidParameter(tokenName, [String(raw)], `The \`${tokenName}\` query parameter value [${String(raw)}] is not a valid token`);
}

/** Lists keyed by a time-ordered id, newest first. */
export function parsePage(query: Record<string, unknown>, range: MaxResultsRange, tokenName = 'pagination_token'): PageRequest {
  const maxResults = parseMaxResults(query.max_results, range);
  const after = decodePageToken(query[tokenName], tokenName);
  // A token is opaque to clients but not to us: only a key we could have made reaches the store.
  if (after !== undefined && !ID_PATTERN.test(after)) throw badToken(tokenName, query[tokenName]);
  return { maxResults, after };
}

/** Keys of rows ordered by (created_at, id), newest first: `<created_at> <id>`. */
export const compositeKey = (createdAt: string, id: string): string => `${createdAt} ${id}`;

const COMPOSITE_KEY = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z) ([0-9]{1,19})$/;

/** A page of a list ordered by (time, id), newest first. */
export interface TimePageRequest {
  maxResults: number;
  /** The row to continue after (exclusive), from `pagination_token`. */
  after?: { createdAt: string; id: string };
}

/** Lists ordered by (time, id), newest first: the token carries both. */
export function parseTimePage(query: Record<string, unknown>, range: MaxResultsRange, tokenName = 'pagination_token'): TimePageRequest {
  const maxResults = parseMaxResults(query.max_results, range);
  const key = decodePageToken(query[tokenName], tokenName);
  if (key === undefined) return { maxResults };
  const match = COMPOSITE_KEY.exec(key);
  if (!match) throw badToken(tokenName, query[tokenName]);
  return { maxResults, after: { createdAt: match[1], id: match[2] } };
}

function parseTime(name: string, raw: unknown): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const text = String(raw);
  const time = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text) ? new Date(text) : new Date(NaN);
  if (Number.isNaN(time.getTime())) {
    throw invalidParameter(name, [text], `The \`${name}\` query parameter value [${text}] is not a valid RFC 3339 date-time, e.g. 2026-01-31T12:00:00Z`);
  }
  return time.toISOString();
}

export function parseTimeWindow(query: Record<string, unknown>): TimeWindow {
  const exclude = parseEnumList('exclude', typeof query.exclude === 'string' ? query.exclude : undefined, EXCLUDE);
  const window: TimeWindow = {
    sinceId: typeof query.since_id === 'string' ? query.since_id : undefined,
    untilId: typeof query.until_id === 'string' ? query.until_id : undefined,
    startTime: parseTime('start_time', query.start_time),
    endTime: parseTime('end_time', query.end_time),
    excludeReplies: exclude.has('replies'),
    excludeReposts: exclude.has('retweets'),
  };
  if (window.startTime && window.endTime && window.startTime >= window.endTime) {
    throw invalidParameter('end_time', [String(query.end_time)], 'The `end_time` query parameter value must be after the `start_time` query parameter value');
  }
  return window;
}

