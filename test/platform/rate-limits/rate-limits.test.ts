import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { ManualClock } from '../../../src/clock.js';
import { FixedWindowRateLimiter } from '../../../src/http/rate-limit.js';
import { DEFAULT_LIMIT, limitsOf, RATE_LIMITS } from '../../../src/platform/rate-limits/table.js';
import { adminFixtures } from '../../admin/support.js';
import { startTestPlaza, type CallResult, type TestPlaza } from '../../support/server.js';
import { fixtures } from '../../support/fixtures.js';

/**
 * Issue #18 "Rate limits on every v2 operation": per-app and per-user windows with the public
 * platform's published limits, the x-rate-limit headers on every answer, 429 past the limit.
 * Windows are left by moving the admin clock, never by waiting.
 */
let plaza: TestPlaza;
let f: ReturnType<typeof fixtures>;
let a: ReturnType<typeof adminFixtures>;

const QUARTER = 15 * 60 * 1000;

before(async () => {
  plaza = await startTestPlaza();
  f = fixtures(plaza);
  a = adminFixtures(plaza);
  // Frozen a minute into the next 15-minute window: every request of a test falls in one window,
  // and OAuth 2.0 user tokens (2 h) stay valid through the moves below.
  const next = Math.ceil(Date.now() / QUARTER) * QUARTER + 60_000;
  const set = await a.admin('POST', '/admin/clock', { body: { set: new Date(next).toISOString(), frozen: true } });
  assert.equal(set.status, 200, set.text);
});

const headersOf = (res: CallResult) => ({
  limit: Number(res.headers.get('x-rate-limit-limit')),
  remaining: Number(res.headers.get('x-rate-limit-remaining')),
  reset: Number(res.headers.get('x-rate-limit-reset')),
});

const windowEnd = () => Math.ceil((Math.floor(plaza.ctx.clock.now().getTime() / QUARTER) + 1) * QUARTER / 1000);

const advance15 = async () => {
  const moved = await a.admin('POST', '/admin/clock', { body: { advance: 'PT15M' } });
  assert.equal(moved.status, 200, moved.text);
};

test('every answer to a known caller carries x-rate-limit-limit, -remaining and -reset; an app-only caller spends its app\'s window of the route (GET /2/posts/{id}: 450 per app)', async () => {
  const id = plaza.creds.sample.post_ids[0];
  const first = await f.get(`/2/posts/${id}`, { auth: f.appAuth });
  assert.equal(first.status, 200, first.text);
  const h1 = headersOf(first);
  assert.equal(h1.limit, 450);
  assert.equal(h1.reset, windowEnd(), 'reset: the end of the 15-minute window, in epoch seconds');
  const second = headersOf(await f.get(`/2/posts/${id}`, { auth: f.appAuth }));
  assert.equal(second.remaining, h1.remaining - 1, 'counts down');
  // Another app has its own window.
  const other = headersOf(await f.get(`/2/posts/${id}`, { auth: { bearer: f.enterprise.bearer_token } }));
  assert.equal(other.remaining, 449);
  // A refused request (400) is counted and answered with the headers too.
  const bad = await f.get(`/2/posts/${id}?post.fields=nonsense`, { auth: f.appAuth });
  assert.equal(bad.status, 400, bad.text);
  assert.equal(headersOf(bad).remaining, second.remaining - 1);
});

test('a user-context caller spends their own window (per app and user), apart from the app\'s and other users\' (GET /2/posts/{id}: 900 per user)', async () => {
  const id = plaza.creds.sample.post_ids[1];
  const appBefore = headersOf(await f.get(`/2/posts/${id}`, { auth: f.appAuth }));
  const ada1 = headersOf(await f.get(`/2/posts/${id}`, { auth: f.oauth2As('ada') }));
  assert.equal(ada1.limit, 900);
  const ada2 = headersOf(await f.get(`/2/posts/${id}`, { auth: f.oauth1As('ada') }));
  assert.equal(ada2.remaining, ada1.remaining - 1, 'OAuth 1.0a and OAuth 2.0 tokens of one user and app share the window');
  const other = plaza.creds.users.find((u) => u.username !== 'ada')!;
  const bob = headersOf(await f.get(`/2/posts/${id}`, { auth: f.oauth2As(other.username) }));
  assert.equal(bob.remaining, 899, 'another user starts fresh');
  const appAfter = headersOf(await f.get(`/2/posts/${id}`, { auth: f.appAuth }));
  assert.equal(appAfter.remaining, appBefore.remaining - 1, "user calls do not spend the app's window");
});

