import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { call, oauth1Header, startTestPlaza, type TestPlaza } from '../support/server.js';
import { StreamClient } from '../support/streams.js';
import { eventually } from '../support/wait.js';
import { fixtures, type Fixtures } from '../support/fixtures.js';

/**
 * Event types of spec 000's table and the reference's list, each emitted by the change that
 * causes it and read by the activity stream; direction filters; the DM participant_ids rule;
 * subscriptions with a webhook_id delivered through the webhook outbox as well.
 */

let plaza: TestPlaza;
let g: Fixtures;
let stream: StreamClient;

before(async () => {
  plaza = await startTestPlaza({ activityKeepAliveMs: 200, activityPollMs: 50, activityStreamConnections: 5 });
  g = fixtures(plaza);
  stream = await StreamClient.open(plaza.urls.base_url, '/2/activity/stream', g.enterprise.bearer_token);
});

after(() => stream.close());

const subscribe = async (body: unknown, auth: any = { bearer: g.enterprise.bearer_token }) => {
  const res = await g.send('POST', '/2/activity/subscriptions', { auth, body });
  assert.equal(res.status, 200, res.text);
  return res.body.data.subscription;
};
const eventsTagged = (tag: string) => stream.events().filter((e) => e.data.tag === tag).map((e) => e.data);

test('dm.* legacy events with direction sent and received (or both); MessageCreate carries no participant_ids; chat.conversation_join lists only those who joined (Jun 3, 2025)', async () => {
  const ada = g.user('ada');
  const chen = g.user('chen');
  const adaDm = await g.enterpriseAs('ada');
  await subscribe({ event_type: 'dm.sent', filter: { user_id: ada.id, direction: 'sent' }, tag: 'ada-dm-sent' }, adaDm);
  await subscribe({ event_type: 'dm.received', filter: { user_id: ada.id, direction: 'received' }, tag: 'ada-dm-received' }, adaDm);
  await subscribe({ event_type: 'dm.indicate_typing', filter: { user_id: ada.id, direction: ['sent', 'received'] }, tag: 'ada-typing' }, adaDm);
  await subscribe({ event_type: 'chat.conversation_join', filter: { user_id: ada.id, direction: 'received' }, tag: 'ada-joined' }, adaDm);
  const toChen = await g.send('POST', `/2/dm_conversations/with/${chen.id}/messages`, { auth: adaDm, body: { text: 'Hello Chen' } });
  assert.equal(toChen.status, 201, toChen.text);
  const fromChen = await g.send('POST', `/2/dm_conversations/with/${ada.id}/messages`, { auth: await g.enterpriseAs('chen'), body: { text: 'Hello Ada' } });
  assert.equal(fromChen.status, 201, fromChen.text);
  await g.send('POST', `/2/dm_conversations/${fromChen.body.data.dm_conversation_id}/typing`, { auth: await g.enterpriseAs('chen') });
  const group = await g.send('POST', '/2/dm_conversations', { auth: await g.enterpriseAs('chen'), body: { conversation_type: 'Group', participant_ids: [ada.id, g.user('dana').id], message: { text: 'Group' } } });
  assert.equal(group.status, 201, group.text);
  await stream.until(() => eventsTagged('ada-dm-sent').length >= 1 && eventsTagged('ada-dm-received').length >= 2 && eventsTagged('ada-typing').length >= 1 && eventsTagged('ada-joined').length >= 1, 'the dm events');
  const sent = eventsTagged('ada-dm-sent');
  assert.deepEqual(sent.map((e) => e.payload.direct_message_events[0].message_create.message_data.text), ['Hello Chen'], 'sent: only what ada sent');
  const received = eventsTagged('ada-dm-received');
  assert.deepEqual(received.map((e) => e.payload.direct_message_events[0].message_create.message_data.text), ['Hello Ada', 'Group'], 'received: only what reached ada');
  for (const e of [...sent, ...received]) {
    assert.equal(e.payload.direct_message_events[0].type, 'message_create');
    assert.ok(!JSON.stringify(e.payload).includes('participant_ids'), 'MessageCreate carries no participant_ids');
  }
  assert.equal(eventsTagged('ada-typing')[0].payload.direct_message_events[0].sender_id, chen.id);
  const joined = eventsTagged('ada-joined')[0];
  assert.deepEqual(joined.payload.direct_message_events[0].participant_ids, [ada.id, g.user('dana').id], 'only those who joined');
});

