import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ACCOUNT_ACTIVITY_KINDS } from '../../src/admin/samples.js';
import { ACTIVITY_EVENT_TYPES } from '../../src/platform/activity/event-types.js';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { plazaCli } from '../support/cli.js';
import { adminFixtures } from './support.js';
import { fixtures } from '../support/fixtures.js';
import { Receiver } from '../support/receivers.js';

/**
 * `plaza trigger EVENT_TYPE --to URL` (issue #17 "The CLI"): one correctly signed sample delivery
 * of every Account Activity kind and every Activity API event type, built by the delivery routers.
 */
let plaza: TestPlaza;
let file: string;
const receiver = new Receiver();

before(async () => {
  await receiver.start();
  plaza = await startTestPlaza();
  file = path.join(plaza.dataDir, 'credentials.json');
});
after(() => receiver.close());

const sign = (body: string, secret: string) => `sha256=${createHmac('sha256', secret).update(body).digest('base64')}`;

test('"every Account Activity kind and every Activity API event type": a sample built by the routers, signed with the consumer secret, stored nowhere', async () => {
  const a = adminFixtures(plaza);
  const f = fixtures(plaza);
  const ada = f.user('ada');
  const before = await plaza.ctx.store.db.selectFrom('events').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  for (const kind of Object.keys(ACCOUNT_ACTIVITY_KINDS)) {
    const res = await a.admin('POST', '/admin/samples', { body: { event_type: kind, user: 'ada', app: f.selfServe.name } });
    assert.equal(res.status, 200, `${kind}: ${res.text}`);
    const s = res.body.data;
    assert.equal(s.interface, 'account_activity');
    assert.equal(s.headers['x-twitter-webhooks-signature'], sign(s.body, f.selfServe.consumer_secret), kind);
    const body = JSON.parse(s.body);
    assert.equal(body.for_user_id, ada.id, kind);
    assert.ok(kind in body, `${kind} in ${s.body}`);
  }
  for (const name of ACTIVITY_EVENT_TYPES.keys()) {
    const res = await a.admin('POST', '/admin/samples', { body: { event_type: name, user: ada.id } });
    assert.equal(res.status, 200, `${name}: ${res.text}`);
    const data = JSON.parse(res.body.data.body).data;
    assert.equal(data.event_type, name);
    assert.ok(data.event_uuid && data.payload !== undefined, name);
    if (ACTIVITY_EVENT_TYPES.get(name)!.user !== 'none') assert.equal(data.filter.user_id, ada.id, name);
  }
  const afterCount = await plaza.ctx.store.db.selectFrom('events').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  assert.equal(Number(afterCount.n), Number(before.n), 'no log entry written');
  const bad = await a.admin('POST', '/admin/samples', { body: { event_type: 'no_such_events' } });
  assert.equal(bad.status, 400);
  assert.ok('event_type' in bad.body.errors[0].parameters);
});

test('plaza trigger tweet_create_events --to URL posts the signed sample and prints the request and the response', async () => {
  const f = fixtures(plaza);
  receiver.answer = (_hit, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
  const res = await plazaCli('trigger', 'tweet_create_events', '--to', receiver.url('/bot'), '--user', 'ada', '--app', f.selfServe.id, '--credentials-file', file);
  assert.equal(res.code, 0, res.stderr);
  const hit = receiver.hits.at(-1)!;
  assert.equal(hit.url, '/bot');
  assert.equal(hit.headers['x-twitter-webhooks-signature'], sign(hit.body, f.selfServe.consumer_secret));
  const body = JSON.parse(hit.body);
  assert.equal(body.for_user_id, f.user('ada').id);
  assert.equal(body.tweet_create_events[0].user.id_str, f.user('ada').id);
  assert.equal(body.tweet_create_events[0].user.screen_name, 'ada');
  assert.match(res.stdout, /^> POST http:\/\/127\.0\.0\.1:\d+\/bot$/m);
  assert.match(res.stdout, /^> x-twitter-webhooks-signature: sha256=/m);
  assert.match(res.stdout, /^< 200 OK/m);
  assert.match(res.stdout, /"received": true/);
});

test('plaza trigger fails with one line when the receiver refuses, the type is unknown, or --to is missing', async () => {
  receiver.answer = (_hit, res) => res.writeHead(500).end('boom');
  const refused = await plazaCli('trigger', 'follow.follow', '--to', receiver.url(), '--credentials-file', file);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr.trim(), /^plaza trigger: http:\/\/127\.0\.0\.1:\d+\/hook answered HTTP 500 to the follow\.follow delivery/);
  assert.match(refused.stdout, /^< 500/m);
  const unknown = await plazaCli('trigger', 'nothing_events', '--to', receiver.url(), '--credentials-file', file);
  assert.equal(unknown.code, 1);
  assert.equal(unknown.stderr.trim().split('\n').length, 1);
  assert.match(unknown.stderr, /^plaza trigger: 400: .*nothing_events/);
  const noTo = await plazaCli('trigger', 'follow.follow', '--credentials-file', file);
  assert.notEqual(noTo.code, 0);
  assert.match(noTo.stderr, /--to/);
  const help = await plazaCli('trigger', '--help');
  assert.match(help.stdout, /Example:\n\s+npm run plaza -- trigger /);
});
