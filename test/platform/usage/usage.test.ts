import assert from 'node:assert/strict';
import { before, beforeEach, test } from 'node:test';
import { ManualClock } from '../../../src/clock.js';
import { checkUsageCap, clearUsageCap, setUsageCap } from '../../../src/platform/usage/service.js';
import { ProblemError } from '../../../src/http/problems.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';
import { problemType } from '../../support/problems.js';
import { appBearer, createTestApp } from '../../web/support.js';
import { seedPosts } from '../../../src/seed/posts.js';
import { StreamClient } from '../../support/streams.js';

/**
 * Usage pricing (spec 000 "Limits"): the credit ledger of pay-per-use apps at the prices in force
 * on the clock's day, GET /2/usage/posts, and caps answered with usage-capped.
 */

const NOW = new Date('2026-05-01T12:00:00.000Z');
const clock = new ManualClock(NOW);
let plaza: TestPlaza;
let g: Fixtures;

before(async () => {
  plaza = await startTestPlaza({}, { clock });
  g = fixtures(plaza);
});

beforeEach(async () => {
  clock.set(NOW);
  const db = plaza.ctx.store.db;
  await db.deleteFrom('usage_ledger').execute();
  await db.deleteFrom('usage_caps').execute();
  await g.setTier('selfServe', 'pay-per-use');
  await g.setTier('enterprise', 'enterprise');
});

const ledger = () => plaza.ctx.store.db.selectFrom('usage_ledger').selectAll().orderBy('id').execute();
const charges = async () => (await ledger()).map((r) => ({ kind: r.kind, units: Number(r.units), unit_price: Number(r.unit_price_micro) / 1e6 }));
const post = async (username: string, body: Record<string, unknown>) => {
  const res = await g.send('POST', '/2/posts', { auth: await g.selfServeAs(username), body });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id as string;
};

test('From Apr 20, 2026: owned reads 0.001 per resource when a user reads their own data on the listed endpoints; other reads keep the pilot prices (0.005 per post, 0.01 per user)', async () => {
  const ada = g.user('ada');
  const auth = await g.selfServeAs('ada');
  const own = await g.get(`/2/users/${ada.id}/posts?max_results=5`, { auth });
  assert.equal(own.status, 200, own.text);
  const others = await g.get(`/2/users/${g.user('plazanews').id}/posts?max_results=5`, { auth });
  const user = await g.get(`/2/users/${g.user('chen').id}`, { auth });
  assert.equal(user.status, 200);
  assert.deepEqual(await charges(), [
    { kind: 'owned_read', units: own.body.data.length, unit_price: 0.001 },
    { kind: 'post_read', units: others.body.data.length, unit_price: 0.005 },
    { kind: 'user_read', units: 1, unit_price: 0.01 },
  ]);
});

test('From Apr 20, 2026: creating a post 0.015, a post containing a URL 0.20, a summoned reply 0.01 (a reply in one\'s own thread is a post)', async () => {
  const first = await post('ada', { text: 'Plain words only' });
  await post('ada', { text: 'Read this https://example.com/article' });
  // The announcement of @plazanews mentions @ada: she was summoned.
  await post('ada', { text: 'Thanks for the mention!', reply: { in_reply_to_post_id: plaza.creds.sample.post_ids[3] } });
  await post('ada', { text: 'And a second part', reply: { in_reply_to_post_id: first } });
  assert.deepEqual(
    (await charges()).map((c) => [c.kind, c.unit_price]),
    [['post_create', 0.015], ['post_create_url', 0.2], ['summoned_reply', 0.01], ['post_create', 0.015]],
  );
});

test('Before Apr 20, 2026 the pilot prices apply: 0.005 per post read, 0.01 per content create, 0.015 per user interaction; refused requests and non-pay-per-use apps are not charged', async () => {
  clock.set(new Date('2026-03-01T12:00:00.000Z'));
  const ada = g.user('ada');
  const own = await g.get(`/2/users/${ada.id}/posts?max_results=5`, { auth: await g.selfServeAs('ada') });
  await post('ada', { text: 'Pilot days https://example.com' });
  const like = await g.send('POST', `/2/users/${ada.id}/likes`, { auth: await g.selfServeAs('ada'), body: { post_id: plaza.creds.sample.post_ids[3] } });
  assert.equal(like.status, 200, like.text);
  const refused = await g.send('POST', '/2/posts', { auth: await g.selfServeAs('ada'), body: { text: 'x'.repeat(25_001) } });
  assert.equal(refused.status, 400);
  await g.get(`/2/users/${ada.id}/posts`, { auth: await g.enterpriseAs('ada') });
  assert.deepEqual(
    (await charges()).map((c) => [c.kind, c.units, c.unit_price]),
    [['post_read', own.body.data.length, 0.005], ['content_create', 1, 0.01], ['user_interaction', 1, 0.015]],
  );
});

