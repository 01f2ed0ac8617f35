import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { ManualClock } from '../../../src/clock.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { issueOAuth2Tokens } from '../../../src/auth/issue.js';
import { ALL_SCOPES, fixtures, type Fixtures } from '../../support/fixtures.js';
import { normalise } from '../../support/normalise.js';

/**
 * GET /2/posts/analytics (the reference's /2/tweets/analytics), the impression ledger behind it,
 * and the post fields non_public_metrics, organic_metrics and promoted_metrics.
 */

const clock = new ManualClock(new Date('2026-07-01T10:15:00.000Z'));
let plaza: TestPlaza;
let g: Fixtures;

before(async () => {
  plaza = await startTestPlaza({}, { clock });
  g = fixtures(plaza);
});

type Auth = { bearer: string };
/** A fresh OAuth 2.0 user token of the enterprise app, issued at the clock's time (tests move the clock). */
async function as(username: string): Promise<Auth> {
  const ctx = plaza.ctx;
  const issued = await ctx.store.db.transaction().execute((tx) => issueOAuth2Tokens(ctx, tx, g.enterprise.id, g.user(username).id, ALL_SCOPES));
  return { bearer: issued.accessToken };
}

async function newPost(auth: Auth, body: Record<string, unknown>): Promise<string> {
  const res = await g.send('POST', '/2/posts', { auth, body });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

const analytics = (auth: Auth, query: string) => g.get(`/2/posts/analytics?${query}`, { auth });

const WINDOW = 'start_time=2026-07-01T00:00:00Z&end_time=2026-07-02T00:00:00Z';

test('an impression each time a post is returned to a user-context caller other than its author in a lookup, a timeline or a search; none for the author, none for app-only reads', async () => {
  const ada = await as('ada');
  const dana = await as('dana');
  const id = await newPost(ada, { text: 'Quokka census results are in' });
  clock.advance(60_000); // recent search ends 30 seconds before now
  assert.equal((await g.get(`/2/posts/${id}`, { auth: dana })).status, 200);
  assert.equal((await g.get(`/2/posts?ids=${id}`, { auth: dana })).status, 200);
  const timeline = await g.get(`/2/users/${g.user('ada').id}/posts?max_results=5`, { auth: dana });
  assert.ok(timeline.body.data.some((p: { id: string }) => p.id === id), timeline.text);
  const search = await g.get(`/2/posts/search/recent?query=quokka`, { auth: dana });
  assert.deepEqual(search.body.data.map((p: { id: string }) => p.id), [id], search.text);
  // Neither the author's own reads nor app-only reads are impressions.
  await g.get(`/2/posts/${id}`, { auth: ada });
  await g.get(`/2/posts/${id}`, { auth: g.appAuth });
  await g.get(`/2/users/${g.user('ada').id}/posts?max_results=5`, { auth: g.appAuth });

  // Impressions are counted as an answer is rendered, and a reader of the ledger writes what this
  // process counted first: the next read sees every one.
  const settled = await analytics(ada, `ids=${id}&${WINDOW}&analytics.fields=impressions,id`);
  assert.deepEqual(settled.body.data, [{ id, impressions: 4 }], 'two lookups, a timeline and a search by dana');
});

test('likes, reposts, replies, quotes and bookmarks are counted from their own tables by when they were made, bucketed by granularity; clicks Plaza cannot observe count 0', async () => {
  clock.set(new Date('2026-07-03T09:10:00.000Z'));
  const ada = await as('ada');
  const dana = await as('dana');
  const chen = await as('chen');
  const id = await newPost(ada, { text: 'Engagement counting, live' });
  assert.equal((await g.send('POST', `/2/users/${g.user('dana').id}/likes`, { auth: dana, body: { post_id: id } })).status, 200);
  assert.equal((await g.send('POST', `/2/users/${g.user('dana').id}/bookmarks`, { auth: dana, body: { post_id: id } })).status, 200);
  await newPost(dana, { text: 'A reply', reply: { in_reply_to_post_id: id } });
  clock.advance(60 * 60 * 1000); // the next hour
  assert.equal((await g.send('POST', `/2/users/${g.user('chen').id}/likes`, { auth: chen, body: { post_id: id } })).status, 200);
  assert.equal((await g.send('POST', `/2/users/${g.user('chen').id}/reposts`, { auth: chen, body: { post_id: id } })).status, 200);
  await newPost(chen, { text: 'Quoting this', quote_post_id: id });

  const window = 'start_time=2026-07-03T09:00:00Z&end_time=2026-07-03T11:00:00Z';
  const total = await analytics(ada, `ids=${id}&${window}&analytics.fields=id,likes,retweets,replies,quote_tweets,bookmarks,engagements,url_clicks,user_profile_clicks`);
  assert.equal(total.status, 200, total.text);
  assert.deepEqual(total.body.data, [{ id, likes: 2, retweets: 1, replies: 1, quote_tweets: 1, bookmarks: 1, engagements: 6, url_clicks: 0, user_profile_clicks: 0 }]);

  const hourly = await analytics(ada, `ids=${id}&${window}&granularity=hourly&analytics.fields=id,likes,replies,timestamped_metrics`);
  assert.equal(hourly.status, 200, hourly.text);
  assert.deepEqual(hourly.body.data[0].timestamped_metrics, [
    { timestamp: '2026-07-03T09:00:00.000Z', metrics: { likes: 1, replies: 1 } },
    { timestamp: '2026-07-03T10:00:00.000Z', metrics: { likes: 1, replies: 0 } },
  ]);
  assert.equal(hourly.body.data[0].likes, 2, 'top-level metrics are the window totals');

  const daily = await analytics(ada, `ids=${id}&start_time=2026-07-01T00:00:00Z&end_time=2026-07-04T00:00:00Z&granularity=daily&analytics.fields=likes,timestamped_metrics`);
  assert.deepEqual(daily.body.data[0].timestamped_metrics.map((b: any) => [b.timestamp, b.metrics.likes]), [
    ['2026-07-01T00:00:00.000Z', 0],
    ['2026-07-02T00:00:00.000Z', 0],
    ['2026-07-03T00:00:00.000Z', 2],
  ]);

  const before = await analytics(ada, `ids=${id}&start_time=2026-07-03T10:00:00Z&end_time=2026-07-03T11:00:00Z&analytics.fields=likes`);
  assert.equal(before.body.data[0].likes, 1, 'only what was made inside the window counts');

  const plain = await analytics(ada, `ids=${id}&${window}`);
  assert.deepEqual(Object.keys(plain.body.data[0]).sort(), ['id', 'timestamped_metrics'], 'without analytics.fields: id and timestamped_metrics with every metric');
  assert.equal(plain.body.data[0].timestamped_metrics[0].metrics.engagements, 6);
});

test("only the author's own posts: someone else's post is a not-authorized item of errors, an unknown id a resource-not-found one, with HTTP 200", async () => {
  const ada = await as('ada');
  const mine = await newPost(ada, { text: 'Mine' });
  const theirs = await newPost(await as('dana'), { text: 'Not yours' });
  const res = await analytics(ada, `ids=${mine},${theirs},123456789&${WINDOW}&analytics.fields=id`);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.data, [{ id: mine }]);
  const byId = new Map(res.body.errors.map((e: any) => [e.resource_id, e]));
  assert.match((byId.get(theirs) as any).type, /not-authorized-for-resource/);
  assert.match((byId.get('123456789') as any).type, /resource-not-found/);

  const tweetDialect = await g.get(`/2/tweets/analytics?ids=${mine}&${WINDOW}&analytics.fields=id`, { auth: ada });
  assert.deepEqual(tweetDialect.body.data, [{ id: mine }], "the public platform's path /2/tweets/analytics answers the same");

  const none = await analytics(await as('chen'), `ids=${mine}&${WINDOW}`);
  assert.equal(none.status, 200);
  assert.equal(none.body.data, undefined);
  assert.equal(none.body.errors.length, 1);
});

