import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { startTestPlaza, type CallOptions, type CallResult, type TestPlaza } from '../../support/server.js';
import { fixtures } from '../../support/fixtures.js';
import { problemType } from '../../support/problems.js';
import { withEventsPlaced } from '../../support/event-log.js';

/**
 * Webhook configs (spec 000 "Validate webhook", shared/reference/platform.md §1) against a real
 * CRC responder: a local HTTP server that answers the challenge the way an app would.
 */

const ID = /^[0-9]{1,19}$/;
const MISSING = '1234567890123456789';
/** How long the slow responder waits before answering; far beyond the 300 ms CRC time-out. */
const SLOW_MS = 5000;

/**
 * correct: the right answer; wrong-token: signed with a key other than the consumer secret;
 * http-500; slow: answers after SLOW_MS; stalled-body: sends a 200 and half an answer, then
 * nothing; redirect: a 302 to a target that would answer correctly; held: waits for `release()`,
 * then answers correctly (to order a CRC against other requests without sleeping).
 */
type Mode = 'correct' | 'wrong-token' | 'http-500' | 'slow' | 'stalled-body' | 'redirect' | 'held';

/**
 * The CRC responder. Paths are `/<app>/<name>`: `<app>` picks whose consumer secret signs the
 * answer (`self` or `enterprise`), `<name>` keeps URLs distinct. Every request is recorded.
 */
class CrcResponder {
  mode: Mode = 'correct';
  readonly secrets: Record<string, string> = {};
  /** A secret that is not the app's consumer secret (e.g. its bearer token), for 'wrong-token'. */
  wrongKey = 'not-the-consumer-secret';
  readonly seen: Array<{ path: string; crcToken: string | null }> = [];
  private readonly server = http.createServer((req, res) => this.answer(req, res));
  private readonly timers = new Set<NodeJS.Timeout>();
  private held: Array<() => void> = [];
  private waiters: Array<{ count: number; resolve: () => void }> = [];
  base = '';

  /** Resolves once `count` requests have arrived in all. */
  requestsSeen(count: number): Promise<void> {
    if (this.seen.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  /** Answers every held request (correctly). */
  release(): void {
    for (const answer of this.held.splice(0)) answer();
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.held = [];
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  url(app: 'self' | 'enterprise', name: string): string {
    return `${this.base}/${app}/${name}`;
  }

  /** The crc_tokens received on one path, oldest first. */
  tokensFor(url: string): Array<string | null> {
    const path = new URL(url).pathname;
    return this.seen.filter((s) => s.path === path).map((s) => s.crcToken);
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', this.base);
    const crcToken = url.searchParams.get('crc_token');
    this.seen.push({ path: url.pathname, crcToken });
    this.waiters = this.waiters.filter((w) => (this.seen.length >= w.count ? (w.resolve(), false) : true));
    const secret = this.secrets[url.pathname.split('/')[1] ?? ''];
    const respond = (key: string | undefined) => {
      if (req.method !== 'GET' || crcToken === null || key === undefined) {
        res.writeHead(400).end();
        return;
      }
      const token = `sha256=${createHmac('sha256', key).update(crcToken).digest('base64')}`;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ response_token: token }));
    };
    // A redirect target answers correctly: the check must fail because of the 3xx, not the target.
    if (url.pathname.endsWith('/target')) return respond(secret);
    switch (this.mode) {
      case 'correct':
        return respond(secret);
      case 'wrong-token':
        return respond(this.wrongKey);
      case 'http-500':
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"boom"}');
        return;
      case 'redirect':
        res.writeHead(302, { location: `${url.pathname}/target${url.search}` }).end();
        return;
      case 'held':
        this.held.push(() => respond(secret));
        return;
      case 'stalled-body':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"response_token":');
        return;
      case 'slow': {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          if (!res.destroyed) respond(secret);
        }, SLOW_MS);
        this.timers.add(timer);
        res.on('close', () => {
          clearTimeout(timer);
          this.timers.delete(timer);
        });
        return;
      }
    }
  }
}

let plaza: TestPlaza;
let f: ReturnType<typeof fixtures>;
const crc = new CrcResponder();
let counter = 0;
/** A fresh responder URL for the self-serve app (distinct, so no duplicate-URL refusals between tests). */
const freshUrl = (label: string) => crc.url('self', `${label}-${++counter}`);

