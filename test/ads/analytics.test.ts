import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { before, test } from 'node:test';
import { STATS_JOB_PROCESSING_MS } from '../../src/ads/stats/service.js';
import { fixtures } from '../support/fixtures.js';
import { lineItemQuery, startAdsPlaza, type AdsKit } from './support.js';

/**
 * Issue 38 §3: promoted posts delivered into home timelines from real state, and the analytics
 * operations adding up what delivery recorded. Ada's production account (the demo's) promotes a
 * promoted-only post of hers to the followers of her account (dana and bruno; chen does not
 * follow her), paying by engagement.
 */
let k: AdsKit;
let p: ReturnType<typeof fixtures>;
let account: string;
let campaign: string;
let lineItem: string;
let promotedPost: string;
let postId: string;
/** The first whole hour of the test's clock, and what the test caused since. */
let start: Date;
const caused = { impressions: 0, likes: 0, clicks: 0, charge: 0 };
const BID = 400_000;

const hour = (d: Date) => new Date(Math.floor(d.getTime() / 3_600_000) * 3_600_000);
const wire = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
/** A home timeline page, with a fresh token (the test moves the clock past a token's two hours). */
const home = async (username: string, query = '') =>
  p.get(`/2/users/${p.user(username).id}/timelines/reverse_chronological?max_results=10${query}`, { auth: await p.selfServeAs(username) });
const admin = (method: string, path: string, body?: unknown) =>
  p.send(method, path, { headers: { authorization: `Bearer ${k.plaza.creds.admin_token}` }, ...(body !== undefined ? { body } : {}) });

before(async () => {
  k = await startAdsPlaza();
  p = fixtures(k.plaza);
  account = k.accountOf('ada');
  const fi = (await k.ads.get(`/12/accounts/${account}/funding_instruments`)).body.data[0].id;
  campaign = (await k.ads.post(`/12/accounts/${account}/campaigns`, { query: { funding_instrument_id: fi, name: 'Analytics', daily_budget_amount_local_micro: 2 * BID } })).body.data.id;
  const now = k.clock.now();
  const li = await k.ads.post(`/12/accounts/${account}/line_items`, {
    query: lineItemQuery(campaign, { start_time: wire(new Date(now.getTime() + 60_000)), bid_strategy: 'MAX', bid_amount_local_micro: BID }),
  });
  assert.equal(li.status, 200, li.text);
  lineItem = li.body.data.id;
  assert.equal(li.body.data.pay_by, 'ENGAGEMENT');
  const criterion = await k.ads.post(`/12/accounts/${account}/targeting_criteria`, {
    query: { line_item_id: lineItem, targeting_type: 'FOLLOWERS_OF_USER', targeting_value: k.user('ada').id },
  });
  assert.equal(criterion.status, 200, criterion.text);
  const post = await k.ads.post(`/12/accounts/${account}/post`, { query: { as_user_id: k.user('ada').id, text: 'Plaza analytics, promoted only' } });
  assert.equal(post.status, 200, post.text);
  postId = post.body.data.id_str ?? post.body.data.id;
  const promoted = await k.ads.post(`/12/accounts/${account}/promoted_posts`, { query: { line_item_id: lineItem, post_ids: postId } });
  assert.equal(promoted.status, 200, promoted.text);
  promotedPost = promoted.body.data[0].id;
  // Into the line item's flight.
  k.clock.offsetMs += 2 * 60_000;
  start = hour(k.clock.now());
});

const promotedIn = (res: { body: { data?: Array<{ id: string }> } }) => (res.body.data ?? []).filter((x) => x.id === postId).length;

