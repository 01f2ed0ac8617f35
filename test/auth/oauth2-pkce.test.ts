import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { before, test } from 'node:test';
import { ManualClock } from '../../src/clock.js';
import { call, startTestPlaza, type TestPlaza } from '../support/server.js';
import { createTestApp, FormClient, onPlaza, twitterClient } from '../web/support.js';
import { fixtures } from '../support/fixtures.js';

let plaza: TestPlaza;
let f: ReturnType<typeof fixtures>;
const clock = new ManualClock(new Date());
const REDIRECT = 'http://127.0.0.1:5173/callback';

before(async () => {
  plaza = await startTestPlaza({}, { clock });
  f = fixtures(plaza);
});

const verifierPair = () => {
  const verifier = crypto.randomBytes(32).toString('base64url');
  return { verifier, challenge: crypto.createHash('sha256').update(verifier).digest('base64url') };
};

interface AuthorizeParams {
  client_id?: string;
  redirect_uri?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  response_type?: string;
}

function authorizePath(p: AuthorizeParams, path = '/i/oauth2/authorize'): string {
  const query = new URLSearchParams(Object.entries({ response_type: 'code', client_id: f.selfServe.client_id, redirect_uri: REDIRECT, state: 'st4te', ...p }).filter(([, v]) => v !== undefined) as Array<[string, string]>);
  return `${path}?${query}`;
}

/** Signs in as the person on the consent page and approves; returns the redirect back to the app. */
async function approve(username: string, p: AuthorizeParams, decision: 'allow' | 'deny' = 'allow'): Promise<URL> {
  const browser = new FormClient(plaza.urls.base_url);
  const page = await browser.get(authorizePath(p));
  assert.equal(page.status, 200, page.text.slice(0, 500));
  const res = await browser.submit(page, /oauth2\/authorize$/, { decision, username, password: f.user(username).password });
  assert.equal(res.status, 302, res.text.slice(0, 500));
  return new URL(res.location!);
}

