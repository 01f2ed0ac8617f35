import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, beforeEach, test } from 'node:test';
import { appendEvent, eventsAfter } from '../../src/events/log.js';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { StreamClient } from '../support/streams.js';
import { eventually } from '../support/wait.js';
import { fixtures, type Fixtures } from '../support/fixtures.js';
import { problemType } from '../support/problems.js';

/**
 * GET /2/activity/stream (spec 000 "Events", reference §7) over real sockets: envelopes,
 * keep-alives, backfill and time windows from the log, connection caps, SlowReader, shutdown.
 */

let plaza: TestPlaza;
let g: Fixtures;
const clients: StreamClient[] = [];
const sockets: net.Socket[] = [];

before(async () => {
  plaza = await startTestPlaza({ activityKeepAliveMs: 100, activityPollMs: 50, activityStreamConnections: 2 });
  g = fixtures(plaza);
});

after(() => {
  for (const c of clients) c.close();
  for (const s of sockets) s.destroy();
});

// Each test starts with no stream of the shared server open: a failed test leaves none behind.
beforeEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await eventually(async () => {
    const probe = await StreamClient.open(plaza.urls.base_url, '/2/activity/stream', plaza.creds.apps[0].bearer_token);
    const probe2 = probe.status === 200 ? await StreamClient.open(plaza.urls.base_url, '/2/activity/stream', plaza.creds.apps[0].bearer_token) : undefined;
    probe.close();
    probe2?.close();
    return probe.status === 200 && probe2?.status === 200;
  }, 'every connection slot free');
  await unsubscribeAll(plaza);
});

async function openStream(p: TestPlaza, query = '', bearer = p.creds.apps[0].bearer_token): Promise<StreamClient> {
  const client = await StreamClient.open(p.urls.base_url, `/2/activity/stream${query}`, bearer);
  clients.push(client);
  return client;
}

async function subscribe(p: TestPlaza, body: unknown, auth: any = { bearer: p.creds.apps[0].bearer_token }) {
  const res = await fixtures(p).send('POST', '/2/activity/subscriptions', { auth, body });
  assert.equal(res.status, 200, res.text);
  return res.body.data.subscription;
}

async function unsubscribeAll(p: TestPlaza): Promise<void> {
  await p.ctx.store.db.deleteFrom('activity_subscriptions').execute();
}

test('GET /2/activity/stream: a persistent HTTP stream of {data:{event_uuid, filter, event_type, tag, payload, includes}} lines, with \\r\\n keep-alives; profile.update.bio when PATCH /2/users/me changes the bio', async () => {
  const dana = g.user('dana');
  const sub = await subscribe(plaza, { event_type: 'profile.update.bio', filter: { user_id: dana.id }, tag: 'dana bio' });
  const stream = await openStream(plaza);
  assert.equal(stream.status, 200);
  assert.match(String(stream.headers['content-type']), /application\/json/);
  await stream.until(() => stream.keepAlives() >= 3, 'keep-alives');
  const patched = await g.send('PATCH', '/2/users/me', { auth: g.oauth2As('dana'), body: { description: 'Streams now.' } });
  assert.equal(patched.status, 200, patched.text);
  await stream.until(() => stream.events().length >= 1, 'the bio event');
  const [logged] = (await eventsAfter(plaza.ctx.store.db, 0, 100_000)).filter((e) => e.type === 'profile.update.bio').slice(-1);
  assert.deepEqual(stream.events()[0], {
    data: {
      event_uuid: logged.id,
      filter: { user_id: dana.id },
      event_type: 'profile.update.bio',
      tag: 'dana bio',
      payload: { before: 'Mostly reads, sometimes quotes.', after: 'Streams now.' },
      includes: {},
    },
  });
  // Other changes of the profile are other event types: not subscribed, not sent.
  await g.send('PATCH', '/2/users/me', { auth: g.oauth2As('dana'), body: { location: 'Porto' } });
  await g.send('PATCH', '/2/users/me', { auth: g.oauth2As('dana'), body: { description: 'Streams again.' } });
  await stream.until(() => stream.events().length >= 2, 'the second bio event');
  assert.deepEqual(stream.events().map((e) => e.data.event_type), ['profile.update.bio', 'profile.update.bio']);
  assert.equal(sub.event_type, 'profile.update.bio');
  stream.close();
  await unsubscribeAll(plaza);
});