test('"an ACTIVE line item ... places its promoted posts into the home timelines ... of users who match its targeting": a follower of the promoted account sees it, at one position, once per page; a user who does not follow, and the author, do not', async () => {
  const dana = await home('dana');
  assert.equal(dana.status, 200, dana.text);
  assert.equal(promotedIn(dana), 1, 'once on the page');
  assert.equal(dana.body.data[2].id, postId, 'third, after two organic posts');
  assert.equal(dana.body.meta.result_count, dana.body.data.length);
  caused.impressions += 1;
  const again = await home('dana');
  assert.deepEqual(again.body.data.map((x: { id: string }) => x.id), dana.body.data.map((x: { id: string }) => x.id), 'the same request answers the same');
  caused.impressions += 1;
  assert.equal(promotedIn(await home('chen')), 0, 'chen does not follow ada');
  assert.equal(promotedIn(await home('ada')), 0, 'not to its author');
  // A follower who mutes the author sees none of its promotions, as none of its posts.
  const bruno = p.user('bruno').id;
  const ada = k.user('ada').id;
  const brunoAuth = await p.selfServeAs('bruno');
  assert.equal((await p.send('POST', `/2/users/${bruno}/muting`, { auth: brunoAuth, body: { target_user_id: ada } })).status, 200);
  assert.equal(promotedIn(await home('bruno')), 0, 'bruno mutes ada');
  assert.equal((await p.send('DELETE', `/2/users/${bruno}/muting/${ada}`, { auth: brunoAuth })).status, 200);
  // The page after keeps its own paging, and may hold the promoted post once too.
  if (dana.body.meta.next_token) {
    const next = await home('dana', `&pagination_token=${dana.body.meta.next_token}`);
    assert.ok(promotedIn(next) <= 1);
    caused.impressions += promotedIn(next);
  }
});

test('engagements after an impression count for the promotion and are charged by pay_by (ENGAGEMENT, at the bid); "stops at the daily budget by the clock", and delivers again the next day', async () => {
  const like = await p.send('POST', `/2/users/${p.user('dana').id}/likes`, { auth: await p.enterpriseAs('dana'), body: { post_id: postId } });
  assert.equal(like.status, 200, like.text);
  caused.likes += 1;
  caused.charge += BID;
  const click = await admin('POST', `/admin/users/${p.user('dana').id}/clicks`, { post_id: postId });
  assert.equal(click.status, 200, click.text);
  assert.equal(click.body.data.promoted, true);
  caused.clicks += 1;
  caused.charge += BID;
  const organic = await admin('POST', `/admin/users/${p.user('chen').id}/clicks`, { post_id: k.plaza.creds.sample.post_ids[0] });
  assert.equal(organic.body.data.promoted, false, 'chen was shown no promotion');
  for (const [body, parameter] of [[{ post_id: postId, url: 'https://elsewhere.example/' }, 'url'], [{ post_id: '1' }, 'post_id'], [{ url: 'x' }, 'post_id']] as const) {
    const refused = await admin('POST', `/admin/users/${p.user('dana').id}/clicks`, body);
    assert.ok(refused.status >= 400 && refused.status < 500, refused.text);
    assert.match(refused.text, new RegExp(parameter), JSON.stringify(body));
  }
  // The daily budget (2 bids) is spent: nothing more is delivered today.
  assert.equal(promotedIn(await home('dana')), 0, 'the daily budget is spent');
  assert.equal(promotedIn(await home('bruno')), 0);
  k.clock.offsetMs += 24 * 60 * 60 * 1000;
  const nextDay = await home('bruno');
  assert.equal(nextDay.status, 200, nextDay.text);
  assert.equal(promotedIn(nextDay), 1, 'the next day it delivers again');
  caused.impressions += 1;
});