before(async () => {
  await crc.start();
  plaza = await startTestPlaza();
  f = fixtures(plaza);
  crc.secrets.self = f.selfServe.consumer_secret;
  crc.secrets.enterprise = f.enterprise.consumer_secret;
  // The bearer token is a credential of the app too, but it is not the CRC key.
  crc.wrongKey = f.selfServe.bearer_token;
});

after(async () => {
  await crc.close();
});

function assertInvalidRequest(res: CallResult, parameter: string): void {
  assert.equal(res.status, 400, res.text);
  assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(res.body.type, problemType('invalid-request'), res.text);
  assert.ok(res.body.errors.length >= 1, res.text);
  assert.ok(parameter in res.body.errors[0].parameters, `expected errors[0].parameters to name ${parameter}: ${res.text}`);
}

function assertProblem(res: CallResult): void {
  assert.ok(res.status >= 400 && res.status < 500, `expected a 4xx problem, got ${res.status}: ${res.text}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(typeof res.body.type, 'string');
  assert.equal(typeof res.body.title, 'string');
}

async function createWebhook(url: string, auth: CallOptions['auth'] = f.appAuth) {
  crc.mode = 'correct';
  const res = await f.send('POST', '/2/webhooks', { auth, body: { url } });
  assert.equal(res.status, 200, res.text);
  return res.body.data.id as string;
}

async function listWebhooks(auth: CallOptions['auth'] = f.appAuth) {
  const res = await f.get('/2/webhooks', { auth });
  assert.equal(res.status, 200, res.text);
  return res.body as { data: Array<{ id: string; url: string; valid: boolean; created_at: string }>; meta: { result_count: number } };
}

async function deleteAll(auth: CallOptions['auth']) {
  for (const w of (await listWebhooks(auth)).data) {
    assert.equal((await f.send('DELETE', `/2/webhooks/${w.id}`, { auth })).status, 200);
  }
}

// --- GET /2/webhooks ------------------------------------------------------------------------

test('GET /2/webhooks answers {data:[], meta:{result_count:0}} when the app has none', async () => {
  const res = await f.get('/2/webhooks', { auth: f.appAuth });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, { data: [], meta: { result_count: 0 } });
});

// --- POST /2/webhooks -----------------------------------------------------------------------

test('POST /2/webhooks runs the CRC: a passing URL is created as {data:{id, url, valid:true, created_at}} with an id matching ^[0-9]{1,19}$', async () => {
  crc.mode = 'correct';
  const url = freshUrl('create');
  const res = await f.send('POST', '/2/webhooks', { auth: f.appAuth, body: { url } });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(Object.keys(res.body), ['data']);
  assert.deepEqual(Object.keys(res.body.data).sort(), ['created_at', 'id', 'url', 'valid']);
  assert.match(res.body.data.id, ID);
  assert.equal(res.body.data.url, url);
  assert.equal(res.body.data.valid, true);
  assert.match(res.body.data.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  // The challenge really reached the URL, with a crc_token.
  const tokens = crc.tokensFor(url);
  assert.equal(tokens.length, 1);
  assert.ok(tokens[0] && tokens[0].length > 0);
  const listed = await listWebhooks();
  assert.deepEqual(listed.data.find((w) => w.id === res.body.data.id), res.body.data);
  await deleteAll(f.appAuth);
});

test('POST /2/webhooks with a failing CRC (wrong token, HTTP 500, redirect) creates nothing and answers 400 invalid-request naming `url`', async () => {
  for (const mode of ['wrong-token', 'http-500', 'redirect'] as const) {
    crc.mode = mode;
    const url = freshUrl(`fail-${mode}`);
    const res = await f.send('POST', '/2/webhooks', { auth: f.appAuth, body: { url } });
    assertInvalidRequest(res, 'url');
    assert.deepEqual(res.body.errors[0].parameters.url, [url]);
    assert.equal(crc.tokensFor(url).length, 1, `${mode}: the CRC was sent once`);
    assert.deepEqual(await listWebhooks(), { data: [], meta: { result_count: 0 } }, `${mode} created nothing`);
  }
  // The 302 was not followed: its target (which would have answered correctly) saw nothing.
  assert.equal(crc.seen.filter((s) => s.path.endsWith('/target')).length, 0);
});

test('POST /2/webhooks with a CRC answer slower than the CRC time-out (headers late, or a body that stalls) creates nothing and answers 400 invalid-request naming `url`', async () => {
  const quick = await startTestPlaza({ crcTimeoutMs: 300 });
  const q = fixtures(quick);
  for (const mode of ['slow', 'stalled-body'] as const) {
    crc.mode = mode;
    const url = freshUrl(mode);
    const started = Date.now();
    const res = await q.send('POST', '/2/webhooks', { auth: q.appAuth, body: { url } });
    const elapsed = Date.now() - started;
    crc.mode = 'correct';
    assertInvalidRequest(res, 'url');
    assert.match(res.body.errors[0].message, /within 300 ms/, res.text);
    assert.ok(elapsed < SLOW_MS, `${mode}: gave up at the time-out, not after the slow answer (${elapsed} ms)`);
    assert.equal(crc.tokensFor(url).length, 1);
  }
  assert.deepEqual((await q.get('/2/webhooks', { auth: q.appAuth })).body, { data: [], meta: { result_count: 0 } });
});

test('POST /2/webhooks refuses a duplicate URL (400 invalid-request naming `url`) without creating a second webhook', async () => {
  const url = freshUrl('dup');
  const id = await createWebhook(url);
  const seenBefore = crc.tokensFor(url).length;
  const again = await f.send('POST', '/2/webhooks', { auth: f.appAuth, body: { url } });
  assertInvalidRequest(again, 'url');
  assert.equal(crc.tokensFor(url).length, seenBefore, 'a duplicate is refused before any CRC');
  const listed = await listWebhooks();
  assert.deepEqual(listed.data.map((w) => w.id), [id]);
  await deleteAll(f.appAuth);
});

test('POST /2/webhooks refuses a duplicate URL even when the creates race: of concurrent creates with one URL exactly one succeeds', async () => {
  crc.mode = 'held';
  const url = freshUrl('race');
  const seen = crc.seen.length;
  const pending = [1, 2, 3].map(() => f.send('POST', '/2/webhooks', { auth: f.appAuth, body: { url } }));
  // All three have passed the early duplicate check and are waiting on their CRC.
  await crc.requestsSeen(seen + 3);
  crc.mode = 'correct';
  crc.release();
  const results = await Promise.all(pending);
  assert.deepEqual(results.map((r) => r.status).sort(), [200, 400, 400], results.map((r) => r.text).join('\n'));
  for (const r of results.filter((x) => x.status === 400)) assertInvalidRequest(r, 'url');
  const created = results.find((r) => r.status === 200)!.body.data.id;
  assert.deepEqual((await listWebhooks()).data.map((w) => w.id), [created]);
  // The same URL spelt differently (scheme and host case) is still a duplicate.
  const respelt = url.replace('http://127.0.0.1', 'HTTP://127.0.0.1');
  assertInvalidRequest(await f.send('POST', '/2/webhooks', { auth: f.appAuth, body: { url: respelt } }), 'url');
  await deleteAll(f.appAuth);
});

test('POST /2/webhooks: a missing url, an empty url or one over 200 characters is 400 invalid-request naming `url`', async () => {
  const long = `${crc.base}/self/${'a'.repeat(201)}`;
  for (const body of [{}, { url: '' }, { url: long }]) {
    const res = await f.send('POST', '/2/webhooks', { auth: f.appAuth, body });
    assertInvalidRequest(res, 'url');
  }
  assert.equal(crc.seen.filter((s) => s.path.includes('aaaa')).length, 0);
  assert.equal((await listWebhooks()).meta.result_count, 0);
});

test('POST /2/webhooks outside development mode refuses an http:// URL, a URL with a port and a non-public host (400 naming `url`)', async () => {
  // Only the refusals are testable here: a passing URL would need a public HTTPS responder on the
  // default port, which a test cannot run. Every refusal happens before any CRC is sent.
  const strict = await startTestPlaza({ development: false });
  const s = fixtures(strict);
  const seen = crc.seen.length;
  const refused = [
    freshUrl('plain-http'),
    `https://127.0.0.1:${new URL(crc.base).port}/self/with-port`,
    'https://example.com:8443/hook',
    'https://127.0.0.1/hook',
    'https://localhost/hook',
    'https://[::1]/hook',
    'https://10.1.2.3/hook',
    'https://192.168.0.1/hook',
  ];
  for (const url of refused) {
    const res = await s.send('POST', '/2/webhooks', { auth: s.appAuth, body: { url } });
    assertInvalidRequest(res, 'url');
    assert.deepEqual(res.body.errors[0].parameters.url, [url]);
    // Refused by the URL rules, not by a CRC that could not connect.
    assert.match(res.body.errors[0].message, /^UrlValidationFailed/, res.text);
  }
  assert.equal(crc.seen.length, seen, 'no CRC was sent for a refused URL');
  assert.deepEqual((await s.get('/2/webhooks', { auth: s.appAuth })).body, { data: [], meta: { result_count: 0 } });
});

