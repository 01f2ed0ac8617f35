import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * When each broadcast's start and end were announced (broadcast.start and broadcast.end): the
 * coordinator of src/events/workers.ts announces an automatically published broadcast's start,
 * and every started broadcast's end, once its scheduled time has passed, claiming each row once
 * whichever process runs it. Broadcasts that had already started or ended when this migration ran
 * count as announced (by real time: a migration has no injected clock), so an upgrade does not
 * announce the past.
 */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  await db.schema.alterTable('scheduled_broadcasts').addColumn('start_announced_at', 'text').execute();
  await db.schema.alterTable('scheduled_broadcasts').addColumn('end_announced_at', 'text').execute();
  const now = new Date().toISOString();
  await db
    .updateTable('scheduled_broadcasts')
    .set({ start_announced_at: now })
    .where((eb) => eb.or([eb.and([eb('manual_publish', '=', 0), eb('scheduled_start', '<=', now)]), eb('live_at', 'is not', null)]))
    .execute();
  await db.updateTable('scheduled_broadcasts').set({ end_announced_at: now }).where('start_announced_at', 'is not', null).where('scheduled_end', '<=', now).execute();
  // What the coordinator looks for on every tick: starts not yet announced, ends not yet announced.
  await sql.raw('create index scheduled_broadcasts_unstarted on scheduled_broadcasts (scheduled_start) where start_announced_at is null and manual_publish = 0').execute(db);
  await sql.raw('create index scheduled_broadcasts_unended on scheduled_broadcasts (scheduled_end) where start_announced_at is not null and end_announced_at is null').execute(db);
}
