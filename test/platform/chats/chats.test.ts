import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { ALL_SCOPES, fixtures, type Fixtures } from '../../support/fixtures.js';
import { normalise } from '../../support/normalise.js';
import { problemType } from '../../support/problems.js';

let plaza: TestPlaza;
let g: Fixtures;
const SCOPES = [...ALL_SCOPES, 'media.write'];
const as = (username: string) => g.enterpriseAs(username, SCOPES);
const b64 = (text: string) => Buffer.from(text).toString('base64');

before(async () => {
  plaza = await startTestPlaza();
  g = fixtures(plaza);
});

async function registerKey(username: string, version = '1') {
  const res = await g.send('POST', `/2/users/${g.user(username).id}/public_keys`, {
    auth: await as(username),
    body: { version, public_key: { public_key: b64(`${username}-identity-${version}`), signing_public_key: b64(`${username}-signing`) } },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res;
}

const keysFor = (usernames: string[], version = '1') => usernames.map((u) => ({ user_id: g.user(u).id, encrypted_conversation_key: b64(`key-for-${u}`), public_key_version: version }));

test('public keys: "only the user themselves registers their public key" (403 otherwise); GET returns the registered versions, newest first', async () => {
  await registerKey('ada');
  await registerKey('ada', '2');
  const other = await g.send('POST', `/2/users/${g.user('ada').id}/public_keys`, { auth: await as('chen'), body: { version: '9', public_key: { public_key: b64('x') } } });
  assert.equal(other.status, 403);
  const reused = await g.send('POST', `/2/users/${g.user('ada').id}/public_keys`, { auth: await as('ada'), body: { version: '2', public_key: { public_key: b64('x') } } });
  assert.equal(reused.status, 409, 'a version is never reused');
  const notBase64 = await g.send('POST', `/2/users/${g.user('ada').id}/public_keys`, { auth: await as('ada'), body: { version: '3', public_key: { public_key: 'not base64!' } } });
  assert.equal(notBase64.status, 400);
  assert.ok(notBase64.body.errors[0].parameters['public_key.public_key']);
  const list = await g.get(`/2/users/${g.user('ada').id}/public_keys?public_key.fields=signing_public_key`, { auth: await as('chen') });
  assert.equal(list.status, 200);
  assert.deepEqual(list.body, {
    data: [
      { public_key: b64('ada-identity-2'), public_key_version: '2', signing_public_key: b64('ada-signing') },
      { public_key: b64('ada-identity-1'), public_key_version: '1', signing_public_key: b64('ada-signing') },
    ],
  });
  const generated = await g.send('POST', `/2/users/${g.user('ada').id}/public_keys`, { auth: await as('ada'), body: { version: '0', generate_version: true, public_key: { public_key: b64('ada-3') } } });
  assert.equal(generated.body.data.public_key_version, '3');
});

test('GET /2/users/public_keys: the newest key of each user in ids order; users without a key are errors naming ids', async () => {
  await registerKey('chen');
  const res = await g.get(`/2/users/public_keys?ids=${g.user('chen').id},${g.user('ada').id},${g.user('dana').id}`, { auth: await as('ada') });
  assert.equal(res.status, 200);
  assert.deepEqual(normalise(res.body, { [g.user('dana').id]: 'dana' }), {
    data: [
      { public_key: b64('chen-identity-1'), public_key_version: '1' },
      { public_key: b64('ada-3'), public_key_version: '3' },
    ],
    errors: [
      {
        type: problemType('resource-not-found'),
        title: 'Not Found Error',
        detail: `User ${g.user('dana').id} has no chat public key registered.`,
        value: '<dana>',
        resource_type: 'user',
        parameter: 'ids',
        resource_id: '<dana>',
      },
    ],
  });
  const missing = await g.get('/2/users/public_keys', { auth: await as('ada') });
  assert.equal(missing.status, 400);
});

test('one-to-one: keys open the conversation (named by the two user ids, smaller first, or by the recipient id); "only members read a conversation or its events or send to it"', async () => {
  const [ada, chen] = [g.user('ada'), g.user('chen')];
  const beforeKeys = await g.send('POST', `/2/chat/conversations/${chen.id}/messages`, { auth: await as('ada'), body: { message_id: 'm0', encoded_message_create_event: b64('hi') } });
  assert.equal(beforeKeys.status, 404, 'no conversation before its keys');
  const noKeyUser = await g.send('POST', `/2/chat/conversations/${g.user('dana').id}/keys`, { auth: await as('ada'), body: { conversation_key_version: '100', conversation_participant_keys: [] } });
  assert.equal(noKeyUser.status, 400, 'a user without a public key cannot be given a conversation key');
  const partial = await g.send('POST', `/2/chat/conversations/${chen.id}/keys`, { auth: await as('ada'), body: { conversation_key_version: '100', conversation_participant_keys: keysFor(['ada']) } });
  assert.equal(partial.status, 400, 'the key must be encrypted for every member');
  const keys = await g.send('POST', `/2/chat/conversations/${chen.id}/keys`, { auth: await as('ada'), body: { conversation_key_version: '100', conversation_participant_keys: keysFor(['ada', 'chen']) } });
  assert.equal(keys.status, 200, JSON.stringify(keys.body));
  const pair = [ada.id, chen.id].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)).join('-');
  assert.equal(keys.body.data.conversation_id, pair);
  const stale = await g.send('POST', `/2/chat/conversations/${pair}/keys`, { auth: await as('chen'), body: { conversation_key_version: '100', conversation_participant_keys: keysFor(['ada', 'chen']) } });
  assert.equal(stale.status, 409, 'a rotation needs a newer key version');

  const sent = await g.send('POST', `/2/chat/conversations/${chen.id}/messages`, { auth: await as('ada'), body: { message_id: 'm1', encoded_message_create_event: b64('ciphertext-1') } });
  assert.equal(sent.status, 201);
  assert.equal(sent.body.data.encoded_message_event, b64('ciphertext-1'));
  const retry = await g.send('POST', `/2/chat/conversations/${pair}/messages`, { auth: await as('ada'), body: { message_id: 'm1', encoded_message_create_event: b64('ciphertext-1') } });
  assert.equal(retry.body.data.sequence_id, sent.body.data.sequence_id, 'a retry finds the same message');
  const reply = await g.send('POST', `/2/chat/conversations/${ada.id}/messages`, { auth: await as('chen'), body: { message_id: 'm2', encoded_message_create_event: b64('ciphertext-2'), encoded_message_event_signature: b64('sig') } });
  assert.equal(reply.status, 201);
  const badB64 = await g.send('POST', `/2/chat/conversations/${ada.id}/messages`, { auth: await as('chen'), body: { message_id: 'm3', encoded_message_create_event: '***' } });
  assert.equal(badB64.status, 400);

  const events = await g.get(`/2/chat/conversations/${pair}/events?chat_message_event.fields=previous_id,is_trusted,message_event_signature,conversation_id`, { auth: await as('chen') });
  assert.equal(events.status, 200);
  assert.deepEqual(events.body.data.map((e: any) => e.encoded_event), [b64('ciphertext-2'), b64('ciphertext-1')], 'newest first');
  assert.equal(events.body.data[0].previous_id, events.body.data[1].id);
  assert.equal(events.body.data[0].is_trusted, true, "the reader's own message");
  assert.deepEqual(events.body.data[0].message_event_signature, { encoded_message_event_signature: b64('sig') });
  const [keyEvent] = events.body.meta.conversation_key_events.map((k: string) => JSON.parse(Buffer.from(k, 'base64').toString()));
  assert.equal(keyEvent.encrypted_conversation_key, b64('key-for-chen'), 'the key encrypted for the reader');

  const page1 = await g.get(`/2/chat/conversations/${pair}/events?max_results=1`, { auth: await as('ada') });
  assert.equal(page1.body.meta.has_more, true);
  const page2 = await g.get(`/2/chat/conversations/${pair}/events?max_results=1&pagination_token=${page1.body.meta.next_token}`, { auth: await as('ada') });
  assert.equal(page2.body.data[0].encoded_event, b64('ciphertext-1'));
  assert.equal(page2.body.meta.has_more, false);

  for (const path of [`/2/chat/conversations/${pair}`, `/2/chat/conversations/${pair}/events`]) {
    assert.equal((await g.get(path, { auth: await as('dana') })).status, 403, `${path} for a non-member`);
  }
  const intruder = await g.send('POST', `/2/chat/conversations/${pair}/messages`, { auth: await as('dana'), body: { message_id: 'x', encoded_message_create_event: b64('x') } });
  assert.equal(intruder.status, 403);
  assert.equal((await g.send('POST', `/2/chat/conversations/${pair}/typing`, { auth: await as('dana') })).status, 403);
  const typing = await g.send('POST', `/2/chat/conversations/${pair}/typing`, { auth: await as('ada') });
  assert.deepEqual(typing.body, { data: { success: true } });

  const read = await g.send('POST', `/2/chat/conversations/${pair}/read`, { auth: await as('ada'), body: { seen_until_sequence_id: reply.body.data.sequence_id } });
  assert.deepEqual(read.body, { data: { success: true } });
  const member = await plaza.ctx.store.db.selectFrom('chat_members').selectAll().where('conversation_id', '=', pair).where('user_id', '=', ada.id).executeTakeFirstOrThrow();
  assert.equal(member.last_read_sequence_id, reply.body.data.sequence_id, 'the read mark is stored');
  const badRead = await g.send('POST', `/2/chat/conversations/${pair}/read`, { auth: await as('ada'), body: { seen_until_sequence_id: '123' } });
  assert.equal(badRead.status, 400);
  assert.ok(badRead.body.errors[0].parameters.seen_until_sequence_id);
});