test('bad input gets a 400 naming the parameter: ids, start_time, end_time before start_time, granularity, analytics.fields, too many buckets; app-only is refused', async () => {
  const ada = await as('ada');
  const cases: Array<[string, string]> = [
    [`${WINDOW}`, 'ids'],
    ['ids=abc&' + WINDOW, 'ids'],
    ['ids=1&end_time=2026-07-02T00:00:00Z', 'start_time'],
    ['ids=1&start_time=yesterday&end_time=2026-07-02T00:00:00Z', 'start_time'],
    ['ids=1&start_time=2026-07-02T00:00:00Z&end_time=2026-07-01T00:00:00Z', 'end_time'],
    [`ids=1&${WINDOW}&granularity=monthly`, 'granularity'],
    [`ids=1&${WINDOW}&analytics.fields=views`, 'analytics.fields'],
    ['ids=1&start_time=2020-01-01T00:00:00Z&end_time=2026-01-01T00:00:00Z&granularity=hourly', 'granularity'],
  ];
  for (const [query, parameter] of cases) {
    const res = await analytics(ada, query);
    assert.equal(res.status, 400, `${query}: ${res.text}`);
    assert.ok(res.text.includes(parameter), `${query} names ${parameter}: ${res.text}`);
  }
  const app = await analytics(g.appAuth, `ids=1&${WINDOW}`);
  assert.equal(app.status, 403, app.text);
});

