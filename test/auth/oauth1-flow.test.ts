import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { before, test } from 'node:test';
import OAuth from 'oauth-1.0a';
import { ApiResponseError } from 'twitter-api-v2';
import { ManualClock } from '../../src/clock.js';
import { call, oauth1Header, startTestPlaza, type TestPlaza } from '../support/server.js';
import { approveOAuth1, createTestApp, FormClient, onPlaza, pinOf, twitterClient } from '../web/support.js';
import { fixtures } from '../support/fixtures.js';

let plaza: TestPlaza;
let f: ReturnType<typeof fixtures>;
const clock = new ManualClock(new Date());
/** A callback URL registered on the demo's self-serve app. */
const CALLBACK = 'http://127.0.0.1:5173/callback';

before(async () => {
  plaza = await startTestPlaza({}, { clock });
  f = fixtures(plaza);
});

const consumer = () => ({ consumer_key: f.selfServe.consumer_key, consumer_secret: f.selfServe.consumer_secret });
const url = (path: string) => `${plaza.urls.base_url}${path}`;

/** POST /oauth/request_token signed by the independent oauth-1.0a signer, parameters in the form body. */
async function requestToken(form: Record<string, string>, c: { consumer_key: string; consumer_secret: string } = consumer()) {
  return call(plaza.urls.base_url, '/oauth/request_token', { method: 'POST', form, headers: { authorization: oauth1Header(c, 'POST', url('/oauth/request_token'), form) } });
}

async function accessToken(token: { key: string; secret: string }, form: Record<string, string>, c = consumer()) {
  const authorization = oauth1Header({ ...c, token: token.key, token_secret: token.secret }, 'POST', url('/oauth/access_token'), form);
  return call(plaza.urls.base_url, '/oauth/access_token', { method: 'POST', form, headers: { authorization } });
}

/** Steps 1 and 2: a request token approved by the person; returns the token and verifier. */
async function approvedToken(username: string, opts: { callback?: string; accessType?: string } = {}) {
  const form: Record<string, string> = { oauth_callback: opts.callback ?? CALLBACK };
  if (opts.accessType) form.x_auth_access_type = opts.accessType;
  const res = await requestToken(form);
  assert.equal(res.status, 200, res.text);
  const step1 = new URLSearchParams(res.text);
  const browser = new FormClient(plaza.urls.base_url);
  const done = await approveOAuth1(browser, `/oauth/authorize?oauth_token=${step1.get('oauth_token')}`, { username, password: f.user(username).password });
  const verifier = opts.callback === 'oob' ? pinOf(done) : new URL(done.location!).searchParams.get('oauth_verifier')!;
  return { key: step1.get('oauth_token')!, secret: step1.get('oauth_token_secret')!, verifier, browser };
}

test('request_token: "Response form-encoded oauth_token, oauth_token_secret, oauth_callback_confirmed=true"', async () => {
  const res = await requestToken({ oauth_callback: CALLBACK });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^application\/x-www-form-urlencoded/);
  const body = new URLSearchParams(res.text);
  assert.deepEqual([...body.keys()], ['oauth_token', 'oauth_token_secret', 'oauth_callback_confirmed']);
  assert.ok(body.get('oauth_token')!.length >= 20);
  assert.ok(body.get('oauth_token_secret')!.length >= 20);
  assert.equal(body.get('oauth_callback_confirmed'), 'true');
});

test('request_token: "oauth_callback required and always sent, also when one is pre-registered" (400 code 215 without it)', async () => {
  const res = await requestToken({});
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].code, 215);
  assert.match(res.body.errors[0].message, /oauth_callback is required/);
});

test('request_token: oauth_callback in the Authorization header (the RFC 5849 place) is accepted too', async () => {
  const oauth = new OAuth({
    consumer: { key: f.selfServe.consumer_key, secret: f.selfServe.consumer_secret },
    signature_method: 'HMAC-SHA1',
    hash_function: (base, key) => crypto.createHmac('sha1', key).update(base).digest('base64'),
  });
  const data = oauth.authorize({ url: url('/oauth/request_token'), method: 'POST', data: { oauth_callback: 'oob' } });
  const authorization = oauth.toHeader(data).Authorization;
  assert.match(authorization, /oauth_callback="oob"/);
  const res = await call(plaza.urls.base_url, '/oauth/request_token', { method: 'POST', headers: { authorization } });
  assert.equal(res.status, 200, res.text);
});

