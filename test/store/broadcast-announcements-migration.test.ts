import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { plazaMigrator } from '../../src/store/store.js';
import { withUnmigratedStore } from '../support/unmigrated-store.js';

/**
 * Migration 0031 adds when each broadcast's start and end were announced. Broadcasts that had
 * started or ended by real time when it ran count as announced, so an upgraded Plaza's coordinator
 * does not announce the past; the rest are left for it.
 */
test('migration 0031: broadcasts already started or ended count as announced; those to come, and a manual one never published, are left to the coordinator', async () => {
  // One connection: the rows below name an owner this test does not create, so the connection's
  // foreign-key checks are set aside for it.
  await withUnmigratedStore(async (db, dialect) => {
    const m = plazaMigrator(db, dialect);
    const before = await m.migrateTo('0030-posts-live-by-author');
    assert.equal(before.error, undefined);
    await (dialect === 'postgres' ? sql`set session_replication_role = replica` : sql`pragma foreign_keys = off`).execute(db);
    const at = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
    const row = (id: string, manual: number, start: number, end: number, liveAt: string | null = null) => ({
      broadcast_id: id, scheduled_broadcast_id: `${id}1`, owner_id: 'u1', recurring_schedule_id: null, recurrence_frequency: null, source_id: 'src',
      title: null, description: null, locale: null, chat_option: null, telecast_id: null, thumbnail_media_id: null,
      available_for_replay: 0, is_locked: 0, manual_publish: manual, scheduled_start: at(start), scheduled_end: at(end), live_at: liveAt, created_at: at(-48), updated_at: at(-48),
    });
    await db.insertInto('scheduled_broadcasts').values([
      row('ended', 0, -3, -2),
      row('running', 0, -1, 1),
      row('coming', 0, 1, 2),
      row('live', 1, 1, 2, at(-1)),
      row('unpublished', 1, -1, 1),
      row('unpublishedended', 1, -3, -2),
      row('liveended', 1, -3, -2, at(-3)),
    ]).execute();

    const after = await m.migrateToLatest();
    assert.equal(after.error, undefined, String(after.error));
    const rows = await db.selectFrom('scheduled_broadcasts').select(['broadcast_id', 'start_announced_at', 'end_announced_at']).orderBy('broadcast_id').execute();
    assert.deepEqual(
      Object.fromEntries(rows.map((r) => [r.broadcast_id, [r.start_announced_at !== null, r.end_announced_at !== null]])),
      { coming: [false, false], ended: [true, true], live: [true, false], liveended: [true, true], running: [true, false], unpublished: [false, false], unpublishedended: [false, false] },
    );
  }, { maxConnections: 1 });
});
