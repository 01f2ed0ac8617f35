import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startPlaza, type Plaza } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { StreamClient } from '../support/streams.js';
import { WebhookReceiver } from '../support/receivers.js';
import { eventually } from '../support/wait.js';
import { call, startTestPlaza, type TestPlaza } from '../support/server.js';
import { adminFixtures } from './support.js';
import { fixtures } from '../support/fixtures.js';
import { problemType } from '../support/problems.js';

/**
 * The admin clock and injected faults (issue #17 "The clock", "Faults"): time moves for every
 * rule without sleeping, and the faults an integration must survive can be made to happen.
 */
let plaza: TestPlaza;
let f: ReturnType<typeof fixtures>;
let a: ReturnType<typeof adminFixtures>;
const receiver = new WebhookReceiver();
const streams: StreamClient[] = [];

before(async () => {
  await receiver.start();
  plaza = await startTestPlaza();
  f = fixtures(plaza);
  a = adminFixtures(plaza);
});
after(async () => {
  for (const s of streams) s.close();
  await receiver.close();
});

const HOUR = 3600_000;

test('GET /admin/clock reads real time until moved; {set, frozen: true} stops it at the instant, {advance: "PT2H"} moves it, {real: true} resets it', async () => {
  const real = await a.admin('GET', '/admin/clock');
  assert.equal(real.status, 200, real.text);
  assert.equal(real.body.data.mode, 'real');
  assert.ok(Math.abs(Date.parse(real.body.data.now) - Date.now()) < 60_000);

  const set = await a.admin('POST', '/admin/clock', { body: { set: '2027-01-01T00:00:00Z', frozen: true } });
  assert.equal(set.status, 200, set.text);
  assert.deepEqual(set.body.data.now, '2027-01-01T00:00:00.000Z');
  assert.equal(set.body.data.mode, 'frozen');
  assert.equal((await a.admin('GET', '/admin/clock')).body.data.now, '2027-01-01T00:00:00.000Z', 'frozen: it stands still');
  assert.equal(plaza.ctx.clock.now().toISOString(), '2027-01-01T00:00:00.000Z', 'the clock every rule reads');

  const advanced = await a.admin('POST', '/admin/clock', { body: { advance: 'PT2H' } });
  assert.equal(advanced.body.data.now, '2027-01-01T02:00:00.000Z');
  assert.equal(advanced.body.data.mode, 'frozen', 'advancing keeps a frozen clock frozen');
  assert.equal((await a.admin('POST', '/admin/clock', { body: { advance: 'P1DT30M' } })).body.data.now, '2027-01-02T02:30:00.000Z');

  // Running from the set instant.
  const running = await a.admin('POST', '/admin/clock', { body: { set: '2027-03-01T12:00:00+02:00', frozen: false } });
  assert.equal(running.body.data.mode, 'running');
  const later = Date.parse((await a.admin('GET', '/admin/clock')).body.data.now);
  assert.ok(later >= Date.parse('2027-03-01T10:00:00Z') && later < Date.parse('2027-03-01T10:01:00Z'), 'runs on from the set instant');

  const reset = await a.admin('POST', '/admin/clock', { body: { real: true } });
  assert.equal(reset.body.data.mode, 'real');
  assert.equal(reset.body.data.offset_ms < 60_000 && reset.body.data.offset_ms > -60_000, true);
});

test('POST /admin/clock: bad input names its field and does not move the clock', async () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ advance: '2 hours' }, 'advance'],
    [{ advance: 'P1M' }, 'advance'],
    [{ advance: 'PT' }, 'advance'],
    [{ set: 'yesterday' }, 'set'],
    [{ set: '2027-01-01' }, 'set'],
    [{ set: '2027-01-01T00:00:00Z', advance: 'PT1H' }, 'advance'],
    [{ real: false }, 'real'],
  ];
  for (const [body, parameter] of cases) {
    const res = await a.admin('POST', '/admin/clock', { body });
    assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
    assert.ok(parameter in res.body.errors[0].parameters, `${JSON.stringify(body)} names ${parameter}: ${res.text}`);
  }
  assert.equal((await a.admin('POST', '/admin/clock', { body: {} })).status, 400);
  assert.equal((await a.admin('POST', '/admin/clock', { body: { later: true } })).status, 400);
  assert.equal((await a.admin('GET', '/admin/clock')).body.data.mode, 'real');
});

