import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { test } from 'node:test';
import { sql } from 'kysely';
import { plazaMigrator } from '../../src/store/store.js';
import { withUnmigratedStore } from '../support/unmigrated-store.js';

/**
 * Migration 0029 keeps uploaded audience identifiers as bytes. A store made before it holds them
 * as text: after the migration every identifier is still there, as the bytes the batch writes
 * and deletes by (identifierBytes in src/ads/audiences/batch.ts), under the same key.
 */
test('migration 0029: identifiers stored as text before it are kept as their bytes, digests as 32 bytes, partner ids as UTF-8, and nothing else changes', async () => {
  await withUnmigratedStore(async (db, dialect) => {
    const m = plazaMigrator(db, dialect);
    const before = await m.migrateTo('0028-post-term-hours');
    assert.equal(before.error, undefined);
    const digest = crypto.createHash('sha256').update('ada@plaza.example').digest('hex');
    const rows = [
      { list_id: 'list1', key_type: 'email', key_hash: digest, user_id: 'u1', expires_at: '2027-12-24T00:00:00.000Z', created_at: '2026-11-24T00:00:00.000Z' },
      { list_id: 'list1', key_type: 'partner_user_id', key_hash: 'a,b "é"', user_id: null, expires_at: '2027-12-25T00:00:00.000Z', created_at: '2026-11-24T00:00:00.000Z' },
    ];
    await db.insertInto('ads_audience_users').values(rows).execute();

    const after = await m.migrateToLatest();
    assert.equal(after.error, undefined, String(after.error));
    const kept = await db.selectFrom('ads_audience_users').selectAll().orderBy('key_type').execute();
    assert.deepEqual(
      kept.map((r) => ({ ...r, key_hash: Buffer.from(r.key_hash) })),
      [
        { list_id: 'list1', key_type: 'email', key_hash: Buffer.from(digest, 'hex'), user_id: 'u1', expires_at: '2027-12-24T00:00:00.000Z' },
        { list_id: 'list1', key_type: 'partner_user_id', key_hash: Buffer.from('a,b "é"', 'utf8'), user_id: null, expires_at: '2027-12-25T00:00:00.000Z' },
      ],
    );
    // The key still holds: the same identifier again is a conflict, not a second row.
    await assert.rejects(db.insertInto('ads_audience_users').values({ list_id: 'list1', key_type: 'email', key_hash: Buffer.from(digest, 'hex'), user_id: null, expires_at: '2028-01-01T00:00:00.000Z' }).execute());
    // And the matched-users index is there for audience sizes.
    const indexes =
      dialect === 'postgres'
        ? (await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'ads_audience_users'`.execute(db)).rows
        : (await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'ads_audience_users'`.execute(db)).rows;
    assert.ok(indexes.some((i) => i.name === 'ads_audience_users_matched'), JSON.stringify(indexes));
  });
});
