import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * The event log's sequencer as one PostgreSQL function (src/events/log.ts `sequenceEvents` calls
 * it): one round trip instead of a transaction of four statements, which a write paid once it had
 * committed. It tries the sequencers' advisory lock (`lock_key`; another sequencer holding it
 * means 0), then gives places (`seq`) in transaction order to the events whose transactions, and
 * every older one of this database, have ended, and says how many it placed.
 *
 * In a function each statement takes its own snapshot (it is volatile, under READ COMMITTED), so
 * the events and transactions it looks at are those after the lock was taken, as when the lock
 * and the update were two statements of one transaction; the lock ends with the call's.
 *
 * The horizon is the oldest transaction still running that may be this database's (the snapshot's
 * xmax when none). Transactions of other databases on the server write no events here, and a long
 * one there (a bulk load, another application's batch) must not hold this log back: the
 * snapshot's running transactions that a backend of another database runs (pg_stat_activity's
 * 32-bit backend_xid against the low half of each 64-bit id) are left out. Only those:
 * pg_stat_activity is read a moment after the snapshot, and a transaction of this database that
 * ended in between must still count (its events are not in the snapshot).
 */
export async function up(db: Kysely<any>, dialect: StoreDialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`
    create or replace function plaza_sequence_events(lock_key bigint) returns bigint
    language plpgsql volatile as $fn$
    declare
      placed bigint;
    begin
      if not pg_try_advisory_xact_lock(lock_key) then
        return 0;
      end if;
      with snap as (select pg_current_snapshot() as s),
      elsewhere as (
        select backend_xid::text::bigint as xid32 from pg_stat_activity
        where datname is distinct from current_database() and datname is not null and backend_xid is not null
      ),
      horizon as (
        select coalesce(
          (select min(x) from snap, pg_snapshot_xip(snap.s) as x where (x::text::bigint % 4294967296) not in (select xid32 from elsewhere)),
          (select pg_snapshot_xmax(s) from snap)
        ) as h
      ),
      done as (
        select id, row_number() over (order by xid, id) as n from events, horizon
        where seq is null and xid < horizon.h
      ),
      last as (select coalesce(max(seq), 0) as seq from events)
      update events set seq = last.seq + done.n from done, last where events.id = done.id;
      get diagnostics placed = row_count;
      return placed;
    end
    $fn$`.execute(db);
}
