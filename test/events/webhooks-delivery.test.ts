import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../src/clock.js';
import { DELIVERY_ID_HEADER, SIGNATURE_HEADER } from '../../src/events/delivery.js';
import { appendEvent } from '../../src/events/log.js';
import { registerWebhookRouter } from '../../src/events/webhook-routers.js';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { signatureOf, WebhookReceiver } from '../support/receivers.js';
import { eventually } from '../support/wait.js';
import { fixtures } from '../support/fixtures.js';
import { problemType } from '../support/problems.js';

/**
 * The webhook delivery pipeline (issue #10 "The pipeline"; shared/reference/platform.md §1 "Event
 * delivery"): the log is fanned out into a durable outbox and delivered signed, retried by the
 * injected clock, at-least-once with a delivery id, each delivery claimed by one process.
 * A router of the test's own sends every `test.hook` event to the webhook its payload names.
 */
registerWebhookRouter(async (_ctx, _db, event) => {
  if (event.type !== 'test.hook') return [];
  const p = JSON.parse(event.payload) as { webhook_id: string; body: unknown };
  return [{ webhookId: p.webhook_id, body: p.body }];
});

const clock = new ManualClock(new Date('2026-07-01T12:00:00.000Z'));
let plaza: TestPlaza;
let f: ReturnType<typeof fixtures>;
const receiver = new WebhookReceiver();
let n = 0;

before(async () => {
  await receiver.start();
  plaza = await startTestPlaza({}, { clock });
  f = fixtures(plaza);
  receiver.secret = f.selfServe.consumer_secret;
});
after(() => receiver.close());

async function createWebhook(path: string): Promise<string> {
  const res = await f.send('POST', '/2/webhooks', { auth: f.appAuth, body: { url: receiver.url(path) } });
  assert.equal(res.status, 200, res.text);
  return res.body.data.id;
}

async function emit(webhookId: string, body: unknown, p: TestPlaza = plaza): Promise<void> {
  await p.ctx.store.db.transaction().execute((tx) => appendEvent(p.ctx, tx, { type: 'test.hook', subject: webhookId, payload: { webhook_id: webhookId, body } }));
}