test('GET /2/usage/posts (app-only): days 1-90 (default 7) of posts read per day, project_usage this month, usage.fields', async () => {
  const app = await createTestApp(plaza, g.user('ada').id, { name: 'Usage reader', tier: 'basic' });
  const auth = { bearer: await appBearer(plaza, app.id) };
  const read = await g.get(`/2/users/${g.user('plazanews').id}/posts?max_results=5`, { auth });
  assert.equal(read.status, 200, read.text);
  clock.advance(-2 * 24 * 60 * 60 * 1000);
  await g.get(`/2/posts/${read.body.data[0].id}`, { auth });
  clock.set(NOW);
  const posts = read.body.data.length;

  const res = await g.get('/2/usage/posts', { auth });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.data, { cap_reset_day: 1, project_id: app.id, project_cap: '15000', project_usage: String(posts) }, 'April 29 is last month');
  const full = await g.get('/2/usage/posts?days=3&usage.fields=daily_project_usage,daily_client_app_usage', { auth });
  const daily = full.body.data.daily_project_usage;
  assert.equal(daily.project_id, app.id);
  assert.deepEqual(daily.usage, [
    { date: '2026-04-29T00:00:00.000Z', usage: '1' },
    { date: '2026-04-30T00:00:00.000Z', usage: '0' },
    { date: '2026-05-01T00:00:00.000Z', usage: String(posts) },
  ]);
  assert.deepEqual(full.body.data.daily_client_app_usage, [{ client_app_id: app.id, usage: daily.usage, usage_result_count: 3 }]);
  assert.equal((await g.get('/2/usage/posts', { auth })).body.data.project_usage, String(posts), 'reading usage costs nothing');

  for (const [q, parameter] of [['days=0', 'days'], ['days=91', 'days'], ['usage.fields=bogus', 'usage.fields']]) {
    const bad = await g.get(`/2/usage/posts?${q}`, { auth });
    assert.equal(bad.status, 400, bad.text);
    assert.ok(JSON.stringify(bad.body.errors).includes(parameter));
  }
  assert.equal((await g.get('/2/usage/posts?days=90', { auth })).body.data.project_usage, String(posts));
  assert.equal((await g.get('/2/usage/posts', { auth: await g.selfServeAs('ada') })).status, 403, 'app-only');
});

test('Every tier counts the posts its project reads, each post once a UTC day: the posts an answer lists in data (lookups, timelines, search), not its includes, and not the posts it creates', async () => {
  const app = await createTestApp(plaza, g.user('ada').id, { name: 'Counted reader', tier: 'enterprise' });
  const auth = { bearer: await appBearer(plaza, app.id) };
  const usage = async () => (await g.get('/2/usage/posts', { auth })).body.data;
  const timeline = await g.get(`/2/users/${g.user('plazanews').id}/posts?max_results=5&expansions=referenced_posts.id`, { auth });
  assert.equal(timeline.status, 200, timeline.text);
  const ids = timeline.body.data.map((p: { id: string }) => p.id);
  assert.deepEqual(await usage(), { cap_reset_day: 1, project_id: app.id, project_usage: String(ids.length) }, 'enterprise has no project_cap');
  // The same posts again, by lookup and by search: read today already.
  assert.equal((await g.get(`/2/posts?ids=${ids.join(',')}`, { auth })).status, 200);
  const other = await g.get(`/2/users/${g.user('ada').id}/posts?max_results=5`, { auth });
  const fresh = other.body.data.filter((p: { id: string }) => !ids.includes(p.id)).length;
  assert.equal((await usage()).project_usage, String(ids.length + fresh));
  const created = await g.send('POST', '/2/posts', { auth: await g.selfServeAs('ada'), body: { text: 'Not a read' } });
  assert.equal(created.status, 201);
  assert.equal((await usage()).project_usage, String(ids.length + fresh), "another app's write is not this one's read");
  clock.advance(24 * 60 * 60 * 1000);
  assert.equal((await g.get(`/2/posts/${ids[0]}`, { auth })).status, 200);
  const next = await usage();
  assert.equal(next.project_usage, String(ids.length + fresh + 1), 'a new day counts a post again');
});

