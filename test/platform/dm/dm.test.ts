import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';
import { normalise } from '../../support/normalise.js';
import { problemType } from '../../support/problems.js';

let plaza: TestPlaza;
let g: Fixtures;
const ALL_DM_FIELDS = 'attachments,created_at,dm_conversation_id,entities,event_type,id,participant_ids,referenced_posts,sender_id,text';

before(async () => {
  plaza = await startTestPlaza();
  g = fixtures(plaza);
});

const send = (from: string, to: string, body: unknown) => g.send('POST', `/2/dm_conversations/with/${g.user(to).id}/messages`, { auth: g.oauth2As(from), body });

test('POST /2/dm_conversations/with/{participant_id}/messages: 201 with dm_conversation_id (the two user ids, smaller first) and dm_event_id; dm.sent and dm.received carry {direct_message_events, users}', async () => {
  const [plazanews, dana] = [g.user('plazanews'), g.user('dana')];
  const seq = await g.lastSeq();
  const res = await send('plazanews', 'dana', { text: 'Welcome to #plaza, @dana! https://example.com' });
  assert.equal(res.status, 201);
  const ids = [plazanews.id, dana.id].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
  assert.deepEqual(normalise(res.body, { [ids.join('-')]: 'conversation' }), { data: { dm_conversation_id: '<conversation>', dm_event_id: '<id:1>' } });
  const sent = await g.eventsSince(seq, 'dm.sent');
  const received = await g.eventsSince(seq, 'dm.received');
  assert.equal(sent.length, 1);
  assert.equal(sent[0].subject, plazanews.id);
  assert.equal(received.length, 1);
  assert.equal(received[0].subject, dana.id);
  const known = { [plazanews.id]: 'plazanews', [dana.id]: 'dana', [res.body.data.dm_event_id]: 'event', [ids.join('-')]: 'conversation' };
  assert.deepEqual(normalise(received[0].payload.direct_message_events, known), [
    {
      type: 'message_create',
      id: '<event>',
      created_timestamp: '<id:1>', // milliseconds since the epoch
      dm_conversation_id: '<conversation>',
      message_create: {
        target: { recipient_id: '<dana>' },
        sender_id: '<plazanews>',
        message_data: {
          text: 'Welcome to #plaza, @dana! https://example.com',
          entities: {
            hashtags: [{ text: 'plaza', indices: [11, 17] }],
            symbols: [],
            urls: [{ url: 'https://example.com', expanded_url: 'https://example.com', display_url: 'example.com', indices: [26, 45] }],
            user_mentions: [{ screen_name: 'dana', indices: [19, 24] }],
          },
        },
      },
    },
  ]);
  assert.deepEqual(Object.keys(received[0].payload.users).sort(), ids.sort());
  assert.equal(received[0].payload.users[dana.id].screen_name, 'dana');
});

test('GET /2/dm_events: default fields id, event_type and text; dm_event.fields adds the rest; MessageCreate events carry no participant_ids', async () => {
  const res = await g.get('/2/dm_events', { auth: g.oauth2As('dana') });
  assert.equal(res.status, 200);
  const [newest] = res.body.data;
  assert.deepEqual(Object.keys(newest).sort(), ['event_type', 'id', 'text']);
  const full = await g.get(`/2/dm_events?dm_event.fields=${ALL_DM_FIELDS}&event_types=MessageCreate`, { auth: g.oauth2As('dana') });
  for (const e of full.body.data) {
    assert.equal(e.event_type, 'MessageCreate');
    assert.equal(e.participant_ids, undefined, 'MessageCreate events carry no participant_ids');
    assert.ok(e.sender_id && e.dm_conversation_id && e.created_at);
  }
  assert.equal(full.body.data[0].entities.hashtags[0].tag, 'plaza');
  assert.equal(full.body.meta.result_count, full.body.data.length);
});

