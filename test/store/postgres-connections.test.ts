import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { sql } from 'kysely';
import { openStore } from '../../src/store/store.js';
import { dropPostgresDatabase, freshPostgresDatabase } from '../support/server.js';

const adminUrl = process.env.DATABASE_URL;
const skip = adminUrl ? false : 'PostgreSQL only: run with DATABASE_URL';

async function terminateBackends(url: string): Promise<number> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const name = new URL(url).pathname.slice(1);
    const result = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
    return result.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

test('an idle PostgreSQL connection the server terminates is reported, not fatal, and the store reconnects', { skip }, async () => {
  const url = await freshPostgresDatabase(adminUrl!);
  const dropped: Error[] = [];
  const store = await openStore(url, (err) => dropped.push(err));
  try {
    await sql`SELECT 1`.execute(store.db);
    assert.ok((await terminateBackends(url)) >= 1);
    for (let i = 0; i < 50 && dropped.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.match(String(dropped[0]), /terminat/);
    const row = await sql<{ one: number }>`SELECT 1 AS one`.execute(store.db);
    assert.equal(row.rows[0].one, 1);
  } finally {
    await store.close();
    await dropPostgresDatabase(url);
  }
});

test('closing the store waits until its connections are gone, so the database can be dropped at once', { skip }, async () => {
  const url = await freshPostgresDatabase(adminUrl!);
  const store = await openStore(url, (err) => assert.fail(`no connection should be cut: ${err.message}`));
  await Promise.all(Array.from({ length: 5 }, () => sql`SELECT pg_sleep(0.01)`.execute(store.db)));
  await store.close();
  assert.equal(await terminateBackends(url), 0);
  await dropPostgresDatabase(url);
});
