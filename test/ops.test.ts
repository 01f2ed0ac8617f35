import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { call, startTestPlaza, type TestPlaza } from './support/server.js';
import { fixtures } from './support/fixtures.js';

let plaza: TestPlaza;
let f: ReturnType<typeof fixtures>;

before(async () => {
  plaza = await startTestPlaza();
  f = fixtures(plaza);
});

const listeners = () => ({ platform: plaza.urls.base_url, ads: plaza.urls.ads_url, 'ads-sandbox': plaza.urls.ads_sandbox_url });

/** The value of one sample line of a Prometheus text exposition, matched by name and labels (in any order). */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{(.*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...m[2].matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

test('GET /healthz answers 200 {status:"ok"} on the platform, ads and ads sandbox listeners, without authentication', async () => {
  for (const [name, url] of Object.entries(listeners())) {
    const res = await call(url, '/healthz');
    assert.equal(res.status, 200, name);
    assert.deepEqual(res.body, { status: 'ok' }, name);
    assert.match(res.headers.get('x-request-id') ?? '', /.+/, name);
  }
});

test('the ads and ads sandbox listeners listen on distinct ports, apart from the platform', () => {
  const ports = Object.values(listeners()).map((u) => new URL(u).port);
  assert.equal(new Set(ports).size, 3);
  for (const port of ports) assert.ok(Number(port) > 0);
});

test('GET /metrics answers in the Prometheus text format (text/plain; version=0.0.4) with HELP and TYPE lines', async () => {
  const res = await call(plaza.urls.base_url, '/metrics');
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4; charset=utf-8$/);
  assert.match(res.text, /^# HELP plaza_http_requests_total /m);
  assert.match(res.text, /^# TYPE plaza_http_requests_total counter$/m);
  assert.match(res.text, /^# TYPE plaza_http_request_duration_seconds histogram$/m);
  // The process's own metrics are there too, once.
  assert.equal(res.text.match(/^# TYPE plaza_process_cpu_user_seconds_total counter$/gm)?.length, 1);
});

test('GET /metrics counts each request by listener, method, route pattern and status, and times it in a histogram', async () => {
  const id = plaza.creds.sample.post_ids[0];
  const before = await call(plaza.urls.base_url, '/metrics');
  const labels = { listener: 'platform', method: 'GET', route: '/2/posts/:id', status: '200' };
  const count0 = sample(before.text, 'plaza_http_requests_total', labels) ?? 0;
  for (let i = 0; i < 2; i++) assert.equal((await f.get(`/2/posts/${id}`, { auth: f.appAuth })).status, 200);
  const after = await call(plaza.urls.base_url, '/metrics');
  assert.equal(sample(after.text, 'plaza_http_requests_total', labels), count0 + 2);
  const timing = { listener: 'platform', method: 'GET', route: '/2/posts/:id' };
  assert.equal(sample(after.text, 'plaza_http_request_duration_seconds_count', timing), count0 + 2);
  assert.equal(sample(after.text, 'plaza_http_request_duration_seconds_bucket', { ...timing, le: '+Inf' }), count0 + 2);
  assert.ok((sample(after.text, 'plaza_http_request_duration_seconds_sum', timing) ?? -1) > 0);
  // Buckets are cumulative: each bound counts the responses at or under it, so the counts never
  // fall as the bound grows, and the largest bound counts no more than all of them.
  const bounds = ['0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5'];
  const buckets = bounds.map((le) => sample(after.text, 'plaza_http_request_duration_seconds_bucket', { ...timing, le }));
  assert.ok(buckets.every((n) => typeof n === 'number'), `every bound is exposed: ${buckets}`);
  assert.ok(buckets.every((n, i) => i === 0 || n! >= buckets[i - 1]!), `cumulative: ${buckets}`);
  assert.ok(buckets.at(-1)! <= count0 + 2 && buckets.at(-1)! >= 2, `a local GET takes under 5 s: ${buckets}`);
});

test('GET /metrics on any listener shows every listener of the process; unknown paths share the route label "unmatched"', async () => {
  await call(plaza.urls.ads_url, `/12/no/such/route/${Date.now()}`);
  await call(plaza.urls.ads_sandbox_url, '/healthz');
  const res = await call(plaza.urls.ads_url, '/metrics');
  assert.equal(res.status, 200);
  assert.ok((sample(res.text, 'plaza_http_requests_total', { listener: 'ads', method: 'GET', route: 'unmatched', status: '404' }) ?? 0) >= 1);
  assert.ok((sample(res.text, 'plaza_http_requests_total', { listener: 'ads-sandbox', method: 'GET', route: '/healthz', status: '200' }) ?? 0) >= 1);
  assert.ok((sample(res.text, 'plaza_http_requests_total', { listener: 'platform', method: 'GET', route: '/metrics', status: '200' }) ?? 0) >= 1);
  assert.doesNotMatch(res.text, /route="\/12\/no\/such/);
});

test('an unknown route on the ads listener answers 404 with the ads error body {errors:[{code:"ROUTE_NOT_FOUND"}], request:{params:{}}}', async () => {
  for (const url of [plaza.urls.ads_url, plaza.urls.ads_sandbox_url]) {
    const res = await call(url, '/12/no/such/route?count=5');
    assert.equal(res.status, 404);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(res.body.errors.length, 1);
    assert.equal(res.body.errors[0].code, 'ROUTE_NOT_FOUND');
    assert.equal(typeof res.body.errors[0].message, 'string');
    assert.deepEqual(res.body.request, { params: {} });
    assert.match(res.headers.get('x-request-id') ?? '', /.+/);
  }
});

test('a caller-supplied x-request-id of safe characters is echoed back; anything else is replaced by a fresh id', async () => {
  const given = await call(plaza.urls.ads_url, '/healthz', { headers: { 'x-request-id': 'trace-123.abc_DEF' } });
  assert.equal(given.headers.get('x-request-id'), 'trace-123.abc_DEF');
  const unsafe = await call(plaza.urls.base_url, '/healthz', { headers: { 'x-request-id': 'bad id "with" spaces' } });
  assert.match(unsafe.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
});
