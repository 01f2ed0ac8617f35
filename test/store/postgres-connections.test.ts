import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { CompiledQuery, sql } from 'kysely';
import { preparedOnPostgres } from '../../src/store/prepared-statements.js';
import { openStore } from '../../src/store/store.js';
import { dropPostgresDatabase, freshPostgresDatabase } from '../support/server.js';
import { eventually, within } from '../support/wait.js';

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
  let drop!: (err: Error) => void;
  const dropped = new Promise<Error>((resolve) => (drop = resolve));
  const store = await openStore(url, (err) => drop(err));
  try {
    await sql`SELECT 1`.execute(store.db);
    assert.ok((await terminateBackends(url)) >= 1);
    assert.match(String(await within(dropped, 'the lost connection to be reported')), /terminat/);
    const row = await sql<{ one: number }>`SELECT 1 AS one`.execute(store.db);
    assert.equal(row.rows[0].one, 1);
  } finally {
    await store.close();
    await dropPostgresDatabase(url);
  }
});

test('a connection the server terminates inside a transaction, between two queries, fails that transaction and is reported; the process goes on and the store reconnects', { skip }, async () => {
  const url = await freshPostgresDatabase(adminUrl!);
  const reported: Error[] = [];
  const store = await openStore(url, (err) => reported.push(err));
  try {
    const failed = await store.db
      .transaction()
      .execute(async (tx) => {
        await sql`SELECT 1`.execute(tx);
        assert.ok((await terminateBackends(url)) >= 1);
        // The client hears the drop while checked out, between queries: unheard, an uncaught 'error'.
        await eventually(() => reported.length > 0, 'the dropped connection to be reported', 5_000);
        await sql`SELECT 2`.execute(tx);
      })
      .then(
        () => undefined,
        (err: Error) => err,
      );
    assert.ok(failed, 'the transaction fails');
    assert.match(String(reported[0]), /terminat/);
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

test('a text marked as prepared is sent as a named statement, parsed once per connection and answering each run with its own values; an unmarked text stays unnamed', { skip }, async () => {
  const url = await freshPostgresDatabase(adminUrl!);
  const store = await openStore(url);
  try {
    const marked = preparedOnPostgres('select $1::int * 2 as doubled /* prepared-statements test */');
    const unmarked = 'select $1::int * 3 as tripled /* prepared-statements test */';
    await store.db.transaction().execute(async (tx) => {
      const runs: number[] = [];
      for (const n of [2, 5]) runs.push((await tx.executeQuery<{ doubled: number }>(CompiledQuery.raw(marked, [n]))).rows[0].doubled);
      assert.deepEqual(runs, [4, 10]);
      assert.equal((await tx.executeQuery<{ tripled: number }>(CompiledQuery.raw(unmarked, [2]))).rows[0].tripled, 6);
      const prepared = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements where statement like ${'%prepared-statements test%'}`.execute(tx);
      assert.deepEqual(prepared.rows.map((r) => r.statement), [marked]);
      assert.match(prepared.rows[0].name, /^plaza_\d+$/);
    });
  } finally {
    await store.close();
    await dropPostgresDatabase(url);
  }
});