async function codeFor(username: string, scope: string, method: 'S256' | 'plain' = 'S256') {
  const pair = verifierPair();
  const challenge = method === 'S256' ? pair.challenge : pair.verifier;
  const back = await approve(username, { scope, code_challenge: challenge, code_challenge_method: method });
  return { code: back.searchParams.get('code')!, verifier: pair.verifier, state: back.searchParams.get('state') };
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

async function tokenRequest(form: Record<string, string>, confidential = false) {
  const headers: Record<string, string> = confidential ? { authorization: basic(f.selfServe.client_id, f.selfServe.client_secret) } : {};
  const body = confidential ? form : { client_id: f.selfServe.client_id, ...form };
  return call(plaza.urls.base_url, '/2/oauth2/token', { method: 'POST', form: body, headers });
}

const exchange = (c: { code: string; verifier: string }, confidential = false) =>
  tokenRequest({ grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, redirect_uri: REDIRECT }, confidential);

test('authorize page: "sign in, consent listing the scopes", then a redirect with state and code', async () => {
  const browser = new FormClient(plaza.urls.base_url);
  const page = await browser.get(authorizePath({ scope: 'post.read users.read offline.access', code_challenge: verifierPair().challenge, code_challenge_method: 'S256' }));
  assert.equal(page.status, 200);
  assert.match(page.text, /Plaza Demo<\/strong> is asking for these permissions/);
  for (const scope of ['post.read', 'users.read', 'offline.access']) assert.match(page.text, new RegExp(`<code>${scope.replace('.', '\\.')}</code>`));
  assert.match(page.text, /<label for="f-username">/);
  assert.match(page.text, /autocomplete="current-password"/);
  const res = await browser.submit(page, '/i/oauth2/authorize', { decision: 'allow', username: 'ada', password: f.user('ada').password });
  assert.equal(res.status, 302);
  const back = new URL(res.location!);
  assert.equal(`${back.origin}${back.pathname}`, REDIRECT);
  assert.equal(back.searchParams.get('state'), 'st4te');
  assert.ok((back.searchParams.get('code') ?? '').length >= 40);
  const again = await browser.get(authorizePath({ scope: 'users.read', code_challenge: 'abc' }));
  assert.match(again.text, /You are signed in as <strong>@ada<\/strong>/, 'signing in on the consent page starts a session');
});

test('authorize page: the API description\'s address /2/oauth2/authorize works like /i/oauth2/authorize', async () => {
  const page = await new FormClient(plaza.urls.base_url).get(authorizePath({ scope: 'users.read', code_challenge: 'abc' }, '/2/oauth2/authorize'));
  assert.equal(page.status, 200);
  assert.match(page.text, /action="\/2\/oauth2\/authorize"/);
});

test('authorize page: an unknown client_id or a redirect_uri that is not registered is shown to the person, never redirected', async () => {
  const browser = new FormClient(plaza.urls.base_url);
  for (const p of [{ client_id: 'nobody' }, { redirect_uri: 'https://evil.example/cb' }, { redirect_uri: `${REDIRECT}/more` }, { redirect_uri: undefined }]) {
    const res = await browser.get(authorizePath({ scope: 'users.read', code_challenge: 'abc', ...p }));
    assert.equal(res.status, 400, JSON.stringify(p));
    assert.equal(res.location, undefined);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
  }
});

test('authorize page: other bad parameters go back to the app as error=… with the state (missing state, PKCE, unknown scope, response_type)', async () => {
  const browser = new FormClient(plaza.urls.base_url);
  const cases: Array<[AuthorizeParams, string, RegExp]> = [
    [{ scope: 'users.read' }, 'invalid_request', /code_challenge/],
    [{ scope: 'users.read', code_challenge: 'abc', code_challenge_method: 'S512' }, 'invalid_request', /code_challenge_method/],
    [{ scope: 'users.read nonsense.scope', code_challenge: 'abc' }, 'invalid_scope', /nonsense\.scope/],
    [{ scope: '', code_challenge: 'abc' }, 'invalid_request', /scope/],
    [{ scope: 'users.read', code_challenge: 'abc', response_type: 'token' }, 'unsupported_response_type', /code/],
    [{ scope: 'users.read', code_challenge: 'abc', state: 'x'.repeat(501) }, 'invalid_request', /state/],
  ];
  for (const [p, error, description] of cases) {
    const res = await browser.get(authorizePath(p));
    assert.equal(res.status, 302, JSON.stringify(p));
    const back = new URL(res.location!);
    assert.equal(back.searchParams.get('error'), error);
    assert.match(back.searchParams.get('error_description')!, description);
    if (!p.state) assert.equal(back.searchParams.get('state'), 'st4te');
  }
  const noState = await browser.get(authorizePath({ scope: 'users.read', code_challenge: 'abc', state: '' }));
  assert.equal(new URL(noState.location!).searchParams.get('error'), 'invalid_request');
});

test('authorize page: denying sends the person back with error=access_denied and the state; no code is issued', async () => {
  const back = await approve('bruno', { scope: 'users.read', code_challenge: 'abc' }, 'deny');
  assert.equal(back.searchParams.get('error'), 'access_denied');
  assert.equal(back.searchParams.get('state'), 'st4te');
  assert.equal(back.searchParams.get('code'), null);
});

test('authorize page: a wrong password shows the consent page again with the error (401), nothing is issued', async () => {
  const browser = new FormClient(plaza.urls.base_url);
  const page = await browser.get(authorizePath({ scope: 'users.read', code_challenge: 'abc' }));
  const res = await browser.submit(page, '/i/oauth2/authorize', { decision: 'allow', username: 'ada', password: 'wrong' });
  assert.equal(res.status, 401);
  assert.match(res.text, /role="alert"/);
  assert.match(res.text, /The username or password is wrong/);
  assert.match(res.text, /aria-invalid="true"/);
});

test('POST /2/oauth2/token: code exchange with PKCE S256 for a public client (client_id in the body); "2 h access tokens"', async () => {
  const c = await codeFor('ada', 'post.read users.read');
  const res = await exchange(c);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(Object.keys(res.body).sort(), ['access_token', 'expires_in', 'scope', 'token_type']);
  assert.equal(res.body.token_type, 'bearer');
  assert.equal(res.body.expires_in, 7200);
  assert.equal(res.body.scope, 'post.read users.read');
  assert.equal(res.body.refresh_token, undefined, 'no refresh token without offline.access');
  const me = await f.get('/2/users/me', { auth: { bearer: res.body.access_token } });
  assert.equal(me.status, 200);
  assert.equal(me.body.data.username, 'ada');
  clock.advance(2 * 60 * 60 * 1000 - 1000);
  try {
    assert.equal((await f.get('/2/users/me', { auth: { bearer: res.body.access_token } })).status, 200, 'still valid just before 2 h');
    clock.advance(2000);
    assert.equal((await f.get('/2/users/me', { auth: { bearer: res.body.access_token } })).status, 401, 'expired after 2 h');
  } finally {
    clock.advance(-(2 * 60 * 60 * 1000 + 1000));
  }
});

test('POST /2/oauth2/token: code exchange for a confidential client (Basic client_id:client_secret), and PKCE "plain"', async () => {
  const c = await codeFor('chen', 'post.read users.read', 'plain');
  const res = await exchange(c, true);
  assert.equal(res.status, 200, res.text);
  const wrongSecret = await call(plaza.urls.base_url, '/2/oauth2/token', {
    method: 'POST',
    form: { grant_type: 'authorization_code', code: 'x', code_verifier: 'y', redirect_uri: REDIRECT },
    headers: { authorization: basic(f.selfServe.client_id, 'wrong') },
  });
  assert.equal(wrongSecret.status, 401);
  assert.equal(wrongSecret.body.error, 'invalid_client');
  const noClient = await call(plaza.urls.base_url, '/2/oauth2/token', { method: 'POST', form: { grant_type: 'authorization_code', code: 'x', code_verifier: 'y', redirect_uri: REDIRECT } });
  assert.equal(noClient.status, 401);
  assert.deepEqual(noClient.body, { error: 'unauthorized_client', error_description: 'Missing valid authorization header' });
});

test('POST /2/oauth2/token: the code_verifier must match the challenge, the redirect_uri the one authorized, and the client the code\'s', async () => {
  const c = await codeFor('dana', 'users.read');
  const wrongVerifier = await exchange({ ...c, verifier: verifierPair().verifier });
  assert.equal(wrongVerifier.status, 400);
  assert.equal(wrongVerifier.body.error, 'invalid_request');
  assert.match(wrongVerifier.body.error_description, /code_verifier/);
  const wrongRedirect = await tokenRequest({ grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, redirect_uri: 'oob' });
  assert.equal(wrongRedirect.status, 400);
  const otherClient = await call(plaza.urls.base_url, '/2/oauth2/token', {
    method: 'POST',
    form: { client_id: f.enterprise.client_id, grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, redirect_uri: REDIRECT },
  });
  assert.equal(otherClient.status, 400);
  for (const missing of ['code', 'code_verifier', 'redirect_uri']) {
    const form: Record<string, string> = { grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, redirect_uri: REDIRECT };
    delete form[missing];
    const res = await tokenRequest(form);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'invalid_request', error_description: `Missing required parameter [${missing}].` });
  }
  assert.equal((await exchange(c)).status, 200, 'the code survives failed attempts while fresh');
});