test('request_token: "it must be a callback URL configured on the app" (403 code 415 otherwise; query parameters may be added)', async () => {
  const unknown = await requestToken({ oauth_callback: 'https://evil.example/callback' });
  assert.equal(unknown.status, 403);
  assert.deepEqual(unknown.body, {
    errors: [{ code: 415, message: 'Callback URL not approved for this client application. Approved callback URLs can be adjusted in your application settings' }],
  });
  assert.equal((await requestToken({ oauth_callback: 'http://127.0.0.1:5173/other' })).status, 403, 'another path');
  assert.equal((await requestToken({ oauth_callback: 'http://127.0.0.1:5174/callback' })).status, 403, 'another port');
  assert.equal((await requestToken({ oauth_callback: `${CALLBACK}?session=abc` })).status, 200, 'the app may add its own query');
});

test('request_token: an app with no callback URL configured is told it can only use oob (403 code 417)', async () => {
  const app = await createTestApp(plaza, f.user('ada').id, { callbackUrls: [] });
  const c = { consumer_key: app.consumer_key, consumer_secret: app.consumer_secret };
  const res = await requestToken({ oauth_callback: CALLBACK }, c);
  assert.equal(res.status, 403);
  assert.equal(res.body.errors[0].code, 417);
  assert.equal((await requestToken({ oauth_callback: 'oob' }, c)).status, 200);
});

test('request_token: "`oob` selects out-of-band PIN mode" (the page shows a PIN that works as oauth_verifier)', async () => {
  const token = await approvedToken('chen', { callback: 'oob' });
  assert.match(token.verifier, /^[0-9]{7}$/);
  const res = await accessToken(token, { oauth_verifier: token.verifier });
  assert.equal(res.status, 200, res.text);
  assert.equal(new URLSearchParams(res.text).get('screen_name'), 'chen');
});

test('request_token: a bad signature, an unknown consumer key or no OAuth header at all get 401 code 32 / 400 code 215', async () => {
  const badSecret = await requestToken({ oauth_callback: CALLBACK }, { ...consumer(), consumer_secret: 'wrong' });
  assert.equal(badSecret.status, 401);
  assert.equal(badSecret.body.errors[0].code, 32);
  const unknown = await requestToken({ oauth_callback: CALLBACK }, { consumer_key: 'nobody', consumer_secret: 'x' });
  assert.equal(unknown.status, 401);
  assert.equal(unknown.body.errors[0].code, 32);
  const none = await call(plaza.urls.base_url, '/oauth/request_token', { method: 'POST', form: { oauth_callback: CALLBACK } });
  assert.equal(none.status, 400);
  assert.equal(none.body.errors[0].code, 215);
});

test('request_token: "x_auth_access_type `read` or `write` lowers the access level" (the page says so, the token carries it)', async () => {
  const db = plaza.ctx.store.db;
  for (const [accessType, level, canDm] of [['read', 'read', false], ['write', 'read-write', false], [undefined, 'read-write-directmessages', true]] as const) {
    const form: Record<string, string> = { oauth_callback: CALLBACK };
    if (accessType) form.x_auth_access_type = accessType;
    const step1 = new URLSearchParams((await requestToken(form)).text);
    const consent = await new FormClient(plaza.urls.base_url).get(`/oauth/authorize?oauth_token=${step1.get('oauth_token')}`);
    assert.equal(consent.text.includes('Read and send your direct messages.'), canDm, `${accessType}: DM permission shown`);
    assert.equal(consent.text.includes('for you; update your profile.'), level !== 'read', `${accessType}: write permission shown`);
    const row = await db.selectFrom('oauth1_request_tokens').select('access_level').where('token', '=', step1.get('oauth_token')!).executeTakeFirstOrThrow();
    assert.equal(row.access_level, level);
  }
  const token = await approvedToken('dana', { accessType: 'read' });
  const issued = new URLSearchParams((await accessToken(token, { oauth_verifier: token.verifier })).text);
  const stored = await db.selectFrom('oauth1_tokens').select('access_level').where('token', '=', issued.get('oauth_token')!).executeTakeFirstOrThrow();
  assert.equal(stored.access_level, 'read');
  const bad = await requestToken({ oauth_callback: CALLBACK, x_auth_access_type: 'admin' });
  assert.equal(bad.status, 400);
  assert.match(bad.body.errors[0].message, /x_auth_access_type/);
});

