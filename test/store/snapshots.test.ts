import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { SETTLED_MS, Snapshots, type FreshGeneration } from '../../src/store/snapshots.js';

const adminUrl = process.env.DATABASE_URL;
const skip = adminUrl ? false : 'PostgreSQL only: run with DATABASE_URL';

/** Runs `check` with a pool, retrying while another test's commit (on any database of the server) moves the snapshot under it. */
async function withSteadySnapshots(check: (snapshots: Snapshots, clock: { ms: number }, pool: pg.Pool) => Promise<boolean>): Promise<void> {
  const pool = new pg.Pool({ connectionString: adminUrl, max: 2 });
  try {
    for (let tries = 0; tries < 50; tries++) {
      const clock = { ms: 1_000_000 };
      if (await check(new Snapshots(pool, () => clock.ms), clock, pool)) return;
    }
    assert.fail('the server committed between every two reads of 50 tries');
  } finally {
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
  const sent: string[] = [];
  const query = pool.query.bind(pool);
  pool.query = ((text: string) => (sent.push(text), query(text))) as typeof pool.query;
  try {
    const snapshots = new Snapshots(pool);
    const together: Array<Promise<FreshGeneration>> = [snapshots.fresh(), snapshots.fresh(), snapshots.fresh()];
    assert.equal(sent.length, 0, 'nothing is sent in the turn the responses ask');
    const answers = await Promise.all(together);
    assert.equal(sent.length, 1);
    assert.ok(answers.every((a) => a === answers[0]));
    await snapshots.fresh();
    assert.equal(sent.length, 2);
  } finally {
    await pool.end();
  }
});

test('while a read of the generation is in flight, responses that ask wait for its answer and share the next read, sent then', { skip }, async () => {
  const pool = new pg.Pool({ connectionString: adminUrl, max: 2 });
  const sent: string[] = [];
  const gates: Array<() => void> = [];
  const query = pool.query.bind(pool);
  pool.query = ((text: string) => {
    sent.push(text);
    return new Promise<void>((open) => gates.push(open)).then(() => query(text));
  }) as typeof pool.query;
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  try {
    const snapshots = new Snapshots(pool);
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
    await pool.end();
  }
});
