import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { ManualClock } from '../../src/clock.js';
import { call, oauth1Header, startTestPlaza, type TestPlaza } from '../support/server.js';
import { approveOAuth1, FormClient } from '../web/support.js';
import { fixtures } from '../support/fixtures.js';

let strict: TestPlaza;
let limited: TestPlaza;
let dev: TestPlaza;
const clock = new ManualClock(new Date('2026-07-01T12:00:00.000Z'));

before(async () => {
  strict = await startTestPlaza({ development: false });
  limited = await startTestPlaza({ oauthRateLimit: 3 }, { clock });
  dev = await startTestPlaza();
});

const HTTPS = { 'x-forwarded-proto': 'https' };
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** One request to each token endpoint, plain http unless headers say otherwise. */
function tokenSteps(plaza: TestPlaza, headers: Record<string, string> = {}) {
  const f = fixtures(plaza);
  const app = f.selfServe;
  const signed = (path: string, form: Record<string, string>, token?: { token: string; token_secret: string }) => {
    const signedUrl = `${headers['x-forwarded-proto'] === 'https' ? plaza.urls.base_url.replace('http:', 'https:') : plaza.urls.base_url}${path}`;
    return call(plaza.urls.base_url, path, {
      method: 'POST',
      form,
      headers: { ...headers, authorization: oauth1Header({ consumer_key: app.consumer_key, consumer_secret: app.consumer_secret, ...token }, 'POST', signedUrl, form) },
    });
  };
  const ada = f.user('ada');
  return {
    'POST /oauth/request_token': () => signed('/oauth/request_token', { oauth_callback: 'oob' }),
    'POST /oauth/access_token': () => signed('/oauth/access_token', { oauth_verifier: '1234567' }, { token: 'unknown', token_secret: 'x' }),
    'POST /1.1/oauth/invalidate_token': () => signed('/1.1/oauth/invalidate_token', {}, { token: ada.access_token, token_secret: ada.access_token_secret }),
    'POST /oauth2/token': () =>
      call(plaza.urls.base_url, '/oauth2/token', { method: 'POST', form: { grant_type: 'client_credentials' }, headers: { ...headers, authorization: basic(app.consumer_key, app.consumer_secret) } }),
    'POST /oauth2/invalidate_token': () =>
      call(plaza.urls.base_url, '/oauth2/invalidate_token', { method: 'POST', form: { access_token: 'nope' }, headers: { ...headers, authorization: basic(app.consumer_key, app.consumer_secret) } }),
    'POST /2/oauth2/token': () =>
      call(plaza.urls.base_url, '/2/oauth2/token', { method: 'POST', form: { client_id: app.client_id, grant_type: 'refresh_token', refresh_token: 'nope' }, headers }),
    'POST /2/oauth2/revoke': () =>
      call(plaza.urls.base_url, '/2/oauth2/revoke', { method: 'POST', form: { client_id: app.client_id, token: 'nope', token_type_hint: 'access_token' }, headers }),
  };
}

test('"All steps require HTTPS": outside development mode a plain-http request to a token step gets a clear 403 (code 92 "SSL is required")', async () => {
  for (const [name, step] of Object.entries(tokenSteps(strict))) {
    const res = await step();
    assert.equal(res.status, 403, name);
    if (name.startsWith('POST /2/')) {
      assert.equal(res.body.error, 'invalid_request', name);
      assert.match(res.body.error_description, /HTTPS is required/, name);
    } else {
      assert.equal(res.body.errors[0].code, 92, name);
      assert.match(res.body.errors[0].message, /^SSL is required\..*X-Forwarded-Proto: https.*development mode/, name);
    }
  }
});

test('"All steps require HTTPS": the pages refuse plain http outside development mode, with a page that says what to do', async () => {
  const browser = new FormClient(strict.urls.base_url);
  for (const path of ['/oauth/authorize?oauth_token=x', '/oauth/authenticate?oauth_token=x', '/i/oauth2/authorize', '/login', '/signup', '/developer']) {
    const res = await browser.get(path);
    assert.equal(res.status, 403, path);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(res.text, /HTTPS is required/);
    assert.match(res.text, /X-Forwarded-Proto: https/);
    assert.equal(res.setCookies.length, 0, 'no cookie is set over plain http');
  }
});

