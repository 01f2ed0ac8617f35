import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { ManualClock } from '../../../src/clock.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { clientNotEnrolled, problemType } from '../../support/problems.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';
import { normalise } from '../../support/normalise.js';

let plaza: TestPlaza;
let p: Fixtures;
let withMedia: string, reply: string, announcement: string;

before(async () => {
  plaza = await startTestPlaza();
  p = fixtures(plaza);
  [withMedia, reply, , announcement] = plaza.creds.sample.post_ids;
});

test('DELETE /2/posts/{id}: the caller\'s own post is soft-deleted ({deleted: true}), lookups no longer find it, and post.delete carries {id, author_id}', async () => {
  const chen = await p.enterpriseAs('chen');
  const id = (await p.post(chen, { text: 'Short-lived' })).body.data.id;
  const before = await p.userRow('chen');
  const seq = await p.lastSeq();
  const res = await p.send('DELETE', `/2/posts/${id}`, { auth: chen });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { data: { deleted: true } });
  const lookup = await p.get(`/2/posts/${id}`, { auth: p.appAuth });
  assert.equal(lookup.body.data, undefined);
  assert.equal(lookup.body.errors[0].type, problemType('resource-not-found'));
  assert.ok((await p.postRow(id)).deleted_at, 'kept in the store with deleted_at');
  const events = await p.eventsSince(seq, 'post.delete');
  assert.deepEqual(events.map((e) => [e.subject, e.payload]), [[id, { id, author_id: p.user('chen').id }]]);
  const after = await p.userRow('chen');
  assert.equal(after.post_count, before.post_count - 1);
  assert.notEqual(after.most_recent_post_id, id, 'the most recent post is recomputed');
  const again = await p.send('DELETE', `/2/posts/${id}`, { auth: chen });
  assert.equal(again.status, 404);
  assert.equal(again.body.parameter, 'id');
});

test('deleting a reply, a quote or a repost moves back the counter it moved on the original (reply_count, quote_count, retweet_count)', async () => {
  const dana = await p.enterpriseAs('dana');
  const metrics = async () => (await p.lookup(announcement)).public_metrics;
  const start = await metrics();
  const replyId = (await p.post(dana, { text: 'Reply', reply: { in_reply_to_post_id: announcement } })).body.data.id;
  const quoteId = (await p.post(dana, { text: 'Quote', quote_post_id: announcement })).body.data.id;
  const repost = await p.send('POST', `/2/users/${p.user('chen').id}/reposts`, { auth: await p.enterpriseAs('chen'), body: { post_id: announcement } });
  const moved = await metrics();
  assert.deepEqual([moved.reply_count, moved.quote_count, moved.retweet_count], [start.reply_count + 1, start.quote_count + 1, start.retweet_count + 1]);
  await p.send('DELETE', `/2/posts/${replyId}`, { auth: dana });
  await p.send('DELETE', `/2/posts/${quoteId}`, { auth: dana });
  await p.send('DELETE', `/2/posts/${repost.body.data.rest_id}`, { auth: await p.enterpriseAs('chen') });
  const back = await metrics();
  assert.deepEqual([back.reply_count, back.quote_count, back.retweet_count], [start.reply_count, start.quote_count, start.retweet_count]);
});

test('deleting a post takes its reposts with it (each a post of its reposter, with its own post.delete) and unpins it', async () => {
  const ada = await p.enterpriseAs('ada');
  const id = (await p.post(ada, { text: 'Pin and repost me' })).body.data.id;
  await plaza.ctx.store.db.updateTable('users').set({ pinned_post_id: id }).where('id', '=', p.user('ada').id).execute();
  const repost = await p.send('POST', `/2/users/${p.user('dana').id}/reposts`, { auth: await p.enterpriseAs('dana'), body: { post_id: id } });
  const danaPosts = (await p.userRow('dana')).post_count;
  const seq = await p.lastSeq();
  await p.send('DELETE', `/2/posts/${id}`, { auth: ada });
  assert.equal((await p.get(`/2/posts/${repost.body.data.rest_id}`, { auth: p.appAuth })).body.data, undefined);
  assert.deepEqual((await p.eventsSince(seq, 'post.delete')).map((e) => e.payload.id).sort(), [id, repost.body.data.rest_id].sort());
  assert.equal((await p.userRow('dana')).post_count, danaPosts - 1);
  assert.equal((await p.userRow('ada')).pinned_post_id, null);
});

