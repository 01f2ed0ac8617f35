import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { editedPostRow, newPostRow, recordPost } from '../../../src/platform/posts/build.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';
import { normalise } from '../../support/normalise.js';
import { clientNotEnrolled, problemType } from '../../support/problems.js';

let plaza: TestPlaza;
let g: Fixtures;
let withMedia: string, reply: string, quote: string, announcement: string, privatePost: string;
const MISSING = '1234567890123456789';
/** What Plaza adds to a client-forbidden refusal of the self-serve app: where to find an enterprise app. */
const ENTERPRISE_HINT =
  'In Plaza: use the demo app apps[1] ("Plaza Enterprise Demo", enterprise) of the credentials file: its bearer_token, and each user\'s tokens for it in ' +
  'users[].tokens (the entry whose app_id is that app\'s id); or create an app on the enterprise tier (or change this one\'s tier) in the developer console at /developer.';

before(async () => {
  plaza = await startTestPlaza();
  g = fixtures(plaza);
  [withMedia, reply, quote, announcement, privatePost] = plaza.creds.sample.post_ids;
});

test('POST /2/users/{id}/likes (enterprise): {liked:true}; the post like_count and the liker like_count move; like.create carries the like, the post, its author and the liker', async () => {
  const chen = g.user('chen');
  const auth = await g.enterpriseAs('chen');
  const [post, user] = [await g.postRow(quote), await g.userRow('chen')];
  const seq = await g.lastSeq();
  const res = await g.send('POST', `/2/users/${chen.id}/likes`, { auth, body: { post_id: quote } });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { data: { liked: true } });
  assert.equal((await g.postRow(quote)).like_count, post.like_count + 1);
  assert.equal((await g.userRow('chen')).like_count, user.like_count + 1);
  const [event] = await g.eventsSince(seq, 'like.create');
  assert.equal(event.subject, quote);
  const { timestamp_ms: timestampMs, ...like } = event.payload;
  assert.deepEqual(normalise(like, { [quote]: 'quote', [g.user('dana').id]: 'dana', [chen.id]: 'chen' }), {
    id: '<id:1>',
    created_at: '<time>',
    liked_post_id: '<quote>',
    post_author_id: '<dana>',
    liking_user_id: '<chen>',
  });
  assert.match(like.created_at, /Z$/);
  assert.equal(timestampMs, Date.parse(like.created_at), 'timestamp_ms: created_at in milliseconds, a number');
  const metrics = await g.get(`/2/posts/${quote}?post.fields=public_metrics`, { auth: g.appAuth });
  assert.equal(metrics.body.data.public_metrics.like_count, post.like_count + 1);
  const again = await g.send('POST', `/2/users/${chen.id}/likes`, { auth, body: { post_id: quote } });
  assert.deepEqual(again.body.data, { liked: true });
  assert.equal((await g.postRow(quote)).like_count, post.like_count + 1, 'liking twice counts once');
});

test('DELETE /2/users/{id}/likes/{post_id}: {liked:false}, counters move back, one like.delete entry (for the likes compliance stream, no Activity type); unliking again changes nothing', async () => {
  const chen = g.user('chen');
  const auth = await g.enterpriseAs('chen');
  await g.send('POST', `/2/users/${chen.id}/likes`, { auth, body: { post_id: reply } });
  const count = (await g.postRow(reply)).like_count;
  const seq = await g.lastSeq();
  const res = await g.send('DELETE', `/2/users/${chen.id}/likes/${reply}`, { auth });
  assert.deepEqual(res.body, { data: { liked: false } });
  assert.equal((await g.postRow(reply)).like_count, count - 1);
  const again = await g.send('DELETE', `/2/users/${chen.id}/likes/${reply}`, { auth });
  assert.deepEqual(again.body, { data: { liked: false } });
  assert.equal((await g.postRow(reply)).like_count, count - 1);
  assert.deepEqual((await g.eventsSince(seq)).map((e: { type: string }) => e.type), ['like.delete']);
});

test('POST /2/users/:id/likes on the self-serve (pro) app is client-forbidden (HTTP 403) and changes nothing', async () => {
  const dana = g.user('dana');
  const count = (await g.postRow(reply)).like_count;
  const res = await g.send('POST', `/2/users/${dana.id}/likes`, { auth: g.oauth2As('dana'), body: { post_id: reply } });
  assert.equal(res.status, 403);
  assert.deepEqual(normalise(res.body, { [g.selfServe.id]: 'selfServe' }), clientNotEnrolled(`Liking posts through POST /2/users/:id/likes is not available to apps on the pro tier. Use an app on the enterprise tier. ${ENTERPRISE_HINT}`));
  assert.equal((await g.postRow(reply)).like_count, count);
  const unlike = await g.send('DELETE', `/2/users/${dana.id}/likes/${reply}`, { auth: g.oauth2As('dana') });
  assert.equal(unlike.status, 200, 'unliking is not a removed endpoint');
});