test('every rule follows the clock: posts are dated by it, the one-hour edit window closes when it moves past, OAuth 2.0 tokens expire, OAuth 1.0a signatures (real time) still verify', async () => {
  const ada = f.user('ada');
  await a.admin('POST', '/admin/clock', { body: { set: '2027-06-01T09:00:00Z', frozen: true } });
  // Issued at the clock's time, so its two hours run on the moved clock.
  const created = await a.admin('POST', '/admin/users', { body: { username: 'clock_watcher' } });
  assert.equal(created.status, 201, created.text);
  const token = { bearer: created.body.data.oauth2_access_token };
  // Ada pays for Premium, which editing needs; her app signs with OAuth 1.0a.
  const post = await a.admin('POST', `/admin/users/${ada.id}/posts`, { body: { text: 'first version' } });
  const read = await f.get(`/2/posts/${post.body.data.id}?post.fields=created_at,edit_controls`, { auth: f.appAuth });
  assert.equal(read.body.data.created_at, '2027-06-01T09:00:00.000Z');
  assert.equal(read.body.data.edit_controls.editable_until, '2027-06-01T10:00:00.000Z');

  await a.admin('POST', '/admin/clock', { body: { advance: 'PT30M' } });
  const edit = await f.send('POST', '/2/posts', { auth: f.oauth1As(ada.username), body: { text: 'second version', edit_options: { previous_post_id: post.body.data.id } } });
  assert.equal(edit.status, 201, `within the hour: ${edit.text}`);
  await a.admin('POST', '/admin/clock', { body: { advance: 'PT31M' } });
  const late = await f.send('POST', '/2/posts', { auth: f.oauth1As(ada.username), body: { text: 'third version', edit_options: { previous_post_id: edit.body.data.id } } });
  assert.equal(late.status, 403, `past the edit window: ${late.text}`);

  assert.equal((await f.get('/2/users/me', { auth: token })).status, 200, 'the token is 1 h 1 min old');
  await a.admin('POST', '/admin/clock', { body: { advance: 'PT1H' } });
  assert.equal((await f.get('/2/users/me', { auth: token })).status, 401, 'the 2-hour OAuth 2.0 token expired on the moved clock');
  // A client signs oauth_timestamp with its own (real) clock: moving Plaza's clock does not break OAuth 1.0a.
  await a.admin('POST', '/admin/clock', { body: { advance: 'P3D' } });
  assert.equal((await f.get('/2/users/me', { auth: f.oauth1As(ada.username) })).status, 200);
  await a.admin('POST', '/admin/clock', { body: { real: true } });
});

test('on several processes over one store the clock is shared: a move made through one is read by the other', async () => {
  const other: Plaza = await startPlaza(
    loadConfig({ port: 0, adsPort: 0, adsSandboxPort: 0, proxyPort: 0, logLevel: 'silent', databaseUrl: plaza.databaseUrl, dataDir: plaza.dataDir, credentialsFile: path.join(plaza.dataDir, 'other-credentials.json'), activityPollMs: 100 }, {}),
  );
  try {
    assert.equal(other.adminToken, a.token(), 'the same store and server secret give the same admin token');
    await a.admin('POST', '/admin/clock', { body: { set: '2028-02-29T12:00:00Z', frozen: true } });
    await eventually(async () => (await call(other.urls.base_url, '/admin/clock', { auth: { bearer: a.token() } })).body.data.now === '2028-02-29T12:00:00.000Z', 'the other process reads the moved clock');
    await call(other.urls.base_url, '/admin/clock', { method: 'POST', auth: { bearer: a.token() }, body: { real: true } });
    await eventually(async () => (await a.admin('GET', '/admin/clock')).body.data.mode === 'real', 'and back');
  } finally {
    await other.close();
  }
});