test('past the limit the answer is 429 with the reference\'s body and remaining 0; moving the clock past x-rate-limit-reset opens a new window (GET /2/users/{id}/blocking: 15 per user)', async () => {
  const ada = f.user('ada');
  const path = `/2/users/${ada.id}/blocking`;
  let last: CallResult | undefined;
  for (let i = 0; i < 15; i++) {
    last = await f.get(path, { auth: f.oauth2As('ada') });
    assert.equal(last.status, 200, last.text);
  }
  assert.deepEqual(headersOf(last!), { limit: 15, remaining: 0, reset: windowEnd() });
  const limited = await f.get(path, { auth: f.oauth2As('ada') });
  assert.equal(limited.status, 429, limited.text);
  assert.deepEqual(limited.body, { title: 'Too Many Requests', type: 'about:blank', status: 429, detail: 'Too Many Requests' });
  assert.deepEqual(headersOf(limited), { limit: 15, remaining: 0, reset: windowEnd() });
  // Other routes of the same user are not limited by this one.
  assert.equal((await f.get(`/2/users/${ada.id}/muting`, { auth: f.oauth2As('ada') })).status, 200);

  await advance15();
  const fresh = await f.get(path, { auth: f.oauth2As('ada') });
  assert.equal(fresh.status, 200, fresh.text);
  assert.deepEqual(headersOf(fresh), { limit: 15, remaining: 14, reset: windowEnd() });
});

test('an app-only caller past its app\'s limit gets 429 while a user of the same app still passes (GET /2/users/{id}/owned_lists: 15 per app, 15 per user)', async () => {
  const path = `/2/users/${f.user('ada').id}/owned_lists`;
  for (let i = 0; i < 15; i++) assert.equal((await f.get(path, { auth: f.appAuth })).status, 200);
  const limited = await f.get(path, { auth: f.appAuth });
  assert.equal(limited.status, 429, limited.text);
  assert.equal(headersOf(limited).remaining, 0);
  assert.equal((await f.get(path, { auth: f.oauth2As('ada') })).status, 200, 'the per-user window is apart');
  await advance15();
  assert.equal((await f.get(path, { auth: f.appAuth })).status, 200);
});

test('an endpoint without a published limit gets the table\'s stated default (450 per 15 minutes)', async () => {
  assert.equal(limitsOf('GET /2/communities/{id}').route, 'default');
  const res = await f.get('/2/posts/search/stream/rules/counts', { auth: f.appAuth });
  assert.equal(headersOf(res).limit, DEFAULT_LIMIT.limit, res.text);
  // A row publishing only one kind of caller: the other gets the default.
  assert.equal(limitsOf('GET /2/usage/posts').app.limit, 50);
  assert.equal(limitsOf('GET /2/usage/posts').user.limit, DEFAULT_LIMIT.limit);
  assert.equal(limitsOf('POST /2/posts').app.windowMs, 24 * 3600_000, '"/24h" figures are daily windows');
});

test('the table names routes as /2/openapi.json does, and most of its rows are routes Plaza serves', async () => {
  const doc = (await f.get('/2/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
  const served = new Set(Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)));
  for (const route of RATE_LIMITS.keys()) assert.match(route, /^(GET|POST|PUT|PATCH|DELETE) \/2\/[a-z0-9_/{}]+$/, route);
  // Most rows are routes Plaza serves today; the rest are operations the issue lists as still to come.
  const servedRows = [...RATE_LIMITS.keys()].filter((r) => served.has(r));
  assert.ok(servedRows.length >= 80, `${servedRows.length} rows name served routes`);
});

test('a rate_limit fault of the admin interface still strikes first, with the same headers; the next request is counted by the limiter', async () => {
  const endpoint = 'GET /2/users/by/username/{username}';
  const added = await a.admin('POST', '/admin/faults', { body: { kind: 'rate_limit', app_id: f.selfServe.id, endpoint } });
  assert.equal(added.status, 201, added.text);
  const struck = await f.get('/2/users/by/username/ada', { auth: f.appAuth });
  assert.equal(struck.status, 429, struck.text);
  assert.deepEqual(struck.body, { title: 'Too Many Requests', type: 'about:blank', status: 429, detail: 'Too Many Requests' });
  assert.equal(headersOf(struck).remaining, 0);
  const next = await f.get('/2/users/by/username/ada', { auth: f.appAuth });
  assert.equal(next.status, 200, next.text);
  assert.equal(headersOf(next).limit, 300);
});

test('in-process counting decides synchronously: FixedWindowRateLimiter.hit answers a state, not a promise', () => {
  const clock = new ManualClock(new Date('2030-01-01T00:14:59.000Z'));
  const limiter = new FixedWindowRateLimiter(clock);
  const rule = { name: 'GET /2/x', limit: 2, windowMs: QUARTER };
  const first = limiter.hit(rule, 'app:1');
  assert.ok(!(first instanceof Promise));
  assert.deepEqual(first, { limit: 2, remaining: 1, reset: Date.parse('2030-01-01T00:15:00Z') / 1000, allowed: true });
  limiter.hit(rule, 'app:1');
  assert.equal((limiter.hit(rule, 'app:1') as { allowed: boolean }).allowed, false);
  clock.advance(1000);
  assert.deepEqual(limiter.hit(rule, 'app:1'), { limit: 2, remaining: 1, reset: Date.parse('2030-01-01T00:30:00Z') / 1000, allowed: true });
});

test('PLAZA_RATE_LIMITS=off (platformRateLimits: "off") serves without the headers or limits', async () => {
  const off = await startTestPlaza({ platformRateLimits: 'off' });
  const res = await fixtures(off).get(`/2/posts/${off.creds.sample.post_ids[0]}`, { auth: { bearer: off.creds.apps[0].bearer_token } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('x-rate-limit-limit'), null);
});