test('post.create for followed users carries the Post as payload and its author in includes.users; post.delete carries {id, author_id}; a mention reaches post.mention.create', async () => {
  const ada = g.user('ada');
  const chen = g.user('chen');
  await subscribe(plaza, { event_type: 'post.create', filter: { user_id: ada.id } });
  await subscribe(plaza, { event_type: 'post.delete', filter: { user_id: ada.id } });
  await subscribe(plaza, { event_type: 'post.mention.create', filter: { user_id: chen.id } }, await g.selfServeAs('chen'));
  const stream = await openStream(plaza);
  // The enterprise app: a self-serve app may only mention accounts that summoned it (Feb 23, 2026).
  const made = await g.send('POST', '/2/posts', { auth: await g.enterpriseAs('ada'), body: { text: 'Hello @chen from the activity stream' } });
  assert.equal(made.status, 201, made.text);
  const postId = made.body.data.id;
  await stream.until(() => stream.events().length >= 2, 'post.create and post.mention.create');
  const byType = Object.fromEntries(stream.events().map((e) => [e.data.event_type, e.data]));
  assert.equal(byType['post.create'].payload.id, postId);
  assert.equal(byType['post.create'].payload.author_id, ada.id);
  assert.equal(byType['post.create'].payload.text, 'Hello @chen from the activity stream');
  assert.equal(byType['post.create'].includes.users[0].id, ada.id);
  assert.equal(byType['post.create'].includes.users[0].username, 'ada');
  assert.equal(byType['post.mention.create'].payload.id, postId);
  assert.deepEqual(byType['post.mention.create'].filter, { user_id: chen.id });
  const removed = await g.send('DELETE', `/2/posts/${postId}`, { auth: await g.enterpriseAs('ada') });
  assert.equal(removed.status, 200, removed.text);
  await stream.until(() => stream.events().some((e) => e.data.event_type === 'post.delete'), 'post.delete');
  assert.deepEqual(stream.events().find((e) => e.data.event_type === 'post.delete').data.payload, { id: postId, author_id: ada.id });
  stream.close();
  await unsubscribeAll(plaza);
});

test('backfill_minutes 0-5 and start_time/end_time are read from the log; bad values are invalid requests', async () => {
  const ada = g.user('ada');
  await subscribe(plaza, { event_type: 'profile.update.geo', filter: { user_id: ada.id } });
  const startedAt = new Date(Date.now() - 1000).toISOString();
  await g.send('PATCH', '/2/users/me', { auth: g.oauth2As('ada'), body: { location: 'Paris' } });
  const endedAt = new Date(Date.now() + 1).toISOString();
  await eventually(async () => Date.now() > Date.parse(endedAt) + 5, 'time to pass end_time');

  const plain = await openStream(plaza);
  const backfilled = await openStream(plaza, '?backfill_minutes=5');
  await backfilled.until(() => backfilled.events().length >= 1, 'the backfilled event');
  assert.deepEqual(backfilled.events()[0].data.payload, { before: 'London', after: 'Paris' });
  await g.send('PATCH', '/2/users/me', { auth: g.oauth2As('ada'), body: { location: 'Rome' } });
  await plain.until(() => plain.events().length >= 1, 'the live event');
  await backfilled.until(() => backfilled.events().length >= 2, 'the live event after the backfill');
  assert.deepEqual(plain.events().map((e) => e.data.payload.after), ['Rome'], 'no backfill without backfill_minutes');
  assert.deepEqual(backfilled.events().map((e) => e.data.payload.after), ['Paris', 'Rome'], 'backfill first, then live, in log order');
  plain.close();
  backfilled.close();
  await eventually(async () => (await openStream(plaza, '?backfill_minutes=0')).status === 200, 'a free connection slot');
  for (const c of clients.splice(0)) c.close();

  // A past window: its events, then the stream ends.
  const windowed = await openStream(plaza, `?start_time=${encodeURIComponent(startedAt)}&end_time=${encodeURIComponent(endedAt)}`);
  assert.equal(windowed.status, 200);
  await windowed.until(() => windowed.ended, 'the end of a past window');
  assert.deepEqual(windowed.events().map((e) => e.data.payload.after), ['Paris']);

  for (const bad of ['backfill_minutes=6', 'backfill_minutes=-1', 'backfill_minutes=x', 'start_time=yesterday', `start_time=${encodeURIComponent(endedAt)}&end_time=${encodeURIComponent(startedAt)}`, 'start_time=2999-01-01T00:00:00Z']) {
    const res = await g.get(`/2/activity/stream?${bad}`, { auth: g.appAuth });
    assert.equal(res.status, 400, `${bad}: ${res.text}`);
    assert.equal(res.body.type, problemType('invalid-request'));
  }
  await unsubscribeAll(plaza);
});

