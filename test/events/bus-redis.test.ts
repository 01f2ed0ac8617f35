import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { CredentialsFile } from '../../src/seed/credentials.js';
import { StreamClient } from '../support/streams.js';
import { call, dropPostgresDatabase, freshPostgresDatabase } from '../support/server.js';
import { startChildPlaza, type ChildPlaza } from '../support/child-plaza.js';

/**
 * Issue #10 "The pipeline": "Redis pub/sub when REDIS_URL is set, so a write on one Plaza process
 * reaches a stream held open by another" — two real Plaza processes on one PostgreSQL store and a
 * real Redis. Their poll (the bus's safety net) is set to 10 minutes, so only the bus can bring
 * the event within the test's bound.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const children: ChildPlaza[] = [];
const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const c of children) await c.stop();
  for (const c of cleanups) await c();
});

test('a write on one Plaza process reaches an activity stream held open by another (Redis pub/sub, two processes on one PostgreSQL store)', { skip: process.env.DATABASE_URL ? false : 'needs DATABASE_URL: the two processes share one PostgreSQL store', timeout: 180_000 }, async () => {
  const db = await freshPostgresDatabase(process.env.DATABASE_URL!);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-redis-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }), () => dropPostgresDatabase(db));
  const env = { REDIS_URL, PLAZA_ACTIVITY_POLL_MS: '600000' };
  const dirA = path.join(dataDir, 'a');
  const dirB = path.join(dataDir, 'b');
  const a = await startChildPlaza({ db, dataDir: dirA, env });
  children.push(a);
  const b = await startChildPlaza({ db, dataDir: dirB, env });
  children.push(b);
  const creds = JSON.parse(fs.readFileSync(path.join(dirA, 'credentials.json'), 'utf8')) as CredentialsFile;
  const app = creds.apps[0]!;
  const user = creds.users.find((u) => u.username === 'dana') ?? creds.users[0]!;

  const sub = await call(a.baseUrl, '/2/activity/subscriptions', { method: 'POST', auth: { bearer: app.bearer_token }, body: { event_type: 'profile.update.bio', filter: { user_id: user.id } } });
  assert.equal(sub.status < 300, true, sub.text);
  const stream = await StreamClient.open(a.baseUrl, '/2/activity/stream', app.bearer_token);
  cleanups.push(() => stream.close());
  assert.equal(stream.status, 200);

  const patched = await call(b.baseUrl, '/2/users/me', { method: 'PATCH', auth: { bearer: user.oauth2_access_token }, body: { description: 'Written on process B.' } });
  assert.equal(patched.status, 200, patched.text);
  await stream.until(() => stream.events().some((e) => e.data?.payload?.after === 'Written on process B.'), 'the event written on the other process', 10_000);
});