test('POST /2/webhooks accepts a user OAuth token (OAuth 1.0a and OAuth 2.0 user) as well as the app bearer token', async () => {
  const a = await createWebhook(freshUrl('by-oauth1'), f.oauth1As('ada'));
  const b = await createWebhook(freshUrl('by-oauth2'), f.oauth2As('ada'));
  const ids = (await listWebhooks()).data.map((w) => w.id);
  assert.ok(ids.includes(a) && ids.includes(b));
  await deleteAll(f.appAuth);
});

// --- PUT /2/webhooks/{webhook_id} -----------------------------------------------------------

test('PUT /2/webhooks/{webhook_id}: the id must match ^[0-9]{1,19}$ (20 digits or letters are 400 invalid-request naming webhook_id)', async () => {
  for (const id of ['1'.repeat(20), 'abc', '12a4', '-1']) {
    const res = await f.send('PUT', `/2/webhooks/${id}`, { auth: f.appAuth });
    assertInvalidRequest(res, 'webhook_id');
    assert.deepEqual(res.body.errors[0].parameters.webhook_id, [id]);
  }
});

test('PUT /2/webhooks/{webhook_id} without credentials is 401, before the id is even checked', async () => {
  const id = await createWebhook(freshUrl('anon'));
  const seen = crc.seen.length;
  for (const target of [id, 'abc']) {
    const res = await f.send('PUT', `/2/webhooks/${target}`);
    assert.equal(res.status, 401, res.text);
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
  }
  assert.equal(crc.seen.length, seen, 'no CRC for an unauthenticated call');
  await deleteAll(f.appAuth);
});

