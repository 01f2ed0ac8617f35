import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { ManualClock } from '../../../src/clock.js';
import { newPostRow, recordPost, type NewPost } from '../../../src/platform/posts/build.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';
import { problemType } from '../../support/problems.js';

let plaza: TestPlaza;
let g: Fixtures;
const clock = new ManualClock(new Date('2026-06-01T12:00:00.000Z'));

before(async () => {
  plaza = await startTestPlaza({}, { clock });
  g = fixtures(plaza);
});

/** Writes a post straight to the store, as the posts area would, `minutesAgo` before the clock. */
async function storePost(username: string, text: string, minutesAgo = 5, extra: Partial<NewPost> = {}) {
  const ctx = plaza.ctx;
  const row = newPostRow(ctx.ids.next(), { authorId: g.user(username).id, text, createdAt: new Date(clock.now().getTime() - minutesAgo * 60_000), ...extra });
  await ctx.store.db.transaction().execute((tx) => recordPost(ctx, tx, row));
  return row;
}

const search = (q: string, more = '', auth: { bearer: string } = g.appAuth, index = 'recent') =>
  g.get(`/2/posts/search/${index}?query=${encodeURIComponent(q)}${more}`, { auth });
const ids = (res: { body: any }) => (res.body.data ?? []).map((p: any) => p.id);

test('GET /2/posts/search/recent: matching posts newest first, default fields id and text, meta {newest_id, oldest_id, result_count}, no next_token on the last page', async () => {
  const older = await storePost('ada', 'Zebras crossing the plaza', 30);
  const newer = await storePost('chen', 'zebras again, Zébras everywhere', 10);
  await storePost('dana', 'nothing striped here', 9);
  const res = await search('zebras');
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(ids(res), [newer.id, older.id]);
  for (const p of res.body.data) assert.deepEqual(Object.keys(p).sort(), ['edit_history_post_ids', 'id', 'text'].filter((k) => k in p).sort());
  assert.deepEqual(res.body.meta, { newest_id: newer.id, oldest_id: older.id, result_count: 2 });
  const none = await search('unicornsneverposted');
  assert.equal(none.status, 200);
  assert.equal(none.body.data, undefined);
  assert.equal(none.body.meta.result_count, 0);
});

test('"Search matches accented keywords with or without the accent", case-insensitively, phrases and AND-before-OR', async () => {
  const cafe = await storePost('ada', 'Le Café de Flore opens at eight', 20);
  const plain = await storePost('chen', 'CAFE racer meetup tonight', 19);
  assert.deepEqual(ids(await search('café')).sort(), [cafe.id, plain.id].sort());
  assert.deepEqual(ids(await search('cafe')).sort(), [cafe.id, plain.id].sort());
  assert.deepEqual(ids(await search('"café de flore"')), [cafe.id]);
  assert.deepEqual(ids(await search('"cafe flore"~1')), [cafe.id]);
  assert.deepEqual(ids(await search('racer OR flore eight')).sort(), [cafe.id, plain.id].sort());
  assert.deepEqual(ids(await search('racer OR flore nine')), [plain.id]);
  assert.deepEqual(ids(await search('cafe -from:chen')), [cafe.id]);
  assert.deepEqual(ids(await search('cafe from:chen')), [plain.id]);
});

test('every *.fields and expansion of post lookup: expansions=author_id with user.fields, post.fields=created_at,public_metrics', async () => {
  const post = await storePost('chen', 'expansionprobe with fields', 8);
  const res = await search('expansionprobe', '&expansions=author_id&user.fields=username,verified&post.fields=created_at,author_id,public_metrics');
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data[0].id, post.id);
  assert.equal(res.body.data[0].author_id, g.user('chen').id);
  assert.equal(res.body.data[0].created_at, post.created_at);
  assert.ok(res.body.data[0].public_metrics);
  assert.equal(res.body.includes.users[0].username, 'chen');
  const bad = await search('expansionprobe', '&post.fields=nonsense');
  assert.equal(bad.status, 400);
});

