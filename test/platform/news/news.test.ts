import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/clock.js';
import { createNewsStory, InvalidNewsStory } from '../../../src/platform/news/service.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { StreamClient } from '../../support/streams.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';

/** News stories (spec 000, Nov 19, 2025): GET /2/news/search and /2/news/{id}, and the news.new event. */

const clock = new ManualClock(new Date('2026-05-01T12:00:00.000Z'));
let plaza: TestPlaza;
let g: Fixtures;
const clients: StreamClient[] = [];

before(async () => {
  plaza = await startTestPlaza({ activityKeepAliveMs: 100, activityPollMs: 50 }, { clock });
  g = fixtures(plaza);
});

after(() => {
  for (const c of clients) c.close();
});

const search = (query: string) => g.get(`/2/news/search?${query}`, { auth: g.appAuth });
const announcementId = () => plaza.creds.sample.post_ids[3];

async function launchStory() {
  const res = await search('query=%23launch');
  assert.equal(res.status, 200, res.text);
  return res.body.data[0];
}

test('GET /2/news/search: stories whose text matches the query language, with the default fields id, name, category, hook, summary and meta.result_count', async () => {
  const res = await search(`query=${encodeURIComponent('"self-hosted" launch -dusk')}`);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.meta.result_count, 1);
  assert.deepEqual(Object.keys(res.body.data[0]).sort(), ['category', 'hook', 'id', 'name', 'summary']);
  assert.equal(res.body.data[0].name, 'Plaza launches a self-hosted social platform');
  assert.equal((await search('query=%24PLZ')).body.data[0].id, res.body.data[0].id, '$PLZ: a keyword cashtag and a context ticker');
  const both = await search(`query=${encodeURIComponent('plaza')}`);
  assert.equal(both.body.meta.result_count, 2);
  const none = await search('query=volcano');
  assert.equal(none.status, 200);
  assert.equal(none.body.data, undefined);
  assert.equal(none.body.meta.result_count, 0);
  assert.equal((await search('query=plaza&max_results=1')).body.meta.result_count, 1, 'max_results');
});

