import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * The event log without a global lock on PostgreSQL (issue 37 item 2). An event is written with
 * the id of the transaction that writes it (`xid`, pg_current_xact_id()) and no place in the log
 * yet (`seq` null); once every transaction older than it has ended, a sequencer gives it the next
 * `seq` in transaction order (src/events/log.ts). Readers keep reading by `seq`: what they see past
 * their cursor is final, and writers never wait on each other. SQLite has one writer at a time,
 * so its `seq` is given at insert as before.
 */
export async function up(db: Kysely<any>, dialect: StoreDialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`alter table events drop constraint events_pkey`.execute(db);
  await sql`alter table events alter column seq drop not null, alter column seq drop default`.execute(db);
  await sql`alter table events add column xid xid8 not null default pg_current_xact_id()`.execute(db);
  await sql`create unique index events_seq on events (seq)`.execute(db);
  // The events still waiting for their place, which the sequencer looks for on every read.
  await sql`create index events_unsequenced on events (id) where seq is null`.execute(db);
}
