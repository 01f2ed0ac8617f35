import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { hashToken } from '../../src/auth/tokens.js';
import { call, oauth1Header, startTestPlaza, type TestPlaza } from '../support/server.js';
import { createTestApp, twitterClient } from '../web/support.js';
import { fixtures } from '../support/fixtures.js';

let plaza: TestPlaza;
let f: ReturnType<typeof fixtures>;

before(async () => {
  plaza = await startTestPlaza();
  f = fixtures(plaza);
});

const basic = (key: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(key)}:${encodeURIComponent(secret)}`).toString('base64')}`;
const UNABLE = { errors: [{ code: 99, label: 'authenticity_token_error', message: 'Unable to verify your credentials' }] };

async function token(app: { consumer_key: string; consumer_secret: string }, form: Record<string, string> = { grant_type: 'client_credentials' }) {
  return call(plaza.urls.base_url, '/oauth2/token', { method: 'POST', form, headers: { authorization: basic(app.consumer_key, app.consumer_secret) } });
}

async function invalidate(app: { consumer_key: string; consumer_secret: string }, accessToken: string) {
  return call(plaza.urls.base_url, '/oauth2/invalidate_token', { method: 'POST', form: { access_token: accessToken }, headers: { authorization: basic(app.consumer_key, app.consumer_secret) } });
}

test('POST /oauth2/token: "grant_type=client_credentials, Basic consumer key:secret" answers {"token_type":"bearer","access_token":…}', async () => {
  const app = await createTestApp(plaza, f.user('ada').id);
  const res = await token(app);
  assert.equal(res.status, 200, res.text);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  assert.deepEqual(Object.keys(res.body), ['token_type', 'access_token']);
  assert.equal(res.body.token_type, 'bearer');
  assert.match(res.body.access_token, /^AAAAAAAAAAAAAAAAAAAAA[A-Za-z0-9]{24}%3D[A-Za-z0-9]{40}$/);
  const lookup = await f.get(`/2/posts/${plaza.creds.sample.post_ids[0]}`, { auth: { bearer: res.body.access_token } });
  assert.equal(lookup.status, 200);
});

test('POST /oauth2/token: "the same token until invalidated" (the demo app gets the bearer token of the credentials file)', async () => {
  const first = await token(f.selfServe);
  const second = await token(f.selfServe);
  assert.equal(first.body.access_token, second.body.access_token);
  assert.equal(first.body.access_token, f.selfServe.bearer_token);
});

test('app-only tokens stay SHA-256 hashes at rest: the store holds the hash and a salt, never the token', async () => {
  const issued = (await token(f.enterprise)).body.access_token as string;
  const db = plaza.ctx.store.db;
  const rows = await db.selectFrom('app_bearer_tokens').selectAll().where('app_id', '=', f.enterprise.id).execute();
  assert.ok(rows.some((r) => r.token_hash === hashToken(issued)));
  const everything = JSON.stringify([rows, await db.selectFrom('app_bearer_derivations').selectAll().execute(), await db.selectFrom('settings').selectAll().execute()]);
  assert.equal(everything.includes(issued), false);
  assert.equal(everything.includes(issued.slice(21, 45)), false);
});

test('the same token survives a restart: it is derived again from the server secret in the data folder', async () => {
  const before = (await token(f.selfServe)).body.access_token;
  await plaza.restart();
  assert.equal((await token(f.selfServe)).body.access_token, before);
});

test('POST /oauth2/token: a bad grant, bad credentials or no Basic header get 403 code 99 "Unable to verify your credentials"', async () => {
  for (const res of [
    await token(f.selfServe, { grant_type: 'password' }),
    await token(f.selfServe, {}),
    await token({ ...f.selfServe, consumer_secret: 'wrong' }),
    await token({ consumer_key: 'nobody', consumer_secret: 'x' }),
    await call(plaza.urls.base_url, '/oauth2/token', { method: 'POST', form: { grant_type: 'client_credentials' } }),
  ]) {
    assert.equal(res.status, 403, res.text);
    assert.deepEqual(res.body, UNABLE);
  }
});

test('POST /oauth2/invalidate_token answers {"access_token": the same token}; the token then gets 401 and /oauth2/token yields a different one', async () => {
  const app = await createTestApp(plaza, f.user('bruno').id);
  const issued = (await token(app)).body.access_token as string;
  const res = await invalidate(app, issued);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, { access_token: issued });
  assert.equal((await f.get(`/2/posts/${plaza.creds.sample.post_ids[0]}`, { auth: { bearer: issued } })).status, 401);
  const next = (await token(app)).body.access_token;
  assert.notEqual(next, issued);
  assert.equal((await f.get(`/2/posts/${plaza.creds.sample.post_ids[0]}`, { auth: { bearer: next } })).status, 200);
});

test('POST /oauth2/invalidate_token: an unknown token, another app\'s token, an already invalidated token or bad credentials get 403 code 99', async () => {
  const app = await createTestApp(plaza, f.user('chen').id);
  const issued = (await token(app)).body.access_token as string;
  for (const res of [
    await invalidate(app, 'AAAAnot-a-token'),
    await invalidate(app, f.enterprise.bearer_token),
    await invalidate({ ...app, consumer_secret: 'wrong' }, issued),
  ]) {
    assert.equal(res.status, 403, res.text);
    assert.deepEqual(res.body, UNABLE);
  }
  assert.equal((await invalidate(app, issued)).status, 200);
  assert.deepEqual((await invalidate(app, issued)).body, UNABLE);
});

test('POST /oauth2/invalidate_token accepts a token whose "%3D" was decoded to "=" by an unencoded form body, and an OAuth 1.0a signature of the app', async () => {
  const app = await createTestApp(plaza, f.user('dana').id);
  const issued = (await token(app)).body.access_token as string;
  const raw = await fetch(`${plaza.urls.base_url}/oauth2/invalidate_token`, {
    method: 'POST',
    headers: { authorization: basic(app.consumer_key, app.consumer_secret), 'content-type': 'application/x-www-form-urlencoded' },
    body: `access_token=${issued}`,
  });
  assert.equal(raw.status, 200);
  assert.deepEqual(await raw.json(), { access_token: issued });

  const next = (await token(app)).body.access_token as string;
  const url = `${plaza.urls.base_url}/oauth2/invalidate_token`;
  const form = { access_token: next };
  const signed = await call(plaza.urls.base_url, '/oauth2/invalidate_token', {
    method: 'POST',
    form,
    headers: { authorization: oauth1Header({ consumer_key: app.consumer_key, consumer_secret: app.consumer_secret }, 'POST', url, form) },
  });
  assert.equal(signed.status, 200, signed.text);
  assert.deepEqual(signed.body, { access_token: next });
});

test('a real client library (twitter-api-v2) logs in app-only against Plaza and reads with the token', async () => {
  const client = twitterClient(plaza.urls.base_url, { appKey: f.selfServe.consumer_key, appSecret: f.selfServe.consumer_secret });
  const appClient = await client.appLogin();
  const post = await appClient.v2.get(`posts/${plaza.creds.sample.post_ids[0]}`);
  assert.equal(post.data.id, plaza.creds.sample.post_ids[0]);
  assert.equal(appClient.getActiveTokens().type, 'oauth2');
  assert.equal((appClient.getActiveTokens() as { bearerToken: string }).bearerToken, f.selfServe.bearer_token);
});
