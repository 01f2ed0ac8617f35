import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { PlatformContext } from '../context.js';
import { startPolledJob } from '../../polled-job.js';
import type { QueryNode } from '../../query/ast.js';
import type { DbOrTx } from '../../store/store.js';

/**
 * Counts of one word by hour from post_term_hours (migration 0028, PostgreSQL): what makes search
 * counts and keyword insights cheap on a large store, where counting over the GIN index visits one
 * heap page per matching post. The counting job keeps past hours counted; the current hour, the
 * partial hours at a window's edges and every hour changed since its count are read from posts.
 */

const HOUR_MS = 3_600_000;
/** An arbitrary constant naming the counting job's lock: one process counts at a time. */
const COUNT_LOCK_KEY = 0x706c7a63;
/** Hours counted per transaction: a backlog (a fresh store, a bulk load) is worked through in steps. */
const HOURS_PER_STEP = 24;

/** The one word a query asks for, when it is nothing else: what post_term_hours can answer. */
export function singleWord(ast: QueryNode): string | undefined {
  return ast.kind === 'text' && !ast.phrase && ast.near === undefined && ast.tokens.length === 1 ? ast.tokens[0] : undefined;
}

const hourOf = (ms: number) => new Date(ms).toISOString().slice(0, 13);

/**
 * Counts the hours before the clock's current one whose posts changed since they were counted,
 * at most HOURS_PER_STEP of them, in one transaction: their change marks go, their counts are
 * made again from posts. Answers how many hours it counted (0: nothing was due, or another
 * process is counting).
 */
export async function countDueHours(db: DbOrTx, now: Date): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const locked = await sql<{ ok: boolean }>`select pg_try_advisory_xact_lock(${COUNT_LOCK_KEY}) as ok`.execute(tx);
    if (!locked.rows[0]?.ok) return 0;
    const due = await tx.selectFrom('post_term_hours_dirty').select('hour').distinct().where('hour', '<', hourOf(now.getTime())).orderBy('hour').limit(HOURS_PER_STEP).execute();
    if (due.length === 0) return 0;
    const hours = due.map((d) => d.hour);
    // Marks a writer has not committed yet are not seen, so not removed: their hour stays read from posts.
    await tx.deleteFrom('post_term_hours_dirty').where('hour', 'in', hours).execute();
    await tx.deleteFrom('post_term_hours').where('hour', 'in', hours).execute();
    const hour = sql<string>`substr(posts.created_at, 1, 13)`;
    const repost = sql<number>`case when posts.reposted_post_id is null then 0 else 1 end`;
    await tx
      .insertInto('post_term_hours')
      .columns(['term', 'hour', 'repost', 'n'])
      .expression(
        tx
          .selectFrom(sql`posts cross join lateral unnest(tsvector_to_array(posts.search_tsv))`.as('w'))
          .select([sql<string>`w`.as('term'), hour.as('hour'), repost.as('repost'), sql<number>`count(*)`.as('n')])
          .where(sql<SqlBool>`posts.created_at >= ${`${hours[0]}:00:00.000Z`} and posts.created_at < ${new Date(Date.parse(`${hours[hours.length - 1]}:00:00.000Z`) + HOUR_MS).toISOString()}`)
          .where(sql<SqlBool>`${hour} in (${sql.join(hours)})`)
          .where(sql<SqlBool>`posts.deleted_at is null and posts.superseded_by_id is null and posts.nullcast = 0`)
          .groupBy([sql`w`, hour, repost]) as never,
      )
      .execute();
    return hours.length;
  });
}

/** Counts due hours until none is left (a fresh store's backlog, a bulk load); answers how many. */
export async function countAllDueHours(db: DbOrTx, now: Date): Promise<number> {
  let total = 0;
  for (let n = await countDueHours(db, now); n > 0; n = await countDueHours(db, now)) total += n;
  return total;
}

/** Runs the counting job on PostgreSQL stores: polled, one run at a time, and once at start. */
export function startTermHourCounter(ctx: PlatformContext, pollMs = 5_000): { close(): Promise<void> } {
  if (ctx.store.dialect !== 'postgres') return { close: async () => {} };
  const job = startPolledJob(ctx, 'counting posts by word and hour failed', () => countAllDueHours(ctx.store.db, ctx.clock.now()), pollMs);
  job.kick();
  return job;
}

/** The window [start, end) cut for post_term_hours: the whole hours inside, and the edges. */
export interface HourSplit {
  /** The first whole hour's start (ISO 8601). */
  from: string;
  /** The end of the last whole hour (ISO 8601). */
  to: string;
}

/** The whole hours of [start, end), or undefined when it holds none. */
export function wholeHours(startMs: number, endMs: number): HourSplit | undefined {
  const from = Math.ceil(startMs / HOUR_MS) * HOUR_MS;
  const to = Math.floor(endMs / HOUR_MS) * HOUR_MS;
  return to > from ? { from: new Date(from).toISOString(), to: new Date(to).toISOString() } : undefined;
}

/** The hours of [from, to) changed since they were counted: read from posts. */
export async function changedHours(db: DbOrTx, split: HourSplit): Promise<string[]> {
  const rows = await db.selectFrom('post_term_hours_dirty').select('hour').distinct().where('hour', '>=', split.from.slice(0, 13)).where('hour', '<', split.to.slice(0, 13)).execute();
  return rows.map((r) => r.hour);
}

/** The kept counts of `term` per hour of [from, to), leaving out `changed` hours; reposts only when asked. */
export async function keptCounts(db: DbOrTx, term: string, split: HourSplit, changed: readonly string[], withReposts: boolean): Promise<Map<string, number>> {
  let q = db
    .selectFrom('post_term_hours')
    .select(['hour', (eb) => eb.fn.sum<number | string>('n').as('n')])
    .where('term', '=', term)
    .where('hour', '>=', split.from.slice(0, 13))
    .where('hour', '<', split.to.slice(0, 13));
  if (!withReposts) q = q.where('repost', '=', 0);
  if (changed.length > 0) q = q.where('hour', 'not in', [...changed]);
  const rows = await q.groupBy('hour').execute();
  return new Map(rows.map((r) => [r.hour, Number(r.n)]));
}

/**
 * The part of [startMs, endMs) a count reads from posts: the partial hours at its edges and the
 * changed hours, as one condition on posts.created_at (ranges the posts_created index answers).
 */
export function readFromPosts(startMs: number, endMs: number, split: HourSplit, changed: readonly string[]): RawBuilder<SqlBool> {
  const ranges: Array<[string, string]> = [];
  const start = new Date(startMs).toISOString();
  const end = new Date(endMs).toISOString();
  if (start < split.from) ranges.push([start, split.from]);
  for (const h of changed) ranges.push([`${h}:00:00.000Z`, new Date(Date.parse(`${h}:00:00.000Z`) + HOUR_MS).toISOString()]);
  if (split.to < end) ranges.push([split.to, end]);
  if (ranges.length === 0) return sql<SqlBool>`false`;
  return sql<SqlBool>`(${sql.join(
    ranges.map(([a, b]) => sql`(posts.created_at >= ${a} and posts.created_at < ${b})`),
    sql` or `,
  )})`;
}