test('max_results 10-100 (default 10) on recent and 10-500 on all; next_token and pagination_token walk the pages; the last page has no next_token', async () => {
  for (let i = 0; i < 23; i++) await storePost(['ada', 'chen', 'dana'][i % 3], `pagewalk number ${i}`, 60 + i);
  const first = await search('pagewalk');
  assert.equal(first.body.meta.result_count, 10);
  assert.ok(first.body.meta.next_token);
  const walked: string[] = [...ids(first)];
  let token = first.body.meta.next_token;
  let useNext = true;
  while (token) {
    const res = await search('pagewalk', `&${useNext ? 'next_token' : 'pagination_token'}=${token}`);
    assert.equal(res.status, 200, res.text);
    walked.push(...ids(res));
    token = res.body.meta.next_token;
    useNext = !useNext;
  }
  const all = await search('pagewalk', '&max_results=100');
  assert.deepEqual(walked, ids(all));
  assert.equal(walked.length, 23);
  assert.equal(all.body.meta.next_token, undefined);
  for (const [index, value] of [['recent', '9'], ['recent', '101'], ['all', '501']]) {
    const res = await search('pagewalk', `&max_results=${value}`, g.appAuth, index);
    assert.equal(res.status, 400, `${index} ${value}`);
  }
  assert.equal((await search('pagewalk', '&max_results=500', g.appAuth, 'all')).status, 200);
  const badToken = await search('pagewalk', '&next_token=nonsense');
  assert.equal(badToken.status, 400);
  assert.equal(badToken.body.errors[0].parameters.next_token[0], 'nonsense');
});

test('sort_order=relevancy puts the most engaged posts first; recency is the default', async () => {
  const quiet = await storePost('ada', 'relevanceprobe quiet', 3);
  const loud = await storePost('chen', 'relevanceprobe loud', 4);
  await plaza.ctx.store.db.updateTable('posts').set({ like_count: 50 }).where('id', '=', loud.id).execute();
  assert.deepEqual(ids(await search('relevanceprobe')), [quiet.id, loud.id]);
  assert.deepEqual(ids(await search('relevanceprobe', '&sort_order=relevancy')), [loud.id, quiet.id]);
  assert.equal((await search('relevanceprobe', '&sort_order=popular')).status, 400);
});

test('start_time is inclusive and end_time exclusive (default now minus 30 s); since_id and until_id exclusive; at most one of start_time/since_id and of end_time/until_id', async () => {
  const a = await storePost('ada', 'windowprobe a', 40);
  const b = await storePost('ada', 'windowprobe b', 30);
  const c = await storePost('ada', 'windowprobe c', 20);
  const justNow = await storePost('ada', 'windowprobe just now', 0.2);
  assert.deepEqual(ids(await search('windowprobe')), [c.id, b.id, a.id], 'a post of the last 30 seconds is not yet searchable');
  assert.deepEqual(ids(await search('windowprobe', `&start_time=${b.created_at}`)), [c.id, b.id]);
  assert.deepEqual(ids(await search('windowprobe', `&end_time=${b.created_at}`)), [a.id]);
  assert.deepEqual(ids(await search('windowprobe', `&since_id=${a.id}`)), [c.id, b.id]);
  assert.deepEqual(ids(await search('windowprobe', `&until_id=${c.id}`)), [b.id, a.id]);
  const both = await search('windowprobe', `&since_id=${a.id}&start_time=${a.created_at}`);
  assert.equal(both.status, 400);
  assert.equal(both.body.errors[0].message, 'The `since_id` query parameter cannot be used with `start_time`');
  assert.equal((await search('windowprobe', `&until_id=${a.id}&end_time=${a.created_at}`)).status, 400);
  const future = await search('windowprobe', `&end_time=${new Date(clock.now().getTime() + 60_000).toISOString()}`);
  assert.equal(future.status, 400);
  assert.ok(justNow.id);
});

