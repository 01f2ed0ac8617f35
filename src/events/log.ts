import { PostgresAdapter, sql } from 'kysely';
import type { DbOrTx } from '../store/store.js';
import type { CoreContext } from '../context.js';
import type { EventTable } from '../store/schema.js';

export type EventRow = { [K in keyof EventTable]: K extends 'seq' ? number : EventTable[K] };

/**
 * The advisory-lock key that serialises appends on PostgreSQL (an arbitrary constant: "plaza
 * events"). Held from the append to the commit, it makes seq order the commit order, so a reader
 * that has seen seq N will never later see a smaller seq commit behind its cursor.
 */
const APPEND_LOCK_KEY = 0x706c617a61;

export interface NewEvent {
  type: string;
  subject: string;
  payload: unknown;
}

/**
 * Appends to the event log. Call it with the transaction that makes the change, so the event
 * exists exactly when the change does; fan-out reads the log in `seq` order.
 */
export async function appendEvent(ctx: Pick<CoreContext, 'ids' | 'clock'> & Partial<Pick<CoreContext, 'events'>>, db: DbOrTx, event: NewEvent): Promise<string> {
  const id = ctx.ids.next();
  // SQLite has one writer at a time, so its seq order is already commit order.
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`select pg_advisory_xact_lock(${APPEND_LOCK_KEY})`.execute(db);
  await db
    .insertInto('events')
    .values({ id, type: event.type, subject: event.subject, payload: JSON.stringify(event.payload), created_at: ctx.clock.now().toISOString() })
    .execute();
  // Wakes the consumers; they read after this transaction commits (see bus.ts).
  ctx.events?.notify();
  return id;
}

/**
 * The events after the cursor `afterSeq`, in seq order. Appends are serialised until commit (see
 * appendEvent), so what a reader sees past its cursor is a prefix of what will ever be there.
 */
export async function eventsAfter(db: DbOrTx, afterSeq: number, limit = 500): Promise<EventRow[]> {
  const rows = await db.selectFrom('events').selectAll().where('seq', '>', afterSeq).orderBy('seq').limit(limit).execute();
  return rows as EventRow[];
}

/** The newest seq in the log (0 when empty): where a consumer that wants only new events starts. */
export async function lastEventSeq(db: DbOrTx): Promise<number> {
  const row = await db.selectFrom('events').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst();
  return Number(row?.seq ?? 0);
}
