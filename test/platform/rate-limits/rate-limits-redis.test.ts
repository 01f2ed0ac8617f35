import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { CredentialsFile } from '../../../src/seed/credentials.js';
import { startChildPlaza, type ChildPlaza } from '../../support/child-plaza.js';
import { eventually } from '../../support/wait.js';
import { call, dropPostgresDatabase, freshPostgresDatabase, type CallResult } from '../../support/server.js';

/**
 * Issue #18: rate limits are "shared across processes through Redis when REDIS_URL is set" — two
 * real Plaza processes on one PostgreSQL store and a real Redis spend one window. The admin clock
 * (shared through the store) is frozen inside a window and moved past it; nothing waits it out.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const QUARTER = 15 * 60 * 1000;
const children: ChildPlaza[] = [];
const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const c of children) await c.stop();
  for (const c of cleanups) await c();
});

const remaining = (res: CallResult) => Number(res.headers.get('x-rate-limit-remaining'));

test('two Plaza processes on one store with REDIS_URL spend one window per user and route: the 16th request to GET /2/users/{id}/blocking, alternating between them, gets 429', { skip: process.env.DATABASE_URL ? false : 'needs DATABASE_URL: the two processes share one PostgreSQL store', timeout: 180_000 }, async () => {
  const db = await freshPostgresDatabase(process.env.DATABASE_URL!);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-rate-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }), () => dropPostgresDatabase(db));
  // One server secret, kept in the store: both processes derive the same admin token and app-only bearer tokens.
  const env = { REDIS_URL, PLAZA_ACTIVITY_POLL_MS: '200' };
  const a = await startChildPlaza({ db, dataDir: path.join(dataDir, 'a'), env });
  children.push(a);
  const b = await startChildPlaza({ db, dataDir: path.join(dataDir, 'b'), env });
  children.push(b);
  const creds = JSON.parse(fs.readFileSync(path.join(dataDir, 'a', 'credentials.json'), 'utf8')) as CredentialsFile;
  const admin = { bearer: creds.admin_token! };
  const ada = creds.users.find((u) => u.username === 'ada')!;
  const auth = { bearer: ada.oauth2_access_token };

  // Frozen a minute into the next window, seen by both processes.
  const at = new Date(Math.ceil(Date.now() / QUARTER) * QUARTER + 60_000).toISOString();
  const set = await call(a.baseUrl, '/admin/clock', { method: 'POST', auth: admin, body: { set: at, frozen: true } });
  assert.equal(set.status, 200, set.text);
  await eventually(async () => (await call(b.baseUrl, '/admin/clock', { auth: admin })).body?.data?.now === set.body.data.now, 'process B reading the moved clock');

  const route = `/2/users/${ada.id}/blocking`;
  for (let i = 0; i < 15; i++) {
    const res = await call(i % 2 === 0 ? a.baseUrl : b.baseUrl, route, { auth });
    assert.equal(res.status, 200, res.text);
    assert.equal(remaining(res), 14 - i, `request ${i + 1}: one count across both processes`);
  }
  for (const base of [a.baseUrl, b.baseUrl]) {
    const limited = await call(base, route, { auth });
    assert.equal(limited.status, 429, limited.text);
    assert.deepEqual(limited.body, { title: 'Too Many Requests', type: 'about:blank', status: 429, detail: 'Too Many Requests' });
  }

  const moved = await call(a.baseUrl, '/admin/clock', { method: 'POST', auth: admin, body: { advance: 'PT15M' } });
  assert.equal(moved.status, 200, moved.text);
  await eventually(async () => (await call(b.baseUrl, '/admin/clock', { auth: admin })).body?.data?.now === moved.body.data.now, 'process B reading the moved clock');
  const fresh = await call(b.baseUrl, route, { auth });
  assert.equal(fresh.status, 200, fresh.text);
  assert.equal(remaining(fresh), 14, 'a new window');
});
