import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { newPostRow, recordPost, type NewPost } from '../../../src/platform/posts/build.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';
import { problemType } from '../../support/problems.js';

let plaza: TestPlaza;
let g: Fixtures;
let withMedia: string, reply: string, announcement: string, privatePost: string;
const MISSING = '1234567890123456789';

before(async () => {
  plaza = await startTestPlaza();
  g = fixtures(plaza);
  [withMedia, reply, , announcement, privatePost] = plaza.creds.sample.post_ids;
});

/** Writes a post straight to the store, as the posts area would. */
async function storePost(username: string, text: string, extra: Partial<NewPost> = {}) {
  const ctx = plaza.ctx;
  const row = newPostRow(ctx.ids.next(), { authorId: g.user(username).id, text, createdAt: ctx.clock.now(), ...extra });
  await ctx.store.db.transaction().execute((tx) => recordPost(ctx, tx, row));
  return row;
}

test('GET /2/users/{id}/posts: the user\'s posts newest first, default fields id and text, meta with result_count, newest_id and oldest_id', async () => {
  const ada = g.user('ada');
  const res = await g.get(`/2/users/${ada.id}/posts`, { auth: g.appAuth });
  assert.equal(res.status, 200);
  const ids = res.body.data.map((p: any) => p.id);
  assert.ok(ids.includes(withMedia));
  for (const p of res.body.data) assert.deepEqual(Object.keys(p).sort(), ['id', 'text']);
  assert.equal(res.body.meta.result_count, ids.length);
  assert.equal(res.body.meta.newest_id, ids[0]);
  assert.equal(res.body.meta.oldest_id, ids[ids.length - 1]);
  const withTimes = await g.get(`/2/users/${ada.id}/posts?post.fields=created_at`, { auth: g.appAuth });
  const times = withTimes.body.data.map((p: any) => p.created_at);
  assert.deepEqual(times, [...times].sort().reverse(), 'reverse chronological');
});

test('user posts paginate: max_results 5 to 100 (default 10), next_token only while more remain, pages walk the same order', async () => {
  const chen = g.user('chen');
  for (let i = 0; i < 7; i++) await storePost('chen', `Chen post number ${i}`);
  const all = await g.get(`/2/users/${chen.id}/posts?max_results=100`, { auth: g.appAuth });
  const ids = all.body.data.map((p: any) => p.id);
  assert.ok(ids.length >= 8);
  const defaults = await g.get(`/2/users/${chen.id}/posts`, { auth: g.appAuth });
  assert.equal(defaults.body.meta.result_count, Math.min(10, ids.length));
  const walked: string[] = [];
  let token: string | undefined;
  do {
    const res = await g.get(`/2/users/${chen.id}/posts?max_results=5${token ? `&pagination_token=${token}` : ''}`, { auth: g.appAuth });
    walked.push(...res.body.data.map((p: any) => p.id));
    token = res.body.meta.next_token;
  } while (token);
  assert.deepEqual(walked, ids);
  for (const bad of ['4', '101']) {
    const res = await g.get(`/2/users/${chen.id}/posts?max_results=${bad}`, { auth: g.appAuth });
    assert.equal(res.status, 400);
    assert.equal(res.body.errors[0].message, `The \`max_results\` query parameter value [${bad}] is not between 5 and 100`);
  }
});

