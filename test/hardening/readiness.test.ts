import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import Fastify from 'fastify';
import pg from 'pg';
import { Readiness, registerReadyz } from '../../src/http/health.js';
import { call, startTestPlaza } from '../support/server.js';
import { eventually } from '../support/wait.js';
import { childStore, startPlazaChild, type ChildStore, type PlazaChild } from './child.js';

/**
 * Issue #37 item 6, "Readiness that tells the truth, and draining": /readyz answers 503 while the
 * store (or Redis, when configured) cannot be reached and from the first moment of a shutdown; on
 * SIGTERM a process stops being ready, keeps serving for PLAZA_DRAIN_MS so a balancer notices,
 * then finishes its requests and exits.
 */
const children: PlazaChild[] = [];
const stores: ChildStore[] = [];
after(async () => {
  for (const c of children) c.kill();
  await Promise.all(children.map((c) => c.exited));
  for (const s of stores) await s.dispose();
});

test('/readyz answers 503 {status:"unavailable", unavailable:[...]} while a dependency fails or does not answer within a second, and {status:"stopping"} once a shutdown begins', async () => {
  const readiness = new Readiness();
  for (const step of ['store_migrated', 'demo_seeded', 'credentials_written', 'workers_started'] as const) readiness.mark(step);
  let storeUp = true;
  readiness.depend('store', async () => {
    if (!storeUp) throw new Error('down');
  });
  readiness.depend('redis', () => new Promise(() => {}));
  const app = Fastify();
  registerReadyz(app, readiness);
  try {
    let res = await app.inject({ url: '/readyz' });
    assert.equal(res.statusCode, 503);
    assert.deepEqual(res.json(), { status: 'unavailable', unavailable: ['redis'] });
    assert.equal(res.headers['retry-after'], '1');
    storeUp = false;
    res = await app.inject({ url: '/readyz' });
    assert.deepEqual(res.json(), { status: 'unavailable', unavailable: ['store', 'redis'] });
    readiness.stopping = true;
    res = await app.inject({ url: '/readyz' });
    assert.equal(res.statusCode, 503);
    assert.deepEqual(res.json(), { status: 'stopping' });
  } finally {
    await app.close();
  }
});

test('on SIGTERM the process stops being ready at once, goes on serving through PLAZA_DRAIN_MS, then exits 0', async () => {
  const store = await childStore();
  stores.push(store);
  const plaza = startPlazaChild(store, { stdout: 'read', env: { PLAZA_DRAIN_MS: '1500' } });
  children.push(plaza);
  const creds = await plaza.ready();
  assert.equal((await call(creds.base_url, '/readyz')).status, 200);
  plaza.child.kill('SIGTERM');
  await eventually(async () => (await call(creds.base_url, '/readyz')).status === 503, 'readiness to drop on SIGTERM', 5_000);
  assert.deepEqual((await call(creds.base_url, '/readyz')).body, { status: 'stopping' });
  // Still serving while the balancer notices.
  const served = await call(creds.base_url, `/2/posts/${creds.sample.post_ids[0]}`, { auth: { bearer: creds.apps[0]!.bearer_token } });
  assert.equal(served.status, 200, served.text);
  const exit = await plaza.exitWithin(12_000);
  assert.ok(exit, `still running 12 s after SIGTERM: ${plaza.stderr()}`);
  assert.equal(exit.code, 0, plaza.stderr());
});

test('PostgreSQL out of reach: /readyz answers 503 naming the store, and 200 again once it is back', { skip: process.env.DATABASE_URL ? false : 'PostgreSQL only (DATABASE_URL)' }, async () => {
  const plaza = await startTestPlaza();
  const database = new URL(plaza.databaseUrl).pathname.slice(1);
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  try {
    assert.equal((await call(plaza.urls.base_url, '/readyz')).status, 200);
    await admin.query(`alter database "${database}" with allow_connections false`);
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database]);
    await eventually(async () => {
      const res = await call(plaza.urls.base_url, '/readyz');
      return res.status === 503 && JSON.stringify(res.body) === JSON.stringify({ status: 'unavailable', unavailable: ['store'] });
    }, 'readiness to drop while the store is out of reach', 10_000);
    await admin.query(`alter database "${database}" with allow_connections true`);
    await eventually(async () => (await call(plaza.urls.base_url, '/readyz')).status === 200, 'readiness to come back with the store', 10_000);
  } finally {
    await admin.query(`alter database "${database}" with allow_connections true`).catch(() => {});
    await admin.end();
    await plaza.close();
  }
});

