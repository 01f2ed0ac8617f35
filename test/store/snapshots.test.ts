import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { dropPostgresDatabase, freshPostgresDatabase } from '../support/server.js';
import { within } from '../support/wait.js';
import { SETTLED_MS, SnapshotConnection, Snapshots, type FreshGeneration } from '../../src/store/snapshots.js';

const adminUrl = process.env.DATABASE_URL;
const skip = adminUrl ? false : 'PostgreSQL only: run with DATABASE_URL';

/** Runs `check` with a pool, retrying while another test's commit (on any database of the server) moves the snapshot under it. */
async function withSteadySnapshots(check: (snapshots: Snapshots, clock: { ms: number }, pool: pg.Pool) => Promise<boolean>): Promise<void> {
  const pool = new pg.Pool({ connectionString: adminUrl, max: 2 });
  const connection = new SnapshotConnection(pool);
  try {
    for (let tries = 0; tries < 50; tries++) {
      const clock = { ms: 1_000_000 };
      if (await check(new Snapshots(connection.query, () => clock.ms), clock, pool)) return;
    }
    assert.fail('the server committed between every two reads of 50 tries');
  } finally {
    await connection.close();
    await pool.end();
  }
}

test('the generation is settled once the same snapshot has held SETTLED_MS, and a commit makes it another, unsettled', { skip }, async () => {
  await withSteadySnapshots(async (snapshots, clock, pool) => {
    const first = await snapshots.fresh();
    assert.equal(first.settled, false, 'a text not seen before');
    clock.ms += SETTLED_MS - 1;
    const early = await snapshots.fresh();
    if (early.generation !== first.generation) return false;
    assert.equal(early.settled, false, 'held for less than SETTLED_MS');
    assert.equal(early, first, 'the same answer while the text holds');
    clock.ms += 1;
    const held = await snapshots.fresh();
    if (held.generation !== first.generation) return false;
    assert.equal(held.settled, true);
    await pool.query('create temporary table if not exists generation_probe (n int); insert into generation_probe values (1)');
    const after = await snapshots.fresh();
    assert.notEqual(after.generation, first.generation, 'a commit changes the snapshot');
    assert.equal(after.settled, false);
    return true;
  });
});

test('the responses of one turn share one read of the generation, sent after they all asked; a later one reads again', { skip }, async () => {
  const pool = new pg.Pool({ connectionString: adminUrl, max: 2 });
  const connection = new SnapshotConnection(pool);
  let sent = 0;
  try {
    const snapshots = new Snapshots(() => (sent++, connection.query()));
    const together: Array<Promise<FreshGeneration>> = [snapshots.fresh(), snapshots.fresh(), snapshots.fresh()];
    assert.equal(sent, 0, 'nothing is sent in the turn the responses ask');
    const answers = await Promise.all(together);
    assert.equal(sent, 1);
    assert.ok(answers.every((a) => a === answers[0]));
    await snapshots.fresh();
    assert.equal(sent, 2);
  } finally {
    await connection.close();
    await pool.end();
  }
});

test('while a read of the generation is in flight, responses that ask wait for its answer and share the next read, sent then', { skip }, async () => {
  const pool = new pg.Pool({ connectionString: adminUrl, max: 2 });
  const connection = new SnapshotConnection(pool);
  const sent: number[] = [];
  const gates: Array<() => void> = [];
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  try {
    const snapshots = new Snapshots(() => {
      sent.push(sent.length);
      return new Promise<void>((open) => gates.push(open)).then(() => connection.query());
    });
    const first = snapshots.fresh();
    await turn();
    await turn();
    assert.equal(sent.length, 1, 'the first read is sent');
    const later = [snapshots.fresh(), snapshots.fresh()];
    await turn();
    await turn();
    await turn();
    assert.equal(sent.length, 1, 'no second read while the first is in flight');
    gates.shift()!();
    await first;
    await turn();
    await turn();
    assert.equal(sent.length, 2, 'the responses that asked meanwhile share one read, sent once the first is answered');
    gates.shift()!();
    const answers = await Promise.all(later);
    assert.equal(answers[0], answers[1]);
  } finally {
    for (const open of gates) open();
    await connection.close();
    await pool.end();
  }
});

test('the connection kept for the generation is replaced when the server ends it: the end is reported, not fatal, and the next read checks out another', { skip }, async () => {
  const url = await freshPostgresDatabase(adminUrl!);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  let report!: (err: Error) => void;
  const reported = new Promise<Error>((resolve) => (report = resolve));
  const connection = new SnapshotConnection(pool, (err) => report(err));
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const snapshot = /^\d+:\d+:/;
    assert.match(await connection.query(), snapshot);
    const ended = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [new URL(url).pathname.slice(1)]);
    assert.equal(ended.rowCount, 1, 'the one kept connection');
    assert.match(String(await within(reported, 'the ended connection to be reported')), /terminat/);
    assert.match(await connection.query(), snapshot);
    assert.equal(pool.totalCount, 1, 'the ended connection left the pool');
  } finally {
    await admin.end();
    await connection.close();
    await pool.end();
    await dropPostgresDatabase(url);
  }
});
