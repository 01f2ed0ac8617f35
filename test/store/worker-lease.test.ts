import assert from 'node:assert/strict';
import { test } from 'node:test';
import { leaseWorker, LEASE_MS, NoFreeWorker, WORKERS } from '../../src/store/worker-lease.js';
import { startTestPlaza } from '../support/server.js';
import { eventually } from '../support/wait.js';

/**
 * Issue 37, item 3: "Worker numbers are leased from the store (unique among live processes,
 * renewed, reclaimed from dead ones)", so post ids of several processes cannot collide.
 */

const workerOf = (id: string) => Number((BigInt(id) >> 12n) & 1023n);
const quiet = () => {};

test('"worker numbers are leased from the store (unique among live processes)": two servers on one store hold different numbers, and the ids each makes carry its own', async () => {
  const one = await startTestPlaza();
  const two = await startTestPlaza({ databaseUrl: one.databaseUrl });
  const rows = await one.ctx.store.db.selectFrom('worker_leases').selectAll().execute();
  assert.equal(rows.length, 2, 'one lease per live process');
  const [a, b] = [one.ctx.ids.next(), two.ctx.ids.next()].map(workerOf);
  assert.notEqual(a, b);
  assert.deepEqual(rows.map((r) => Number(r.worker)).sort((x, y) => x - y), [a, b].sort((x, y) => x - y));
});

test('"reclaimed from dead ones": an expired lease is taken over, a live one never; when every number is held by a live process the start fails with a reason; close gives the number back', async () => {
  const plaza = await startTestPlaza();
  const db = plaza.ctx.store.db;
  await db.deleteFrom('worker_leases').execute();
  const live = new Date(Date.now() + LEASE_MS).toISOString();
  const dead = new Date(Date.now() - 1).toISOString();
  const rows = Array.from({ length: WORKERS }, (_, worker) => ({ worker, holder: `other:${worker}`, expires_at: worker === 517 ? dead : live }));
  for (let i = 0; i < rows.length; i += 200) await db.insertInto('worker_leases').values(rows.slice(i, i + 200)).execute();
  const lease = await leaseWorker(db, quiet, quiet);
  assert.equal(lease.worker, 517, 'the dead process\'s number');
  await assert.rejects(leaseWorker(db, quiet, quiet), NoFreeWorker, 'all 1,024 held by live processes');
  await lease.close();
  assert.equal(await db.selectFrom('worker_leases').select('worker').where('worker', '=', 517).executeTakeFirst(), undefined, 'given back');
  await db.deleteFrom('worker_leases').where('holder', 'like', 'other:%').execute();
});

test('"renewed": a lease is renewed while its process lives; one found taken (the process paused past its expiry) is replaced by another number, which the ids then carry', async () => {
  const plaza = await startTestPlaza();
  const db = plaza.ctx.store.db;
  const changes: number[] = [];
  const lease = await leaseWorker(db, (w) => changes.push(w), quiet, { renewMs: 50 });
  try {
    const first = lease.worker;
    const expiry = async () => (await db.selectFrom('worker_leases').select('expires_at').where('worker', '=', first).executeTakeFirstOrThrow()).expires_at;
    const before = await expiry();
    await eventually(async () => (await expiry()) > before, 'the lease renewed');
    // Another process took the number while this one could not renew.
    await db.updateTable('worker_leases').set({ holder: 'someone else' }).where('worker', '=', first).execute();
    await eventually(() => changes.length > 0, 'a new number leased');
    assert.notEqual(changes[0], first);
    assert.equal(lease.worker, changes[0]);
  } finally {
    await lease.close();
    await db.deleteFrom('worker_leases').where('holder', '=', 'someone else').execute();
  }
});