test('liking a missing post is 404 resource-not-found; a protected post the caller may not see is 403 not-authorized-for-resource; a malformed post_id is 400', async () => {
  const chen = g.user('chen');
  const auth = await g.enterpriseAs('chen');
  const missing = await g.send('POST', `/2/users/${chen.id}/likes`, { auth, body: { post_id: MISSING } });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.parameter, 'post_id');
  assert.equal(missing.body.resource_type, 'post');
  const hidden = await g.send('POST', `/2/users/${chen.id}/likes`, { auth, body: { post_id: privatePost } });
  assert.equal(hidden.status, 403);
  assert.equal(hidden.body.type, problemType('not-authorized-for-resource'));
  const bad = await g.send('POST', `/2/users/${chen.id}/likes`, { auth, body: { post_id: 'x1' } });
  assert.equal(bad.status, 400);
  assert.ok('post_id' in bad.body.errors[0].parameters);
  const approved = await g.send('POST', `/2/users/${g.user('ada').id}/likes`, { auth: await g.enterpriseAs('ada'), body: { post_id: privatePost } });
  assert.equal(approved.status, 200, 'an approved follower may like a protected post');
});

test('GET /2/posts/{id}/liking_users: newest like first, paginated (1 to 100), users with fields; a missing post is an errors item', async () => {
  const auth = await g.enterpriseAs('ada');
  for (const u of ['plazanews', 'dana']) {
    await g.send('POST', `/2/users/${g.user(u).id}/likes`, { auth: await g.enterpriseAs(u), body: { post_id: withMedia } });
  }
  const res = await g.get(`/2/posts/${withMedia}/liking_users?user.fields=verified`, { auth });
  assert.equal(res.status, 200);
  assert.equal(res.body.data[0].username, 'plazanews', 'newest like first');
  assert.equal(typeof res.body.data[0].verified, 'boolean');
  assert.equal(res.body.meta.result_count, res.body.data.length);
  const first = await g.get(`/2/posts/${withMedia}/liking_users?max_results=1`, { auth });
  const second = await g.get(`/2/posts/${withMedia}/liking_users?max_results=1&pagination_token=${first.body.meta.next_token}`, { auth });
  assert.equal(second.body.data[0].username, res.body.data[1].username);
  assert.equal((await g.get(`/2/posts/${withMedia}/liking_users?max_results=101`, { auth })).status, 400);
  const missing = await g.get(`/2/posts/${MISSING}/liking_users`, { auth });
  assert.equal(missing.body.errors[0].type, problemType('resource-not-found'));
  const appOnly = await g.get(`/2/posts/${withMedia}/liking_users`, { auth: g.appAuth });
  assert.equal(appOnly.status, 403, 'user context only, as in the reference');
});

test('GET /2/users/{id}/liked_posts: newest like first (max_results 5 to 100) with post fields and expansions; a protected user likes only for approved followers', async () => {
  const auth = await g.enterpriseAs('chen');
  const dana = g.user('dana');
  const res = await g.get(`/2/users/${dana.id}/liked_posts?post.fields=author_id&expansions=author_id`, { auth });
  assert.equal(res.status, 200);
  assert.equal(res.body.data[0].id, withMedia, 'the like made in the previous test is the newest');
  assert.ok(res.body.includes.users.some((u: any) => u.username === 'ada'));
  assert.equal((await g.get(`/2/users/${dana.id}/liked_posts?max_results=4`, { auth })).status, 400);
  const bruno = g.user('bruno');
  const hidden = await g.get(`/2/users/${bruno.id}/liked_posts`, { auth });
  assert.equal(hidden.body.errors[0].type, problemType('not-authorized-for-resource'));
  assert.equal(hidden.body.errors[0].resource_type, 'user');
});

test("a liked post whose protected author the viewer may not see leaves liked_posts' data and becomes a not-authorized-for-resource item", async () => {
  const ada = g.user('ada');
  const res = await g.get(`/2/users/${ada.id}/liked_posts`, { auth: await g.enterpriseAs('chen') });
  assert.ok(!(res.body.data ?? []).some((p: any) => p.id === privatePost));
  const item = res.body.errors.find((e: any) => e.resource_id === privatePost);
  assert.equal(item.type, problemType('not-authorized-for-resource'));
  assert.equal(item.resource_type, 'post');
  const own = await g.get(`/2/users/${ada.id}/liked_posts`, { auth: await g.enterpriseAs('ada') });
  assert.ok(own.body.data.some((p: any) => p.id === privatePost));
});

