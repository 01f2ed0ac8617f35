import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, beforeEach, test } from 'node:test';
import { sampleBucket } from '../../../src/query/geo-sample.js';
import { recordPost } from '../../../src/platform/posts/build.js';
import { partitionOf, takesPost } from '../../../src/platform/streams/posts.js';
import { StreamClient } from '../../support/streams.js';
import { eventually } from '../../support/wait.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { streamFixtures } from './support.js';
import { problemType } from '../../support/problems.js';
import { withEventsPlaced } from '../../support/event-log.js';

/**
 * The other Stream-tagged operations (issue #12): sample and sample10, the firehose and its
 * language variants, the compliance streams, the label stream, the likes streams; and the bound
 * on what a reader that stops reading costs (SlowReader).
 */

let plaza: TestPlaza;
let f: ReturnType<typeof streamFixtures>;
let enterprise: string;
const sockets: net.Socket[] = [];

before(async () => {
  plaza = await startTestPlaza({ activityKeepAliveMs: 100, activityPollMs: 50, streamConnectionsEnterprise: 4 });
  f = streamFixtures(plaza);
  enterprise = plaza.creds.apps[1].bearer_token;
});

after(() => {
  f.closeAll();
  for (const s of sockets) s.destroy();
});

beforeEach(async () => {
  f.closeAll();
  await f.killAll();
});

test('"the sample streams (GET /2/posts/sample/stream and sample10, a deterministic 1 % and 10 % by post id)"', async () => {
  const row = (id: string) => ({ id, lang: 'en' }) as any;
  assert.equal(takesPost({ kind: 'sample', percent: 1 }, row('1234567890123456700')), true);
  assert.equal(takesPost({ kind: 'sample', percent: 1 }, row('1234567890123456701')), false);
  assert.equal(takesPost({ kind: 'sample', percent: 10 }, row('1234567890123456709')), true);
  assert.equal(takesPost({ kind: 'sample', percent: 10 }, row('1234567890123456710')), false);
  // Over the real stream: the posts in the 10 % reach the partition that holds them, and only those.
  const parts = [await f.open('/2/posts/sample10/stream?partition=1', enterprise), await f.open('/2/posts/sample10/stream?partition=2', enterprise)];
  const sample = await f.open('/2/posts/sample/stream', enterprise);
  assert.deepEqual([...parts, sample].map((s) => s.status), [200, 200, 200]);
  const made: string[] = [];
  while (!made.some((id) => sampleBucket(id) < 10)) made.push((await f.post('ada', `sampled post ${made.length}`)).id);
  const inSample = made.filter((id) => sampleBucket(id) < 10);
  for (const id of inSample) {
    const part = parts[partitionOf(id, 2) - 1];
    await part.until(() => part.events().some((e) => e.data.id === id), `post ${id} on its partition`);
  }
  const got = parts.flatMap((p) => p.events().map((e) => e.data.id));
  assert.deepEqual(got.filter((id) => made.includes(id)).sort(), inSample.sort());
  assert.ok(sample.events().every((e) => sampleBucket(e.data.id) < 1));
});

test('"the firehose and its language variants (enterprise, with partition)": every public post, split by partition; self-serve apps are refused', async () => {
  const streams = await Promise.all([1, 2].map((p) => f.open(`/2/posts/firehose/stream/lang/ja?partition=${p}`, enterprise)));
  const all = await Promise.all(Array.from({ length: 20 }, (_, i) => f.open(`/2/posts/firehose/stream?partition=${i + 1}&post.fields=lang`, enterprise)));
  const ja = await f.post('ada', 'こんにちは、世界。今日はいい天気ですね。');
  const en = await f.post('ada', 'Hello world, a fine day for the firehose');
  const posted = await f.g.get(`/2/posts?ids=${ja.id},${en.id}&post.fields=lang`, { auth: f.g.appAuth });
  const langOf = new Map(posted.body.data.map((p: any) => [p.id, p.lang]));
  for (const id of [ja.id, en.id]) {
    const part = all[partitionOf(id, 20) - 1];
    await part.until(() => part.events().some((e) => e.data.id === id), `post ${id} on the firehose`);
  }
  // lang is detected from the text (issue 34): the Japanese post reaches the ja firehose.
  assert.equal(langOf.get(ja.id), 'ja');
  assert.equal(langOf.get(en.id), 'en');
  const jaPart = streams[partitionOf(ja.id, 2) - 1];
  await jaPart.until(() => jaPart.events().some((e) => e.data.id === ja.id), 'the Japanese post');
  assert.ok(streams.every((s) => s.events().every((e) => langOf.get(e.data.id) === undefined || langOf.get(e.data.id) === 'ja')));
  const refused = await f.g.get('/2/posts/firehose/stream?partition=1', { auth: f.g.appAuth });
  assert.equal(refused.status, 403);
  assert.equal(refused.body.type, problemType('client-forbidden'));
  const noPartition = await f.g.get('/2/posts/firehose/stream', { auth: { bearer: enterprise } });
  assert.equal(noPartition.status, 400);
  assert.deepEqual(Object.keys(noPartition.body.errors[0].parameters), ['partition']);
  const tooFar = await f.g.get('/2/posts/firehose/stream/lang/en?partition=9', { auth: { bearer: enterprise } });
  assert.equal(tooFar.status, 400);
});