test('PUT /2/webhooks/{webhook_id} accepts either an app bearer token or a user OAuth token (OAuth 1.0a and OAuth 2.0 user), answering 200 {data:{attempted:true}}', async () => {
  const url = freshUrl('put-auth');
  const id = await createWebhook(url);
  for (const [label, auth] of [['app bearer', f.appAuth], ['OAuth 1.0a user', f.oauth1As('ada')], ['OAuth 2.0 user', f.oauth2As('ada')]] as const) {
    const res = await f.send('PUT', `/2/webhooks/${id}`, { auth });
    assert.equal(res.status, 200, `${label}: ${res.text}`);
    assert.equal(res.body.data.attempted, true, label);
  }
  assert.equal(crc.tokensFor(url).length, 4, 'one CRC on create and one per PUT');
  await deleteAll(f.appAuth);
});

test('PUT /2/webhooks/{webhook_id} really sends the CRC challenge to the URL, with a fresh crc_token each time', async () => {
  const url = freshUrl('fresh-token');
  const id = await createWebhook(url);
  for (let i = 0; i < 3; i++) assert.equal((await f.send('PUT', `/2/webhooks/${id}`, { auth: f.appAuth })).status, 200);
  const tokens = crc.tokensFor(url);
  assert.equal(tokens.length, 4);
  assert.ok(tokens.every((t) => typeof t === 'string' && t.length >= 16), JSON.stringify(tokens));
  assert.equal(new Set(tokens).size, tokens.length, 'every challenge carries a new token');
  await deleteAll(f.appAuth);
});