async function stats(query: Record<string, string | number>) {
  const res = await k.ads.get(`/12/stats/accounts/${account}`, {
    query: { entity: 'LINE_ITEM', entity_ids: lineItem, metric_groups: 'ENGAGEMENT,BILLING', placement: 'ALL_ON_PLATFORM', ...query },
  });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

const sum = (series: number[] | null) => (series ?? []).reduce((a, b) => a + b, 0);

test('"stats add up across granularities": HOUR rows sum to the DAY and TOTAL figures, and match the impressions and engagements the test caused', async () => {
  const window = { start_time: wire(start), end_time: wire(new Date(start.getTime() + 48 * 3_600_000)) };
  const total = await stats({ ...window, granularity: 'TOTAL' });
  const byDay = await stats({ ...window, granularity: 'DAY' });
  const byHour = await stats({ ...window, granularity: 'HOUR' });
  assert.equal(total.data_type, 'stats');
  assert.equal(total.time_series_length, 1);
  assert.equal(byDay.time_series_length, 2);
  assert.equal(byHour.time_series_length, 48);
  const m = total.data[0].id_data[0].metrics;
  assert.equal(total.data[0].id, lineItem);
  assert.equal(total.data[0].id_data[0].segment, null);
  assert.deepEqual(m.impressions, [caused.impressions]);
  assert.deepEqual(m.likes, [caused.likes]);
  assert.deepEqual(m.clicks, [caused.clicks]);
  assert.deepEqual(m.engagements, [caused.likes + caused.clicks]);
  assert.deepEqual(m.billed_engagements, [2]);
  assert.deepEqual(m.billed_charge_local_micro, [caused.charge]);
  assert.equal(m.reposts, null, 'nothing happened: null');
  assert.equal(m.video_total_views, undefined, 'only the groups asked for');
  for (const name of ['impressions', 'likes', 'clicks', 'engagements', 'billed_charge_local_micro']) {
    const t = sum(m[name]);
    assert.equal(sum(byDay.data[0].id_data[0].metrics[name]), t, `${name} by day`);
    assert.equal(sum(byHour.data[0].id_data[0].metrics[name]), t, `${name} by hour`);
  }
  assert.equal(byDay.data[0].id_data[0].metrics.impressions[1], 1, 'the next day\'s impression is in the second day');
  assert.deepEqual(total.request.params, {
    account_id: account,
    entity: 'LINE_ITEM',
    entity_ids: [lineItem],
    start_time: window.start_time,
    end_time: window.end_time,
    granularity: 'TOTAL',
    metric_groups: ['ENGAGEMENT', 'BILLING'],
    placement: 'ALL_ON_PLATFORM',
    segmentation_type: null,
    country: null,
    platform: null,
  });
  // The same figures for the promoted post, the campaign, the funding instrument and the account.
  for (const [entity, id] of [['PROMOTED_POST', promotedPost], ['CAMPAIGN', campaign], ['ACCOUNT', account]]) {
    const other = await stats({ ...window, granularity: 'TOTAL', entity, entity_ids: id! });
    assert.deepEqual(other.data[0].id_data[0].metrics.impressions, [caused.impressions], entity);
  }
  const network = await stats({ ...window, granularity: 'TOTAL', placement: 'PUBLISHER_NETWORK' });
  assert.equal(network.data[0].id_data[0].metrics.impressions, null, 'Plaza delivers nothing on the publisher network');
});

test('ORGANIC_POST stats count the post\'s own impressions, likes, replies and reposts, less what its promotion brought', async () => {
  const [organicPost] = k.plaza.creds.sample.post_ids;
  const window = { start_time: wire(start), end_time: wire(new Date(start.getTime() + 48 * 3_600_000)) };
  await p.get(`/2/posts/${organicPost}`, { auth: await p.selfServeAs('dana') });
  await p.get(`/2/posts/${organicPost}`, { auth: await p.selfServeAs('chen') });
  const res = await stats({ ...window, granularity: 'TOTAL', entity: 'ORGANIC_POST', entity_ids: organicPost!, metric_groups: 'ENGAGEMENT' });
  const m = res.data[0].id_data[0].metrics;
  assert.ok(sum(m.impressions) >= 2, JSON.stringify(m.impressions));
  assert.equal(m.follows, null, 'organic follows are not observed');
  const promotedOrganic = await stats({ ...window, granularity: 'TOTAL', entity: 'ORGANIC_POST', entity_ids: postId, metric_groups: 'ENGAGEMENT' });
  assert.equal(promotedOrganic.data[0].id_data[0].metrics.impressions, null, 'a promoted-only post has no organic impressions');
  assert.equal(promotedOrganic.data[0].id_data[0].metrics.likes, null, 'its like came with the promotion');
});

test('the public SDK\'s names: entity PROMOTED_TWEET and ALL_ON_TWITTER on the public host are answered with retweets and tweets_send', async () => {
  const window = { start_time: wire(start), end_time: wire(new Date(start.getTime() + 24 * 3_600_000)) };
  const res = await k.ads.get(`/12/stats/accounts/${account}`, {
    host: 'ads-api.twitter.com',
    query: { entity: 'PROMOTED_TWEET', entity_ids: promotedPost, metric_groups: 'ENGAGEMENT', placement: 'ALL_ON_TWITTER', granularity: 'TOTAL', ...window },
  });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.request.params.entity, 'PROMOTED_TWEET');
  assert.equal(res.body.request.params.placement, 'ALL_ON_TWITTER');
  const m = res.body.data[0].id_data[0].metrics;
  assert.ok('retweets' in m && 'tweets_send' in m && !('reposts' in m), Object.keys(m).join());
});