test('"honour X-Forwarded-Proto behind a proxy": the full three-legged flow works outside development mode when the proxy says https', async () => {
  const f = fixtures(strict);
  const httpsBase = strict.urls.base_url.replace('http:', 'https:');
  const c = { consumer_key: f.selfServe.consumer_key, consumer_secret: f.selfServe.consumer_secret };
  const step1Form = { oauth_callback: 'http://127.0.0.1:5173/callback' };
  const step1 = await call(strict.urls.base_url, '/oauth/request_token', { method: 'POST', form: step1Form, headers: { ...HTTPS, authorization: oauth1Header(c, 'POST', `${httpsBase}/oauth/request_token`, step1Form) } });
  assert.equal(step1.status, 200, step1.text);
  const rt = new URLSearchParams(step1.text);
  const browser = new FormClient(strict.urls.base_url, HTTPS);
  const done = await approveOAuth1(browser, `/oauth/authorize?oauth_token=${rt.get('oauth_token')}`, { username: 'bruno', password: f.user('bruno').password });
  assert.equal(done.status, 302);
  const session = done.setCookies.find((s) => s.startsWith('__Host-plaza_session='));
  assert.ok(session, 'over https the session cookie is __Host- prefixed');
  assert.match(session!, /; Secure/);
  assert.match(session!, /; HttpOnly/);
  assert.match(session!, /; SameSite=Lax/);
  assert.match(session!, /; Path=\//);
  assert.doesNotMatch(session!, /Domain=/);
  const verifier = new URL(done.location!).searchParams.get('oauth_verifier')!;
  const form = { oauth_verifier: verifier };
  const step3 = await call(strict.urls.base_url, '/oauth/access_token', {
    method: 'POST',
    form,
    headers: { ...HTTPS, authorization: oauth1Header({ ...c, token: rt.get('oauth_token')!, token_secret: rt.get('oauth_token_secret')! }, 'POST', `${httpsBase}/oauth/access_token`, form) },
  });
  assert.equal(step3.status, 200, step3.text);
  assert.equal(new URLSearchParams(step3.text).get('screen_name'), 'bruno');
  const appOnly = await tokenSteps(strict, HTTPS)['POST /oauth2/token']();
  assert.equal(appOnly.status, 200);
});

test('"a plain-http request gets a clear error unless Plaza runs in development mode, which the local demo uses by default"', async () => {
  assert.equal(dev.ctx.config.development, true, 'development mode is the default');
  const steps = tokenSteps(dev);
  assert.equal((await steps['POST /oauth/request_token']()).status, 200);
  assert.equal((await steps['POST /oauth2/token']()).status, 200);
  assert.equal((await new FormClient(dev.urls.base_url).get('/login')).status, 200);
});

test('"Each step is rate limited, with the rate-limit headers": every token step answers x-rate-limit-limit/-remaining/-reset, then 429 with the about:blank body', async () => {
  const resetAt = Math.ceil((Math.floor(clock.now().getTime() / (15 * 60 * 1000)) + 1) * 15 * 60);
  for (const [name, step] of Object.entries(tokenSteps(limited))) {
    for (let i = 1; i <= 3; i++) {
      const res = await step();
      assert.notEqual(res.status, 429, `${name} #${i}`);
      assert.equal(res.headers.get('x-rate-limit-limit'), '3', name);
      assert.equal(res.headers.get('x-rate-limit-remaining'), String(3 - i), name);
      assert.equal(res.headers.get('x-rate-limit-reset'), String(resetAt), name);
    }
    const over = await step();
    assert.equal(over.status, 429, name);
    assert.match(over.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.deepEqual(over.body, { title: 'Too Many Requests', type: 'about:blank', status: 429, detail: 'Too Many Requests' });
    assert.equal(over.headers.get('x-rate-limit-remaining'), '0');
  }
});

test('"Each step is rate limited": the authorize and authenticate pages too (per client address), with a 429 page', async () => {
  const browser = new FormClient(limited.urls.base_url);
  for (let i = 1; i <= 3; i++) {
    const res = await browser.get(i % 2 ? '/oauth/authorize?oauth_token=x' : '/oauth/authenticate?oauth_token=x');
    assert.equal(res.headers.get('x-rate-limit-limit'), '3');
    assert.equal(res.headers.get('x-rate-limit-remaining'), String(3 - i));
  }
  const over = await browser.get('/oauth/authorize?oauth_token=x');
  assert.equal(over.status, 429);
  assert.match(over.text, /Too many requests/);
});

test('rate-limit windows are fixed 15-minute windows of the injected clock, counted per app', async () => {
  const f = fixtures(limited);
  const other = { consumer_key: f.enterprise.consumer_key, consumer_secret: f.enterprise.consumer_secret };
  const form = { grant_type: 'client_credentials' };
  const enterprise = await call(limited.urls.base_url, '/oauth2/token', { method: 'POST', form, headers: { authorization: basic(other.consumer_key, other.consumer_secret) } });
  assert.equal(enterprise.status, 200, 'another app has its own budget');
  assert.equal(enterprise.headers.get('x-rate-limit-remaining'), '2');
  clock.advance(15 * 60 * 1000);
  const again = await tokenSteps(limited)['POST /oauth2/token']();
  assert.equal(again.status, 200, 'a new window');
  assert.equal(again.headers.get('x-rate-limit-remaining'), '2');
});
