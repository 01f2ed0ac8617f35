import { sql, type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { DbOrTx } from '../../store/store.js';
import { AdsError } from './errors.js';
import { bool, int, Param, scalar, text } from './params.js';

/**
 * The list conventions of spec 001 ("General conventions") and shared/reference/ads.md §4:
 * `count` within each endpoint's range, an opaque `cursor` continuing after the last record,
 * `sort_by` as `field-asc|desc`, `with_deleted`, `with_total_count` (exclusive with `cursor`),
 * and `q` as a case-insensitive name prefix. Lists are paged by keyset on (sort value, id).
 */

export interface Sort {
  field: string;
  dir: 'asc' | 'desc';
}

/** How a sortable field is read: its column (qualified when the list joins), and whether it may be null. */
export interface SortColumn {
  column: string;
  nullable?: boolean;
}

/** A list's sortable fields and the order it uses when `sort_by` is absent. */
export interface Sorting {
  fields: Record<string, SortColumn>;
  /** The column of the id, the tie-breaker. */
  id: string;
  default: Sort;
}

/** The order of a list when `sort_by` is absent: newest first. */
export const NEWEST_FIRST: Sort = { field: 'created_at', dir: 'desc' };

/** Standard sortable fields of an entity table (optionally aliased). */
export function entitySorting(alias?: string, extra: Record<string, SortColumn> = {}): Sorting {
  const col = (c: string) => (alias ? `${alias}.${c}` : c);
  return {
    fields: { created_at: { column: col('created_at') }, updated_at: { column: col('updated_at') }, id: { column: col('id') }, ...extra },
    id: col('id'),
    default: NEWEST_FIRST,
  };
}

export function count(range: { min?: number; max?: number; default?: number } = {}): Param<number, true> {
  return int({ min: range.min ?? 1, max: range.max ?? 1000 }).default(range.default ?? 200);
}

export function cursor(): Param<string> {
  return new Param((raw, name) => {
    const value = scalar(raw, name).trim();
    if (value.length === 0 || value.length > 2000) throw AdsError.invalidParameter(name, `Expected a cursor from next_cursor, got ${JSON.stringify(value)} for ${name}`);
    return value;
  }).describedAs({ type: 'string', minLength: 1, maxLength: 2000, description: 'the next_cursor of the page before' });
}

export function sortBy(fields: readonly string[]): Param<Sort> {
  return new Param(
    (raw, name) => {
      const value = scalar(raw, name).trim();
      const m = /^([a-z_]+)-(asc|desc)$/.exec(value);
      if (!m || !fields.includes(m[1])) {
        throw AdsError.invalidParameter(name, `Expected an attribute in ${fields.join(', ')} followed by -asc or -desc, got ${JSON.stringify(value)} for ${name}`);
      }
      return { field: m[1], dir: m[2] as 'asc' | 'desc' };
    },
    { required: false, nullable: false, echo: (_v, raw) => scalar(raw, 'sort_by').trim() },
    { type: 'string', enum: fields.flatMap((f) => [`${f}-asc`, `${f}-desc`]) },
  );
}

/** A boolean list flag, default false; echoed as given ("true"), as the public platform's docs show. */
export function flag(): Param<boolean, true> {
  return bool()
    .echoAs((_v, raw) => scalar(raw, 'flag').trim())
    .default(false);
}

/** `q`: a name prefix, matched case-insensitively. */
export function q(): Param<string> {
  return text({ max: 255 });
}

/** The parameters every standard list takes. */
export function standardList(sortable: readonly string[], range?: { min?: number; max?: number; default?: number }) {
  return {
    count: count(range),
    cursor: cursor(),
    sort_by: sortBy(sortable),
    with_deleted: flag(),
    with_total_count: flag(),
  };
}

export interface ListRequest {
  count: number;
  cursor?: string;
  sort_by?: Sort;
  with_total_count?: boolean;
}

export interface Page<Row> {
  rows: Row[];
  next_cursor: string | null;
  total_count?: number;
}

const CURSOR_PREFIX = 'c-';

function encodeCursor(sort: Sort, value: unknown, id: string): string {
  return CURSOR_PREFIX + Buffer.from(JSON.stringify([`${sort.field}-${sort.dir}`, value, id]), 'utf8').toString('base64url');
}

function decodeCursor(text: string, sort: Sort): { value: string; id: string } {
  const invalid = () => AdsError.invalidParameter('cursor', `Expected a cursor from next_cursor, got ${JSON.stringify(text)} for cursor`);
  if (!text.startsWith(CURSOR_PREFIX)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text.slice(CURSOR_PREFIX.length), 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || typeof parsed[2] !== 'string' || !(typeof parsed[1] === 'string' || typeof parsed[1] === 'number')) throw invalid();
  if (parsed[0] !== `${sort.field}-${sort.dir}`) {
    throw AdsError.invalidParameter('cursor', `The cursor belongs to sort_by=${String(parsed[0])}; send the same sort_by to continue`);
  }
  const value = String(parsed[1]);
  if (value.includes('\u0000') || parsed[2].includes('\u0000')) throw invalid();
  // Every sortable column is text: the key compares as text on both engines.
  return { value, id: parsed[2] };
}

/** Exclusive with `cursor` (spec 001 "General conventions"). */
export function checkTotalCountExclusive(params: { cursor?: string; with_total_count?: boolean }): void {
  if (params.cursor !== undefined && params.with_total_count) throw AdsError.exclusiveParameters('with_total_count', 'cursor');
}

/**
 * Runs a filtered query (no order, no limit) as one page: ordered by the sort then the id,
 * continued after the cursor's key, `count` rows, `next_cursor` when more remain, and
 * `total_count` of the whole filtered list when asked.
 */
export async function runList<Row extends Record<string, unknown>>(
  db: DbOrTx,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  base: SelectQueryBuilder<any, any, Row>,
  sorting: Sorting,
  req: ListRequest,
): Promise<Page<Row>> {
  const sort = req.sort_by ?? sorting.default;
  const column = sorting.fields[sort.field];
  if (!column) throw AdsError.invalidParameter('sort_by', `Cannot sort by ${sort.field}`);
  const expr: RawBuilder<unknown> = column.nullable ? sql`coalesce(${sql.ref(column.column)}, '')` : sql`${sql.ref(column.column)}`;
  const idRef = sql.ref(sorting.id);
  const alias = `__sort_${sort.field}`;
  let query = base.select(expr.as(alias));
  if (req.cursor !== undefined) {
    const after = decodeCursor(req.cursor, sort);
    const op = sql.raw(sort.dir === 'asc' ? '>' : '<');
    const condition: Expression<SqlBool> = sql<SqlBool>`(${expr} ${op} ${after.value} or (${expr} = ${after.value} and ${idRef} ${op} ${after.id}))`;
    query = query.where(condition);
  }
  const rows = (await query
    .orderBy(expr, sort.dir)
    .orderBy(idRef, sort.dir)
    .limit(req.count + 1)
    .execute()) as Array<Row & Record<string, unknown>>;
  const more = rows.length > req.count;
  const items = rows.slice(0, req.count);
  const last = items[items.length - 1];
  const next_cursor = more && last ? encodeCursor(sort, last[alias] as string | number, String(last[sorting.id.split('.').pop()!])) : null;
  for (const row of items) delete row[alias];
  const page: Page<Row> = { rows: items, next_cursor };
  if (req.with_total_count) {
    const counted = await db
      .selectFrom(base.as('listed'))
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirst();
    page.total_count = Number(counted?.n ?? 0);
  }
  return page;
}

/** Case-insensitive name prefix (`q`), with LIKE's wildcards taken literally. */
export function namePrefix(column: string, prefix: string): Expression<SqlBool> {
  const escaped = prefix.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${`${escaped}%`} escape '\\'`;
}

/** Pages a fixed in-memory list (reference data) with the same cursors, in `id` order. */
export function pageArray<T extends { id: string }>(items: readonly T[], req: { count: number; cursor?: string }): Page<T> {
  const sort: Sort = { field: 'id', dir: 'asc' };
  const sorted = [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const after = req.cursor === undefined ? undefined : decodeCursor(req.cursor, sort).id;
  const rest = after === undefined ? sorted : sorted.filter((i) => i.id > after);
  const rows = rest.slice(0, req.count);
  const last = rows[rows.length - 1];
  return { rows, next_cursor: rest.length > req.count && last ? encodeCursor(sort, last.id, last.id) : null, total_count: items.length };
}
