import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { StreamClient } from '../support/streams.js';
import { ALL_SCOPES, fixtures, type Fixtures } from '../support/fixtures.js';

/**
 * chat.sent and chat.received (reference §7 "Chat"): emitted when a member sends to a chat
 * conversation, filtered by spec 000's `direction` as the dm.* types are, carrying the stored
 * ciphertext; kept apart from direct messages in the log.
 */

let plaza: TestPlaza;
let g: Fixtures;
let stream: StreamClient;
const SCOPES = [...ALL_SCOPES, 'media.write'];
const as = (username: string) => g.enterpriseAs(username, SCOPES);
const b64 = (text: string) => Buffer.from(text).toString('base64');

before(async () => {
  plaza = await startTestPlaza({ activityKeepAliveMs: 200, activityPollMs: 50, activityStreamConnections: 5 });
  g = fixtures(plaza);
  stream = await StreamClient.open(plaza.urls.base_url, '/2/activity/stream', g.enterprise.bearer_token);
});

after(() => stream.close());

const subscribe = async (body: unknown, auth: any) => {
  const res = await g.send('POST', '/2/activity/subscriptions', { auth, body });
  assert.equal(res.status, 200, res.text);
};
const eventsTagged = (tag: string) => stream.events().filter((e) => e.data.tag === tag).map((e) => e.data);

async function openChat(a: string, b: string): Promise<void> {
  for (const u of [a, b]) {
    const res = await g.send('POST', `/2/users/${g.user(u).id}/public_keys`, { auth: await as(u), body: { version: '1', public_key: { public_key: b64(`${u}-identity`) } } });
    assert.ok(res.status === 200 || res.status === 409, res.text);
  }
  const keys = [a, b].map((u) => ({ user_id: g.user(u).id, encrypted_conversation_key: b64(`key-for-${u}`), public_key_version: '1' }));
  const res = await g.send('POST', `/2/chat/conversations/${g.user(b).id}/keys`, { auth: await as(a), body: { conversation_key_version: '1', conversation_participant_keys: keys } });
  assert.equal(res.status, 200, res.text);
}

test('"direction ... applies to direct-message and chat events": chat.sent and chat.received carry the stored ciphertext, per side; DM subscriptions hear nothing of chats', async () => {
  const [ada, chen] = [g.user('ada'), g.user('chen')];
  const adaAuth = await as('ada');
  await subscribe({ event_type: 'chat.sent', filter: { user_id: ada.id, direction: 'sent' }, tag: 'chat-sent' }, adaAuth);
  await subscribe({ event_type: 'chat.received', filter: { user_id: ada.id, direction: 'received' }, tag: 'chat-received' }, adaAuth);
  await subscribe({ event_type: 'chat.received', filter: { user_id: ada.id, direction: 'sent' }, tag: 'chat-received-by-others' }, adaAuth);
  await subscribe({ event_type: 'dm.sent', filter: { user_id: ada.id }, tag: 'dm-sent' }, adaAuth);
  await subscribe({ event_type: 'dm.received', filter: { user_id: ada.id }, tag: 'dm-received' }, adaAuth);
  await openChat('ada', 'chen');

  const sent = await g.send('POST', `/2/chat/conversations/${chen.id}/messages`, { auth: adaAuth, body: { message_id: 'a1', encoded_message_create_event: b64('from-ada'), encoded_message_event_signature: b64('sig') } });
  assert.equal(sent.status, 201, sent.text);
  const retry = await g.send('POST', `/2/chat/conversations/${chen.id}/messages`, { auth: adaAuth, body: { message_id: 'a1', encoded_message_create_event: b64('from-ada'), encoded_message_event_signature: b64('sig') } });
  assert.equal(retry.status, 201, retry.text);
  const reply = await g.send('POST', `/2/chat/conversations/${ada.id}/messages`, { auth: await as('chen'), body: { message_id: 'c1', encoded_message_create_event: b64('from-chen') } });
  assert.equal(reply.status, 201, reply.text);
  // A direct message afterwards: once it is heard, everything before it has been delivered too.
  const dm = await g.send('POST', `/2/dm_conversations/with/${chen.id}/messages`, { auth: adaAuth, body: { text: 'plain dm' } });
  assert.equal(dm.status, 201, dm.text);
  await stream.until(() => eventsTagged('dm-sent').length >= 1 && eventsTagged('chat-sent').length >= 1 && eventsTagged('chat-received').length >= 1, 'the chat events');

  const [mine] = eventsTagged('chat-sent');
  assert.equal(eventsTagged('chat-sent').length, 1, 'a retry with the same message_id tells nothing new');
  assert.equal(mine.event_type, 'chat.sent');
  const item = mine.payload.chat_message_events[0];
  assert.equal(item.encoded_event, b64('from-ada'), 'the ciphertext as stored');
  assert.equal(item.message_event_signature.encoded_message_event_signature, b64('sig'));
  assert.equal(item.id, sent.body.data.sequence_id);
  assert.equal(item.conversation_id, sent.body.data.conversation_id);
  assert.equal(item.sender_id, ada.id);
  assert.deepEqual(mine.payload.recipient_ids, [chen.id]);

  const received = eventsTagged('chat-received');
  assert.deepEqual(received.map((e) => e.payload.chat_message_events[0].encoded_event), [b64('from-chen')], 'received: only what reached ada');
  assert.equal(received[0].payload.chat_message_events[0].recipient_id, ada.id);
  assert.deepEqual(eventsTagged('chat-received-by-others').map((e) => e.payload.chat_message_events[0].encoded_event), [b64('from-ada')], 'direction sent: what ada sent, as chen received it');

  assert.deepEqual(eventsTagged('dm-sent').map((e) => e.payload.direct_message_events[0].message_create.message_data.text), ['plain dm'], 'dm.sent: no chat message');
  for (const e of [...eventsTagged('dm-sent'), ...eventsTagged('dm-received')]) {
    assert.ok(!JSON.stringify(e.payload).includes(b64('from-ada')) && !JSON.stringify(e.payload).includes(b64('from-chen')), 'dm.*: no chat message');
  }
});

test('chat events are logged as their own kind, never dm.*, so Account Activity does not take them for direct messages', async () => {
  const rows = await plaza.ctx.store.db.selectFrom('events').select(['type', 'payload']).where('type', 'like', 'chat.%').execute();
  const kinds = new Set(rows.map((r) => r.type));
  assert.ok(kinds.has('chat.sent') && kinds.has('chat.received'), [...kinds].join(','));
  const dmRows = await plaza.ctx.store.db.selectFrom('events').select('payload').where('type', 'in', ['dm.sent', 'dm.received']).execute();
  assert.ok(dmRows.every((r) => !r.payload.includes(b64('from-ada'))), 'no dm entry carries the chat ciphertext');
});