test('bad stats requests are refused naming the parameter: times not on whole hours, more than 7 days, end before start, more than 20 ids, an id not of the account, an unknown entity', async () => {
  const base = { entity: 'LINE_ITEM', entity_ids: lineItem, metric_groups: 'ENGAGEMENT', placement: 'ALL_ON_PLATFORM', granularity: 'DAY' };
  const ask = (q: Record<string, string>) => k.ads.get(`/12/stats/accounts/${account}`, { query: { ...base, ...q } });
  const cases: Array<[Record<string, string>, string]> = [
    [{ start_time: '2030-01-01T00:30:00Z', end_time: '2030-01-02T00:00:00Z' }, 'start_time'],
    [{ start_time: '2030-01-01T00:00:00Z', end_time: '2030-01-09T00:00:00Z' }, 'end_time'],
    [{ start_time: '2030-01-02T00:00:00Z', end_time: '2030-01-01T00:00:00Z' }, 'end_time'],
    [{ start_time: '2030-01-01T00:00:00Z', end_time: '2030-01-02T00:00:00Z', entity_ids: Array.from({ length: 21 }, (_, i) => `a${i}`).join(',') }, 'entity_ids'],
    [{ start_time: '2030-01-01T00:00:00Z', end_time: '2030-01-02T00:00:00Z', entity_ids: 'zzzz' }, 'entity_ids'],
    [{ start_time: '2030-01-01T00:00:00Z', end_time: '2030-01-02T00:00:00Z', entity: 'TWEETSTORM' }, 'entity'],
    [{ start_time: '2030-01-01T00:00:00Z', end_time: '2030-01-02T00:00:00Z', metric_groups: 'ENGAGEMENT,VIBES' }, 'metric_groups'],
  ];
  for (const [query, parameter] of cases) {
    const res = await ask(query);
    assert.equal(res.status, 400, `${JSON.stringify(query)}: ${res.text}`);
    assert.equal(res.body.errors[0].parameter, parameter, JSON.stringify(query));
  }
  const missing = await k.ads.get(`/12/stats/accounts/${account}`, { query: { entity: 'LINE_ITEM' } });
  assert.equal(missing.status, 400);
  assert.equal(missing.body.errors[0].code, 'MISSING_PARAMETER');
});