test('"the compliance streams (posts, users, likes: deletes, protects, suspensions as they happen)": post deletes and edits, profile modifications, protects and unprotects, unlikes', async () => {
  const posts = await Promise.all([1, 2, 3, 4].map((p) => f.open(`/2/posts/compliance/stream?partition=${p}`, enterprise)));
  const users = await Promise.all([1, 2, 3, 4].map((p) => f.open(`/2/users/compliance/stream?partition=${p}`, enterprise)));
  const likes = await f.open('/2/likes/compliance/stream', enterprise);
  const labels = await f.open('/2/posts/label/stream', enterprise);
  assert.deepEqual([likes.status, labels.status], [200, 200]);
  const ada = f.g.user('ada');
  const made = await f.post('ada', 'soon gone');
  const removed = await f.g.send('DELETE', `/2/posts/${made.id}`, { auth: await f.g.enterpriseAs('ada') });
  assert.equal(removed.status, 200, removed.text);
  const part = posts[partitionOf(made.id, 4) - 1];
  await part.until(() => part.events().length >= 1, 'the delete');
  const del = part.events()[0].data.delete;
  assert.deepEqual(del.post, { id: made.id, author_id: ada.id });
  assert.ok(del.event_at);
  const original = await f.post('ada', 'to be edited');
  const edit = await f.post('ada', 'to be edited, now edited', { edit_options: { previous_post_id: original.id } });
  const editPart = posts[partitionOf(original.id, 4) - 1];
  await editPart.until(() => editPart.events().some((e) => e.data.post_edit), 'the edit');
  assert.deepEqual(editPart.events().find((e) => e.data.post_edit).data.post_edit.edit_post_ids, [original.id, edit.id]);
  const patched = await f.g.send('PATCH', '/2/users/me', { auth: f.g.oauth2As('ada'), body: { description: 'Compliance, streamed.' } });
  assert.equal(patched.status, 200, patched.text);
  const userPart = users[partitionOf(ada.id, 4) - 1];
  await userPart.until(() => userPart.events().length >= 1, 'the profile modification');
  assert.deepEqual({ ...userPart.events()[0].data.user_profile_modification, event_at: undefined }, { user: { id: ada.id }, profile_field: 'description', new_value: 'Compliance, streamed.', event_at: undefined });
  for (const protect of [true, false]) {
    const changed = await f.g.send('PATCH', '/2/users/me', { auth: f.g.oauth2As('ada'), body: { protected: protect } });
    assert.equal(changed.status, 200, changed.text);
  }
  await userPart.until(() => userPart.events().some((e) => e.data.user_unprotect), 'the unprotect');
  const kinds = userPart.events().map((e) => Object.keys(e.data)[0]);
  assert.deepEqual(kinds.slice(-2), ['user_protect', 'user_unprotect']);
  assert.equal(userPart.events().at(-2).data.user_protect.user.id, ada.id);
  assert.ok(userPart.events().at(-1).data.user_unprotect.event_at);
  // Unlikes: delete.favorite on the likes compliance stream.
  const chen = f.g.user('chen');
  const target = await f.post('ada', 'liked, then not');
  const chenAuth = await f.g.enterpriseAs('chen');
  assert.equal((await f.g.send('POST', `/2/users/${chen.id}/likes`, { auth: chenAuth, body: { post_id: target.id } })).status, 200);
  const [logged] = await (await withEventsPlaced(plaza.ctx.store.db)).selectFrom('events').select('payload').where('type', '=', 'like.create').orderBy('seq', 'desc').limit(1).execute();
  const unliked = await f.g.send('DELETE', `/2/users/${chen.id}/likes/${target.id}`, { auth: chenAuth });
  assert.equal(unliked.status, 200, unliked.text);
  await likes.until(() => likes.events().length >= 1, 'the unlike');
  assert.deepEqual(likes.events()[0].data.delete.favorite, { id: JSON.parse(logged.payload).id, user_id: chen.id });
});

test('compliance edit events answer in the dialect asked in: tweet_edit with initial_tweet_id and edit_tweet_ids (the public description\'s names) on /2/tweets, post_edit on /2/posts', async () => {
  const original = await f.post('ada', 'to be edited, in both dialects');
  const partition = partitionOf(original.id, 4);
  const tweets = await f.open(`/2/tweets/compliance/stream?partition=${partition}`, enterprise);
  const posts = await f.open(`/2/posts/compliance/stream?partition=${partition}`, enterprise);
  assert.deepEqual([tweets.status, posts.status], [200, 200]);
  const edit = await f.post('ada', 'to be edited, in both dialects, now edited', { edit_options: { previous_post_id: original.id } });
  await tweets.until(() => tweets.events().some((e) => e.data.tweet_edit), 'the edit in tweet names');
  await posts.until(() => posts.events().some((e) => e.data.post_edit), 'the edit in post names');
  const inTweetNames = tweets.events().find((e) => e.data.tweet_edit).data.tweet_edit;
  assert.deepEqual({ ...inTweetNames, event_at: undefined }, { tweet: { id: edit.id }, event_at: undefined, initial_tweet_id: original.id, edit_tweet_ids: [original.id, edit.id] });
  const inPostNames = posts.events().find((e) => e.data.post_edit).data.post_edit;
  assert.deepEqual({ ...inPostNames, event_at: undefined }, { post: { id: edit.id }, event_at: undefined, initial_post_id: original.id, edit_post_ids: [original.id, edit.id] });
});

