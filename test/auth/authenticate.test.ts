import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { before, test } from 'node:test';
import OAuth from 'oauth-1.0a';
import { issueOAuth2Tokens } from '../../src/auth/issue.js';
import { hashToken } from '../../src/auth/tokens.js';
import { ManualClock } from '../../src/clock.js';
import { call, oauth1Header, startTestPlaza, type TestPlaza } from '../support/server.js';
import { fixtures } from '../support/fixtures.js';
import { problemType } from '../support/problems.js';

let plaza: TestPlaza;
let f: ReturnType<typeof fixtures>;
const clock = new ManualClock(new Date());

before(async () => {
  plaza = await startTestPlaza({}, { clock });
  f = fixtures(plaza);
});

const UNAUTHORIZED = { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' };

function signer(username: string) {
  return f.oauth1As(username).oauth1;
}

/** Signs like a client library, with a chosen nonce and timestamp. */
function headerWith(c: ReturnType<typeof signer>, method: string, url: string, opts: { nonce?: string; timestamp?: number } = {}) {
  const oauth = new OAuth({
    consumer: { key: c.consumer_key, secret: c.consumer_secret },
    signature_method: 'HMAC-SHA1',
    hash_function: (base, key) => crypto.createHmac('sha1', key).update(base).digest('base64'),
  });
  if (opts.nonce) oauth.getNonce = () => opts.nonce!;
  if (opts.timestamp) oauth.getTimeStamp = () => opts.timestamp!;
  return oauth.toHeader(oauth.authorize({ url, method }, { key: c.token!, secret: c.token_secret! })).Authorization;
}

const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

test('a missing credential gets 401 with the about:blank body', async () => {
  const res = await f.get('/2/users/me');
  assert.equal(res.status, 401);
  assert.deepEqual(res.body, UNAUTHORIZED);
});

test('authentication runs before validation: no credential and bad parameters is still 401', async () => {
  const res = await f.get('/2/posts?ids=not-an-id');
  assert.equal(res.status, 401);
});

test('an unknown bearer token, an unknown scheme and a malformed OAuth header get 401', async () => {
  for (const authorization of ['Bearer nope', 'Basic dXNlcjpwYXNz', 'OAuth garbage', 'OAuth oauth_consumer_key="x"']) {
    const res = await f.get('/2/posts/1', { headers: { authorization } });
    assert.equal(res.status, 401, authorization);
    assert.deepEqual(res.body, UNAUTHORIZED);
  }
});

test('OAuth 1.0a: a request signed by an independent client library (HMAC-SHA1, query parameters in the base string) is accepted', async () => {
  const res = await f.get('/2/users/me?user.fields=created_at,verified&expansions=pinned_post_id', { auth: f.oauth1As('ada') });
  assert.equal(res.status, 200);
  assert.equal(res.body.data.username, 'ada');
});

test('OAuth 1.0a: a query parameter changed after signing breaks the signature (401)', async () => {
  const url = `${plaza.urls.base_url}/2/users/me?user.fields=created_at`;
  const authorization = oauth1Header(signer('ada'), 'GET', url);
  const res = await call(plaza.urls.base_url, '/2/users/me?user.fields=verified', { headers: { authorization } });
  assert.equal(res.status, 401);
});

test('OAuth 1.0a: form-body parameters are part of the signature base string', async () => {
  const c = signer('ada');
  const url = `${plaza.urls.base_url}/2/webhooks`;
  const form = { url: 'not a url' };
  const signed = await call(plaza.urls.base_url, '/2/webhooks', { method: 'POST', form, headers: { authorization: oauth1Header(c, 'POST', url, form) } });
  assert.equal(signed.status, 400, 'authenticated, then refused for the url');
  const tampered = await call(plaza.urls.base_url, '/2/webhooks', { method: 'POST', form: { url: 'other' }, headers: { authorization: oauth1Header(c, 'POST', url, form) } });
  assert.equal(tampered.status, 401);
});

test('OAuth 1.0a: a wrong token secret or consumer secret is refused', async () => {
  const c = signer('ada');
  for (const bad of [{ ...c, token_secret: 'wrong' }, { ...c, consumer_secret: 'wrong' }]) {
    const res = await f.get('/2/users/me', { auth: { oauth1: bad } });
    assert.equal(res.status, 401);
  }
});

test('OAuth 1.0a: oauth_nonce accepts ASCII values only', async () => {
  const url = `${plaza.urls.base_url}/2/users/me`;
  const res = await call(plaza.urls.base_url, '/2/users/me', { headers: { authorization: headerWith(signer('ada'), 'GET', url, { nonce: 'nonce-é-ü', timestamp: nowSeconds() }) } });
  assert.equal(res.status, 401);
  const ascii = await call(plaza.urls.base_url, '/2/users/me', { headers: { authorization: headerWith(signer('ada'), 'GET', url, { nonce: 'plain-ascii-nonce-1', timestamp: nowSeconds() }) } });
  assert.equal(ascii.status, 200);
});

test('OAuth 1.0a: a nonce used twice inside the window is refused', async () => {
  const url = `${plaza.urls.base_url}/2/users/me`;
  const authorization = headerWith(signer('bruno'), 'GET', url, { nonce: 'once-only-nonce', timestamp: nowSeconds() });
  const first = await call(plaza.urls.base_url, '/2/users/me', { headers: { authorization } });
  assert.equal(first.status, 200);
  const replay = await call(plaza.urls.base_url, '/2/users/me', { headers: { authorization } });
  assert.equal(replay.status, 401);
});

test('OAuth 1.0a: a timestamp outside the window (15 minutes either way, by the injected clock) is refused', async () => {
  const url = `${plaza.urls.base_url}/2/users/me`;
  const old = await call(plaza.urls.base_url, '/2/users/me', { headers: { authorization: headerWith(signer('chen'), 'GET', url, { nonce: 'n-old', timestamp: nowSeconds() - 16 * 60 }) } });
  assert.equal(old.status, 401);
  const future = await call(plaza.urls.base_url, '/2/users/me', { headers: { authorization: headerWith(signer('chen'), 'GET', url, { nonce: 'n-future', timestamp: nowSeconds() + 16 * 60 }) } });
  assert.equal(future.status, 401);
  const edge = await call(plaza.urls.base_url, '/2/users/me', { headers: { authorization: headerWith(signer('chen'), 'GET', url, { nonce: 'n-edge', timestamp: nowSeconds() - 14 * 60 }) } });
  assert.equal(edge.status, 200);
});

test('OAuth 1.0a behind a proxy: the signed https URL is honoured through X-Forwarded-Proto', async () => {
  const httpsUrl = `${plaza.urls.base_url.replace('http:', 'https:')}/2/users/me`;
  const authorization = oauth1Header(signer('dana'), 'GET', httpsUrl);
  const res = await call(plaza.urls.base_url, '/2/users/me', { headers: { authorization, 'x-forwarded-proto': 'https' } });
  assert.equal(res.status, 200);
});

test('each route declares the schemes it accepts: a user token on an app-only route gets 403 unsupported-authentication', async () => {
  const res = await f.get('/2/webhooks', { auth: f.oauth1As('ada') });
  assert.equal(res.status, 403);
  assert.equal(res.headers.get('content-type')?.startsWith('application/problem+json'), true);
  assert.equal(res.body.type, problemType('unsupported-authentication'));
  assert.equal(res.body.title, 'Unsupported Authentication');
  assert.match(res.body.detail, /Supported authentication types are \[OAuth 2\.0 Application-Only\]/);
});

test('OAuth 2.0 user tokens need the route\'s scopes', async () => {
  const db = plaza.ctx.store.db;
  const ada = f.user('ada');
  const limited = await issueOAuth2Tokens(plaza.ctx, db, f.selfServe.id, ada.id, ['users.read']);
  const res = await f.get(`/2/posts/${plaza.creds.sample.post_ids[0]}`, { auth: { bearer: limited.accessToken } });
  assert.equal(res.status, 403);
  assert.match(res.body.detail, /post\.read/);
  const full = await issueOAuth2Tokens(plaza.ctx, db, f.selfServe.id, ada.id, ['users.read', 'post.read']);
  assert.equal((await f.get(`/2/posts/${plaza.creds.sample.post_ids[0]}`, { auth: { bearer: full.accessToken } })).status, 200);
});

test('OAuth 2.0 user access tokens expire after 2 hours by the injected clock', async () => {
  const token = await issueOAuth2Tokens(plaza.ctx, plaza.ctx.store.db, f.selfServe.id, f.user('dana').id, ['users.read', 'post.read']);
  assert.equal((await f.get('/2/users/me', { auth: { bearer: token.accessToken } })).status, 200);
  clock.advance(2 * 60 * 60 * 1000 + 1000);
  try {
    assert.equal((await f.get('/2/users/me', { auth: { bearer: token.accessToken } })).status, 401);
  } finally {
    clock.advance(-(2 * 60 * 60 * 1000 + 1000));
  }
});

test('bearer and OAuth 2.0 tokens are stored only as SHA-256 hashes', async () => {
  const db = plaza.ctx.store.db;
  const bearer = f.selfServe.bearer_token;
  assert.equal((await db.selectFrom('app_bearer_tokens').selectAll().where('token_hash', '=', bearer).execute()).length, 0);
  assert.equal((await db.selectFrom('app_bearer_tokens').selectAll().where('token_hash', '=', hashToken(bearer)).execute()).length, 1);
  const oauth2 = f.user('ada').oauth2_access_token;
  assert.equal((await db.selectFrom('oauth2_tokens').selectAll().where('token_hash', '=', hashToken(oauth2)).execute()).length, 1);
  const users = await db.selectFrom('users').select('password_hash').execute();
  for (const u of users) assert.match(u.password_hash ?? '', /^scrypt\$/);
});

test('an invalidated app bearer token gets 401', async () => {
  const db = plaza.ctx.store.db;
  const token = f.enterprise.bearer_token;
  assert.equal((await f.get('/2/webhooks', { auth: { bearer: token } })).status, 200);
  await db.updateTable('app_bearer_tokens').set({ invalidated_at: clock.now().toISOString() }).where('token_hash', '=', hashToken(token)).execute();
  assert.equal((await f.get('/2/webhooks', { auth: { bearer: token } })).status, 401);
});

test("who a bearer token belongs to is kept across its user's posts (a post counts itself in the user's row, which says nothing of the credential), and a revocation through the interface applies to the next request", async () => {
  const { store } = plaza.ctx;
  const auth = await f.selfServeAs('dana');
  assert.equal((await f.get('/2/users/me', { auth })).status, 200);
  // On PostgreSQL the generation also moves each second (another process's revocation is seen
  // within one): compare what this process's writes make of it.
  const ownWrites = () => store.credentialsGeneration()?.split(':')[0];
  const before = ownWrites();
  const posted = await f.post(auth, { text: `kept credentials ${Date.now()}` });
  assert.equal(posted.status, 201, posted.text);
  assert.equal(ownWrites(), before, "a post (and its author's post_count) leaves the credentials' generation alone");
  // What the user's row does say moves it: a profile change.
  await store.db.updateTable('users').set({ location: 'Lisbon' }).where('id', '=', f.user('dana').id).execute();
  assert.notEqual(ownWrites(), before);
  const revoked = await call(plaza.urls.base_url, '/2/oauth2/revoke', { method: 'POST', form: { client_id: f.selfServe.client_id, token: auth.bearer, token_type_hint: 'access_token' } });
  assert.equal(revoked.status, 200, revoked.text);
  assert.equal((await f.get('/2/users/me', { auth })).status, 401);
});