test('A post a stream sends counts as a read by the app that holds the connection', async () => {
  const app = await createTestApp(plaza, g.user('ada').id, { name: 'Streaming reader', tier: 'enterprise' });
  const bearer = await appBearer(plaza, app.id);
  const rules = await g.send('POST', '/2/posts/search/stream/rules', { auth: { bearer }, body: { add: [{ value: 'from:chen "usage counted"' }] } });
  assert.equal(rules.status, 200, rules.text);
  const stream = await StreamClient.open(plaza.urls.base_url, '/2/posts/search/stream', bearer);
  try {
    assert.equal(stream.status, 200);
    const made = await g.send('POST', '/2/posts', { auth: await g.enterpriseAs('chen'), body: { text: 'Is usage counted on a stream?' } });
    assert.equal(made.status, 201, made.text);
    await stream.until(() => stream.events().some((e) => e.data.id === made.body.data.id), 'the post on the stream');
    assert.equal((await g.get('/2/usage/posts', { auth: { bearer } })).body.data.project_usage, '1');
  } finally {
    stream.close();
  }
});

test('The self-serve tiers have monthly post caps (free 100, basic 15,000, pro 1,000,000, pay-per-use 2,000,000): past it a post read is answered 429 usage-capped (Monthly, Product, product_name standard-<tier>) and streams do not open; other reads go on; the cap resets on the 1st', async () => {
  const app = await createTestApp(plaza, g.user('ada').id, { name: 'Free reader', tier: 'free' });
  const auth = { bearer: await appBearer(plaza, app.id) };
  await seedPosts(plaza.ctx.store.db, { count: 150, users: 5, days: 1, now: NOW, dialect: plaza.ctx.store.dialect });
  const rows = await plaza.ctx.store.db.selectFrom('posts').select('id').orderBy('id', 'desc').limit(400).execute();
  const read = new Set<string>();
  for (let i = 0; read.size < 100; i += 20) {
    assert.ok(i < rows.length, 'the demo has 100 posts to read');
    const page = await g.get(`/2/posts?ids=${rows.slice(i, i + 20).map((r) => r.id).join(',')}`, { auth });
    assert.equal(page.status, 200, page.text);
    for (const p of page.body.data ?? []) read.add(p.id);
  }
  const ids = [...read];
  const usage = await g.get('/2/usage/posts', { auth });
  assert.equal(usage.body.data.project_cap, '100');
  assert.equal(usage.body.data.project_usage, String(read.size));

  const capped = await g.get(`/2/posts/${ids[0]}`, { auth });
  assert.equal(capped.status, 429, capped.text);
  assert.equal(capped.body.type, problemType('usage-capped'));
  assert.equal(capped.body.title, 'UsageCapExceeded');
  assert.deepEqual([capped.body.period, capped.body.scope, capped.body.product_name, capped.body.account_id], ['Monthly', 'Product', 'standard-free', g.user('ada').id]);
  assert.equal((await g.get('/2/posts/search/stream', { auth })).status, 429, 'a stream sends posts');
  assert.equal((await g.get(`/2/users/${g.user('chen').id}`, { auth })).status, 200, 'a user lookup reads no post');
  assert.equal((await g.get('/2/usage/posts', { auth })).status, 200, 'usage stays readable');
  clock.set(new Date('2026-06-01T00:00:00.000Z'));
  assert.equal((await g.get(`/2/posts/${ids[0]}`, { auth })).status, 200, 'a new month');
});