test('"the likes firehose and sample10 streams": every like of a public post as {data, includes}', async () => {
  const streams = await Promise.all(Array.from({ length: 20 }, (_, i) => f.open(`/2/likes/firehose/stream?partition=${i + 1}&expansions=liked_post_author_id`, enterprise)));
  const target = await f.post('ada', 'like me');
  const chen = f.g.user('chen');
  const liked = await f.g.send('POST', `/2/users/${chen.id}/likes`, { auth: await f.g.enterpriseAs('chen'), body: { post_id: target.id } });
  assert.equal(liked.status, 200, liked.text);
  await eventually(() => streams.some((s) => s.events().length > 0), 'the like on some partition');
  const [logged] = await (await withEventsPlaced(plaza.ctx.store.db)).selectFrom('events').select('payload').where('type', '=', 'like.create').orderBy('seq', 'desc').limit(1).execute();
  const likeId = JSON.parse(logged.payload).id;
  const stream = streams[partitionOf(likeId, 20) - 1];
  await stream.until(() => stream.events().length >= 1, 'the like on its partition');
  const line = stream.events()[0];
  assert.equal(line.data.id, likeId);
  assert.equal(line.data.liked_post_id, target.id);
  assert.equal(line.data.liked_post_author_id, f.g.user('ada').id);
  assert.equal(line.includes.users[0].id, f.g.user('ada').id);
  assert.equal(streams.flatMap((s) => s.events()).length, 1, 'one partition carries it');
  const sample = await f.g.get('/2/likes/sample10/stream?partition=3', { auth: { bearer: enterprise } });
  assert.equal(sample.status, 400);
});

test('"SlowReader when the client stops reading (the server\'s buffer for one connection is bounded, a few MB)"', async () => {
  const slow = await startTestPlaza({ activityKeepAliveMs: 1_000, activityPollMs: 50, activityStreamBufferBytes: 256 * 1024 });
  const s = streamFixtures(slow);
  await s.addRules([{ value: 'from:ada' }]);
  const url = new URL(slow.urls.base_url);
  const socket = net.connect(Number(url.port), url.hostname);
  sockets.push(socket);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(`GET /2/posts/search/stream?post.fields=note_post HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${slow.creds.apps[0].bearer_token}\r\n\r\n`);
  socket.pause();
  // Posts of 20,000 characters, stored as a write would store them (each line carries the whole in note_post).
  const base = await s.post('ada', 'the template');
  // The stored row as a template; PostgreSQL's generated search column is the store's own to fill.
  const { search_tsv: _generated, ...template } = (await slow.ctx.store.db.selectFrom('posts').selectAll().where('id', '=', base.id).executeTakeFirstOrThrow()) as any;
  let written = 0;
  await eventually(async () => {
    for (let i = 0; i < 10; i++) {
      const id = slow.ctx.ids.next();
      await slow.ctx.store.db.transaction().execute((tx) =>
        recordPost(slow.ctx, tx, { ...template, id, conversation_id: id, text: `${written++} ${'w'.repeat(20_000)}`, edit_history_post_ids: JSON.stringify([id]) }),
      );
    }
    const probe = await StreamClient.open(slow.urls.base_url, '/2/posts/search/stream', slow.creds.apps[0].bearer_token);
    probe.close();
    return probe.status === 200;
  }, 'the slow reader to be cut', 60_000);
  // The kernel's buffers may have taken in everything written before the cut (on loopback they
  // grow to megabytes); what is written after it never reaches the cut connection.
  const afterCut = `${written++} after the cut`;
  await s.post('ada', afterCut);
  const received: Buffer[] = [];
  socket.on('data', (chunk) => received.push(chunk));
  socket.resume();
  await new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const lines = Buffer.concat(received).toString('utf8').split('\r\n').filter((l) => l.startsWith('{'));
  const last = JSON.parse(lines[lines.length - 1]);
  assert.equal(last.errors[0].disconnect_type, 'SlowReader');
  // Posts are the data lines: the cut's error lines are not deliveries.
  const delivered = lines.filter((l) => /^\{"data":/.test(l)).map((l) => JSON.parse(l).data.text as string);
  assert.ok(delivered.length > 0, 'posts were delivered before the cut');
  assert.ok(!delivered.includes(afterCut), `the post written after the cut was not delivered (${delivered.length} delivered, ${written} written)`);
});