test('groups: initialize then create (201); members must exist and have public keys; only admins add members, rotating the key; new members read from when they joined', async () => {
  await registerKey('plazanews');
  const init = await g.send('POST', '/2/chat/conversations/group/initialize', { auth: await as('ada') });
  assert.equal(init.status, 200);
  const id = init.body.data.conversation_id;
  assert.match(id, /^g[0-9]{1,19}$/);
  const body = { conversation_id: id, conversation_key_version: '1', conversation_participant_keys: keysFor(['ada', 'chen']), group_members: [g.user('chen').id], group_name: 'Plaza team' };
  const someoneElse = await g.send('POST', '/2/chat/conversations/group', { auth: await as('chen'), body: { ...body, conversation_participant_keys: keysFor(['chen', 'ada']), group_members: [g.user('ada').id] } });
  assert.equal(someoneElse.status, 400, 'only the user who initialized the id creates the group');
  const noKey = await g.send('POST', '/2/chat/conversations/group', { auth: await as('ada'), body: { ...body, group_members: [g.user('chen').id, g.user('dana').id] } });
  assert.equal(noKey.status, 400);
  assert.ok(noKey.body.errors[0].parameters.group_members);
  const seq = await g.lastSeq();
  const created = await g.send('POST', '/2/chat/conversations/group', { auth: await as('ada'), body });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.equal(created.body.data.conversation_id, id);
  assert.match(created.body.data.conversation_key_change_sequence_id, /^[0-9]+$/);
  const [join] = await g.eventsSince(seq, 'chat.conversation_join');
  assert.deepEqual(join.payload.direct_message_events[0].participant_ids, [g.user('chen').id]);
  assert.equal((await g.send('POST', '/2/chat/conversations/group', { auth: await as('ada'), body })).status, 409);

  await g.send('POST', `/2/chat/conversations/${id}/messages`, { auth: await as('chen'), body: { message_id: 'before', encoded_message_create_event: b64('before') } });
  const notAdmin = await g.send('POST', `/2/chat/conversations/${id}/members`, { auth: await as('chen'), body: { user_ids: [g.user('plazanews').id], conversation_key_version: '2', conversation_participant_keys: keysFor(['ada', 'chen', 'plazanews']) } });
  assert.equal(notAdmin.status, 403);
  const added = await g.send('POST', `/2/chat/conversations/${id}/members`, { auth: await as('ada'), body: { user_ids: [g.user('plazanews').id], conversation_key_version: '2', conversation_participant_keys: keysFor(['ada', 'chen', 'plazanews']) } });
  assert.equal(added.status, 200, JSON.stringify(added.body));
  await g.send('POST', `/2/chat/conversations/${id}/messages`, { auth: await as('ada'), body: { message_id: 'after', encoded_message_create_event: b64('after') } });
  const seen = await g.get(`/2/chat/conversations/${id}/events`, { auth: await as('plazanews') });
  assert.deepEqual(seen.body.data.map((e: any) => e.encoded_event), [b64('after')], 'a new member reads from the key change that let them in');

  const conv = await g.get(`/2/chat/conversations/${id}?chat_conversation.fields=group_name,created_at,is_muted&expansions=member_ids,admin_ids&user.fields=username`, { auth: await as('chen') });
  assert.equal(conv.status, 200);
  const known = { [id]: 'conversation', [g.user('ada').id]: 'ada', [g.user('chen').id]: 'chen', [g.user('plazanews').id]: 'plazanews' };
  assert.deepEqual(normalise(conv.body, known), {
    data: {
      id: '<conversation>',
      type: 'group',
      group_name: 'Plaza team',
      created_at: '<time>',
      is_muted: false,
      // Members in the order they joined (the two founders by user id).
      member_ids: ['<ada>', '<chen>', '<plazanews>'],
      admin_ids: ['<ada>'],
    },
    includes: {
      users: [
        { id: '<ada>', name: 'Ada Example', username: 'ada' },
        { id: '<chen>', name: 'Chen Affiliate', username: 'chen' },
        { id: '<plazanews>', name: 'Plaza News', username: 'plazanews' },
      ],
    },
  });
  const badField = await g.get(`/2/chat/conversations/${id}?chat_conversation.fields=nope`, { auth: await as('chen') });
  assert.equal(badField.status, 400);

  const inbox = await g.get('/2/chat/conversations?max_results=1', { auth: await as('ada') });
  assert.equal(inbox.status, 200);
  assert.equal(inbox.body.data[0].id, id, 'most recently active first');
  assert.equal(inbox.body.meta.has_more, true);
  const next = await g.get(`/2/chat/conversations?max_results=1&pagination_token=${inbox.body.meta.next_token}`, { auth: await as('ada') });
  assert.equal(next.body.data[0].type, 'one_to_one');
  assert.equal(typeof inbox.body.meta.has_message_requests, 'boolean');
});