test('Caps per app: Daily and Monthly, Product or Account scope; past a cap a priced request is answered 429 usage-capped (period, scope) and changes nothing', async () => {
  const auth = await g.selfServeAs('ada');
  await setUsageCap(plaza.ctx, g.selfServe.id, { period: 'Daily', scope: 'Product', credits: 0.02 });
  await post('ada', { text: 'First: 0.015' });
  await post('ada', { text: 'Second: 0.030 spent, past the cap' });
  const capped = await g.send('POST', '/2/posts', { auth, body: { text: 'Third' } });
  assert.equal(capped.status, 429, capped.text);
  assert.equal(capped.body.type, problemType('usage-capped'));
  assert.equal(capped.body.period, 'Daily');
  assert.equal(capped.body.scope, 'Product');
  assert.equal(capped.body.title, 'UsageCapExceeded');
  assert.equal((await g.get(`/2/users/${g.user('chen').id}`, { auth })).status, 429, 'reads are priced too');
  assert.equal((await charges()).length, 2, 'the refused requests were not charged');
  const monthly = await g.get('/2/usage/posts', { auth: g.appAuth });
  assert.equal(monthly.status, 200, 'usage stays readable');

  clock.advance(24 * 60 * 60 * 1000);
  assert.equal((await g.get(`/2/users/${g.user('chen').id}`, { auth: g.appAuth })).status, 200, 'a new day, a new daily period');
  await setUsageCap(plaza.ctx, g.selfServe.id, { period: 'Monthly', scope: 'Product', credits: 0.04 });
  assert.equal((await g.get('/2/usage/posts', { auth: g.appAuth })).body.data.project_cap, '2000000', "project_cap is the tier's post cap, not a credit cap");
  const month = await g.get(`/2/users/${g.user('ada').id}`, { auth: g.appAuth });
  assert.equal(month.status, 429);
  assert.equal(month.body.period, 'Monthly');
  clock.set(new Date('2026-06-01T00:00:00.000Z'));
  assert.equal((await g.get(`/2/users/${g.user('ada').id}`, { auth: g.appAuth })).status, 200, 'caps reset on the 1st');
  assert.equal(await clearUsageCap(plaza.ctx, g.selfServe.id), 2);
});

test('Account caps count every app of the developer account; a cap of 0 (the admin fault) caps any app at once, pay-per-use or not, and clearing it lifts it', async () => {
  await g.setTier('enterprise', 'pay-per-use');
  // Both demo apps belong to ada's account.
  const r = await g.send('POST', '/2/posts', { auth: await g.enterpriseAs('dana'), body: { text: 'Charged to the other app https://example.com' } });
  assert.equal(r.status, 201);
  await setUsageCap(plaza.ctx, g.selfServe.id, { period: 'Monthly', scope: 'Account', credits: 0.1 });
  const capped = await g.get(`/2/users/${g.user('chen').id}`, { auth: await g.selfServeAs('ada') });
  assert.equal(capped.status, 429, capped.text);
  assert.equal(capped.body.scope, 'Account');
  await setUsageCap(plaza.ctx, g.selfServe.id, { period: 'Monthly', scope: 'Account', credits: 1 });
  assert.equal((await g.get(`/2/users/${g.user('chen').id}`, { auth: await g.selfServeAs('ada') })).status, 200, 'a cap is replaced, not added');

  await g.setTier('enterprise', 'enterprise');
  const enterpriseApp = { bearer: g.enterprise.bearer_token };
  await setUsageCap(plaza.ctx, g.enterprise.id, { period: 'Daily', scope: 'Product', credits: 0 });
  const fault = await g.get(`/2/users/${g.user('chen').id}`, { auth: enterpriseApp });
  assert.equal(fault.status, 429);
  await assert.rejects(checkUsageCap(plaza.ctx, { id: g.enterprise.id, owner_user_id: null, tier: 'enterprise' }), (err: unknown) => err instanceof ProblemError && err.status === 429);
  await clearUsageCap(plaza.ctx, g.enterprise.id, { period: 'Daily' });
  assert.equal((await g.get(`/2/users/${g.user('chen').id}`, { auth: enterpriseApp })).status, 200);
  await assert.rejects(setUsageCap(plaza.ctx, g.enterprise.id, { period: 'Weekly' as any, scope: 'Product', credits: 1 }), RangeError);
  await assert.rejects(setUsageCap(plaza.ctx, g.enterprise.id, { period: 'Daily', scope: 'Product', credits: -1 }), RangeError);
});