async function webhook(id: string) {
  return plaza.ctx.store.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

test('Signed deliveries: `x-twitter-webhooks-signature: sha256=<base64 HMAC-SHA256(app consumer secret, raw body)>`, JSON POST, with a delivery id', async () => {
  const path = `signed-${++n}`;
  const id = await createWebhook(path);
  await emit(id, { hello: 'world', n: 1 });
  await receiver.until(() => receiver.on(path).length === 1, 'the delivery');
  const [d] = receiver.on(path);
  assert.equal(d!.headers['content-type'], 'application/json');
  assert.equal(d!.headers[SIGNATURE_HEADER], signatureOf(d!.raw, f.selfServe.consumer_secret));
  assert.match(String(d!.headers[SIGNATURE_HEADER]), /^sha256=[A-Za-z0-9+/]+=*$/);
  assert.deepEqual(d!.body, { hello: 'world', n: 1 });
  assert.match(String(d!.headers[DELIVERY_ID_HEADER]), /^[0-9]{1,19}$/);
  const deliveryId = String(d!.headers[DELIVERY_ID_HEADER]);
  await eventually(async () => (await plaza.ctx.store.db.selectFrom('webhook_deliveries').select('status').where('id', '=', deliveryId).executeTakeFirst())?.status === 'delivered', 'the delivery recorded as delivered');
});

test('retried with backoff (the reference\'s 3 retries over 5 minutes) by the injected clock, at-least-once, every attempt carrying the same delivery id', async () => {
  const path = `retry-${++n}`;
  receiver.status.set(path, 503);
  const id = await createWebhook(path);
  await emit(id, { retry: true });
  await receiver.until(() => receiver.on(path).length === 1, 'the first attempt');
  // The retries fall due by the injected clock: at +1, +3 and +5 minutes.
  for (const [minutes, attempts] of [[1, 2], [2, 3], [2, 4]] as const) {
    await eventually(async () => (await plaza.ctx.store.db.selectFrom('webhook_deliveries').select('attempts').where('webhook_id', '=', id).executeTakeFirst())?.attempts === attempts - 1, 'the attempt recorded');
    assert.equal(receiver.on(path).length, attempts - 1, 'no retry before the clock moves');
    clock.advance(minutes * 60_000);
    await receiver.until(() => receiver.on(path).length === attempts, `attempt ${attempts}`);
  }
  const row = await eventually(async () => {
    const r = await plaza.ctx.store.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', id).executeTakeFirst();
    return r?.status === 'failed' ? r : undefined;
  }, 'the delivery given up after 3 retries');
  assert.equal(row.attempts, 4);
  assert.equal(row.last_status, 503);
  const ids = new Set(receiver.on(path).map((d) => d.headers[DELIVERY_ID_HEADER]));
  assert.equal(ids.size, 1, 'one delivery id across the retries: receivers dedupe on it');
  clock.advance(60 * 60_000);
  await plaza.ctx.store.db.selectFrom('webhooks').select('id').execute();
  assert.equal(receiver.on(path).length, 4, 'nothing after the last retry');
  // A receiver that recovers gets the next event at once.
  receiver.status.delete(path);
  await emit(id, { after: 'recovery' });
  await receiver.until(() => receiver.on(path).some((d) => d.body?.after === 'recovery'), 'the delivery after recovery');
});

test('a 3xx makes the webhook valid:false at once; an invalid webhook gets nothing until a PUT /2/webhooks/{id} passes again, and then gets what waited', async () => {
  const path = `redirect-${++n}`;
  receiver.status.set(path, 'redirect');
  const id = await createWebhook(path);
  await emit(id, { first: true });
  await receiver.until(() => receiver.on(path).length === 1, 'the redirected attempt');
  await eventually(async () => (await webhook(id)).valid === 0, 'the webhook made invalid');
  const listed = (await f.get('/2/webhooks', { auth: f.appAuth })).body.data.find((w: any) => w.id === id);
  assert.equal(listed.valid, false);
  receiver.status.delete(path);
  await emit(id, { second: true });
  clock.advance(10 * 60_000);
  // Both events wait in the outbox while the webhook is invalid.
  await eventually(async () => {
    const rows = await plaza.ctx.store.db.selectFrom('webhook_deliveries').select('status').where('webhook_id', '=', id).execute();
    return rows.length === 2 && rows.every((r) => r.status === 'pending');
  }, 'both deliveries waiting');
  assert.equal(receiver.on(path).length, 1);
  const put = await f.send('PUT', `/2/webhooks/${id}`, { auth: f.appAuth });
  assert.equal(put.status, 200, put.text);
  assert.equal(put.body.data.valid, true);
  await receiver.until(() => receiver.on(path).filter((d) => d.body?.first || d.body?.second).length === 3, 'both events after re-validation');
});

test('an SSL failure makes the webhook valid:false at once (a receiver whose certificate is not trusted)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-tls-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
  let hits = 0;
  const server = https.createServer({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) }, (_req, res) => {
    hits++;
    res.writeHead(200).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    // Created while it answered over plain http; then it moves to a self-signed certificate.
    const id = await createWebhook(`tls-${++n}`);
    await plaza.ctx.store.db.updateTable('webhooks').set({ url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook` }).where('id', '=', id).execute();
    await emit(id, { over: 'tls' });
    await eventually(async () => (await webhook(id)).valid === 0, 'the webhook made invalid by the SSL failure');
    assert.match((await webhook(id)).invalid_reason ?? '', /certificate|self.signed|SSL|TLS/i);
    assert.equal(hits, 0, 'nothing was accepted over the untrusted connection');
    const row = await plaza.ctx.store.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', id).executeTakeFirstOrThrow();
    assert.equal(row.status, 'pending', 'the delivery waits for the webhook to pass a CRC again');
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('transient failures make a webhook valid:false only after they have lasted more than 28 h (the grace); a success ends the run', async () => {
  const path = `transient-${++n}`;
  receiver.status.set(path, 500);
  const id = await createWebhook(path);
  // Down for the periodic CRCs too (due from 24 h on): a CRC that passed would end the run.
  receiver.crcStatus.set(path, 500);
  await emit(id, { t: 0 });
  await receiver.until(() => receiver.on(path).length === 1, 'the first failure');
  const started = await eventually(async () => (await webhook(id)).failing_since ?? undefined, 'failing_since set');
  assert.equal(started, clock.now().toISOString());
  clock.advance(27 * 60 * 60_000);
  await emit(id, { t: 27 });
  await receiver.until(() => receiver.on(path).some((d) => d.body?.t === 27), 'the failure at 27 h');
  await eventually(async () => (await plaza.ctx.store.db.selectFrom('webhook_deliveries').select('attempts').where('webhook_id', '=', id).where('event_seq', '=', (await plaza.ctx.store.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.max('event_seq').as('m')).where('webhook_id', '=', id).executeTakeFirstOrThrow()).m as number).executeTakeFirst())?.attempts === 1, 'the attempt at 27 h recorded');
  assert.equal((await webhook(id)).valid, 1, 'still valid within 28 h');
  clock.advance(2 * 60 * 60_000);
  // Whichever fails first at 29 h, this delivery or the periodic CRC, ends the grace. Jumping the
  // clock by hours makes other tests' webhook retries due in the same claimed batch, whose
  // outcomes are recorded together once every attempt of it has answered: on a loaded machine
  // that can take longer than the default wait.
  await emit(id, { t: 29 });
  await eventually(async () => (await webhook(id)).valid === 0, 'invalid after more than 28 h of failures', 30_000);
  assert.match((await webhook(id)).invalid_reason ?? '', /28 h/);

  // A success ends a run: a fresh webhook failing once, then succeeding, has no failing_since.
  const other = `recovering-${++n}`;
  receiver.status.set(other, 500);
  const oid = await createWebhook(other);
  await emit(oid, { r: 1 });
  await eventually(async () => (await webhook(oid)).failing_since ?? undefined, 'failing_since set');
  receiver.status.delete(other);
  clock.advance(60_000);
  await receiver.until(() => receiver.on(other).length === 2, 'the retry that succeeds');
  await eventually(async () => (await webhook(oid)).failing_since === null, 'failing_since cleared');
});

test('periodic CRC re-checks by the injected clock: every 30 minutes once not validated for 24 h; a wrong token makes the webhook valid:false', async () => {
  const path = `periodic-${++n}`;
  const id = await createWebhook(path);
  const before = receiver.crcs.filter((p) => p === `/${path}`).length;
  clock.advance(23 * 60 * 60_000);
  await emit(id, { tick: 1 });
  await receiver.until(() => receiver.on(path).length === 1, 'a delivery (the workers ran)');
  assert.equal(receiver.crcs.filter((p) => p === `/${path}`).length, before, 'no CRC within 24 h of a success');
  clock.advance(90 * 60_000);
  await receiver.until(() => receiver.crcs.filter((p) => p === `/${path}`).length === before + 1, 'the periodic CRC');
  // Its pass is recorded at the injected time: fresh again for 24 h.
  await eventually(async () => (await webhook(id)).last_crc_at === clock.now().toISOString(), 'the pass recorded');
  assert.equal((await webhook(id)).valid, 1);
  // Passed: fresh for another 24 h. Now the receiver answers with a wrong token.
  receiver.wrongCrc.add(path);
  clock.advance(24 * 60 * 60_000 + 60_000);
  await receiver.until(() => receiver.crcs.filter((p) => p === `/${path}`).length === before + 2, 'the next periodic CRC');
  await eventually(async () => (await webhook(id)).valid === 0, 'invalid after a wrong CRC token');
  receiver.wrongCrc.delete(path);
});

test('WebhookLimitExceeded as the reference names it: an app at its tier\'s webhook limit cannot create another (400 naming `url`)', async () => {
  const db = plaza.ctx.store.db;
  const app = f.selfServe;
  const before = await db.selectFrom('apps').select('tier').where('id', '=', app.id).executeTakeFirstOrThrow();
  await db.updateTable('apps').set({ tier: 'free' }).where('id', '=', app.id).execute();
  try {
    const count = (await f.get('/2/webhooks', { auth: f.appAuth })).body.meta.result_count as number;
    assert.ok(count >= 1);
    const res = await f.send('POST', '/2/webhooks', { auth: f.appAuth, body: { url: receiver.url(`limit-${++n}`) } });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.type, problemType('invalid-request'));
    assert.ok('url' in res.body.errors[0].parameters);
    assert.match(res.body.errors[0].message, /^WebhookLimitExceeded/);
    assert.equal((await f.get('/2/webhooks', { auth: f.appAuth })).body.meta.result_count, count);
  } finally {
    await db.updateTable('apps').set({ tier: before.tier }).where('id', '=', app.id).execute();
  }
});

test('DuplicateUrlFailed as the reference names it, backed by a unique index on (app, url)', async () => {
  const path = `dup-${++n}`;
  const id = await createWebhook(path);
  const res = await f.send('POST', '/2/webhooks', { auth: f.appAuth, body: { url: receiver.url(path) } });
  assert.equal(res.status, 400);
  assert.match(res.body.errors[0].message, /^DuplicateUrlFailed/);
  const row = await webhook(id);
  // The store itself refuses a second row with the same app and url.
  await assert.rejects(plaza.ctx.store.db.insertInto('webhooks').values({ ...row, id: `${row.id}9` }).execute(), (err: any) => /unique/i.test(String(err?.message ?? err)) || err?.code === '23505');
});

test('with several processes on one store, each delivery is claimed by exactly one of them (row locks on PostgreSQL)', { skip: process.env.DATABASE_URL ? false : 'two servers in one process need PostgreSQL (SQLite blocks the event loop on a locked file); kill-delivery.test.ts runs the SQLite case with child processes' }, async () => {
  const second = await startTestPlaza({ databaseUrl: plaza.databaseUrl }, { clock });
  const path = `claim-${++n}`;
  const id = await createWebhook(path);
  const total = 120;
  await Promise.all(Array.from({ length: total }, (_, i) => emit(id, { i }, i % 2 === 0 ? plaza : second)));
  // Wake the other process's workers too, so both compete for the same rows.
  await receiver.until(() => new Set(receiver.on(path).map((d) => d.body?.i)).size === total, `all ${total} deliveries`, 20_000);
  const byId = new Map<string, number>();
  for (const d of receiver.on(path)) byId.set(String(d.headers[DELIVERY_ID_HEADER]), (byId.get(String(d.headers[DELIVERY_ID_HEADER])) ?? 0) + 1);
  assert.equal(byId.size, total);
  assert.ok([...byId.values()].every((c) => c === 1), 'no delivery was sent twice');
  await second.close();
});