test('POST /2/oauth2/token: "30 s codes" by the injected clock', async () => {
  const late = await codeFor('ada', 'users.read');
  clock.advance(30_001);
  try {
    const res = await exchange(late);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'invalid_request', error_description: 'Value passed for the authorization code was invalid.' });
  } finally {
    clock.advance(-30_001);
  }
  const onTime = await codeFor('ada', 'users.read');
  clock.advance(29_000);
  try {
    assert.equal((await exchange(onTime)).status, 200);
  } finally {
    clock.advance(-29_000);
  }
});

test('POST /2/oauth2/token: a code works once; presenting it again also revokes the tokens it gave (RFC 6749 §4.1.2)', async () => {
  const c = await codeFor('bruno', 'post.read users.read offline.access');
  const first = await exchange(c);
  assert.equal(first.status, 200);
  const second = await exchange(c);
  assert.equal(second.status, 400);
  assert.equal((await f.get('/2/users/me', { auth: { bearer: first.body.access_token } })).status, 401);
  const refreshed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
  assert.equal(refreshed.status, 400);
});

test('POST /2/oauth2/token: "refresh with offline.access; refresh tokens single-use"', async () => {
  const c = await codeFor('chen', 'post.read users.read offline.access');
  const first = await exchange(c);
  assert.ok(first.body.refresh_token, 'offline.access gives a refresh token');
  const refreshed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
  assert.equal(refreshed.status, 200, refreshed.text);
  assert.equal(refreshed.body.expires_in, 7200);
  assert.equal(refreshed.body.scope, 'post.read users.read offline.access');
  assert.ok(refreshed.body.refresh_token);
  assert.notEqual(refreshed.body.refresh_token, first.body.refresh_token);
  assert.notEqual(refreshed.body.access_token, first.body.access_token);
  assert.equal((await f.get('/2/users/me', { auth: { bearer: refreshed.body.access_token } })).status, 200);
  const spent = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
  assert.equal(spent.status, 400);
  assert.deepEqual(spent.body, { error: 'invalid_request', error_description: 'Value passed for the token was invalid.' });
  const wrongClient = await call(plaza.urls.base_url, '/2/oauth2/token', {
    method: 'POST',
    form: { client_id: f.enterprise.client_id, grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token },
  });
  assert.equal(wrongClient.status, 400, 'a refresh token only works for its own client');
  assert.equal((await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token })).status, 200);
});