test('DELETE /2/posts/{id} of another account\'s post is 403 not-authorized-for-resource and changes nothing; a missing post is 404; it needs user context', async () => {
  const seq = await p.lastSeq();
  const other = await p.send('DELETE', `/2/posts/${announcement}`, { auth: await p.enterpriseAs('dana') });
  assert.equal(other.status, 403);
  assert.equal(other.body.type, problemType('not-authorized-for-resource'));
  assert.match(other.body.detail, /only delete your own posts/);
  assert.equal((await p.eventsSince(seq)).length, 0);
  assert.ok((await p.lookup(announcement)).id);
  const missing = await p.send('DELETE', '/2/posts/1234567890123456789', { auth: await p.enterpriseAs('dana') });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.type, problemType('resource-not-found'));
  assert.equal((await p.send('DELETE', `/2/posts/${announcement}`, { auth: p.appAuth })).status, 403);
  assert.equal((await p.send('DELETE', '/2/posts/abc', { auth: await p.enterpriseAs('dana') })).status, 400);
});

test('PUT /2/posts/{id}/hidden: the author of a conversation hides a reply in it ({hidden: true}) and unhides it ({hidden: false})', async () => {
  const news = await p.enterpriseAs('plazanews');
  const hide = await p.send('PUT', `/2/posts/${reply}/hidden`, { auth: news, body: { hidden: true } });
  assert.equal(hide.status, 200);
  assert.deepEqual(hide.body, { data: { hidden: true } });
  assert.equal((await p.postRow(reply)).reply_hidden, 1);
  const unhide = await p.send('PUT', `/2/posts/${reply}/hidden`, { auth: news, body: { hidden: false } });
  assert.deepEqual(unhide.body, { data: { hidden: false } });
  assert.equal((await p.postRow(reply)).reply_hidden, 0);
  // A reply deeper in the conversation is the conversation author's to hide too.
  const deeper = (await p.post(await p.enterpriseAs('dana'), { text: 'Deep reply', reply: { in_reply_to_post_id: reply } })).body.data.id;
  assert.equal((await p.send('PUT', `/2/posts/${deeper}/hidden`, { auth: news, body: { hidden: true } })).status, 200);
});

test('PUT /2/posts/{id}/hidden refuses: replies in others\' conversations (403), one\'s own reply and non-replies (invalid-requests naming id), missing posts (404); it needs post.moderate.write', async () => {
  const chen = await p.enterpriseAs('chen');
  const others = await p.send('PUT', `/2/posts/${reply}/hidden`, { auth: await p.enterpriseAs('dana'), body: { hidden: true } });
  assert.equal(others.status, 403);
  assert.equal(others.body.type, problemType('not-authorized-for-resource'));
  assert.match(others.body.detail, /conversations you started/);
  const own = await p.post(await p.enterpriseAs('plazanews'), { text: 'Our own reply', reply: { in_reply_to_post_id: announcement } });
  const ownHide = await p.send('PUT', `/2/posts/${own.body.data.id}/hidden`, { auth: await p.enterpriseAs('plazanews'), body: { hidden: true } });
  assert.equal(ownHide.status, 400);
  assert.deepEqual(Object.keys(ownHide.body.errors[0].parameters), ['id']);
  const notReply = await p.send('PUT', `/2/posts/${announcement}/hidden`, { auth: await p.enterpriseAs('plazanews'), body: { hidden: true } });
  assert.equal(notReply.status, 400);
  assert.match(notReply.body.errors[0].message, /not a reply/);
  assert.equal((await p.send('PUT', '/2/posts/1234567890123456789/hidden', { auth: chen, body: { hidden: true } })).status, 404);
  assert.equal((await p.send('PUT', `/2/posts/${reply}/hidden`, { auth: chen, body: {} })).status, 400);
  const noScope = await p.send('PUT', `/2/posts/${reply}/hidden`, { auth: await p.enterpriseAs('plazanews', ['post.read', 'users.read']), body: { hidden: true } });
  assert.equal(noScope.status, 403);
  assert.match(noScope.body.detail, /post\.moderate\.write/);
});