test('PUT /2/webhooks/{webhook_id} records whether the webhook is valid: a wrong answer makes it valid:false, a correct one valid:true again', async () => {
  const id = await createWebhook(freshUrl('validity'));
  const validOf = async () => (await listWebhooks()).data.find((w) => w.id === id)?.valid;
  assert.equal(await validOf(), true);

  crc.mode = 'wrong-token';
  const bad = await f.send('PUT', `/2/webhooks/${id}`, { auth: f.appAuth });
  assert.equal(bad.status, 200, bad.text);
  assert.equal(bad.body.data.attempted, true);
  assert.equal(await validOf(), false);

  crc.mode = 'correct';
  const good = await f.send('PUT', `/2/webhooks/${id}`, { auth: f.appAuth });
  assert.equal(good.status, 200, good.text);
  assert.equal(good.body.data.attempted, true);
  assert.equal(await validOf(), true);

  crc.mode = 'redirect';
  assert.equal((await f.send('PUT', `/2/webhooks/${id}`, { auth: f.appAuth })).body.data.attempted, true);
  assert.equal(await validOf(), false, 'a 3xx answer makes the webhook invalid');
  crc.mode = 'correct';
  await deleteAll(f.appAuth);
});

test('PUT /2/webhooks/{webhook_id}: an unknown id and another app\'s webhook id get a problem, never a 200, and no CRC is sent', async () => {
  const enterpriseAuth = { bearer: f.enterprise.bearer_token };
  const theirUrl = crc.url('enterprise', `theirs-${++counter}`);
  const theirs = await createWebhook(theirUrl, enterpriseAuth);
  const seen = crc.seen.length;

  const unknown = await f.send('PUT', `/2/webhooks/${MISSING}`, { auth: f.appAuth });
  assertProblem(unknown);
  for (const auth of [f.appAuth, f.oauth1As('ada'), f.oauth2As('ada')]) {
    const other = await f.send('PUT', `/2/webhooks/${theirs}`, { auth });
    assertProblem(other);
    // Another app's webhook looks exactly like one that does not exist.
    assert.equal(other.status, unknown.status);
    assert.equal(other.body.type, unknown.body.type);
  }
  assertInvalidRequest(unknown, 'webhook_id');
  assert.equal(crc.seen.length, seen, 'no CRC for a webhook the caller does not own');
  // Its owner can still validate it.
  assert.equal((await f.send('PUT', `/2/webhooks/${theirs}`, { auth: enterpriseAuth })).status, 200);
  await deleteAll(enterpriseAuth);
});

test('PUT /2/webhooks/{webhook_id} on a webhook deleted while its CRC ran gets a problem and logs no webhook.crc event', async () => {
  const url = freshUrl('put-vs-delete');
  const id = await createWebhook(url);
  crc.mode = 'held';
  const seen = crc.seen.length;
  const put = f.send('PUT', `/2/webhooks/${id}`, { auth: f.appAuth });
  await crc.requestsSeen(seen + 1);
  assert.equal((await f.send('DELETE', `/2/webhooks/${id}`, { auth: f.appAuth })).status, 200);
  crc.mode = 'correct';
  crc.release();
  const res = await put;
  assertInvalidRequest(res, 'webhook_id');
  const crcEvents = await plaza.ctx.store.db.selectFrom('events').select('type').where('subject', '=', id).where('type', '=', 'webhook.crc').execute();
  assert.equal(crcEvents.length, 0);
  assert.deepEqual(await listWebhooks(), { data: [], meta: { result_count: 0 } });
});

// --- GET /2/webhooks, continued -------------------------------------------------------------

test('GET /2/webhooks lists only the caller\'s app\'s webhooks', async () => {
  const enterpriseAuth = { bearer: f.enterprise.bearer_token };
  const mine = await createWebhook(freshUrl('mine'));
  const theirs = await createWebhook(crc.url('enterprise', `list-${++counter}`), enterpriseAuth);
  const ours = await listWebhooks();
  assert.deepEqual(ours.data.map((w) => w.id), [mine]);
  assert.equal(ours.meta.result_count, 1);
  const their = await listWebhooks(enterpriseAuth);
  assert.deepEqual(their.data.map((w) => w.id), [theirs]);
  await deleteAll(f.appAuth);
  await deleteAll(enterpriseAuth);
});

test('GET /2/webhooks accepts webhook_config.fields=id,url; an unknown field name is 400 invalid-request naming webhook_config.fields', async () => {
  const id = await createWebhook(freshUrl('fields'));
  const ok = await f.get('/2/webhooks?webhook_config.fields=id,url', { auth: f.appAuth });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.body.data[0].id, id);
  assert.equal(typeof ok.body.data[0].url, 'string');
  const all = await f.get('/2/webhooks?webhook_config.fields=created_at,id,url,valid', { auth: f.appAuth });
  assert.equal(all.status, 200, all.text);
  const bad = await f.get('/2/webhooks?webhook_config.fields=id,secret', { auth: f.appAuth });
  assertInvalidRequest(bad, 'webhook_config.fields');
  assert.deepEqual(bad.body.errors[0].parameters['webhook_config.fields'], ['secret']);
  await deleteAll(f.appAuth);
});