test('POST /2/oauth2/token: the demo\'s refresh tokens (issued outside the flow) refresh too', async () => {
  const res = await tokenRequest({ grant_type: 'refresh_token', refresh_token: f.user('dana').oauth2_refresh_token });
  assert.equal(res.status, 200, res.text);
  assert.ok(res.body.scope.includes('post.read'));
  assert.equal((await f.get('/2/users/me', { auth: { bearer: res.body.access_token } })).status, 200);
});

test('POST /2/oauth2/token: grant types other than authorization_code and refresh_token are refused', async () => {
  const res = await tokenRequest({ grant_type: 'client_credentials' });
  assert.equal(res.status, 400);
  assert.equal(res.body.error, 'unsupported_grant_type');
});

test('scopes: "accept the public tweet.* names as aliases and answer in the dialect asked"', async () => {
  const browser = new FormClient(plaza.urls.base_url);
  const page = await browser.get(authorizePath({ scope: 'tweet.read users.read tweet.write offline.access', code_challenge: 'abc' }));
  assert.match(page.text, /<code>tweet\.read<\/code>/);
  assert.match(page.text, /<code>tweet\.write<\/code>/);
  const c = await codeFor('dana', 'tweet.read users.read offline.access');
  const res = await exchange(c);
  assert.equal(res.body.scope, 'tweet.read users.read offline.access');
  const post = await f.get(`/2/posts/${plaza.creds.sample.post_ids[0]}`, { auth: { bearer: res.body.access_token } });
  assert.equal(post.status, 200, 'tweet.read counts as post.read');
  const refreshed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: res.body.refresh_token });
  assert.equal(refreshed.body.scope, 'tweet.read users.read offline.access', 'refreshes answer in the same dialect');
});

test('scopes: "The users.email scope lets GET /2/users/me return the confirmed email"', async () => {
  const withEmail = await exchange(await codeFor('ada', 'post.read users.read users.email'));
  const me = await f.get('/2/users/me?user.fields=confirmed_email', { auth: { bearer: withEmail.body.access_token } });
  assert.equal(me.status, 200);
  assert.equal(me.body.data.confirmed_email, 'ada@plaza.example');
  const without = await exchange(await codeFor('ada', 'post.read users.read'));
  const plain = await f.get('/2/users/me?user.fields=confirmed_email', { auth: { bearer: without.body.access_token } });
  assert.equal(plain.body.data.confirmed_email, undefined);
});

test('POST /2/oauth2/revoke: token_type_hint is required, as on the public platform', async () => {
  const c = await exchange(await codeFor('bruno', 'users.read post.read'));
  const res = await call(plaza.urls.base_url, '/2/oauth2/revoke', { method: 'POST', form: { client_id: f.selfServe.client_id, token: c.body.access_token } });
  assert.equal(res.status, 400);
  assert.deepEqual(res.body, { error: 'invalid_request', error_description: 'Missing required parameter [token_type_hint].' });
});

test('POST /2/oauth2/revoke: an access token stops working; a refresh token ends its whole grant; answers {"revoked":true}', async () => {
  const a = await exchange(await codeFor('chen', 'users.read post.read offline.access'));
  const revokeAccess = await call(plaza.urls.base_url, '/2/oauth2/revoke', { method: 'POST', form: { client_id: f.selfServe.client_id, token: a.body.access_token, token_type_hint: 'access_token' } });
  assert.equal(revokeAccess.status, 200);
  assert.deepEqual(revokeAccess.body, { revoked: true });
  assert.equal((await f.get('/2/users/me', { auth: { bearer: a.body.access_token } })).status, 401);
  const refreshed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: a.body.refresh_token });
  assert.equal(refreshed.status, 200, 'revoking the access token leaves the refresh token');

  const revokeRefresh = await call(plaza.urls.base_url, '/2/oauth2/revoke', {
    method: 'POST',
    form: { token: refreshed.body.refresh_token, token_type_hint: 'refresh_token' },
    headers: { authorization: basic(f.selfServe.client_id, f.selfServe.client_secret) },
  });
  assert.deepEqual(revokeRefresh.body, { revoked: true });
  assert.equal((await f.get('/2/users/me', { auth: { bearer: refreshed.body.access_token } })).status, 401, 'the access token of the grant ends too');
  assert.equal((await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token })).status, 400);
  const unknown = await call(plaza.urls.base_url, '/2/oauth2/revoke', { method: 'POST', form: { client_id: f.selfServe.client_id, token: 'unknown', token_type_hint: 'access_token' } });
  assert.deepEqual(unknown.body, { revoked: true }, 'RFC 7009: an unknown token is no error');
});