test('group conversations: POST /2/dm_conversations (201) opens with a ParticipantsJoin event whose participant_ids list only the invited participants', async () => {
  const [ada, chen, dana, news] = ['ada', 'chen', 'dana', 'plazanews'].map(g.user);
  const res = await g.send('POST', '/2/dm_conversations', {
    auth: g.oauth2As('ada'),
    body: { conversation_type: 'Group', participant_ids: [chen.id, dana.id], message: { text: 'Group hello' } },
  });
  assert.equal(res.status, 201);
  const conversation = res.body.data.dm_conversation_id;
  assert.match(conversation, /^[0-9]{15,19}$/);
  const events = await g.get(`/2/dm_conversations/${conversation}/dm_events?dm_event.fields=${ALL_DM_FIELDS}`, { auth: g.oauth2As('chen') });
  assert.deepEqual(normalise(events.body, { [ada.id]: 'ada', [chen.id]: 'chen', [dana.id]: 'dana', [conversation]: 'conversation', [res.body.data.dm_event_id]: 'message' }), {
    data: [
      { id: '<message>', event_type: 'MessageCreate', text: 'Group hello', created_at: '<time>', dm_conversation_id: '<conversation>', sender_id: '<ada>' },
      { id: '<id:1>', event_type: 'ParticipantsJoin', created_at: '<time>', dm_conversation_id: '<conversation>', participant_ids: ['<chen>', '<dana>'], sender_id: '<ada>' },
    ],
    meta: { result_count: 2 },
  });
  const outsider = await g.get(`/2/dm_conversations/${conversation}/dm_events`, { auth: g.oauth2As('plazanews') });
  assert.equal(outsider.status, 403);
  const reply = await g.send('POST', `/2/dm_conversations/${conversation}/messages`, { auth: g.oauth2As('dana'), body: { text: 'Hi all' } });
  assert.equal(reply.status, 201);
  const notIn = await g.send('POST', `/2/dm_conversations/${conversation}/messages`, { auth: g.oauth2As('plazanews'), body: { text: 'Let me in' } });
  assert.equal(notIn.status, 403);
  for (const body of [
    { conversation_type: 'Group', participant_ids: [chen.id], message: { text: 'too few' } },
    { conversation_type: 'Group', participant_ids: [chen.id, ada.id], message: { text: 'only one other' } },
    { conversation_type: 'OneToOne', participant_ids: [chen.id, dana.id], message: { text: 'bad type' } },
    { conversation_type: 'Group', participant_ids: [chen.id, dana.id], message: {} },
  ]) {
    const bad = await g.send('POST', '/2/dm_conversations', { auth: g.oauth2As('ada'), body });
    assert.equal(bad.status, 400, JSON.stringify(body));
  }
  assert.ok(news);
});

test('participants joining and leaving: join and leave events list only who joined or left; newcomers see events from their join; who left sees nothing after leaving and cannot send', async () => {
  const [chen, dana, news] = ['chen', 'dana', 'plazanews'].map(g.user);
  const created = await g.send('POST', '/2/dm_conversations', {
    auth: g.oauth2As('chen'),
    body: { conversation_type: 'Group', participant_ids: [dana.id, g.user('ada').id], message: { text: 'Before plazanews' } },
  });
  const conversation = created.body.data.dm_conversation_id;
  const joined = await g.send('POST', `/2/dm_conversations/${conversation}/participants`, { auth: g.oauth2As('dana'), body: { participant_ids: [news.id] } });
  assert.equal(joined.status, 200);
  const newcomerView = await g.get(`/2/dm_conversations/${conversation}/dm_events?dm_event.fields=participant_ids,sender_id`, { auth: g.oauth2As('plazanews') });
  assert.deepEqual(newcomerView.body.data.map((e: any) => e.event_type), ['ParticipantsJoin']);
  assert.deepEqual(newcomerView.body.data[0].participant_ids, [news.id], 'only who joined');
  assert.equal(newcomerView.body.data[0].id, joined.body.data.dm_event_id);

  const left = await g.send('DELETE', `/2/dm_conversations/${conversation}/participants/${dana.id}`, { auth: g.oauth2As('dana') });
  assert.equal(left.status, 200);
  await g.send('POST', `/2/dm_conversations/${conversation}/messages`, { auth: g.oauth2As('chen'), body: { text: 'After dana left' } });
  const chenView = await g.get(`/2/dm_conversations/${conversation}/dm_events?dm_event.fields=participant_ids`, { auth: g.oauth2As('chen') });
  const leave = chenView.body.data.find((e: any) => e.event_type === 'ParticipantsLeave');
  assert.deepEqual(leave.participant_ids, [dana.id], 'only who left');
  const danaView = await g.get(`/2/dm_conversations/${conversation}/dm_events`, { auth: g.oauth2As('dana') });
  assert.equal(danaView.body.data[0].event_type, 'ParticipantsLeave', 'the leaver sees up to their leave event');
  assert.ok(!danaView.body.data.some((e: any) => e.text === 'After dana left'));
  const afterLeaving = await g.send('POST', `/2/dm_conversations/${conversation}/messages`, { auth: g.oauth2As('dana'), body: { text: 'Still here?' } });
  assert.equal(afterLeaving.status, 403);
  const joinOnly = await g.get(`/2/dm_conversations/${conversation}/dm_events?event_types=ParticipantsJoin,ParticipantsLeave`, { auth: g.oauth2As('chen') });
  assert.ok(joinOnly.body.data.every((e: any) => e.event_type !== 'MessageCreate'));
  const someoneElse = await g.send('DELETE', `/2/dm_conversations/${conversation}/participants/${news.id}`, { auth: g.oauth2As('chen') });
  assert.equal(someoneElse.status, 403, 'a participant leaves by themself');
  const oneToOne = [chen.id, dana.id].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)).join('-');
  await send('chen', 'dana', { text: 'direct' });
  const addToPair = await g.send('POST', `/2/dm_conversations/${oneToOne}/participants`, { auth: g.oauth2As('chen'), body: { participant_ids: [news.id] } });
  assert.equal(addToPair.status, 400);
});