test('since_id and until_id are exclusive bounds; start_time is inclusive and end_time exclusive; exclude=replies,retweets drops replies and reposts', async () => {
  const chen = g.user('chen');
  const all = (await g.get(`/2/users/${chen.id}/posts?max_results=100&post.fields=created_at`, { auth: g.appAuth })).body.data;
  const middle = all[3];
  const newer = await g.get(`/2/users/${chen.id}/posts?max_results=100&since_id=${middle.id}`, { auth: g.appAuth });
  assert.deepEqual(newer.body.data.map((p: any) => p.id), all.slice(0, 3).map((p: any) => p.id));
  const older = await g.get(`/2/users/${chen.id}/posts?max_results=100&until_id=${middle.id}`, { auth: g.appAuth });
  assert.deepEqual(older.body.data.map((p: any) => p.id), all.slice(4).map((p: any) => p.id));
  const oldest = all[all.length - 1];
  const fromOldest = await g.get(`/2/users/${chen.id}/posts?max_results=100&start_time=${oldest.created_at}`, { auth: g.appAuth });
  assert.ok(fromOldest.body.data.some((p: any) => p.id === oldest.id), 'start_time is inclusive');
  const beforeOldest = await g.get(`/2/users/${chen.id}/posts?max_results=100&end_time=${oldest.created_at}`, { auth: g.appAuth });
  assert.ok(!(beforeOldest.body.data ?? []).some((p: any) => p.id === oldest.id), 'end_time is exclusive');
  assert.ok(all.some((p: any) => p.id === reply));
  const source = await g.postRow(announcement);
  const repost = await storePost('chen', `RT @plazanews: ${source.text}`, { repostOf: source });
  const excluded = await g.get(`/2/users/${chen.id}/posts?max_results=100&exclude=replies,retweets`, { auth: g.appAuth });
  const left = excluded.body.data.map((p: any) => p.id);
  assert.ok(!left.includes(reply));
  assert.ok(!left.includes(repost.id));
  for (const [param, value] of [['exclude', 'likes'], ['start_time', 'yesterday'], ['since_id', 'abc']]) {
    const res = await g.get(`/2/users/${chen.id}/posts?${param}=${value}`, { auth: g.appAuth });
    assert.equal(res.status, 400, param);
    assert.ok(param in res.body.errors[0].parameters);
  }
});

test('a protected user\'s posts timeline is not-authorized-for-resource (user) for others and readable by approved followers; a missing user is resource-not-found', async () => {
  const bruno = g.user('bruno');
  const stranger = await g.get(`/2/users/${bruno.id}/posts`, { auth: g.appAuth });
  assert.equal(stranger.status, 200);
  assert.equal(stranger.body.data, undefined);
  assert.equal(stranger.body.errors[0].type, problemType('not-authorized-for-resource'));
  assert.equal(stranger.body.errors[0].resource_type, 'user');
  assert.equal(stranger.body.errors[0].parameter, 'id');
  const follower = await g.get(`/2/users/${bruno.id}/posts`, { auth: g.oauth2As('ada') });
  assert.ok(follower.body.data.some((p: any) => p.id === privatePost));
  const self = await g.get(`/2/users/${bruno.id}/posts`, { auth: g.oauth2As('bruno') });
  assert.ok(self.body.data.some((p: any) => p.id === privatePost));
  const missing = await g.get(`/2/users/${MISSING}/posts`, { auth: g.appAuth });
  assert.equal(missing.body.errors[0].type, problemType('resource-not-found'));
});

test('GET /2/users/{id}/mentions: others\' posts mentioning the user or replying to them, newest first, with expansions', async () => {
  const [ada, news] = [g.user('ada'), g.user('plazanews')];
  const res = await g.get(`/2/users/${ada.id}/mentions?expansions=author_id&post.fields=author_id`, { auth: g.appAuth });
  assert.equal(res.status, 200);
  const ids = res.body.data.map((p: any) => p.id);
  assert.ok(ids.includes(announcement), 'the announcement mentions @ada');
  assert.ok(res.body.data.every((p: any) => p.author_id !== ada.id));
  assert.ok(res.body.includes.users.some((u: any) => u.username === 'plazanews'));
  const newsMentions = await g.get(`/2/users/${news.id}/mentions`, { auth: g.appAuth });
  assert.ok(newsMentions.body.data.some((p: any) => p.id === reply), 'a reply to plazanews');
  const underscore = await storePost('dana', 'Not a mention of adaXY but of @ADA in capitals');
  const after = await g.get(`/2/users/${ada.id}/mentions`, { auth: g.appAuth });
  assert.equal(after.body.data[0].id, underscore.id, 'mentions match case-insensitively');
});

