import { invalidParameter } from './params.js';

/**
 * Pagination of the platform interface's list endpoints: `max_results` within each endpoint's
 * range, an opaque `pagination_token`, and `meta` with result_count, next_token and, where the
 * reference has them, newest_id and oldest_id. Lists are keyed by a sortable string (usually a
 * time-ordered id); a token carries the key to continue after.
 */
export interface MaxResultsRange {
  min: number;
  max: number;
  default: number;
}

export function parseMaxResults(raw: unknown, range: MaxResultsRange, name = 'max_results'): number {
  if (raw === undefined || raw === '') return range.default;
  const text = String(raw);
  const n = Number(text);
  if (!/^[0-9]+$/.test(text) || n < range.min || n > range.max) {
    throw invalidParameter(name, [text], `The \`${name}\` query parameter value [${text}] is not between ${range.min} and ${range.max}`);
  }
  return n;
}

const PREFIX = 'p1.';

export function encodePageToken(key: string): string {
  return PREFIX + Buffer.from(key, 'utf8').toString('base64url');
}

/** The key a token continues after; a token Plaza did not make is an invalid-request. */
export function decodePageToken(raw: unknown, name = 'pagination_token'): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const text = String(raw);
  const key = text.startsWith(PREFIX) ? Buffer.from(text.slice(PREFIX.length), 'base64url').toString('utf8') : '';
  if (key.length === 0 || encodePageToken(key) !== text) {
    throw invalidParameter(name, [text], `The \`${name}\` query parameter value [${text}] is not a valid token`);
  }
  return key;
}

export interface PageMeta {
  result_count: number;
  next_token?: string;
  newest_id?: string;
  oldest_id?: string;
}

/**
 * Builds a page from `rows` fetched with limit `maxResults + 1` (the extra row says whether
 * another page exists), keyed by `keyOf`. `ids` adds newest_id/oldest_id from the first and
 * last rows (lists ordered newest first).
 */
export function page<T>(rows: T[], maxResults: number, keyOf: (row: T) => string, opts: { ids?: (row: T) => string } = {}): { items: T[]; meta: PageMeta } {
  const items = rows.slice(0, maxResults);
  const meta: PageMeta = { result_count: items.length };
  if (opts.ids && items.length > 0) {
    meta.newest_id = opts.ids(items[0]);
    meta.oldest_id = opts.ids(items[items.length - 1]);
  }
  if (rows.length > maxResults && items.length > 0) meta.next_token = encodePageToken(keyOf(items[items.length - 1]));
  return { items, meta };
}