test('chat media: initialize, append chunks (JSON base64 and multipart), finalize; "downloadable only by members ... (or by its uploader before attachment)", and media_hash_key must match', async () => {
  const [ada, chen] = [g.user('ada'), g.user('chen')];
  const pair = [ada.id, chen.id].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)).join('-');
  const outsider = await g.send('POST', '/2/chat/media/upload/initialize', { auth: await as('dana'), body: { conversation_id: pair, total_bytes: 6 } });
  assert.equal(outsider.status, 403);
  const init = await g.send('POST', '/2/chat/media/upload/initialize', { auth: await as('ada'), body: { conversation_id: chen.id, total_bytes: 6 } });
  assert.equal(init.status, 200, JSON.stringify(init.body));
  const { session_id, media_hash_key, conversation_id } = init.body.data;
  assert.equal(conversation_id, pair);
  const wrongKey = await g.send('POST', `/2/chat/media/upload/${session_id}/append`, { auth: await as('ada'), body: { conversation_id: pair, media_hash_key: 'abc', segment_index: 0, media: b64('abc') } });
  assert.equal(wrongKey.status, 400);
  const part0 = await g.send('POST', `/2/chat/media/upload/${session_id}/append`, { auth: await as('ada'), body: { conversation_id: pair, media_hash_key, segment_index: 0, media: b64('abc') } });
  assert.equal(part0.status, 200, JSON.stringify(part0.body));
  assert.equal(typeof part0.body.data.expires_at, 'number');
  const form = new FormData();
  form.set('conversation_id', pair);
  form.set('media_hash_key', media_hash_key);
  form.set('segment_index', '1');
  form.set('media', new Blob([Buffer.from('def')]), 'blob');
  const token = (await as('ada')).bearer;
  const part1 = await fetch(`${plaza.urls.base_url}/2/chat/media/upload/${session_id}/append`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  assert.equal(part1.status, 200, await part1.clone().text());
  const short = await g.send('POST', `/2/chat/media/upload/${session_id}/finalize`, { auth: await as('ada'), body: { conversation_id: pair, media_hash_key, num_parts: '3' } });
  assert.equal(short.status, 400);
  const done = await g.send('POST', `/2/chat/media/upload/${session_id}/finalize`, { auth: await as('ada'), body: { conversation_id: pair, media_hash_key, num_parts: '2' } });
  assert.deepEqual(done.body, { data: { success: true } });

  const download = (username: string, key = media_hash_key) => as(username).then((auth) => fetch(`${plaza.urls.base_url}/2/chat/media/${pair}/${key}`, { headers: { authorization: `Bearer ${auth.bearer}` } }));
  const own = await download('ada');
  assert.equal(own.status, 200);
  assert.equal(own.headers.get('content-type'), 'application/octet-stream');
  assert.equal(Buffer.from(await own.arrayBuffer()).toString(), 'abcdef');
  assert.equal((await download('chen')).status, 404, 'not yet attached to a message: only its uploader');
  assert.equal((await download('dana')).status, 403);
  assert.equal((await download('ada', 'notthekey')).status, 404);

  const init2 = await g.send('POST', '/2/chat/media/upload/initialize', { auth: await as('ada'), body: { conversation_id: pair, total_bytes: 3 } });
  const s2 = init2.body.data;
  await g.send('POST', `/2/chat/media/upload/${s2.session_id}/append`, { auth: await as('ada'), body: { conversation_id: pair, media_hash_key: s2.media_hash_key, segment_index: 0, media: b64('xyz') } });
  const attached = await g.send('POST', `/2/chat/media/upload/${s2.session_id}/finalize`, { auth: await as('ada'), body: { conversation_id: pair, media_hash_key: s2.media_hash_key, num_parts: '1', message_id: 'm-media' } });
  assert.equal(attached.status, 200);
  const member = await download('chen', s2.media_hash_key);
  assert.equal(member.status, 200);
  assert.equal(Buffer.from(await member.arrayBuffer()).toString(), 'xyz');
});