test('the reverse-chronological home timeline: the user\'s own posts and those of accounts they follow, newest first, paginated with newest_id and oldest_id', async () => {
  const ada = g.user('ada');
  const auth = g.oauth2As('ada');
  const res = await g.get(`/2/users/${ada.id}/timelines/reverse_chronological?post.fields=author_id,created_at&max_results=100`, { auth });
  assert.equal(res.status, 200);
  const authors = new Set(res.body.data.map((p: any) => p.author_id));
  assert.ok(authors.has(ada.id));
  assert.ok(authors.has(g.user('plazanews').id));
  assert.ok(authors.has(g.user('bruno').id), 'a followed protected account shows to its approved follower');
  assert.ok(!authors.has(g.user('chen').id), 'ada does not follow chen');
  const times = res.body.data.map((p: any) => p.created_at);
  assert.deepEqual(times, [...times].sort().reverse());
  const first = await g.get(`/2/users/${ada.id}/timelines/reverse_chronological?max_results=2`, { auth });
  assert.equal(first.body.meta.newest_id, res.body.data[0].id);
  assert.equal(first.body.meta.oldest_id, res.body.data[1].id);
  const second = await g.get(`/2/users/${ada.id}/timelines/reverse_chronological?max_results=2&pagination_token=${first.body.meta.next_token}`, { auth });
  assert.equal(second.body.data[0].id, res.body.data[2].id);
  // Nothing before 2000: an empty page (on PostgreSQL, the page query's empty JSON array).
  for (const path of [`/2/users/${ada.id}/timelines/reverse_chronological`, `/2/users/${ada.id}/posts`]) {
    const empty = await g.get(`${path}?end_time=2000-01-01T00:00:00Z`, { auth });
    assert.equal(empty.status, 200, path);
    assert.deepEqual(empty.body, { meta: { result_count: 0 } }, path);
  }
});

test('the home timeline is the authenticated user\'s only: another id is 403, app-only auth is 403 unsupported-authentication', async () => {
  const ada = g.user('ada');
  const other = await g.get(`/2/users/${ada.id}/timelines/reverse_chronological`, { auth: g.oauth2As('chen') });
  assert.equal(other.status, 403);
  const appOnly = await g.get(`/2/users/${ada.id}/timelines/reverse_chronological`, { auth: g.appAuth });
  assert.equal(appOnly.status, 403);
  assert.equal(appOnly.body.type, problemType('unsupported-authentication'));
});

test('home timeline: a followed author\'s community post shows only when shared with followers (community_id IS NULL OR share_with_followers = 1); the author sees their own', async () => {
  const news = g.user('plazanews');
  const community = await storePost('plazanews', 'Only for the community', { communityId: '1600000000000000000' });
  const follower = await g.get(`/2/users/${g.user('ada').id}/timelines/reverse_chronological`, { auth: g.oauth2As('ada') });
  assert.ok(!follower.body.data.some((p: any) => p.id === community.id));
  const author = await g.get(`/2/users/${news.id}/timelines/reverse_chronological`, { auth: g.oauth2As('plazanews') });
  assert.ok(author.body.data.some((p: any) => p.id === community.id));
});

test('home timeline: a followed author\'s community post shared with followers (share_with_followers = 1) does show to followers', async () => {
  const shared = await storePost('plazanews', 'For the community and my followers', { communityId: '1600000000000000001', shareWithFollowers: true });
  const follower = await g.get(`/2/users/${g.user('ada').id}/timelines/reverse_chronological`, { auth: g.oauth2As('ada') });
  assert.ok(follower.body.data.some((p: any) => p.id === shared.id));
});