test('GET /2/posts/{id}/quote_posts (enterprise): the posts quoting it, newest first, paginated (max_results 10-100), with field selection and expansions', async () => {
  const ent = await p.enterpriseAs('ada');
  const source = (await p.post(ent, { text: 'Quote me, everyone' })).body.data.id;
  const quotes: string[] = [];
  for (let i = 0; i < 12; i++) quotes.push((await p.post(await p.enterpriseAs(i % 2 ? 'dana' : 'chen'), { text: `Quote ${i}`, quote_post_id: source })).body.data.id);
  const first = await p.get(`/2/posts/${source}/quote_posts?max_results=10&post.fields=author_id&expansions=author_id`, { auth: ent });
  assert.equal(first.status, 200);
  assert.deepEqual(first.body.data.map((x: any) => x.id), quotes.slice().reverse().slice(0, 10));
  assert.equal(first.body.meta.result_count, 10);
  assert.ok(first.body.meta.next_token);
  assert.deepEqual(first.body.includes.users.map((u: any) => u.username).sort(), ['chen', 'dana']);
  const second = await p.get(`/2/posts/${source}/quote_posts?max_results=10&pagination_token=${first.body.meta.next_token}`, { auth: ent });
  assert.deepEqual(second.body.data.map((x: any) => x.id), quotes.slice(0, 2).reverse());
  assert.equal(second.body.meta.next_token, undefined);
  const asReply = (await p.post(await p.enterpriseAs('chen'), { text: 'Quote and reply', quote_post_id: source, reply: { in_reply_to_post_id: announcement } })).body.data.id;
  const withReplies = await p.get(`/2/posts/${source}/quote_posts?max_results=10`, { auth: ent });
  assert.equal(withReplies.body.data[0].id, asReply);
  const excluded = await p.get(`/2/posts/${source}/quote_posts?max_results=10&exclude=replies`, { auth: ent });
  assert.ok(!excluded.body.data.some((x: any) => x.id === asReply));
  await p.send('DELETE', `/2/posts/${quotes[11]}`, { auth: await p.enterpriseAs('dana') });
  assert.ok(!(await p.get(`/2/posts/${source}/quote_posts?max_results=100`, { auth: ent })).body.data.some((x: any) => x.id === quotes[11]), 'deleted quotes leave the list');
  for (const bad of ['max_results=9', 'max_results=101', 'pagination_token=nope', 'exclude=likes', 'post.fields=bogus']) {
    const res = await p.get(`/2/posts/${source}/quote_posts?${bad}`, { auth: ent });
    assert.equal(res.status, 400, bad);
    assert.equal(res.body.type, problemType('invalid-request'));
  }
  const missing = await p.get('/2/posts/1234567890123456789/quote_posts', { auth: ent });
  assert.equal(missing.status, 200);
  assert.equal(missing.body.errors[0].type, problemType('resource-not-found'));
});