test('connection caps: one connection too many gets the streaming-connection problem TooManyConnections (429); the stream needs app-only auth', async () => {
  const a = await openStream(plaza);
  const b = await openStream(plaza);
  const res = await g.get('/2/activity/stream', { auth: g.appAuth });
  assert.equal(res.status, 429);
  assert.equal(res.body.type, problemType('streaming-connection'));
  assert.equal(res.body.connection_issue, 'TooManyConnections');
  // Another app has its own connections.
  const other = await openStream(plaza, '', plaza.creds.apps[1].bearer_token);
  assert.equal(other.status, 200);
  assert.equal((await g.get('/2/activity/stream', { auth: g.oauth2As('ada') })).status, 403);
  assert.equal((await g.get('/2/activity/stream')).status, 401);
  a.close();
  await eventually(async () => {
    const again = await openStream(plaza);
    if (again.status === 200) again.close();
    return again.status === 200;
  }, 'a slot freed by a closed connection');
  b.close();
  other.close();
});

test('a reader that stops reading is disconnected with SlowReader (operational-disconnect), holding a bounded amount of memory', async () => {
  const slow = await startTestPlaza({ activityKeepAliveMs: 1_000, activityPollMs: 50, activityStreamConnections: 1, activityStreamBufferBytes: 256 * 1024 });
  const s = fixtures(slow);
  const dana = s.user('dana');
  await subscribe(slow, { event_type: 'profile.update.bio', filter: { user_id: dana.id } });
  const url = new URL(slow.urls.base_url);
  const socket = net.connect(Number(url.port), url.hostname);
  sockets.push(socket);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(`GET /2/activity/stream HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${slow.creds.apps[0].bearer_token}\r\n\r\n`);
  // The reader reads nothing from here on.
  socket.pause();
  const big = 'b'.repeat(100_000);
  let written = 0;
  await eventually(async () => {
    // Events of 100 KB each, written to the log as the change that causes them would.
    for (let i = 0; i < 10; i++) {
      await slow.ctx.store.db.transaction().execute((tx) => appendEvent(slow.ctx, tx, { type: 'profile.update.bio', subject: dana.id, payload: { before: '', after: `${written++} ${big}` } }));
    }
    // Cut, the slow connection frees the app's one slot.
    const probe = await StreamClient.open(slow.urls.base_url, '/2/activity/stream', slow.creds.apps[0].bearer_token);
    probe.close();
    return probe.status === 200;
  }, 'the slow reader to be cut', 60_000);
  // The kernel's buffers may have taken in everything written before the cut; what is written after
  // it never reaches the cut connection.
  for (let i = 0; i < 5; i++) {
    await slow.ctx.store.db.transaction().execute((tx) => appendEvent(slow.ctx, tx, { type: 'profile.update.bio', subject: dana.id, payload: { before: '', after: `${written++} ${big}` } }));
  }
  // Whatever the server still held for it was bounded: the kernel's buffers plus the configured 256 KB.
  const received: Buffer[] = [];
  socket.on('data', (chunk) => received.push(chunk));
  socket.resume();
  await new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const text = Buffer.concat(received).toString('utf8');
  const lines = text.split('\r\n').filter((l) => l.startsWith('{'));
  const last = JSON.parse(lines[lines.length - 1]);
  assert.equal(last.errors[0].type, problemType('operational-disconnect'));
  assert.equal(last.errors[0].disconnect_type, 'SlowReader');
  // Events are the data lines: the cut's error lines are not deliveries.
  const delivered = lines.filter((l) => /^\{"data":/.test(l)).length;
  assert.ok(delivered < written, `fewer events delivered (${delivered}) than written (${written})`);
});

test('streams close cleanly on shutdown with an OperationalDisconnect message', async () => {
  const closing = await startTestPlaza({ activityKeepAliveMs: 100, activityPollMs: 50 });
  const stream = await openStream(closing);
  await stream.until(() => stream.keepAlives() >= 1, 'the stream to be open');
  const started = Date.now();
  await closing.close();
  assert.ok(Date.now() - started < 5_000, 'shutdown does not wait on the open stream');
  await stream.until(() => stream.ended, 'the stream to end');
  const last = stream.messages().slice(-1)[0];
  assert.equal(last.errors[0].type, problemType('operational-disconnect'));
  assert.equal(last.errors[0].disconnect_type, 'OperationalDisconnect');
});
