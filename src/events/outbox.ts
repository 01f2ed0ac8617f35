import { sql } from 'kysely';
import type { DbOrTx, StoreDialect } from '../store/store.js';
import type { WebhookDeliveryTable } from '../store/schema-events.js';

/** The SQL of the webhook delivery outbox and the consumers' cursors. */

export type DeliveryRow = WebhookDeliveryTable;

export interface ClaimedDelivery {
  id: string;
  webhook_id: string;
  event_id: string;
  body: string;
  attempts: number;
  replay_job_id: string;
  url: string;
  consumer_secret: string;
}

export async function readCursor(db: DbOrTx, name: string, dialect: StoreDialect, lock: boolean): Promise<number | undefined> {
  let q = db.selectFrom('event_cursors').select('seq').where('name', '=', name);
  // Only one process fans out at a time; the others skip rather than wait (PostgreSQL row lock).
  if (lock && dialect === 'postgres') q = q.forUpdate().skipLocked();
  const row = await q.executeTakeFirst();
  return row ? Number(row.seq) : undefined;
}

/** Creates the cursor at `seq` unless it exists. */
export async function ensureCursor(db: DbOrTx, name: string, seq: number): Promise<void> {
  await db.insertInto('event_cursors').values({ name, seq }).onConflict((oc) => oc.column('name').doNothing()).execute();
}

/**
 * Moves the cursor `name` to the log's newest place if the store has no webhook, in one statement
 * (skipping a cursor another process holds on PostgreSQL); says whether it did. Events route to
 * webhooks that exist when they are fanned out, so with none there is nothing to route; an event
 * placed later takes a place after the newest, so none is passed over.
 */
export async function skipWithoutWebhooks(db: DbOrTx, name: string, dialect: StoreDialect): Promise<boolean> {
  const lock = dialect === 'postgres' ? sql` for update skip locked` : sql``;
  const result = await sql`
    update event_cursors set seq = (select coalesce(max(seq), 0) from events)
    where name = ${name} and not exists (select 1 from webhooks)
      and name in (select name from event_cursors where name = ${name}${lock})`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

export async function moveCursor(db: DbOrTx, name: string, seq: number): Promise<void> {
  await db.updateTable('event_cursors').set({ seq }).where('name', '=', name).execute();
}

/** What identifies a delivery and what it sends; the rest of its row is the state of a new one. */
export type NewDelivery = Pick<DeliveryRow, 'id' | 'webhook_id' | 'event_id' | 'event_seq' | 'route' | 'part' | 'replay_job_id' | 'body'>;

/** A delivery as it enters the outbox: pending, due now, never tried. */
export function pendingDelivery(delivery: NewDelivery, now: string): DeliveryRow {
  return { ...delivery, status: 'pending', attempts: 0, next_attempt_at: now, claimed_until: null, last_status: null, last_error: null, created_at: now, delivered_at: null };
}

/** Inserts deliveries; one that exists already (the same webhook, event, route and job) is kept as it is. */
export async function insertDeliveries(db: DbOrTx, rows: DeliveryRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) {
    await db
      .insertInto('webhook_deliveries')
      .values(rows.slice(i, i + 200))
      .onConflict((oc) => oc.columns(['webhook_id', 'event_id', 'route', 'part', 'replay_job_id']).doNothing())
      .execute();
  }
}

/**
 * Claims up to `limit` due deliveries of valid webhooks for this process until `leaseUntil`: each
 * is claimed by exactly one process (row locks skipped by the others on PostgreSQL; SQLite has one
 * writer). A claim whose process died runs out, and the delivery is due again.
 */
export async function claimDueDeliveries(db: DbOrTx, dialect: StoreDialect, now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]> {
  const lock = dialect === 'postgres' ? sql`for update of d skip locked` : sql``;
  const result = await sql<ClaimedDelivery>`
    update webhook_deliveries set claimed_until = ${leaseUntil}
    where id in (
      select d.id from webhook_deliveries d join webhooks w on w.id = d.webhook_id
      where d.status = 'pending' and d.next_attempt_at <= ${now} and (d.claimed_until is null or d.claimed_until < ${now}) and w.valid = 1
      order by d.next_attempt_at, d.event_seq
      limit ${limit}
      ${lock}
    )
    returning id, webhook_id, event_id, body, attempts, replay_job_id,
      (select url from webhooks w where w.id = webhook_deliveries.webhook_id) as url,
      (select a.consumer_secret from webhooks w join apps a on a.id = w.app_id where w.id = webhook_deliveries.webhook_id) as consumer_secret`.execute(db);
  return result.rows;
}

export async function markDelivered(db: DbOrTx, ids: string[], status: number, at: string): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    await db
      .updateTable('webhook_deliveries')
      .set((eb) => ({ status: 'delivered', attempts: eb('attempts', '+', 1), last_status: status, last_error: null, delivered_at: at, claimed_until: null }))
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
  }
}

/** A failed attempt: due again at `nextAttemptAt`, or given up (`failed`) when that is null. */
export async function markAttemptFailed(db: DbOrTx, id: string, outcome: { status: number | null; error: string; nextAttemptAt: string | null }): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      status: outcome.nextAttemptAt ? 'pending' : 'failed',
      attempts: eb('attempts', '+', 1),
      next_attempt_at: outcome.nextAttemptAt ?? eb.ref('next_attempt_at'),
      last_status: outcome.status,
      last_error: outcome.error.slice(0, 500),
      claimed_until: null,
    }))
    .where('id', '=', id)
    .execute();
}

/** Hands a claimed delivery back untried (its webhook became invalid meanwhile): it waits for re-validation. */
export async function releaseClaim(db: DbOrTx, id: string): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ claimed_until: null }).where('id', '=', id).execute();
}

export async function deliveriesOf(db: DbOrTx, webhookId: string): Promise<DeliveryRow[]> {
  return db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).orderBy('event_seq').orderBy('created_at').execute();
}

/** Outbox rows older than `before` that are settled: replay reaches back 24 h only. */
export async function pruneDeliveries(db: DbOrTx, before: string): Promise<void> {
  await db.deleteFrom('webhook_deliveries').where('created_at', '<', before).where('status', '!=', 'pending').execute();
}