test('POST /2/dm_conversations/{id}/read marks read up to last_read_event_id (dm.read); POST /2/dm_conversations/{id}/typing appends dm.indicate_typing; both reach the other participants', async () => {
  const [chen, ada] = [g.user('chen'), g.user('ada')];
  const sent = await send('ada', 'chen', { text: 'Are you there?' });
  const conversation = sent.body.data.dm_conversation_id;
  const seq = await g.lastSeq();
  const read = await g.send('POST', `/2/dm_conversations/${conversation}/read`, { auth: g.oauth2As('chen'), body: { last_read_event_id: sent.body.data.dm_event_id } });
  assert.deepEqual(read.body, { data: { success: true } });
  const typing = await g.send('POST', `/2/dm_conversations/${conversation}/typing`, { auth: g.oauth2As('chen') });
  assert.deepEqual(typing.body, { data: { success: true } });
  const [readEvent] = await g.eventsSince(seq, 'dm.read');
  assert.equal(readEvent.subject, chen.id);
  assert.deepEqual(normalise(readEvent.payload.direct_message_events, { [ada.id]: 'ada', [chen.id]: 'chen', [conversation]: 'conversation', [sent.body.data.dm_event_id]: 'event' }), [
    { type: 'mark_read', created_timestamp: '<id:1>', dm_conversation_id: '<conversation>', sender_id: '<chen>', target: { recipient_id: '<ada>' }, last_read_event_id: '<event>' },
  ]);
  assert.ok(readEvent.payload.users[ada.id]);
  const [typingEvent] = await g.eventsSince(seq, 'dm.indicate_typing');
  assert.equal(typingEvent.payload.direct_message_events[0].sender_id, chen.id);
  assert.ok(typingEvent.payload.users[chen.id]);
  const bad = await g.send('POST', `/2/dm_conversations/${conversation}/read`, { auth: g.oauth2As('chen'), body: { last_read_event_id: '1234567890123456789' } });
  assert.equal(bad.status, 400);
  assert.ok('last_read_event_id' in bad.body.errors[0].parameters);
  const outsider = await g.send('POST', `/2/dm_conversations/${conversation}/typing`, { auth: g.oauth2As('dana') });
  assert.equal(outsider.status, 403);
});

test('GET /2/dm_conversations/with/{participant_id}/dm_events lists the one-to-one conversation newest first, paginated; GET and DELETE /2/dm_events/{event_id}', async () => {
  const chen = g.user('chen');
  for (const text of ['one', 'two', 'three']) await send('dana', 'chen', { text });
  const page1 = await g.get(`/2/dm_conversations/with/${chen.id}/dm_events?max_results=2`, { auth: g.oauth2As('dana') });
  assert.deepEqual(page1.body.data.map((e: any) => e.text), ['three', 'two']);
  const page2 = await g.get(`/2/dm_conversations/with/${chen.id}/dm_events?max_results=2&pagination_token=${page1.body.meta.next_token}`, { auth: g.oauth2As('dana') });
  assert.equal(page2.body.data[0].text, 'one');
  const id = page1.body.data[0].id;
  const one = await g.get(`/2/dm_events/${id}?dm_event.fields=sender_id&expansions=sender_id`, { auth: g.oauth2As('chen') });
  assert.equal(one.body.data.text, 'three');
  assert.equal(one.body.includes.users[0].username, 'dana');
  assert.equal((await g.send('DELETE', `/2/dm_events/${id}`, { auth: g.oauth2As('chen') })).status, 403, 'only the sender deletes');
  const deleted = await g.send('DELETE', `/2/dm_events/${id}`, { auth: g.oauth2As('dana') });
  assert.deepEqual(deleted.body, { data: { deleted: true } });
  assert.equal((await g.get(`/2/dm_events/${id}`, { auth: g.oauth2As('chen') })).status, 404);
  const none = await g.get(`/2/dm_conversations/with/${g.user('bruno').id}/dm_events`, { auth: g.oauth2As('plazanews') });
  assert.deepEqual(none.body, { meta: { result_count: 0 } });
  assert.equal((await g.get(`/2/dm_events?max_results=101`, { auth: g.oauth2As('dana') })).status, 400);
  assert.equal((await g.get(`/2/dm_events?event_types=Typing`, { auth: g.oauth2As('dana') })).status, 400);
  assert.equal((await g.get(`/2/dm_events?dm_event.fields=colour`, { auth: g.oauth2As('dana') })).status, 400);
});