test('GET /2/webhooks is app-only: a user token (OAuth 1.0a or OAuth 2.0) gets 403 unsupported-authentication; none gets 401', async () => {
  for (const auth of [f.oauth1As('ada'), f.oauth2As('ada')]) {
    const res = await f.get('/2/webhooks', { auth });
    assert.equal(res.status, 403, res.text);
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(res.body.type, problemType('unsupported-authentication'));
  }
  assert.equal((await f.get('/2/webhooks')).status, 401);
});

// --- DELETE /2/webhooks/{webhook_id} --------------------------------------------------------

test('DELETE /2/webhooks/{webhook_id} answers {data:{deleted:true}}, the webhook is then gone, and a second delete gets a problem', async () => {
  const id = await createWebhook(freshUrl('delete'));
  const res = await f.send('DELETE', `/2/webhooks/${id}`, { auth: f.appAuth });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, { data: { deleted: true } });
  assert.deepEqual(await listWebhooks(), { data: [], meta: { result_count: 0 } });
  const again = await f.send('DELETE', `/2/webhooks/${id}`, { auth: f.appAuth });
  assertProblem(again);
  assertInvalidRequest(again, 'webhook_id');
  const put = await f.send('PUT', `/2/webhooks/${id}`, { auth: f.appAuth });
  assertProblem(put);
});

test('DELETE /2/webhooks/{webhook_id}: another app cannot delete a webhook it does not own; bad ids are 400 naming webhook_id; no credentials is 401', async () => {
  const enterpriseAuth = { bearer: f.enterprise.bearer_token };
  const theirs = await createWebhook(crc.url('enterprise', `keep-${++counter}`), enterpriseAuth);
  assertProblem(await f.send('DELETE', `/2/webhooks/${theirs}`, { auth: f.appAuth }));
  assert.equal((await f.send('DELETE', `/2/webhooks/${theirs}`)).status, 401);
  assertInvalidRequest(await f.send('DELETE', '/2/webhooks/not-an-id', { auth: f.appAuth }), 'webhook_id');
  assert.deepEqual((await listWebhooks(enterpriseAuth)).data.map((w) => w.id), [theirs]);
  await deleteAll(enterpriseAuth);
});

// --- The event log ---------------------------------------------------------------------------

test('the event log: creating, validating and deleting a webhook append webhook.create, webhook.crc and webhook.delete events', async () => {
  const id = await createWebhook(freshUrl('events'));
  crc.mode = 'wrong-token';
  assert.equal((await f.send('PUT', `/2/webhooks/${id}`, { auth: f.appAuth })).status, 200);
  crc.mode = 'correct';
  assert.equal((await f.send('PUT', `/2/webhooks/${id}`, { auth: f.appAuth })).status, 200);
  assert.equal((await f.send('DELETE', `/2/webhooks/${id}`, { auth: f.appAuth })).status, 200);

  const rows = await (await withEventsPlaced(plaza.ctx.store.db))
    .selectFrom('events')
    .select(['seq', 'type', 'subject', 'payload'])
    .where('subject', '=', id)
    .orderBy('seq')
    .execute();
  assert.deepEqual(rows.map((r) => r.type), ['webhook.create', 'webhook.crc', 'webhook.crc', 'webhook.delete']);
  const payloads = rows.map((r) => JSON.parse(r.payload));
  assert.equal(payloads[0].id, id);
  assert.equal(payloads[1].valid, false);
  assert.equal(payloads[2].valid, true);

  // A refused create and a failed create leave no event behind.
  crc.mode = 'wrong-token';
  const url = freshUrl('no-event');
  assert.equal((await f.send('POST', '/2/webhooks', { auth: f.appAuth, body: { url } })).status, 400);
  crc.mode = 'correct';
  const creates = await plaza.ctx.store.db.selectFrom('events').select('payload').where('type', '=', 'webhook.create').execute();
  assert.ok(creates.every((r) => JSON.parse(r.payload).url !== url));
});