test('non_public_metrics and organic_metrics are shown only to the post\'s author with user context; left out for anyone else and for app-only reads; promoted_metrics only on promoted posts; none is a default field', async () => {
  const ada = await as('ada');
  const dana = await as('dana');
  const id = await newPost(ada, { text: 'Private metrics' });
  await g.get(`/2/posts/${id}`, { auth: dana }); // one impression
  await g.send('POST', `/2/users/${g.user('dana').id}/likes`, { auth: dana, body: { post_id: id } });
  const fields = 'post.fields=non_public_metrics,organic_metrics,promoted_metrics';

  const own = await g.get(`/2/posts/${id}?${fields}`, { auth: ada });
  assert.equal(own.status, 200, own.text);
  assert.deepEqual(normalise(own.body, { [id]: 'post' }), {
    data: {
      id: '<post>',
      text: 'Private metrics',
      non_public_metrics: { impression_count: 1, url_link_clicks: 0, user_profile_clicks: 0 },
      organic_metrics: { impression_count: 1, like_count: 1, reply_count: 0, retweet_count: 0, url_link_clicks: 0, user_profile_clicks: 0 },
      // An organic post has no promoted metrics.
    },
  });

  for (const auth of [dana, g.appAuth]) {
    const other = await g.get(`/2/posts/${id}?${fields}`, { auth });
    assert.equal(other.status, 200, other.text);
    assert.equal(other.body.data.non_public_metrics, undefined);
    assert.equal(other.body.data.organic_metrics, undefined);
  }
  const plain = await g.get(`/2/posts/${id}`, { auth: ada });
  assert.equal(plain.body.data.non_public_metrics, undefined);

  // A promoted-only post (nullcast, as the advertising interface makes them): its engagement is promoted.
  const promoted = await newPost(ada, { text: 'Promoted only' });
  await plaza.ctx.store.db.updateTable('posts').set({ nullcast: 1 }).where('id', '=', promoted).execute();
  const shown = await g.get(`/2/posts/${promoted}?${fields}`, { auth: ada });
  assert.deepEqual(normalise(shown.body, { [promoted]: 'promoted' }), {
    data: {
      id: '<promoted>',
      text: 'Promoted only',
      non_public_metrics: { impression_count: 0, url_link_clicks: 0, user_profile_clicks: 0 },
      organic_metrics: { impression_count: 0, like_count: 0, reply_count: 0, retweet_count: 0, url_link_clicks: 0, user_profile_clicks: 0 },
      promoted_metrics: { impression_count: 0, like_count: 0, reply_count: 0, retweet_count: 0, url_link_clicks: 0, user_profile_clicks: 0 },
    },
  });
});