test('usage_cap fault: the app\'s requests get the 429 usage-capped problem until the fault is cleared; other apps are not struck', async () => {
  const ada = f.user('ada');
  const added = await a.admin('POST', '/admin/faults', { body: { kind: 'usage_cap', app_id: f.selfServe.id, period: 'Daily', scope: 'Account' } });
  assert.equal(added.status, 201, added.text);
  const fault = added.body.data;
  assert.equal(fault.kind, 'usage_cap');
  for (const auth of [f.appAuth, f.oauth1As(ada.username)]) {
    const res = await f.get('/2/users/by/username/ada', { auth });
    assert.equal(res.status, 429, res.text);
    assert.equal(res.body.title, 'UsageCapExceeded');
    assert.equal(res.body.period, 'Daily');
    assert.equal(res.body.scope, 'Account');
    assert.equal(res.body.type, problemType('usage-capped'));
  }
  assert.equal((await f.get('/2/users/by/username/ada', { auth: { bearer: f.enterprise.bearer_token } })).status, 200, 'another app is not struck');
  const listed = await a.admin('GET', '/admin/faults');
  assert.deepEqual(listed.body.data.map((x: any) => x.id), [fault.id]);
  assert.equal((await a.admin('DELETE', `/admin/faults/${fault.id}`)).status, 200);
  assert.equal((await f.get('/2/users/by/username/ada', { auth: f.appAuth })).status, 200, 'cleared');
  assert.equal((await a.admin('DELETE', `/admin/faults/${fault.id}`)).status, 404, 'already cleared');
});

test('rate_limit fault: the app\'s next request to the endpoint gets 429 with the x-rate-limit headers, once; other endpoints pass', async () => {
  const added = await a.admin('POST', '/admin/faults', { body: { kind: 'rate_limit', app_id: f.selfServe.id, endpoint: 'GET /2/users/by/username/{username}' } });
  assert.equal(added.status, 201, added.text);
  assert.equal((await f.get(`/2/posts/${plaza.creds.sample.post_ids[0]}`, { auth: f.appAuth })).status, 200, 'another endpoint passes');
  const limited = await f.get('/2/users/by/username/ada', { auth: f.appAuth });
  assert.equal(limited.status, 429, limited.text);
  assert.deepEqual(limited.body, { title: 'Too Many Requests', type: 'about:blank', status: 429, detail: 'Too Many Requests' });
  assert.equal(limited.headers.get('x-rate-limit-remaining'), '0');
  assert.match(limited.headers.get('x-rate-limit-limit') ?? '', /^\d+$/);
  assert.ok(Number(limited.headers.get('x-rate-limit-reset')) * 1000 > Date.now(), 'reset in the future');
  assert.equal((await f.get('/2/users/by/username/ada', { auth: f.appAuth })).status, 200, 'only the next request');
  assert.deepEqual((await a.admin('GET', '/admin/faults')).body.data, [], 'spent');
});

test('POST /admin/faults: bad input names its parameter and adds nothing; DELETE /admin/faults clears every fault', async () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ kind: 'usage_cap' }, 'app_id'],
    [{ kind: 'usage_cap', app_id: '1234567890123' }, 'app_id'],
    [{ kind: 'rate_limit', app_id: f.selfServe.id, endpoint: 'posts please' }, 'endpoint'],
    [{ kind: 'webhook_failures' }, 'webhook_id'],
    [{ kind: 'webhook_failures', webhook_id: '1234567890123' }, 'webhook_id'],
    [{ kind: 'disconnect', endpoint: 'no_such_stream' }, 'endpoint'],
    [{ kind: 'disconnect' }, 'endpoint'],
  ];
  for (const [body, parameter] of cases) {
    const res = await a.admin('POST', '/admin/faults', { body });
    assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
    assert.ok(parameter in res.body.errors[0].parameters, `${JSON.stringify(body)} names ${parameter}: ${res.text}`);
  }
  for (const body of [{ kind: 'earthquake' }, { kind: 'disconnect', endpoint: 'sample_stream', disconnect_type: 'Gone' }, { kind: 'rate_limit', app_id: f.selfServe.id, count: 0 }]) {
    assert.equal((await a.admin('POST', '/admin/faults', { body })).status, 400, JSON.stringify(body));
  }
  assert.deepEqual((await a.admin('GET', '/admin/faults')).body.data, []);
  await a.admin('POST', '/admin/faults', { body: { kind: 'usage_cap', app_id: f.enterprise.id } });
  await a.admin('POST', '/admin/faults', { body: { kind: 'rate_limit', app_id: f.enterprise.id, count: 3 } });
  assert.equal((await a.admin('GET', '/admin/faults')).body.data.length, 2);
  const cleared = await a.admin('DELETE', '/admin/faults');
  assert.deepEqual(cleared.body.data, { deleted: 2 });
  assert.equal((await f.get('/2/users/by/username/ada', { auth: { bearer: f.enterprise.bearer_token } })).status, 200);
});

