import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { problemType } from '../../support/problems.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';

let plaza: TestPlaza;
let p: Fixtures;
let withMedia: string, reply: string, announcement: string, privatePost: string;

before(async () => {
  plaza = await startTestPlaza();
  p = fixtures(plaza);
  [withMedia, reply, , announcement, privatePost] = plaza.creds.sample.post_ids;
});

const repost = async (username: string, postId: string, auth?: { bearer: string }) =>
  p.send('POST', `/2/users/${p.user(username).id}/reposts`, { auth: auth ?? (await p.selfServeAs(username)), body: { post_id: postId } });

test('POST /2/users/{id}/reposts: {reposted: true, rest_id}; the repost is a post of the reposter (RT @author: text, referenced_posts reposted) with post.create; retweet_count and the reposter\'s post count move', async () => {
  const before = (await p.lookup(reply)).public_metrics.retweet_count;
  const danaPosts = (await p.userRow('dana')).post_count;
  const seq = await p.lastSeq();
  const res = await repost('dana', reply);
  assert.equal(res.status, 200);
  assert.equal(res.body.data.reposted, true);
  const id = res.body.data.rest_id;
  const post = await p.lookup(id);
  assert.equal(post.author_id, p.user('dana').id);
  assert.equal(post.text, `RT @chen: ${(await p.lookup(reply)).text}`);
  assert.deepEqual(post.referenced_posts, [{ type: 'reposted', id: reply }]);
  assert.equal(post.conversation_id, id);
  assert.deepEqual(post.entities.mentions[0], { start: 3, end: 8, username: 'chen' });
  assert.equal((await p.lookup(reply)).public_metrics.retweet_count, before + 1);
  assert.equal((await p.userRow('dana')).post_count, danaPosts + 1);
  const events = await p.eventsSince(seq, 'post.create');
  assert.deepEqual(events.map((e) => e.payload.id), [id]);
});

test('reposting again changes nothing and answers with the same repost; reposting a repost reposts its source', async () => {
  const first = await repost('chen', announcement);
  const count = (await p.lookup(announcement)).public_metrics.retweet_count;
  const seq = await p.lastSeq();
  const again = await repost('chen', announcement);
  assert.deepEqual(again.body, first.body);
  assert.equal((await p.lookup(announcement)).public_metrics.retweet_count, count);
  assert.equal((await p.eventsSince(seq)).length, 0);
  const ofRepost = await repost('ada', first.body.data.rest_id);
  assert.deepEqual((await p.lookup(ofRepost.body.data.rest_id)).referenced_posts, [{ type: 'reposted', id: announcement }]);
});

test('DELETE /2/users/{id}/reposts/{source_post_id}: {reposted: false}; the repost is deleted with post.delete and the counters move back; undoing again changes nothing', async () => {
  const made = await repost('plazanews', withMedia);
  const count = (await p.lookup(withMedia)).public_metrics.retweet_count;
  const posts = (await p.userRow('plazanews')).post_count;
  const seq = await p.lastSeq();
  const auth = await p.selfServeAs('plazanews');
  const res = await p.send('DELETE', `/2/users/${p.user('plazanews').id}/reposts/${withMedia}`, { auth });
  assert.deepEqual(res.body, { data: { reposted: false } });
  assert.equal((await p.lookup(withMedia)).public_metrics.retweet_count, count - 1);
  assert.equal((await p.userRow('plazanews')).post_count, posts - 1);
  assert.deepEqual((await p.eventsSince(seq, 'post.delete')).map((e) => e.payload), [{ id: made.body.data.rest_id, author_id: p.user('plazanews').id }]);
  const seq2 = await p.lastSeq();
  assert.deepEqual((await p.send('DELETE', `/2/users/${p.user('plazanews').id}/reposts/${withMedia}`, { auth })).body, { data: { reposted: false } });
  assert.equal((await p.eventsSince(seq2)).length, 0);
});

test('reposts refuse: another user\'s id in the path (403), a missing post (404 naming post_id), a protected account\'s post (403), a malformed body (400), app-only auth (403)', async () => {
  const seq = await p.lastSeq();
  const other = await p.send('POST', `/2/users/${p.user('ada').id}/reposts`, { auth: await p.selfServeAs('dana'), body: { post_id: announcement } });
  assert.equal(other.status, 403);
  const missing = await repost('dana', '1234567890123456789');
  assert.equal(missing.status, 404);
  assert.equal(missing.body.type, problemType('resource-not-found'));
  assert.equal(missing.body.parameter, 'post_id');
  // ada follows the protected bruno and sees his post, but it cannot be reposted.
  const protectedPost = await repost('ada', privatePost);
  assert.equal(protectedPost.status, 403);
  assert.match(protectedPost.body.detail, /protected/);
  const unseen = await repost('dana', privatePost);
  assert.equal(unseen.status, 403);
  assert.equal(unseen.body.type, problemType('not-authorized-for-resource'));
  const badBody = await p.send('POST', `/2/users/${p.user('dana').id}/reposts`, { auth: await p.selfServeAs('dana'), body: { target_post_id: announcement } });
  assert.equal(badBody.status, 400);
  assert.equal((await p.send('POST', `/2/users/${p.user('dana').id}/reposts`, { auth: p.appAuth, body: { post_id: announcement } })).status, 403);
  assert.equal((await p.eventsSince(seq)).length, 0);
});