test('recent search covers the last 7 days; the full archive reaches further back', async () => {
  const old = await storePost('ada', 'archiveprobe from last month', 20 * 24 * 60);
  const recent = await storePost('ada', 'archiveprobe from today', 15);
  assert.deepEqual(ids(await search('archiveprobe')), [recent.id]);
  assert.deepEqual(ids(await search('archiveprobe', '', g.appAuth, 'all')), [recent.id, old.id]);
  const tooOld = await search('archiveprobe', `&start_time=${old.created_at}`);
  assert.equal(tooOld.status, 400);
  assert.equal(Object.keys(tooOld.body.errors[0].parameters)[0], 'start_time');
});

test('query errors name the position and the reason, as a 400 invalid-request naming `query`', async () => {
  for (const [q, reason] of [
    ['is:reply', 'operator is:reply cannot be used alone at 1'],
    ['(cat OR dog) fish) bird', 'unbalanced parenthesis at 18'],
    ['cat -(dog fish)', 'negated group: negate each keyword or operator inside it instead at 5'],
    ['-cat', 'negated operator -cat cannot be used alone at 1'],
  ]) {
    const res = await search(q);
    assert.equal(res.status, 400, q);
    assert.equal(res.body.title, 'Invalid Request');
    assert.equal(res.body.type, problemType('invalid-request'));
    assert.deepEqual(res.body.errors[0].parameters, { query: [q] });
    assert.ok(res.body.errors[0].message.includes(reason), `${q}: ${res.body.errors[0].message}`);
  }
  const missing = await g.get('/2/posts/search/recent', { auth: g.appAuth });
  assert.equal(missing.status, 400);
});

test('query length: 512 characters on self-serve tiers, 4,096 on enterprise, 1,024 for full archive self-serve', async () => {
  // `cat dog dog ...` cut to n characters.
  const long = (n: number) => `cat${' dog'.repeat(n)}`.slice(0, n);
  const refused = await search(long(513));
  assert.equal(refused.status, 400);
  assert.match(refused.body.errors[0].message, /is 513 characters long; queries may be at most 512 characters on this endpoint for apps on the pro tier/);
  assert.equal((await search(long(512))).status, 200);
  assert.equal((await search(long(1024), '', g.appAuth, 'all')).status, 200);
  assert.equal((await search(long(1025), '', g.appAuth, 'all')).status, 400);
  const enterprise = { bearer: g.enterprise.bearer_token };
  assert.equal((await search(long(4096), '', enterprise)).status, 200);
  const tooLong = await search(long(4097), '', enterprise);
  assert.equal(tooLong.status, 400);
  assert.match(tooLong.body.errors[0].message, /at most 4096 characters/);
});

test('the full archive is for the tiers that have it: free and basic get client-forbidden', async () => {
  for (const tier of ['free', 'basic'] as const) {
    await g.setTier('selfServe', tier);
    for (const path of ['search', 'counts']) {
      const res = await g.get(`/2/posts/${path}/all?query=cat`, { auth: g.appAuth });
      assert.equal(res.status, 403, `${tier} ${path}`);
      assert.equal(res.body.reason, 'client-not-enrolled');
    }
    assert.equal((await search('cat')).status, 200, 'recent search stays');
  }
  await g.setTier('selfServe', 'pro');
  assert.equal((await search('cat', '', g.appAuth, 'all')).status, 200);
});

test('"retweets are not returned in keyword results" from May 4, 2026; before it they are', async () => {
  const source = await storePost('plazanews', 'repostprobe original', 50);
  const repost = await storePost('chen', `RT @plazanews: ${source.text}`, 40, { repostOf: source });
  assert.deepEqual(ids(await search('repostprobe')), [source.id]);
  assert.deepEqual(ids(await search('from:chen is:retweet')).includes(repost.id), true, 'a query without keywords still finds reposts');
  const saved = clock.now();
  clock.set(new Date('2026-05-03T12:00:00.000Z'));
  try {
    await plaza.ctx.store.db.updateTable('posts').set({ created_at: '2026-05-03T11:00:00.000Z' }).where('id', 'in', [source.id, repost.id]).execute();
    assert.deepEqual(ids(await search('repostprobe')).sort(), [source.id, repost.id].sort());
  } finally {
    clock.set(saved);
    await plaza.ctx.store.db.updateTable('posts').set({ created_at: source.created_at }).where('id', '=', source.id).execute();
    await plaza.ctx.store.db.updateTable('posts').set({ created_at: repost.created_at }).where('id', '=', repost.id).execute();
  }
});