test('access_token: "Response form-encoded oauth_token, oauth_token_secret, user_id, screen_name" and the token works on /2', async () => {
  const token = await approvedToken('bruno');
  const res = await accessToken(token, { oauth_verifier: token.verifier });
  assert.equal(res.status, 200, res.text);
  const body = new URLSearchParams(res.text);
  assert.deepEqual([...body.keys()], ['oauth_token', 'oauth_token_secret', 'user_id', 'screen_name']);
  assert.equal(body.get('user_id'), f.user('bruno').id);
  assert.equal(body.get('screen_name'), 'bruno');
  assert.ok(body.get('oauth_token')!.startsWith(`${f.user('bruno').id}-`));
  const me = await f.get('/2/users/me', { auth: { oauth1: { ...consumer(), token: body.get('oauth_token')!, token_secret: body.get('oauth_token_secret')! } } });
  assert.equal(me.status, 200);
  assert.equal(me.body.data.username, 'bruno');
});

test('access_token: "oauth_token must equal the token from step 1" (an access token, another request token, or a different body value get 401)', async () => {
  const token = await approvedToken('ada');
  const ada = f.user('ada');
  const withAccessToken = await accessToken({ key: ada.access_token, secret: ada.access_token_secret }, { oauth_verifier: token.verifier });
  assert.equal(withAccessToken.status, 401);
  assert.equal(withAccessToken.body.errors[0].code, 89);
  const other = new URLSearchParams((await requestToken({ oauth_callback: CALLBACK })).text);
  const otherToken = await accessToken({ key: other.get('oauth_token')!, secret: other.get('oauth_token_secret')! }, { oauth_verifier: token.verifier });
  assert.equal(otherToken.status, 401, 'an unapproved request token with this verifier');
  const mismatch = await accessToken(token, { oauth_token: other.get('oauth_token')!, oauth_verifier: token.verifier });
  assert.equal(mismatch.status, 401, 'a body oauth_token that differs from the signing one');
  const ok = await accessToken(token, { oauth_token: token.key, oauth_verifier: token.verifier });
  assert.equal(ok.status, 200, 'naming the same token in the body is fine');
});

test('access_token: a request token of another app cannot be exchanged with this app\'s keys (401 code 89)', async () => {
  const token = await approvedToken('chen');
  const enterprise = { consumer_key: f.enterprise.consumer_key, consumer_secret: f.enterprise.consumer_secret };
  const res = await accessToken(token, { oauth_verifier: token.verifier }, enterprise);
  assert.equal(res.status, 401);
  assert.equal(res.body.errors[0].code, 89);
});

test('access_token: "oauth_verifier required and checked (1.0a strictly enforced)": missing, wrong, or before approval is 401', async () => {
  const token = await approvedToken('dana');
  const missing = await accessToken(token, {});
  assert.equal(missing.status, 401);
  assert.match(missing.body.errors[0].message, /oauth_verifier/);
  const wrong = await accessToken(token, { oauth_verifier: 'not-the-verifier' });
  assert.equal(wrong.status, 401);
  assert.match(wrong.body.errors[0].message, /Invalid oauth_verifier/);
  assert.equal((await accessToken(token, { oauth_verifier: token.verifier })).status, 200, 'the right verifier still works after one mistake');

  const unapproved = new URLSearchParams((await requestToken({ oauth_callback: CALLBACK })).text);
  const early = await accessToken({ key: unapproved.get('oauth_token')!, secret: unapproved.get('oauth_token_secret')! }, { oauth_verifier: '1234567' });
  assert.equal(early.status, 401);
  assert.match(early.body.errors[0].message, /not been authorized/);
});

