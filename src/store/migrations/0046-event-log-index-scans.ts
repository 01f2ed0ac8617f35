import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * The event log's looks for events without a place read the partial index `events_unsequenced`
 * entry by entry (an index scan), never as a bitmap. Each event is written without a place and
 * then updated to take one, which leaves behind, until a vacuum, an index entry for the version
 * without a place. An index scan that meets such an entry marks it dead and later scans step
 * over it (and PostgreSQL reclaims marked entries when the index page fills); a bitmap scan marks
 * nothing and visits every one of them in the table, each time. The planner picks the bitmap on a
 * table it has no statistics for (a new store, a new world: autovacuum analyzes it a minute or
 * more later): there the sequencer and the look before it cost 0.5 to 2 ms a post after 4,000
 * posts and grew with each one (4,000 dead entries, 408 table pages visited per look; after, 21
 * index pages and no table page).
 *
 * So both run in functions that forbid bitmap scans for their own statements: the sequencer
 * (0043's, unchanged but for that) and `plaza_events_held`, the count of events without a place
 * (PL/pgSQL, which keeps its plan for the session; a SQL function planned it on every call).
 */
export async function up(db: Kysely<any>, dialect: StoreDialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`alter function plaza_sequence_events(bigint) set enable_bitmapscan = off`.execute(db);
  await sql`
    create or replace function plaza_events_held() returns bigint
    language plpgsql stable set enable_bitmapscan = off
    as $fn$ begin return (select count(*) from events where seq is null); end $fn$`.execute(db);
}
