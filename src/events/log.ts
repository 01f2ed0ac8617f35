import { PostgresAdapter, sql } from 'kysely';
import type { Db, DbOrTx } from '../store/store.js';
import type { CoreContext } from '../context.js';
import type { EventTable } from '../store/schema.js';

export type EventRow = { [K in keyof EventTable]: K extends 'seq' ? number : EventTable[K] };

/**
 * The advisory-lock key of the sequencer on PostgreSQL (an arbitrary constant: "plaza
 * sequencer"). Only sequencers take it, and only by trying: writers never wait on it.
 */
const SEQUENCER_KEY = 0x706c617a73;

export interface NewEvent {
  type: string;
  subject: string;
  payload: unknown;
}

/**
 * Appends to the event log. Call it with the transaction that makes the change, so the event
 * exists exactly when the change does; fan-out reads the log in `seq` order. On SQLite (one writer
 * at a time) the event takes its `seq` at once; on PostgreSQL it is written with its transaction's
 * id and takes its `seq` from `sequenceEvents` once no older transaction is still running, so
 * concurrent writers never wait on each other (issue 37 item 2).
 */
export async function appendEvent(ctx: Pick<CoreContext, 'ids' | 'clock'>, db: DbOrTx, event: NewEvent): Promise<string> {
  const id = ctx.ids.next();
  // The store says when it has committed (src/store/commit-watch.ts); the world's bus then wakes the consumers.
  await db
    .insertInto('events')
    .values({ id, type: event.type, subject: event.subject, payload: JSON.stringify(event.payload), created_at: ctx.clock.now().toISOString() })
    .execute();
  return id;
}

/** How a reader of the log has events placed before it reads (`sequenceEvents`). */
export interface SequenceOptions {
  /** Called when events took their places (the bus then wakes every process's readers). */
  onPlaced?: () => void;
  /**
   * Wait (up to HELD_BACK_WAIT_MS) for events committed before the call that an older transaction
   * still holds back: what a caller that must see everything committed before it asked needs (the
   * log's end for a new cursor, a dump, a test). A background reader (the stream engine; the
   * webhook fan-out, which looks itself and calls `placeEvents`) does not wait: it is woken again
   * when those events take their places (whoever
   * places them says so on the bus), and on a busy store some events are always held back for a
   * moment, so a waiting reader would poll the store the whole time writes go on, in every process.
   */
  waitForHeld?: boolean;
}

/**
 * PostgreSQL: gives the next places in the log (`seq`) to the events whose transactions, and every
 * older one, have ended, in the order of their transactions (then of their ids). An event whose
 * transaction began after one still running waits for it, so no event ever takes a place behind
 * one a reader has passed: what a reader sees past its cursor is a prefix of what will ever be
 * there. One sequencer at a time (the others, finding the lock taken, leave it to that one).
 */
export async function sequenceEvents(db: Db, { onPlaced, waitForHeld = true }: SequenceOptions = {}): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  // Nothing committed without its place (the usual case between writes) costs one indexed look.
  const { rows } = await sql<{ held: number | string }>`select plaza_events_held() as held`.execute(db);
  if (Number(rows[0]?.held ?? 0) === 0) return;
  if (!waitForHeld) {
    if ((await placeEvents(db)) > 0) onPlaced?.();
    return;
  }
  const heldIds = async (among?: string[]) => {
    let q = db.selectFrom('events').select('id').where('seq', 'is', null);
    if (among) q = q.where('id', 'in', among);
    return (await q.limit(HELD_BACK_LOOK).execute()).map((r) => r.id);
  };
  let held = await heldIds();
  if (held.length === 0) return;
  const deadline = Date.now() + HELD_BACK_WAIT_MS;
  for (let pause = 1; ; pause = Math.min(2 * pause, 20)) {
    // The readers of every process read again when events took their places: those held back
    // may be events another process's readers were woken for and did not find.
    if ((await placeEvents(db)) > 0) onPlaced?.();
    // Events committed before this reader asked that still have no place wait for an older
    // transaction (or another sequencer). Most end within milliseconds: the reader waits for
    // those (not for events committed since, so a steady stream of writes does not keep it), up
    // to HELD_BACK_WAIT_MS, then goes on without them.
    held = await heldIds(held);
    if (held.length === 0 || Date.now() >= deadline) return;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/**
 * One call of the sequencer (migration 0043 holds it, and says why it is safe), for a caller that
 * already knows events wait for their places (`sequenceEvents` looks first): how many it placed.
 * Outside a longer transaction: a sequencer inside one would hold back the events of every later
 * one. Nothing to do on SQLite, whose events take their places as they are written.
 */
export async function placeEvents(db: Db): Promise<number> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return 0;
  const { rows } = await sql<{ placed: number | string }>`select plaza_sequence_events(${SEQUENCER_KEY}) as placed`.execute(db);
  return Number(rows[0]?.placed ?? 0);
}

/** At most this many held-back events are followed by one reader's wait. */
const HELD_BACK_LOOK = 100;
/** How long a reader waits for events held back by an older transaction still running. */
const HELD_BACK_WAIT_MS = 1_000;

/**
 * The events after the cursor `afterSeq`, in seq order: those that have a place in the log, which
 * is final (on PostgreSQL given by `sequenceEvents`, run first here with `sequencing` unless `db`
 * is a transaction, whose caller runs it before: a sequencer inside a longer transaction would
 * hold back the events of every transaction that began after it).
 */
export async function eventsAfter(db: DbOrTx, afterSeq: number, limit = 500, sequencing?: SequenceOptions): Promise<EventRow[]> {
  if (!db.isTransaction) await sequenceEvents(db as Db, sequencing);
  const rows = await db.selectFrom('events').selectAll().where('seq', '>', afterSeq).orderBy('seq').limit(limit).execute();
  return rows as EventRow[];
}

/**
 * In one query: how many committed events wait for their places (PostgreSQL), the newest place in
 * the log, where the consumer `cursor` stands (0 when it has none yet), and whether the store has
 * a webhook (the webhook fan-out's consumer).
 */
export async function logState(db: DbOrTx, cursor: string): Promise<{ held: number; last: number; cursor: number; webhooks: boolean }> {
  // Only PostgreSQL's events wait for their places; its count is a function (migration 0046 says why).
  const held = db.getExecutor().adapter instanceof PostgresAdapter ? sql`plaza_events_held()` : sql`0`;
  const { rows } = await sql<{ held: number | string; last: number | string | null; cursor: number | string | null; webhooks: boolean | number }>`
    select ${held} as held,
      (select max(seq) from events) as last,
      (select seq from event_cursors where name = ${cursor}) as cursor,
      exists(select 1 from webhooks) as webhooks`.execute(db);
  const row = rows[0]!;
  return { held: Number(row.held), last: Number(row.last ?? 0), cursor: Number(row.cursor ?? 0), webhooks: Boolean(row.webhooks) };
}

/**
 * The newest seq in the log (0 when empty): where a consumer that wants only new events starts.
 * Events committed before it asked take their places first, so none of them is news to it later.
 */
export async function lastEventSeq(db: DbOrTx): Promise<number> {
  if (!db.isTransaction) await sequenceEvents(db as Db);
  const row = await db.selectFrom('events').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst();
  return Number(row?.seq ?? 0);
}