test('news.fields: contexts, keywords, updated_at, last_updated_at_ms; cluster_posts_results are the posts matching the keywords, read through the search index as the caller may see them', async () => {
  const story = await launchStory();
  const fields = 'news.fields=contexts,keywords,cluster_posts_results,updated_at,last_updated_at_ms,disclaimer';
  const res = await g.get(`/2/news/${story.id}?${fields}`, { auth: g.appAuth });
  assert.equal(res.status, 200, res.text);
  const data = res.body.data;
  assert.deepEqual(data.keywords, ['#launch', '"self-hosted platform"', '$PLZ']);
  assert.deepEqual(data.contexts.finance, { tickers: ['PLZ'] });
  assert.deepEqual(data.contexts.entities.organizations, ['Plaza News']);
  assert.equal(data.last_updated_at_ms, String(Date.parse(data.updated_at)));
  assert.equal(data.disclaimer, undefined, 'no disclaimer: the field is left out');
  const cluster = data.cluster_posts_results.map((r: any) => r.post_id);
  assert.ok(cluster.includes(announcementId()), 'the announcement (#launch $PLZ) is in the cluster');
  const rows = await plaza.ctx.store.db.selectFrom('posts').select(['id', 'text']).where('id', 'in', cluster).execute();
  assert.equal(rows.length, cluster.length);
  for (const row of rows) assert.match(row.text, /#launch|\$PLZ|self-hosted platform/i, 'every post of the cluster matches a keyword');

  // A new public post with a keyword joins the cluster; a protected author's one only for their followers.
  const post = await g.send('POST', '/2/posts', { auth: await g.enterpriseAs('chen'), body: { text: 'Watching the #launch coverage today' } });
  assert.equal(post.status, 201, post.text);
  const hidden = await g.send('POST', '/2/posts', { auth: await g.enterpriseAs('bruno'), body: { text: 'My own notes on the #launch' } });
  assert.equal(hidden.status, 201, hidden.text);
  const ids = async (auth: any) => (await g.get(`/2/news/${story.id}?news.fields=cluster_posts_results`, { auth })).body.data.cluster_posts_results.map((r: any) => r.post_id);
  const asApp = await ids(g.appAuth);
  assert.ok(asApp.includes(post.body.data.id) && asApp.includes(announcementId()));
  assert.ok(!asApp.includes(hidden.body.data.id), 'a protected author stays out for app-only callers');
  assert.ok((await ids(await g.enterpriseAs('ada'))).includes(hidden.body.data.id), 'ada follows bruno');
});

test('max_age_hours (1 to 720, default 168): only stories updated within that many hours', async () => {
  clock.advance(3 * 60 * 60 * 1000);
  try {
    assert.equal((await search('query=plaza&max_age_hours=2')).body.meta.result_count, 0);
    assert.equal((await search('query=plaza&max_age_hours=4')).body.meta.result_count, 2);
    assert.equal((await search('query=plaza')).body.meta.result_count, 2);
    clock.advance(168 * 60 * 60 * 1000);
    assert.equal((await search('query=plaza')).body.meta.result_count, 0, 'older than the default 168 hours');
    assert.equal((await search('query=plaza&max_age_hours=720')).body.meta.result_count, 2);
  } finally {
    clock.set(new Date('2026-05-01T12:00:00.000Z'));
  }
});

test('Bad input is an invalid-request naming the parameter: query (1 to 2,048 characters of the query language), max_results (1-100), max_age_hours (1-720), news.fields; ids ^[0-9]{1,19}$', async () => {
  const cases: Array<[string, string]> = [
    ['', 'query'],
    ['query=', 'query'],
    [`query=${'a'.repeat(2049)}`, 'query'],
    ['query=%28unclosed', 'query'],
    ['query=plaza&max_results=0', 'max_results'],
    ['query=plaza&max_results=101', 'max_results'],
    ['query=plaza&max_age_hours=0', 'max_age_hours'],
    ['query=plaza&max_age_hours=721', 'max_age_hours'],
    ['query=plaza&news.fields=bogus', 'news.fields'],
  ];
  for (const [q, parameter] of cases) {
    const res = await search(q);
    assert.equal(res.status, 400, `${q.slice(0, 40)}: ${res.text.slice(0, 300)}`);
    assert.ok(JSON.stringify(res.body.errors).includes(parameter), `${parameter} named: ${res.text.slice(0, 300)}`);
  }
  assert.equal((await search(`query=${'plaza OR '.repeat(227)}tonal`)).status, 200, '2,048 characters are allowed');
  assert.equal((await g.get('/2/news/abc', { auth: g.appAuth })).status, 400);
  assert.equal((await g.get('/2/news/1234567890123', { auth: g.appAuth })).status, 404);
  assert.equal((await g.get('/2/news/search?query=plaza')).status, 401, 'authentication first');
});

test('Release history: before Nov 19, 2025 the news endpoints do not exist', async () => {
  const story = await launchStory();
  clock.set(new Date('2025-11-18T23:00:00.000Z'));
  try {
    assert.equal((await search('query=plaza')).status, 404);
    assert.equal((await g.get(`/2/news/${story.id}`, { auth: g.appAuth })).status, 404);
  } finally {
    clock.set(new Date('2026-05-01T12:00:00.000Z'));
  }
});

test('A new story (createNewsStory, for the admin interface) is a real record, refused when its keywords are not terms of the query language, and emits news.new to subscriptions whose keyword it matches', async () => {
  await plaza.ctx.store.db.deleteFrom('activity_subscriptions').execute();
  const sub = await g.send('POST', '/2/activity/subscriptions', { auth: g.appAuth, body: { event_type: 'news.new', filter: { keyword: 'volcano' } } });
  assert.equal(sub.status, 200, sub.text);
  const stream = await StreamClient.open(plaza.urls.base_url, '/2/activity/stream', plaza.creds.apps[0].bearer_token);
  clients.push(stream);
  assert.equal(stream.status, 200);

  await assert.rejects(createNewsStory(plaza.ctx, { name: 'x', summary: 'y', keywords: ['(unclosed'] }), InvalidNewsStory);
  await assert.rejects(createNewsStory(plaza.ctx, { name: 'x', summary: 'y', keywords: [] }), InvalidNewsStory);
  await createNewsStory(plaza.ctx, { name: 'Markets open higher', summary: 'Stocks rose at the open.', keywords: ['stocks'] });
  const story = await createNewsStory(plaza.ctx, { name: 'Volcano erupts near the coast', category: 'World', hook: 'Ash over the bay.', summary: 'An eruption began this morning.', keywords: ['volcano', 'eruption'] });
  await stream.until(() => stream.events().length >= 1, 'the news.new event');
  const [event] = stream.events();
  assert.equal(event.data.event_type, 'news.new');
  assert.deepEqual(event.data.filter, { keyword: 'volcano' });
  assert.deepEqual(event.data.payload, { category: 'World', headline: 'Volcano erupts near the coast', hook: 'Ash over the bay.', summary: 'An eruption began this morning.' });
  assert.equal(stream.events().length, 1, 'the markets story matched no subscription');

  const found = await search('query=volcano OR eruption');
  assert.equal(found.body.data[0].id, story.id);
  const lookup = await g.get(`/2/news/${story.id}?news.fields=cluster_posts_results`, { auth: g.appAuth });
  assert.deepEqual(lookup.body.data.cluster_posts_results, [], 'no post mentions it yet');
});