test('a real client library (twitter-api-v2) completes the PKCE exchange against Plaza, refreshes and revokes', async () => {
  const client = twitterClient(plaza.urls.base_url, { clientId: f.selfServe.client_id, clientSecret: f.selfServe.client_secret });
  const link = client.generateOAuth2AuthLink(REDIRECT, { scope: ['tweet.read', 'users.read', 'offline.access'] });
  const browser = new FormClient(plaza.urls.base_url);
  const page = await browser.get(onPlaza(plaza.urls.base_url, link.url));
  assert.equal(page.status, 200, page.text.slice(0, 300));
  const back = new URL((await browser.submit(page, '/i/oauth2/authorize', { decision: 'allow', username: 'ada', password: f.user('ada').password })).location!);
  assert.equal(back.searchParams.get('state'), link.state);
  const login = await client.loginWithOAuth2({ code: back.searchParams.get('code')!, codeVerifier: link.codeVerifier, redirectUri: REDIRECT });
  assert.equal(login.expiresIn, 7200);
  assert.deepEqual(login.scope, ['tweet.read', 'users.read', 'offline.access']);
  const me = await login.client.v2.get('users/me');
  assert.equal(me.data.username, 'ada');
  const refreshed = await client.refreshOAuth2Token(login.refreshToken!);
  assert.equal((await refreshed.client.v2.get('users/me')).data.username, 'ada');
  const revoked = await client.revokeOAuth2Token(refreshed.accessToken, 'access_token');
  assert.deepEqual(revoked, { revoked: true });
  await assert.rejects(refreshed.client.v2.get('users/me'));

  const publicClient = twitterClient(plaza.urls.base_url, { clientId: f.selfServe.client_id });
  const publicLink = publicClient.generateOAuth2AuthLink(REDIRECT, { scope: 'tweet.read users.read' });
  const consent = await browser.get(onPlaza(plaza.urls.base_url, publicLink.url));
  const code = new URL((await browser.submit(consent, '/i/oauth2/authorize', { decision: 'allow' })).location!).searchParams.get('code')!;
  const publicLogin = await publicClient.loginWithOAuth2({ code, codeVerifier: publicLink.codeVerifier, redirectUri: REDIRECT });
  assert.equal((await publicLogin.client.v2.get('users/me')).data.username, 'ada', 'a public client exchanges with its client_id only');
});

test('an app made in the console can run the PKCE flow with its own client id and redirect URI', async () => {
  const app = await createTestApp(plaza, f.user('dana').id, { callbackUrls: ['https://console-app.example/oauth'] });
  const pair = verifierPair();
  const browser = new FormClient(plaza.urls.base_url);
  const page = await browser.get(authorizePath({ client_id: app.client_id, redirect_uri: 'https://console-app.example/oauth', scope: 'users.read post.read', code_challenge: pair.challenge, code_challenge_method: 'S256' }));
  const back = new URL((await browser.submit(page, '/i/oauth2/authorize', { decision: 'allow', username: 'dana', password: f.user('dana').password })).location!);
  const res = await call(plaza.urls.base_url, '/2/oauth2/token', {
    method: 'POST',
    form: { grant_type: 'authorization_code', code: back.searchParams.get('code')!, code_verifier: pair.verifier, redirect_uri: 'https://console-app.example/oauth' },
    headers: { authorization: basic(app.client_id, app.client_secret) },
  });
  assert.equal(res.status, 200, res.text);
});

test('scopes: "Scopes as the reference lists them, with \'tweet\' renamed \'post\'" (every one is accepted and described, in either dialect)', async () => {
  const reference = [
    'tweet.read', 'tweet.write', 'tweet.moderate.write', 'users.email', 'users.read', 'follows.read', 'follows.write', 'offline.access', 'space.read',
    'mute.read', 'mute.write', 'like.read', 'like.write', 'list.read', 'list.write', 'block.read', 'block.write', 'bookmark.read', 'bookmark.write',
    'dm.read', 'dm.write', 'media.write', 'broadcast.read', 'broadcast.write', 'timeline.read',
  ];
  const renamed = reference.map((s) => s.replace(/^tweet\./, 'post.'));
  for (const scopes of [renamed, reference]) {
    const page = await new FormClient(plaza.urls.base_url).get(authorizePath({ scope: scopes.join(' '), code_challenge: 'abc' }));
    assert.equal(page.status, 200, page.location);
    for (const s of scopes) assert.ok(page.text.includes(`<code>${s}</code>`), s);
  }
  const c = await codeFor('bruno', renamed.join(' '));
  const res = await exchange(c);
  assert.equal(res.body.scope, renamed.join(' '));
});