test('attachments name the sender\'s uploaded media (attachments.media_keys, expandable); links to posts become referenced_posts; another user\'s media is refused', async () => {
  const media = await plaza.ctx.store.db.selectFrom('media').selectAll().where('owner_user_id', '=', g.user('ada').id).execute();
  const post = plaza.creds.sample.post_ids[3];
  const res = await send('ada', 'dana', { text: `Look https://x.com/plazanews/status/${post}`, attachments: [{ media_id: media[0].id }] });
  assert.equal(res.status, 201);
  const event = await g.get(`/2/dm_events/${res.body.data.dm_event_id}?dm_event.fields=attachments,referenced_posts&expansions=attachments.media_keys,referenced_posts&media.fields=width`, { auth: g.oauth2As('dana') });
  assert.deepEqual(normalise(event.body, { [res.body.data.dm_event_id]: 'event', [media[0].media_key]: 'media', [post]: 'post' }), {
    data: {
      id: '<event>',
      event_type: 'MessageCreate',
      text: `Look https://x.com/plazanews/status/${post}`,
      attachments: { media_keys: ['<media>'] },
      referenced_posts: [{ id: '<post>' }],
    },
    includes: {
      posts: [{ id: '<post>', text: 'Plaza is live: a self-hosted platform for @ada and everyone else. Read more https://example.com/plaza $PLZ #launch' }],
      media: [{ media_key: '<media>', type: media[0].type, width: media[0].width }],
    },
  });
  const notYours = await send('dana', 'ada', { attachments: [{ media_id: media[0].id }] });
  assert.equal(notYours.status, 403);
  const missing = await send('dana', 'ada', { attachments: [{ media_id: '1234567890123456789' }] });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.resource_type, 'media');
});

test('bad messages are invalid-requests naming the field: no text and no attachments, a message to yourself, an unknown participant is 404', async () => {
  const seq = await g.lastSeq();
  for (const [to, body, field] of [['dana', {}, 'text'], ['dana', { text: '' }, 'text'], ['dana', { text: 'hi', colour: 'red' }, 'colour'], ['ada', { text: 'me' }, 'participant_id']] as const) {
    const res = await send('ada', to, body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.ok(field in res.body.errors[0].parameters, JSON.stringify(res.body));
  }
  const unknown = await g.send('POST', '/2/dm_conversations/with/1234567890123456789/messages', { auth: g.oauth2As('ada'), body: { text: 'hello' } });
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.type, problemType('resource-not-found'));
  assert.equal((await g.eventsSince(seq)).length, 0);
});

test('direct messages need the read-write-directmessages permission of OAuth 1.0a and the dm.read / dm.write scopes of OAuth 2.0; app-only auth is refused', async () => {
  const readWrite = await g.enterpriseOAuth1As('chen', 'read-write');
  assert.equal((await g.get('/2/dm_events', { auth: readWrite })).status, 403);
  const dmLevel = await g.enterpriseOAuth1As('chen', 'read-write-directmessages');
  assert.equal((await g.get('/2/dm_events', { auth: dmLevel })).status, 200);
  const noScope = await g.get('/2/dm_events', { auth: await g.enterpriseAs('chen', ['post.read', 'users.read']) });
  assert.equal(noScope.status, 403);
  assert.match(noScope.body.detail, /dm\.read/);
  assert.equal((await g.get('/2/dm_events', { auth: g.appAuth })).status, 403);
});