test('min_likes:, min_replies:, min_reposts: work on search from May 4, 2026; count-based operators are refused between Jan 19, 2026 and May 4, 2026', async () => {
  const liked = await storePost('ada', 'countprobe liked', 12);
  const plain = await storePost('ada', 'countprobe plain', 11);
  await plaza.ctx.store.db.updateTable('posts').set({ like_count: 7, reply_count: 3, retweet_count: 2 }).where('id', '=', liked.id).execute();
  assert.deepEqual(ids(await search('countprobe min_likes:5')), [liked.id]);
  assert.deepEqual(ids(await search('countprobe min_replies:3')), [liked.id]);
  assert.deepEqual(ids(await search('countprobe min_reposts:3')), []);
  assert.deepEqual(ids(await search('countprobe -min_likes:1')), [plain.id]);
  const saved = clock.now();
  try {
    clock.set(new Date('2026-02-01T12:00:00.000Z'));
    for (const index of ['recent', 'all']) {
      const res = await search('countprobe min_likes:5', '', g.appAuth, index);
      assert.equal(res.status, 400, index);
      assert.match(res.body.errors[0].message, /count-based operators are deprecated on the recent and full-archive search endpoints since Jan 19, 2026/);
      assert.equal((await g.get(`/2/posts/counts/${index}?query=${encodeURIComponent('countprobe min_replies:1')}`, { auth: g.appAuth })).status, 400);
    }
    clock.set(new Date('2026-05-04T00:00:00.000Z'));
    assert.equal((await search('countprobe min_likes:5')).status, 200);
  } finally {
    clock.set(saved);
  }
});

test('visibility: protected authors\' posts only to approved followers; deleted posts and superseded edit versions never', async () => {
  const secret = await storePost('bruno', 'visibilityprobe from a protected account', 14);
  const open = await storePost('ada', 'visibilityprobe in the open', 13);
  assert.deepEqual(ids(await search('visibilityprobe')), [open.id], 'app-only callers see no protected posts');
  assert.deepEqual(ids(await search('visibilityprobe', '', await g.selfServeAs('dana'))), [open.id], 'nor do non-followers');
  assert.deepEqual(ids(await search('visibilityprobe', '', await g.selfServeAs('bruno'))), [open.id, secret.id], 'the author does');
  await plaza.ctx.store.db.insertInto('follows').values({ source_user_id: g.user('dana').id, target_user_id: g.user('bruno').id, created_at: clock.now().toISOString() }).execute();
  assert.deepEqual(ids(await search('visibilityprobe', '', await g.selfServeAs('dana'))), [open.id, secret.id], 'approved followers do');

  const deleted = await storePost('ada', 'visibilityprobe deleted soon', 12);
  await plaza.ctx.store.db.updateTable('posts').set({ deleted_at: clock.now().toISOString() }).where('id', '=', deleted.id).execute();
  const first = await storePost('ada', 'visibilityprobe first version', 11);
  const second = await storePost('ada', 'visibilityprobe second version', 10);
  await plaza.ctx.store.db.updateTable('posts').set({ superseded_by_id: second.id }).where('id', '=', first.id).execute();
  const found = ids(await search('visibilityprobe'));
  assert.ok(!found.includes(deleted.id) && !found.includes(first.id) && found.includes(second.id));
});