test('follow.follow, like.create, spaces.start and spaces.end, oauth.revoke: each emitted by the change that causes it', async () => {
  const dana = g.user('dana');
  const plazanews = g.user('plazanews');
  await subscribe({ event_type: 'follow.follow', filter: { user_id: plazanews.id }, tag: 'follows' });
  await subscribe({ event_type: 'like.create', filter: { user_id: dana.id }, tag: 'likes' }, await g.enterpriseAs('dana'));
  await subscribe({ event_type: 'spaces.start', filter: { user_id: dana.id }, tag: 'space-start' });
  await subscribe({ event_type: 'spaces.end', filter: { user_id: dana.id }, tag: 'space-end' });
  await subscribe({ event_type: 'oauth.revoke', filter: {}, tag: 'revoked' });

  const danaAuth = await g.enterpriseAs('dana');
  // Undone first, in case the demo workspace already has them: the change itself is what is told.
  await g.send('DELETE', `/2/users/${dana.id}/following/${plazanews.id}`, { auth: danaAuth });
  assert.equal((await g.send('POST', `/2/users/${dana.id}/following`, { auth: danaAuth, body: { target_user_id: plazanews.id } })).status, 200);
  const post = plaza.creds.sample.post_ids[0];
  await g.send('DELETE', `/2/users/${dana.id}/likes/${post}`, { auth: danaAuth });
  assert.equal((await g.send('POST', `/2/users/${dana.id}/likes`, { auth: danaAuth, body: { post_id: post } })).status, 200);
  const space = await g.send('POST', '/2/spaces', { auth: danaAuth, body: { title: 'Live now' } });
  assert.equal(space.status, 201, space.text);
  assert.equal((await g.send('POST', `/2/spaces/${space.body.data.id}/end`, { auth: danaAuth })).status, 200);
  // The person ends their OAuth 1.0a authorization of the enterprise app.
  const oauth1 = await g.enterpriseOAuth1As('dana');
  const invalidate = `${plaza.urls.base_url}/1.1/oauth/invalidate_token`;
  const revoked = await call(plaza.urls.base_url, '/1.1/oauth/invalidate_token', { method: 'POST', headers: { authorization: oauth1Header(oauth1.oauth1, 'POST', invalidate) } });
  assert.equal(revoked.status, 200, revoked.text);

  await stream.until(() => ['follows', 'likes', 'space-start', 'space-end', 'revoked'].every((t) => eventsTagged(t).length >= 1), `every event type (have ${JSON.stringify(stream.events().map((e) => e.data.tag))})`);
  const follow = eventsTagged('follows')[0];
  assert.equal(follow.payload.source.data.id, dana.id);
  assert.equal(follow.payload.target.data.id, plazanews.id);
  assert.equal(eventsTagged('likes')[0].payload.liked_post_id, post);
  assert.equal(eventsTagged('space-start')[0].payload.id, space.body.data.id);
  assert.equal(eventsTagged('space-end')[0].payload.state, 'ended');
  const revoke = eventsTagged('revoked')[0];
  assert.deepEqual(revoke.filter, {});
  assert.deepEqual({ ...revoke.payload, date_time: 'x' }, { date_time: 'x', user_id: dana.id, app_id: g.enterprise.id });
});

test('a subscription with a webhook_id sends its events to that webhook as well as the stream, signed', async () => {
  const received: Array<{ body: any; signature: string; raw: string }> = [];
  const secret = g.enterprise.consumer_secret;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const crc = url.searchParams.get('crc_token');
    if (req.method === 'GET' && crc) {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ response_token: `sha256=${createHmac('sha256', secret).update(crc).digest('base64')}` }));
      return;
    }
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      received.push({ body: JSON.parse(raw), signature: String(req.headers['x-twitter-webhooks-signature'] ?? ''), raw });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const port = (server.address() as AddressInfo).port;
    const webhook = await g.send('POST', '/2/webhooks', { auth: { bearer: g.enterprise.bearer_token }, body: { url: `http://127.0.0.1:${port}/hook` } });
    assert.equal(webhook.status, 200, webhook.text);
    const ada = g.user('ada');
    await subscribe({ event_type: 'profile.update.url', filter: { user_id: ada.id }, tag: 'hooked', webhook_id: webhook.body.data.id });
    assert.equal((await g.send('PATCH', '/2/users/me', { auth: g.oauth2As('ada'), body: { url: 'https://ada.example' } })).status, 200);
    await stream.until(() => eventsTagged('hooked').length >= 1, 'the stream copy');
    await eventually(() => received.some((r) => r.body?.data?.tag === 'hooked'), 'the webhook delivery', 15_000);
    const delivery = received.find((r) => r.body?.data?.tag === 'hooked')!;
    assert.deepEqual(delivery.body, { data: eventsTagged('hooked')[0] });
    assert.equal(delivery.signature, `sha256=${createHmac('sha256', secret).update(delivery.raw).digest('base64')}`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