test('asynchronous jobs: POST answers PROCESSING; after processing GET shows SUCCESS with the URL of a gzipped file holding the same stats; DELETE cancels', async () => {
  const window = { start_time: wire(start), end_time: wire(new Date(start.getTime() + 10 * 24 * 3_600_000)) };
  const query = { entity: 'LINE_ITEM', entity_ids: lineItem, metric_groups: 'ENGAGEMENT', placement: 'ALL_ON_PLATFORM', granularity: 'DAY', ...window };
  const created = await k.ads.post(`/12/stats/jobs/accounts/${account}`, { query });
  assert.equal(created.status, 200, created.text);
  const job = created.body.data;
  assert.equal(job.status, 'PROCESSING');
  assert.equal(job.url, null);
  assert.match(created.text, new RegExp(`"id":${job.id_str}[,}]`), 'id is a JSON number');
  assert.deepEqual(job.entity_ids, [lineItem]);
  k.clock.offsetMs += STATS_JOB_PROCESSING_MS;
  const listed = await k.ads.get(`/12/stats/jobs/accounts/${account}`, { query: { job_ids: job.id_str } });
  assert.equal(listed.status, 200, listed.text);
  const done = listed.body.data[0];
  assert.equal(done.status, 'SUCCESS');
  assert.match(done.url, /\/12\/stats\/jobs\/files\/\d+\.json\.gz$/);
  const file = await fetch(done.url);
  assert.equal(file.status, 200);
  const result = JSON.parse(gunzipSync(Buffer.from(await file.arrayBuffer())).toString('utf8'));
  assert.equal(result.time_series_length, 10);
  assert.equal(sum(result.data[0].id_data[0].metrics.impressions), caused.impressions);
  const deleted = await k.ads.del(`/12/stats/jobs/accounts/${account}/${job.id_str}`);
  assert.equal(deleted.status, 200, deleted.text);
  assert.equal(deleted.body.data.status, 'CANCELLED');
  assert.equal((await k.ads.get(`/12/stats/jobs/accounts/${account}`, { query: { job_ids: job.id_str } })).body.data.length, 0);
  assert.equal((await fetch(done.url)).status, 404, 'the file goes with the job');
  const tooLong = await k.ads.post(`/12/stats/jobs/accounts/${account}`, { query: { ...query, end_time: wire(new Date(start.getTime() + 91 * 24 * 3_600_000)) } });
  assert.equal(tooLong.status, 400);
});