test('quote-posts removed from self-serve tiers on Apr 20, 2026: GET /2/posts/{id}/quote_posts is 403 client-forbidden for self-serve apps (user or app-only) from that day, and works before it', async () => {
  for (const auth of [p.appAuth, await p.selfServeAs('ada')]) {
    const res = await p.get(`/2/posts/${withMedia}/quote_posts`, { auth });
    assert.equal(res.status, 403);
    assert.deepEqual(normalise(res.body, { [p.selfServe.id]: 'selfServe' }), clientNotEnrolled('The quote posts lookup (GET /2/posts/:id/quote_posts) is not available to apps on the pro tier since 2026-04-20. Use an app on the enterprise tier. ' +
        'In Plaza: use the demo app apps[1] ("Plaza Enterprise Demo", enterprise) of the credentials file: its bearer_token, and each user\'s tokens for it in ' +
        'users[].tokens (the entry whose app_id is that app\'s id); or create an app on the enterprise tier (or change this one\'s tier) in the developer console at /developer.'));
  }
  assert.equal((await p.get(`/2/posts/${withMedia}/quote_posts`, { auth: { bearer: p.enterprise.bearer_token } })).status, 200, 'enterprise keeps it');

  const clock = new ManualClock(new Date('2026-04-19T23:59:00.000Z'));
  const early = await startTestPlaza({}, { clock });
  const e = fixtures(early);
  const [media] = early.creds.sample.post_ids;
  const before = await e.get(`/2/posts/${media}/quote_posts`, { auth: e.appAuth });
  assert.equal(before.status, 200);
  assert.equal(before.body.data.length, 1, 'the seeded quote');
  clock.advance(60_000);
  assert.equal((await e.get(`/2/posts/${media}/quote_posts`, { auth: e.appAuth })).status, 403);
});

test('impression_count moves when a signed-in user other than the author is shown the post by a post lookup; app-only reads and the author\'s own do not count; a video\'s view_count moves with it', async () => {
  const count = async (id: string) => (await p.postRow(id)).impression_count;
  const start = await count(withMedia);
  const video = await plaza.ctx.store.db.selectFrom('media').select(['media_key', 'view_count']).where('type', '=', 'video').where('owner_user_id', '=', p.user('ada').id).executeTakeFirstOrThrow();
  await p.get(`/2/posts/${withMedia}`, { auth: p.appAuth });
  assert.equal(await count(withMedia), start, 'app-only: no one saw it');
  await p.get(`/2/posts/${withMedia}`, { auth: p.oauth2As('ada') });
  assert.equal(await count(withMedia), start, 'the author\'s own view');
  const shown = await p.get(`/2/posts?ids=${withMedia},${announcement}&post.fields=public_metrics`, { auth: p.oauth2As('dana') });
  assert.equal(shown.body.data[0].public_metrics.impression_count, start, 'the response shows the count before this view');
  assert.equal(await count(withMedia), start + 1);
  await p.get(`/2/posts/${withMedia}`, { auth: p.oauth1As('chen') });
  assert.equal(await count(withMedia), start + 2);
  const after = await plaza.ctx.store.db.selectFrom('media').select('view_count').where('media_key', '=', video.media_key).executeTakeFirstOrThrow();
  assert.equal(after.view_count, video.view_count + 2);
});

test('public_metrics.media_count follows the media a user posts: two photos attached add two, a repost adds none, deleting the post takes them back', async () => {
  const dana = await p.enterpriseAs('dana');
  const mediaCount = async () => (await p.get(`/2/users/${p.user('dana').id}?user.fields=public_metrics`, { auth: p.appAuth })).body.data.public_metrics.media_count;
  const before = await mediaCount();
  const photos = [await p.uploadPng(dana), await p.uploadPng(dana)];
  assert.equal(await mediaCount(), before, 'an upload alone is not posted media');
  const posted = await p.post(dana, { text: 'Two photos', media: { media_ids: photos.map((m) => m.id) } });
  assert.equal(posted.status, 201, posted.text);
  assert.equal(await mediaCount(), before + 2);
  const repost = await p.send('POST', `/2/users/${p.user('dana').id}/reposts`, { auth: dana, body: { post_id: withMedia } });
  assert.equal(repost.status, 200, repost.text);
  assert.equal(await mediaCount(), before + 2);
  assert.equal((await p.send('DELETE', `/2/posts/${posted.body.data.id}`, { auth: dana })).status, 200);
  assert.equal(await mediaCount(), before);
});