test('GET /2/posts/{id}/reposted_by: the reposters, newest repost first, paginated (max_results 1-100), with user fields; app-only works', async () => {
  const source = (await p.post(await p.enterpriseAs('ada'), { text: 'Repost me' })).body.data.id;
  for (const who of ['chen', 'dana', 'plazanews']) await repost(who, source);
  const all = await p.get(`/2/posts/${source}/reposted_by?user.fields=verified`, { auth: p.appAuth });
  assert.equal(all.status, 200);
  assert.deepEqual(all.body.data.map((u: any) => u.username), ['plazanews', 'dana', 'chen']);
  assert.deepEqual(Object.keys(all.body.data[0]).sort(), ['id', 'name', 'username', 'verified']);
  const first = await p.get(`/2/posts/${source}/reposted_by?max_results=2`, { auth: p.appAuth });
  assert.equal(first.body.meta.result_count, 2);
  const second = await p.get(`/2/posts/${source}/reposted_by?max_results=2&pagination_token=${first.body.meta.next_token}`, { auth: p.appAuth });
  assert.deepEqual(second.body.data.map((u: any) => u.username), ['chen']);
  assert.equal(second.body.meta.next_token, undefined);
  const missing = await p.get('/2/posts/1234567890123456789/reposted_by', { auth: p.appAuth });
  assert.equal(missing.body.errors[0].type, problemType('resource-not-found'));
  assert.equal((await p.get(`/2/posts/${source}/reposted_by?max_results=0`, { auth: p.appAuth })).status, 400);
  const hidden = await p.get(`/2/posts/${privatePost}/reposted_by`, { auth: p.appAuth });
  assert.equal(hidden.body.errors[0].type, problemType('not-authorized-for-resource'));
});

test('GET /2/posts/{id}/reposts: the reposts themselves, newest first, with expansions', async () => {
  const source = (await p.post(await p.enterpriseAs('chen'), { text: 'Reposts of me' })).body.data.id;
  const a = (await repost('dana', source)).body.data.rest_id;
  const b = (await repost('ada', source)).body.data.rest_id;
  const res = await p.get(`/2/posts/${source}/reposts?post.fields=referenced_posts&expansions=referenced_posts.id`, { auth: p.appAuth });
  assert.deepEqual(res.body.data.map((x: any) => x.id), [b, a]);
  assert.deepEqual(res.body.includes.posts.map((x: any) => x.id), [source]);
});

test('GET /2/users/reposts_of_me: the caller\'s posts that others reposted, newest first; needs timeline.read and user context', async () => {
  const chen = await p.enterpriseAs('chen');
  const older = (await p.post(chen, { text: 'Older, reposted' })).body.data.id;
  const notReposted = (await p.post(chen, { text: 'Nobody reposts this' })).body.data.id;
  const selfReposted = (await p.post(chen, { text: 'Only I repost this' })).body.data.id;
  const newer = (await p.post(chen, { text: 'Newer, reposted' })).body.data.id;
  await repost('dana', older);
  await repost('ada', newer);
  await repost('chen', selfReposted);
  const res = await p.get('/2/users/reposts_of_me?max_results=100&post.fields=public_metrics', { auth: chen });
  assert.equal(res.status, 200);
  const ids = res.body.data.map((x: any) => x.id);
  assert.ok(ids.indexOf(newer) < ids.indexOf(older) && ids.indexOf(older) >= 0);
  assert.ok(!ids.includes(notReposted) && !ids.includes(selfReposted));
  assert.ok(ids.includes(reply), 'the seeded reply of chen was reposted by dana earlier in this file');
  const noScope = await p.get('/2/users/reposts_of_me', { auth: await p.enterpriseAs('chen', ['post.read', 'users.read']) });
  assert.equal(noScope.status, 403);
  assert.match(noScope.body.detail, /timeline\.read/);
  assert.equal((await p.get('/2/users/reposts_of_me', { auth: p.appAuth })).status, 403);
});

test('the demo seed has reposts: dana reposted the announcement, chen reposted ada\'s photo post', async () => {
  const res = await p.get(`/2/posts/${withMedia}/reposted_by`, { auth: p.appAuth });
  assert.ok(res.body.data.some((u: any) => u.username === 'chen'));
  const ann = await p.get(`/2/posts/${announcement}/reposted_by`, { auth: p.appAuth });
  assert.ok(ann.body.data.some((u: any) => u.username === 'dana'));
});