test('disconnect fault: every open connection of the endpoint ends with the operational-disconnect problem of the type asked for', async () => {
  const stream = await StreamClient.open(plaza.urls.base_url, '/2/posts/sample/stream', f.selfServe.bearer_token);
  streams.push(stream);
  assert.equal(stream.status, 200);
  await eventually(async () => (await plaza.ctx.store.db.selectFrom('stream_connections').select('id').where('disconnected_at', 'is', null).where('endpoint_name', '=', 'sample_stream').execute()).length === 1 || undefined, 'the connection recorded');
  const res = await a.admin('POST', '/admin/faults', { body: { kind: 'disconnect', endpoint: 'sample_stream', disconnect_type: 'UpstreamOperationalDisconnect' } });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body.data.disconnected, 1);
  await stream.until(() => stream.ended, 'the stream ended');
  const last = stream.messages().at(-1);
  assert.equal(last.errors[0].title, 'operational-disconnect');
  assert.equal(last.errors[0].disconnect_type, 'UpstreamOperationalDisconnect');
  const row = await plaza.ctx.store.db.selectFrom('stream_connections').select(['disconnect_reason']).where('endpoint_name', '=', 'sample_stream').executeTakeFirstOrThrow();
  assert.equal(row.disconnect_reason, 'UpstreamOperationalDisconnect');
  const none = await a.admin('POST', '/admin/faults', { body: { kind: 'disconnect', endpoint: 'sample_stream' } });
  assert.equal(none.body.data.disconnected, 0);
});

test('webhook_failures fault: the next N deliveries count as failed with the status asked for, and are retried on the clock', async () => {
  const ada = f.user('ada');
  receiver.secret = f.selfServe.consumer_secret;
  const hook = await f.send('POST', '/2/webhooks', { auth: f.appAuth, body: { url: receiver.url('flaky') } });
  assert.equal(hook.status, 200, hook.text);
  const webhookId = hook.body.data.id;
  assert.equal((await f.send('POST', `/2/account_activity/webhooks/${webhookId}/subscriptions/all`, { auth: f.oauth1As(ada.username) })).status, 200);
  const fault = await a.admin('POST', '/admin/faults', { body: { kind: 'webhook_failures', webhook_id: webhookId, count: 1, status: 500 } });
  assert.equal(fault.status, 201, fault.text);
  assert.equal(fault.body.data.remaining, 1);

  const post = await a.admin('POST', `/admin/users/${ada.id}/posts`, { body: { text: 'will the webhook hear this?' } });
  const postId = post.body.data.id;
  const failed = await eventually(async () => {
    const row = await plaza.ctx.store.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).executeTakeFirst();
    return row && row.attempts === 1 ? row : undefined;
  }, 'the first attempt recorded');
  assert.equal(failed.last_status, 500);
  assert.equal(failed.status, 'pending', 'to be retried');
  assert.equal(receiver.on('flaky').length, 0, 'the receiver got nothing');
  assert.deepEqual((await a.admin('GET', '/admin/faults')).body.data, [], 'spent');

  // The retry comes due a minute later by the clock, without waiting a minute.
  await a.admin('POST', '/admin/clock', { body: { advance: 'PT2M' } });
  await receiver.until(() => receiver.on('flaky').some((d) => d.body?.tweet_create_events?.some((p: any) => p.id === postId)), 'the retried delivery');
  await a.admin('POST', '/admin/clock', { body: { real: true } });
});
