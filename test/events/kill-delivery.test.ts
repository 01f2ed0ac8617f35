import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { DELIVERY_ID_HEADER } from '../../src/events/delivery.js';
import type { CredentialsFile } from '../../src/seed/credentials.js';
import { call, dropPostgresDatabase, freshPostgresDatabase, type CallOptions } from '../support/server.js';
import { startChildPlaza, type ChildPlaza } from '../support/child-plaza.js';
import { WebhookReceiver } from '../support/receivers.js';

/**
 * Durability and the multi-process claim with real Plaza processes (issue #10 "The pipeline"):
 * "A kill -9 during deliveries loses none: after restart every event is delivered", and "With
 * several processes, each delivery is claimed by exactly one of them". On SQLite by default; on
 * PostgreSQL when DATABASE_URL is set.
 */
const receiver = new WebhookReceiver();
const children: ChildPlaza[] = [];
const dirs: string[] = [];
const databases: string[] = [];

before(() => receiver.start());
after(async () => {
  for (const c of children) await c.stop();
  receiver.dropHeld();
  await receiver.close();
  for (const db of databases) await dropPostgresDatabase(db);
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function store(): Promise<{ db: string; dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-kill-'));
  dirs.push(dataDir);
  if (!process.env.DATABASE_URL) return { db: path.join(dataDir, 'plaza.sqlite'), dataDir };
  const db = await freshPostgresDatabase(process.env.DATABASE_URL);
  databases.push(db);
  return { db, dataDir };
}

/** A short delivery time-out, so a dead process's claims run out in seconds. */
const env = { PLAZA_WEBHOOK_TIMEOUT_MS: '1000' };

async function child(db: string, dataDir: string, more: Record<string, string> = {}): Promise<ChildPlaza> {
  const c = await startChildPlaza({ db, dataDir: fs.mkdtempSync(path.join(dataDir, 'p-')), env: { ...env, ...more } });
  children.push(c);
  return c;
}

/** The data directory of the child that wrote its credentials file (the first on a store). */
function dirOf(c: ChildPlaza, dataDir: string): string {
  const dirs = fs.readdirSync(dataDir).filter((d) => d.startsWith('p-')).map((d) => path.join(dataDir, d));
  return dirs.find((d) => fs.existsSync(path.join(d, 'credentials.json')) && JSON.parse(fs.readFileSync(path.join(d, 'credentials.json'), 'utf8')).base_url === c.baseUrl)!;
}

function creds(c: ChildPlaza, dataDir: string): CredentialsFile {
  return JSON.parse(fs.readFileSync(path.join(dirOf(c, dataDir), 'credentials.json'), 'utf8')) as CredentialsFile;
}

/** Creates a webhook at `name` and subscribes the first demo user to it; returns an OAuth 1.0a signer for that user. */
async function setUp(c: ChildPlaza, k: CredentialsFile, name: string) {
  const app = k.apps[0]!;
  receiver.secret = app.consumer_secret;
  const created = await call(c.baseUrl, '/2/webhooks', { method: 'POST', auth: { bearer: app.bearer_token }, body: { url: receiver.url(name) } });
  assert.equal(created.status, 200, created.text);
  const user = k.users[0]!;
  const auth: CallOptions['auth'] = { oauth1: { consumer_key: app.consumer_key, consumer_secret: app.consumer_secret, token: user.access_token, token_secret: user.access_token_secret } };
  const sub = await call(c.baseUrl, `/2/account_activity/webhooks/${created.body.data.id}/subscriptions/all`, { method: 'POST', auth });
  assert.equal(sub.status, 200, sub.text);
  return { auth, userId: user.id };
}

async function post(c: ChildPlaza, auth: CallOptions['auth'], text: string): Promise<string> {
  const res = await call(c.baseUrl, '/2/posts', { method: 'POST', auth, body: { text } });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

const deliveredPostIds = (name: string) =>
  new Set(receiver.on(name).filter((d) => d.answered === 200).flatMap((d) => (d.body?.tweet_create_events ?? []).map((p: any) => p.id)));

test('A kill -9 during deliveries loses none: after restart every event is delivered (a real child process)', { timeout: 120_000 }, async () => {
  const { db, dataDir } = await store();
  const first = await child(db, dataDir);
  const k = creds(first, dataDir);
  const name = 'killed';
  const { auth } = await setUp(first, k, name);
  // The receiver takes the deliveries but never answers: they are in flight when the process dies.
  receiver.status.set(name, 'hold');
  const ids: string[] = [];
  for (let i = 0; i < 25; i++) ids.push(await post(first, auth, `acknowledged before the kill ${i}`));
  await receiver.until(() => receiver.on(name).length >= 1, 'deliveries in flight');
  await first.kill9();
  receiver.dropHeld();
  receiver.status.delete(name);

  // The second process reads the first's server secret from the store, so the first's admin token opens it too.
  const second = await child(db, dataDir, {});
  // The dead process's claims run out by the clock (their lease is the delivery time-out and 5 s):
  // the shared admin clock is moved past them rather than waited for.
  const moved = await call(second.baseUrl, '/admin/clock', { method: 'POST', auth: { bearer: k.admin_token! }, body: { advance: 'PT10S' } });
  assert.equal(moved.status, 200, moved.text);
  await receiver.until(() => ids.every((id) => deliveredPostIds(name).has(id)), `all ${ids.length} posts delivered after the restart`, 60_000);
  await second.stop();
});

test('With several processes, each delivery is claimed by exactly one of them (two real processes on one store)', { timeout: 120_000 }, async () => {
  const { db, dataDir } = await store();
  const a = await child(db, dataDir);
  const b = await child(db, dataDir);
  const k = creds(a, dataDir);
  const name = 'shared';
  const { auth } = await setUp(a, k, name);
  const ids: string[] = [];
  await Promise.all(
    Array.from({ length: 4 }, async (_, lane) => {
      for (let i = 0; i < 15; i++) ids.push(await post(lane % 2 === 0 ? a : b, auth, `lane ${lane} post ${i}`));
    }),
  );
  await receiver.until(() => ids.every((id) => deliveredPostIds(name).has(id)), `all ${ids.length} posts delivered`, 60_000);
  const perDelivery = new Map<string, number>();
  for (const d of receiver.on(name)) perDelivery.set(String(d.headers[DELIVERY_ID_HEADER]), (perDelivery.get(String(d.headers[DELIVERY_ID_HEADER])) ?? 0) + 1);
  assert.equal(perDelivery.size, ids.length);
  assert.deepEqual([...perDelivery.values()].filter((n) => n !== 1), [], 'no delivery was sent twice');
  await a.stop();
  await b.stop();
});