test('GET /2/posts/counts/recent: hourly buckets (default) over 7 days with post_count and meta.total_post_count; minute and day granularity', async () => {
  await storePost('ada', 'countsprobe one', 5 * 60 - 10);
  await storePost('chen', 'countsprobe two', 5 * 60 - 11);
  await storePost('dana', 'countsprobe three', 2 * 24 * 60);
  const res = await g.get('/2/posts/counts/recent?query=countsprobe', { auth: g.appAuth });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.meta.total_post_count, 3);
  assert.equal(res.body.meta.next_token, undefined, 'recent counts return all 7 days on one page');
  const buckets = res.body.data as Array<{ start: string; end: string; post_count: number }>;
  assert.ok(buckets.length >= 7 * 24 && buckets.length <= 7 * 24 + 1, String(buckets.length));
  assert.equal(buckets.reduce((n, b) => n + b.post_count, 0), 3);
  for (let i = 1; i < buckets.length; i++) assert.equal(buckets[i].start, buckets[i - 1].end);
  assert.ok(buckets.some((b) => b.post_count === 2), 'the two posts of the same hour share a bucket');
  const days = await g.get('/2/posts/counts/recent?query=countsprobe&granularity=day', { auth: g.appAuth });
  assert.ok(days.body.data.length >= 7 && days.body.data.length <= 8);
  assert.equal(days.body.meta.total_post_count, 3);
  const start = new Date(clock.now().getTime() - 6 * 60 * 60_000).toISOString();
  const minutes = await g.get(`/2/posts/counts/recent?query=countsprobe&granularity=minute&start_time=${start}`, { auth: g.appAuth });
  assert.equal(minutes.body.meta.total_post_count, 2);
  assert.equal(minutes.body.data.filter((b: any) => b.post_count > 0).length, 2);
  assert.equal((await g.get('/2/posts/counts/recent?query=countsprobe&granularity=week', { auth: g.appAuth })).status, 400);
});

test('GET /2/posts/counts/all: full-archive pages hold 31 days, next_token walks back to start_time', async () => {
  await storePost('ada', 'archivecount early', 50 * 24 * 60);
  await storePost('ada', 'archivecount late', 60);
  const start = new Date(clock.now().getTime() - 70 * 24 * 60 * 60_000).toISOString();
  const first = await g.get(`/2/posts/counts/all?query=archivecount&granularity=day&start_time=${start}`, { auth: g.appAuth });
  assert.equal(first.status, 200, first.text);
  assert.ok(first.body.data.length <= 32);
  assert.equal(first.body.meta.total_post_count, 1);
  let total = first.body.meta.total_post_count;
  let token = first.body.meta.next_token;
  let pages = 1;
  while (token) {
    const res = await g.get(`/2/posts/counts/all?query=archivecount&granularity=day&start_time=${start}&next_token=${token}`, { auth: g.appAuth });
    assert.equal(res.status, 200, res.text);
    total += res.body.meta.total_post_count;
    token = res.body.meta.next_token;
    pages++;
  }
  assert.equal(pages, 3);
  assert.equal(total, 2);
});

test('a 4,096-character enterprise query of a thousand terms is answered, not a server error', async () => {
  const enterprise = { bearer: g.enterprise.bearer_token };
  const many = (unit: (i: number) => string) => {
    let q = 'cat';
    for (let i = 0; q.length + unit(i).length + 1 <= 4096; i++) q += ` ${unit(i)}`;
    return q;
  };
  for (const q of [many((i) => `w${i}`), many((i) => `#h${i}`), many((i) => `-x${i}`), many((i) => `OR k${i}`), many((i) => `-from:u${i}`), many((i) => `OR (a${i} is:reply)`)]) {
    const res = await search(q, '', enterprise);
    assert.equal(res.status, 200, `${q.slice(0, 40)}...: ${res.text.slice(0, 300)}`);
  }
});

test('the README\'s search: query=plaza -is:retweet with expansions=author_id finds the demo\'s plaza post and its author', async () => {
  const res = await search('plaza -is:retweet', '&expansions=author_id&user.fields=username');
  assert.equal(res.status, 200, res.text);
  assert.ok(res.body.data.some((p: any) => p.text.startsWith('Evening at the plaza')));
  assert.ok(res.body.includes.users.some((u: any) => u.username === 'ada'));
  const counts = await g.get('/2/posts/counts/recent?query=plaza&granularity=day', { auth: g.appAuth });
  assert.equal(counts.status, 200);
  assert.ok(counts.body.meta.total_post_count >= 1);
});