test('access_token: after five wrong verifiers the request token is void, even for the right one', async () => {
  const token = await approvedToken('chen', { callback: 'oob' });
  for (let i = 0; i < 5; i++) assert.equal((await accessToken(token, { oauth_verifier: '0000000' })).status, 401);
  const res = await accessToken(token, { oauth_verifier: token.verifier });
  assert.equal(res.status, 401);
  assert.equal(res.body.errors[0].code, 89);
});

test('access_token: a request token is exchanged once; the second exchange gets 401 code 89', async () => {
  const token = await approvedToken('bruno');
  assert.equal((await accessToken(token, { oauth_verifier: token.verifier })).status, 200);
  const again = await accessToken(token, { oauth_verifier: token.verifier });
  assert.equal(again.status, 401);
  assert.equal(again.body.errors[0].code, 89);
});

test('request tokens expire after 15 minutes by the injected clock (the page and the exchange refuse them)', async () => {
  const token = await approvedToken('ada');
  const fresh = new URLSearchParams((await requestToken({ oauth_callback: CALLBACK })).text);
  clock.advance(15 * 60 * 1000 + 1000);
  try {
    const page = await new FormClient(plaza.urls.base_url).get(`/oauth/authorize?oauth_token=${fresh.get('oauth_token')}`);
    assert.equal(page.status, 400);
    assert.match(page.text, /no longer valid/);
    // Signed now (by the moved clock), so only the token's age is at fault.
    const authorization = (() => {
      const oauth = new OAuth({
        consumer: { key: f.selfServe.consumer_key, secret: f.selfServe.consumer_secret },
        signature_method: 'HMAC-SHA1',
        hash_function: (base, key) => crypto.createHmac('sha1', key).update(base).digest('base64'),
      });
      oauth.getTimeStamp = () => Math.floor(clock.now().getTime() / 1000);
      return oauth.toHeader(oauth.authorize({ url: url('/oauth/access_token'), method: 'POST', data: { oauth_verifier: token.verifier } }, { key: token.key, secret: token.secret })).Authorization;
    })();
    const res = await call(plaza.urls.base_url, '/oauth/access_token', { method: 'POST', form: { oauth_verifier: token.verifier }, headers: { authorization } });
    assert.equal(res.status, 401);
    assert.equal(res.body.errors[0].code, 89);
  } finally {
    clock.advance(-(15 * 60 * 1000 + 1000));
  }
});

test('authorizing the same app again without invalidating yields the same access token, as on the public platform', async () => {
  const first = await approvedToken('dana');
  const a = new URLSearchParams((await accessToken(first, { oauth_verifier: first.verifier })).text);
  const second = await approvedToken('dana');
  const b = new URLSearchParams((await accessToken(second, { oauth_verifier: second.verifier })).text);
  assert.equal(b.get('oauth_token'), a.get('oauth_token'));
  assert.equal(b.get('oauth_token_secret'), a.get('oauth_token_secret'));
});

