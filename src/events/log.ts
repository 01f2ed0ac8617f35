import type { DbOrTx } from '../store/store.js';
import type { AppContext } from '../context.js';

export interface NewEvent {
  type: string;
  subject: string;
  payload: unknown;
}

/**
 * Appends to the event log. Call it with the transaction that makes the change, so the event
 * exists exactly when the change does; fan-out reads the log in `seq` order.
 */
export async function appendEvent(ctx: Pick<AppContext, 'ids' | 'clock'>, db: DbOrTx, event: NewEvent): Promise<string> {
  const id = ctx.ids.next();
  await db
    .insertInto('events')
    .values({ id, type: event.type, subject: event.subject, payload: JSON.stringify(event.payload), created_at: ctx.clock.now().toISOString() })
    .execute();
  return id;
}

export async function eventsAfter(db: DbOrTx, afterSeq: number, limit = 500) {
  return db.selectFrom('events').selectAll().where('seq', '>', afterSeq).orderBy('seq').limit(limit).execute();
}