test('bookmarks: POST adds (bookmark_count moves once), GET lists newest first, DELETE removes; only the authenticated user reads their bookmarks', async () => {
  const dana = g.user('dana');
  const auth = g.oauth2As('dana');
  const count = (await g.postRow(announcement)).bookmark_count;
  const add = await g.send('POST', `/2/users/${dana.id}/bookmarks`, { auth, body: { post_id: announcement } });
  assert.equal(add.status, 200);
  assert.deepEqual(add.body, { data: { bookmarked: true } });
  await g.send('POST', `/2/users/${dana.id}/bookmarks`, { auth, body: { post_id: announcement } });
  assert.equal((await g.postRow(announcement)).bookmark_count, count + 1);
  await g.send('POST', `/2/users/${dana.id}/bookmarks`, { auth, body: { post_id: reply } });
  const list = await g.get(`/2/users/${dana.id}/bookmarks?post.fields=public_metrics`, { auth });
  assert.deepEqual(list.body.data.slice(0, 2).map((p: any) => p.id), [reply, announcement]);
  assert.equal(list.body.data[1].public_metrics.bookmark_count, count + 1);
  const page1 = await g.get(`/2/users/${dana.id}/bookmarks?max_results=1`, { auth });
  assert.equal(page1.body.data[0].id, reply);
  const page2 = await g.get(`/2/users/${dana.id}/bookmarks?max_results=1&pagination_token=${page1.body.meta.next_token}`, { auth });
  assert.equal(page2.body.data[0].id, announcement);
  const others = await g.get(`/2/users/${dana.id}/bookmarks`, { auth: g.oauth2As('chen') });
  assert.equal(others.status, 403);
  const removed = await g.send('DELETE', `/2/users/${dana.id}/bookmarks/${announcement}`, { auth });
  assert.deepEqual(removed.body, { data: { bookmarked: false } });
  assert.equal((await g.postRow(announcement)).bookmark_count, count);
  const missing = await g.send('POST', `/2/users/${dana.id}/bookmarks`, { auth, body: { post_id: MISSING } });
  assert.equal(missing.status, 404);
  const noScope = await g.get(`/2/users/${dana.id}/bookmarks`, { auth: g.oauth2As('dana') });
  assert.equal(noScope.status, 200, 'the demo tokens carry bookmark.read');
  const withoutScope = await g.get(`/2/users/${dana.id}/bookmarks`, { auth: await g.enterpriseAs('dana', ['post.read', 'users.read']) });
  assert.equal(withoutScope.status, 403);
});

test('an edited post lives on as its latest version: likes and bookmarks of any version count once on the latest, lists show the latest, unliking by any version id works', async () => {
  const ctx = plaza.ctx;
  const [ada, chen] = [g.user('ada'), g.user('chen')];
  const auth = await g.enterpriseAs('chen');
  const v1 = newPostRow(ctx.ids.next(), { authorId: ada.id, text: 'First version', createdAt: ctx.clock.now() });
  await ctx.store.db.transaction().execute((tx) => recordPost(ctx, tx, v1));
  await g.send('POST', `/2/users/${chen.id}/likes`, { auth, body: { post_id: v1.id } });
  await g.send('POST', `/2/users/${chen.id}/bookmarks`, { auth, body: { post_id: v1.id } });
  // An edit, written as the posts area writes it: a new version carrying the engagement, the old one superseded.
  const v2 = editedPostRow(ctx.ids.next(), await g.postRow(v1.id), { text: 'Second version', createdAt: ctx.clock.now() });
  await ctx.store.db.transaction().execute(async (tx) => {
    await recordPost(ctx, tx, v2, { edit: true });
    await tx.updateTable('posts').set({ superseded_by_id: v2.id }).where('id', '=', v1.id).execute();
  });
  assert.equal((await g.postRow(v2.id)).like_count, 1);
  const liked = await g.get(`/2/users/${chen.id}/liked_posts`, { auth });
  assert.equal(liked.body.data[0].id, v2.id);
  assert.equal(liked.body.data[0].text, 'Second version');
  const bookmarks = await g.get(`/2/users/${chen.id}/bookmarks`, { auth });
  assert.equal(bookmarks.body.data[0].id, v2.id);
  const likers = await g.get(`/2/posts/${v2.id}/liking_users`, { auth });
  assert.deepEqual(likers.body.data.map((u: any) => u.username), ['chen']);
  for (const id of [v1.id, v2.id]) await g.send('POST', `/2/users/${chen.id}/likes`, { auth, body: { post_id: id } });
  assert.equal((await g.postRow(v2.id)).like_count, 1, 'one like per post, whatever version it names');
  await g.send('POST', `/2/users/${g.user('dana').id}/likes`, { auth: await g.enterpriseAs('dana'), body: { post_id: v1.id } });
  assert.equal((await g.postRow(v2.id)).like_count, 2, 'a like of an old version counts on the latest');
  const home = await g.get(`/2/users/${ada.id}/timelines/reverse_chronological`, { auth: g.oauth2As('ada') });
  const ids = home.body.data.map((p: any) => p.id);
  assert.ok(ids.includes(v2.id) && !ids.includes(v1.id), 'timelines show the latest version only');
  await g.send('DELETE', `/2/users/${chen.id}/likes/${v2.id}`, { auth });
  await g.send('DELETE', `/2/users/${chen.id}/bookmarks/${v1.id}`, { auth });
  const after = await g.postRow(v2.id);
  assert.equal(after.like_count, 1);
  assert.equal(after.bookmark_count, 0);
  assert.equal((await g.get(`/2/users/${chen.id}/bookmarks`, { auth })).body.data?.some((p: any) => p.id === v2.id) ?? false, false);
});