test('invalidate_token: "user context with the access token to invalidate; afterwards that token fails everywhere, and a later authorization yields a different token" (both paths)', async () => {
  for (const path of ['/1.1/oauth/invalidate_token', '/1.1/oauth/invalidate_token.json']) {
    const token = await approvedToken('chen');
    const issued = new URLSearchParams((await accessToken(token, { oauth_verifier: token.verifier })).text);
    const creds = { ...consumer(), token: issued.get('oauth_token')!, token_secret: issued.get('oauth_token_secret')! };
    assert.equal((await f.get('/2/users/me', { auth: { oauth1: creds } })).status, 200);
    const res = await call(plaza.urls.base_url, path, { method: 'POST', headers: { authorization: oauth1Header(creds, 'POST', url(path)) } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { access_token: creds.token });
    const after = await f.get('/2/users/me', { auth: { oauth1: creds } });
    assert.equal(after.status, 401, 'the /2 endpoints refuse it');
    const twice = await call(plaza.urls.base_url, path, { method: 'POST', headers: { authorization: oauth1Header(creds, 'POST', url(path)) } });
    assert.equal(twice.status, 401);
    assert.deepEqual(twice.body, { errors: [{ code: 89, message: 'Invalid or expired token.' }] });
    const again = await approvedToken('chen');
    const next = new URLSearchParams((await accessToken(again, { oauth_verifier: again.verifier })).text);
    assert.notEqual(next.get('oauth_token'), creds.token);
    assert.equal((await f.get('/2/users/me', { auth: { oauth1: { ...consumer(), token: next.get('oauth_token')!, token_secret: next.get('oauth_token_secret')! } } })).status, 200);
  }
});

test('invalidate_token needs the access token\'s own signature: an app-only bearer or a bad signature is refused', async () => {
  const bearer = await call(plaza.urls.base_url, '/1.1/oauth/invalidate_token', { method: 'POST', auth: f.appAuth });
  assert.equal(bearer.status, 400);
  assert.equal(bearer.body.errors[0].code, 215);
  const ada = f.user('ada');
  const bad = await call(plaza.urls.base_url, '/1.1/oauth/invalidate_token', {
    method: 'POST',
    headers: { authorization: oauth1Header({ ...consumer(), token: ada.access_token, token_secret: 'wrong' }, 'POST', url('/1.1/oauth/invalidate_token')) },
  });
  assert.equal(bad.status, 401);
  assert.equal(bad.body.errors[0].code, 32);
  assert.equal((await f.get('/2/users/me', { auth: f.oauth1As('ada') })).status, 200, 'the token still works');
});

test('a real client library (twitter-api-v2) completes the three-legged flow against Plaza: PIN mode', async () => {
  const app = twitterClient(plaza.urls.base_url, { appKey: f.selfServe.consumer_key, appSecret: f.selfServe.consumer_secret });
  const link = await app.generateAuthLink('oob', { linkMode: 'authorize' });
  assert.equal(link.oauth_callback_confirmed, 'true');
  const page = await approveOAuth1(new FormClient(plaza.urls.base_url), onPlaza(plaza.urls.base_url, link.url), { username: 'ada', password: f.user('ada').password });
  const pin = pinOf(page);
  const pending = twitterClient(plaza.urls.base_url, { appKey: f.selfServe.consumer_key, appSecret: f.selfServe.consumer_secret, accessToken: link.oauth_token, accessSecret: link.oauth_token_secret });
  const login = await pending.login(pin);
  assert.equal(login.screenName, 'ada');
  assert.equal(login.userId, f.user('ada').id);
  const me = await login.client.v2.get('users/me');
  assert.equal(me.data.username, 'ada');
  const invalidated = await login.client.v1.post('oauth/invalidate_token.json', {});
  assert.equal(invalidated.access_token, login.accessToken);
  await assert.rejects(login.client.v2.get('users/me'), (err: unknown) => err instanceof ApiResponseError && err.code === 401);
});

test('a real client library (twitter-api-v2) completes the three-legged flow against Plaza: callback mode, with x_auth_access_type', async () => {
  const app = twitterClient(plaza.urls.base_url, { appKey: f.selfServe.consumer_key, appSecret: f.selfServe.consumer_secret });
  const link = await app.generateAuthLink(CALLBACK, { authAccessType: 'write', linkMode: 'authorize', screenName: 'bruno' });
  const browser = new FormClient(plaza.urls.base_url);
  const consent = await browser.get(onPlaza(plaza.urls.base_url, link.url));
  assert.match(consent.text, /value="bruno"/, 'screen_name prefills the username');
  const done = await browser.submit(consent, '/oauth/authorize', { decision: 'allow', password: f.user('bruno').password });
  assert.equal(done.status, 302);
  const callback = new URL(done.location!);
  assert.equal(`${callback.origin}${callback.pathname}`, CALLBACK);
  assert.equal(callback.searchParams.get('oauth_token'), link.oauth_token);
  const pending = twitterClient(plaza.urls.base_url, { appKey: f.selfServe.consumer_key, appSecret: f.selfServe.consumer_secret, accessToken: link.oauth_token, accessSecret: link.oauth_token_secret });
  const login = await pending.login(callback.searchParams.get('oauth_verifier')!);
  assert.equal(login.screenName, 'bruno');
  const stored = await plaza.ctx.store.db.selectFrom('oauth1_tokens').select('access_level').where('token', '=', login.accessToken).executeTakeFirstOrThrow();
  assert.equal(stored.access_level, 'read-write');
});