test('active_entities lists the entities that delivered in the window, with their first and last activity', async () => {
  const window = { start_time: wire(start), end_time: wire(new Date(start.getTime() + 3 * 24 * 3_600_000)) };
  const res = await k.ads.get(`/12/stats/accounts/${account}/active_entities`, { query: { entity: 'LINE_ITEM', ...window } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data_type, 'active_entities');
  const entry = res.body.data.find((e: { entity_id: string }) => e.entity_id === lineItem);
  assert.ok(entry, JSON.stringify(res.body.data));
  assert.deepEqual(entry.placements, ['ALL_ON_PLATFORM']);
  assert.ok(entry.activity_start_time <= entry.activity_end_time);
  const other = await k.ads.get(`/12/stats/accounts/${account}/active_entities`, { query: { entity: 'CAMPAIGN', campaign_ids: 'nothing1', ...window } });
  assert.deepEqual(other.body.data, []);
});

test('POST /admin/ads/simulate serves impressions through the same delivery (budgets included) and clicks a share of them; the stats show them', async () => {
  const fi = (await k.ads.get(`/12/accounts/${account}/funding_instruments`)).body.data[0].id;
  const simCampaign = (await k.ads.post(`/12/accounts/${account}/campaigns`, { query: { funding_instrument_id: fi, name: 'Simulated', total_budget_amount_local_micro: 3 * BID } })).body
    .data.id;
  const now = k.clock.now();
  const li = (
    await k.ads.post(`/12/accounts/${account}/line_items`, {
      query: lineItemQuery(simCampaign, { start_time: wire(new Date(now.getTime() + 60_000)), bid_strategy: 'MAX', bid_amount_local_micro: BID }),
    })
  ).body.data.id;
  const post = await k.ads.post(`/12/accounts/${account}/post`, { query: { as_user_id: k.user('ada').id, text: 'Simulated promotion' } });
  // A post of ada's timeline promoted beside the promoted-only one.
  const organic = await p.post(await p.selfServeAs('ada'), { text: 'An organic post, promoted too' });
  const organicId = organic.body.data.id as string;
  await k.ads.post(`/12/accounts/${account}/promoted_posts`, { query: { line_item_id: li, post_ids: `${post.body.data.id_str},${organicId}` } });
  const early = await admin('POST', '/admin/ads/simulate', { line_item_id: li, timeline_reads: 10 });
  assert.equal(early.status, 400, 'not in flight yet');
  k.clock.offsetMs += 2 * 60_000;
  const from = hour(k.clock.now());
  const run = await admin('POST', '/admin/ads/simulate', { line_item_id: li, timeline_reads: 100, engagement_rate: 0.1 });
  assert.equal(run.status, 200, run.text);
  // Every 10th read is clicked, each click costs a bid, the total budget is 3 bids: the 30th read's click spends it.
  assert.deepEqual(run.body.data, { line_item_id: li, audience_size: run.body.data.audience_size, impressions: 30, engagements: 3, stopped_by: 'budget' });
  assert.ok(run.body.data.audience_size > 0);
  const res = await k.ads.get(`/12/stats/accounts/${account}`, {
    query: { entity: 'LINE_ITEM', entity_ids: li, metric_groups: 'ENGAGEMENT,BILLING', placement: 'ALL_ON_PLATFORM', granularity: 'TOTAL', start_time: wire(from), end_time: wire(new Date(from.getTime() + 3_600_000)) },
  });
  const m = res.body.data[0].id_data[0].metrics;
  assert.deepEqual([m.impressions, m.clicks, m.billed_charge_local_micro], [[30], [3], [3 * BID]]);
  // "marked with promoted_metrics for the owner": what delivery brought the organic post, apart from its organic metrics.
  const mine = await p.get(`/2/posts/${organicId}?post.fields=promoted_metrics,organic_metrics`, { auth: await p.selfServeAs('ada') });
  assert.equal(mine.body.data.promoted_metrics.impression_count, 15, JSON.stringify(mine.body));
  assert.equal(mine.body.data.organic_metrics.impression_count, 0, 'a simulated read is no organic impression');
  const others = await p.get(`/2/posts/${organicId}?post.fields=promoted_metrics`, { auth: await p.selfServeAs('dana') });
  assert.equal(others.body.data.promoted_metrics, undefined, 'only its author sees them');
  const organicStats = await k.ads.get(`/12/stats/accounts/${account}`, {
    query: { entity: 'ORGANIC_POST', entity_ids: organicId, metric_groups: 'ENGAGEMENT', placement: 'ALL_ON_PLATFORM', granularity: 'TOTAL', start_time: wire(from), end_time: wire(new Date(from.getTime() + 3_600_000)) },
  });
  assert.equal(organicStats.body.data[0].id_data[0].metrics.impressions, null, 'simulated reads are not taken from its organic impressions (never below none)');
  // Delivery goes into home timelines only: a line item placed on the publisher network alone is not simulated there either.
  const network = (
    await k.ads.post(`/12/accounts/${account}/line_items`, {
      query: lineItemQuery(simCampaign, { placements: 'PUBLISHER_NETWORK', advertiser_domain: 'example.com', categories: 'IAB1', start_time: wire(new Date(k.clock.now().getTime() + 60_000)), bid_strategy: 'MAX', bid_amount_local_micro: BID }),
    })
  ).body.data.id;
  await k.ads.post(`/12/accounts/${account}/promoted_posts`, { query: { line_item_id: network, post_ids: organicId } });
  k.clock.offsetMs += 2 * 60_000;
  const offTimeline = await admin('POST', '/admin/ads/simulate', { line_item_id: network, timeline_reads: 10 });
  assert.equal(offTimeline.status, 400, offTimeline.text);
  assert.match(offTimeline.text, /placements must include the home timeline/);
  const bad = await admin('POST', '/admin/ads/simulate', { line_item_id: li, timeline_reads: 0 });
  assert.equal(bad.status, 400);
});
