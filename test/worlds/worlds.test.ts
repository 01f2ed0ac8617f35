import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { dumpStore } from '../../src/worlds/dump.js';
import { flushPostReads } from '../../src/platform/usage/post-reads.js';
import type { CredentialsFile } from '../../src/seed/credentials.js';
import { call, oauth1Header, startTestPlaza, type TestPlaza } from '../support/server.js';
import { StreamClient } from '../support/streams.js';
import { WebhookReceiver } from '../support/receivers.js';
import { approveOAuth1, FormClient, pinOf } from '../web/support.js';

let plaza: TestPlaza;
const closers: Array<() => unknown> = [];

before(async () => {
  plaza = await startTestPlaza({ activityPollMs: 50, activityKeepAliveMs: 1_000 });
});
after(async () => {
  for (const close of closers.reverse()) await close();
});

const admin = (method: string, p: string, body?: unknown) => call(plaza.urls.base_url, p, { method, auth: { bearer: plaza.adminToken! }, ...(body === undefined ? {} : { body }) });

async function newWorld(body: Record<string, unknown> = {}): Promise<{ id: string; credentials: CredentialsFile }> {
  const res = await admin('POST', '/admin/worlds', body);
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

/** A 1x1 PNG. */
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const as = (c: CredentialsFile, username = 'ada') => ({ bearer: c.users.find((u) => u.username === username)!.oauth2_access_token });
/** The user's OAuth 2.0 token for the enterprise demo app (apps[1]), which may follow and like. */
const enterpriseAs = (c: CredentialsFile, username: string) => ({ bearer: c.users.find((u) => u.username === username)!.tokens.find((t) => t.app_id === c.apps[1].id)!.oauth2_access_token });
const app = (c: CredentialsFile) => ({ bearer: c.apps[0].bearer_token });
const oauth1 = (c: CredentialsFile, username = 'ada') => {
  const u = c.users.find((x) => x.username === username)!;
  return { oauth1: { consumer_key: c.apps[0].consumer_key, consumer_secret: c.apps[0].consumer_secret, token: u.access_token, token_secret: u.access_token_secret } };
};

test('POST /admin/worlds answers 201 with an id and credentials in the credentials file\'s shape, keys and tokens of its own; GET /admin/worlds lists it', async () => {
  const world = await newWorld({ seed: 'demo' });
  assert.match(world.id, /^w[0-9a-z]{10}$/);
  const c = world.credentials;
  for (const key of ['base_url', 'ads_url', 'ads_sandbox_url', 'apps', 'users', 'sample'] as const) assert.ok(key in c, key);
  assert.equal(c.base_url, plaza.urls.base_url);
  assert.notEqual(c.apps[0].consumer_key, plaza.creds.apps[0].consumer_key);
  assert.notEqual(c.apps[0].bearer_token, plaza.creds.apps[0].bearer_token);
  assert.notEqual(c.users[0].access_token, plaza.creds.users[0].access_token);
  assert.equal(c.users.length, plaza.creds.users.length);
  const listed = await admin('GET', '/admin/worlds');
  assert.equal(listed.status, 200);
  const entry = listed.body.data.find((w: { id: string }) => w.id === world.id);
  assert.deepEqual({ ...entry, created_at: undefined }, { id: world.id, seed: 'demo', snapshots: [], created_at: undefined });
  // Every kind of credential works in its world: app-only, OAuth 2.0 user, OAuth 1.0a user.
  for (const auth of [app(c), as(c), oauth1(c)]) {
    const me = await call(plaza.urls.base_url, '/2/users/by/username/ada', { auth });
    assert.equal(me.status, 200, me.text);
  }
  const empty = await newWorld({ seed: 'empty' });
  assert.equal(empty.credentials.apps.length, 1);
  assert.equal(empty.credentials.users.length, 1);
  const bad = await admin('POST', '/admin/worlds', { seed: 'full' });
  assert.equal(bad.status, 400);
  assert.match(bad.text, /seed/);
});

test('nothing of one world is visible from another: posts, lookups, search, streams and webhooks', async () => {
  const [a, b] = [await newWorld(), await newWorld()];
  // A filtered stream in b, whose rule matches ada (who is in both worlds, with the same id), sees nothing of a.
  const rule = await call(plaza.urls.base_url, '/2/posts/search/stream/rules', { method: 'POST', auth: app(b.credentials), body: { add: [{ value: 'from:ada' }] } });
  assert.equal(rule.status, 200, rule.text);
  const rules = async (c: CredentialsFile) => ((await call(plaza.urls.base_url, '/2/posts/search/stream/rules', { auth: app(c) })).body.data ?? []).map((r: { value: string }) => r.value);
  assert.deepEqual(await rules(b.credentials), ['from:ada']);
  assert.deepEqual(await rules(a.credentials), [], 'b\'s rule is not a\'s (the same app id in both)');
  const stream = await StreamClient.open(plaza.urls.base_url, '/2/posts/search/stream', b.credentials.apps[0].bearer_token);
  closers.push(() => stream.close());
  assert.equal(stream.status, 200);
  const inA = await call(plaza.urls.base_url, '/2/posts', { method: 'POST', auth: as(a.credentials), body: { text: 'only in world a #isolation' } });
  assert.equal(inA.status, 201, inA.text);
  const id = inA.body.data.id;
  assert.equal((await call(plaza.urls.base_url, `/2/posts/${id}`, { auth: app(a.credentials) })).status, 200);
  const fromB = await call(plaza.urls.base_url, `/2/posts/${id}`, { auth: app(b.credentials) });
  assert.equal(fromB.body.errors?.[0]?.title, 'Not Found Error', fromB.text);
  const fromDefault = await call(plaza.urls.base_url, `/2/posts/${id}`, { auth: { bearer: plaza.creds.apps[0].bearer_token } });
  assert.equal(fromDefault.body.errors?.[0]?.title, 'Not Found Error');
  // Recent search ends ten seconds before now: a's clock moves on a minute (b's does not).
  assert.equal((await admin('POST', `/admin/worlds/${a.id}/clock`, { advance: 'PT1M' })).status, 200);
  assert.equal((await call(plaza.urls.base_url, '/2/posts/search/recent?query=isolation', { auth: app(a.credentials) })).body.meta.result_count, 1);
  assert.equal((await admin('POST', `/admin/worlds/${b.id}/clock`, { advance: 'PT1M' })).status, 200);
  assert.equal((await call(plaza.urls.base_url, '/2/posts/search/recent?query=isolation', { auth: app(b.credentials) })).body.meta.result_count, 0);
  // b's own post reaches b's stream; a's never did.
  const inB = await call(plaza.urls.base_url, '/2/posts', { method: 'POST', auth: as(b.credentials), body: { text: 'in world b' } });
  assert.equal(inB.status, 201, inB.text);
  await stream.until(() => stream.lines().some((l) => l.includes(inB.body.data.id)), 'b\'s post on b\'s stream');
  assert.ok(!stream.raw.includes(id), 'a\'s post is not on b\'s stream');
  // The same user id in two worlds is two users: a's follow is not b's.
  const follower = a.credentials.users.find((u) => u.username === 'ada')!;
  const dana = a.credentials.users.find((u) => u.username === 'dana')!;
  const followed = await call(plaza.urls.base_url, `/2/users/${follower.id}/following`, { method: 'POST', auth: enterpriseAs(a.credentials, 'ada'), body: { target_user_id: dana.id } });
  assert.equal(followed.status, 200, followed.text);
  const following = async (c: CredentialsFile) => ((await call(plaza.urls.base_url, `/2/users/${follower.id}/following`, { auth: { bearer: c.apps[1].bearer_token } })).body.data ?? []).map((u: { id: string }) => u.id);
  assert.ok((await following(a.credentials)).includes(dana.id), 'the follow in a');
  assert.ok(!(await following(b.credentials)).includes(dana.id), 'no follow in b');
  // Rate-limit windows are the world's own (the worlds' users share ids): a's two requests are not b's.
  assert.equal((await call(plaza.urls.base_url, '/2/users/me', { auth: as(a.credentials) })).body.data.username, 'ada');
  const limitA = await call(plaza.urls.base_url, '/2/users/me', { auth: as(a.credentials) });
  const limitB = await call(plaza.urls.base_url, '/2/users/me', { auth: as(b.credentials) });
  const remaining = (res: typeof limitA) => Number(res.headers.get('x-rate-limit-remaining'));
  assert.equal(remaining(limitB), Number(limitB.headers.get('x-rate-limit-limit')) - 1);
  assert.ok(remaining(limitA) < remaining(limitB), `${remaining(limitA)} < ${remaining(limitB)}`);
});

test('each world has its own clock: /admin/worlds/{id}/clock moves one world only', async () => {
  const w = await newWorld({ seed: 'empty' });
  const moved = await admin('POST', `/admin/worlds/${w.id}/clock`, { set: '2030-01-01T00:00:00Z', frozen: true });
  assert.equal(moved.status, 200, moved.text);
  assert.equal((await admin('GET', `/admin/worlds/${w.id}/clock`)).body.data.now, '2030-01-01T00:00:00.000Z');
  assert.notEqual((await admin('GET', '/admin/clock')).body.data.now, '2030-01-01T00:00:00.000Z');
  assert.equal((await admin('GET', '/admin/worlds/default/clock')).body.data.mode, 'real');
  // (OAuth 1.0a: the world's OAuth 2.0 tokens expired two hours after they were minted, by its clock.)
  const posted = await call(plaza.urls.base_url, '/2/posts', { method: 'POST', auth: oauth1(w.credentials), body: { text: 'from the future' } });
  assert.equal(posted.status, 201, posted.text);
  const read = await call(plaza.urls.base_url, `/2/posts/${posted.body.data.id}?post.fields=created_at`, { auth: app(w.credentials) });
  assert.equal(read.body.data.created_at, '2030-01-01T00:00:00.000Z');
  // The admin operations that act as a person, in a world.
  const users = await admin('GET', `/admin/worlds/${w.id}/users`);
  assert.deepEqual(users.body.data.map((u: { username: string }) => u.username), ['ada']);
  assert.equal((await admin('GET', '/admin/worlds/wzzzzzzzzzz/users')).status, 404);
});

test('a deleted world\'s credentials get 401 at once', async () => {
  const w = await newWorld({ seed: 'empty' });
  assert.equal((await call(plaza.urls.base_url, '/2/users/me', { auth: as(w.credentials) })).status, 200);
  const deleted = await admin('DELETE', `/admin/worlds/${w.id}`);
  assert.equal(deleted.status, 200, deleted.text);
  for (const auth of [as(w.credentials), app(w.credentials), oauth1(w.credentials)]) {
    assert.equal((await call(plaza.urls.base_url, '/2/users/me', { auth })).status, 401);
  }
  assert.equal((await admin('DELETE', `/admin/worlds/${w.id}`)).status, 404);
  assert.ok(!(await admin('GET', '/admin/worlds')).body.data.some((x: { id: string }) => x.id === w.id));
});

test('reset and restore bring back exactly the recorded state (the whole store, ids and all); a restore ends the world\'s streams', async () => {
  const w = await newWorld();
  const worldStore = async () => (await plaza.worlds.get(w.id))!.ctx.store;
  const seeded = await dumpStore(await worldStore());
  const first = await call(plaza.urls.base_url, '/2/posts', { method: 'POST', auth: as(w.credentials), body: { text: 'before the snapshot' } });
  assert.equal(first.status, 201, first.text);
  const snap = await admin('POST', `/admin/worlds/${w.id}/snapshots`, { name: 'one-post' });
  assert.equal(snap.status, 201, snap.text);
  const recorded = await dumpStore(await worldStore());
  assert.deepEqual((await admin('GET', `/admin/worlds/${w.id}/snapshots`)).body.data.map((s: { name: string }) => s.name), ['one-post']);
  const second = await call(plaza.urls.base_url, '/2/posts', { method: 'POST', auth: as(w.credentials), body: { text: 'after the snapshot' } });
  assert.equal(second.status, 201);
  const stream = await StreamClient.open(plaza.urls.base_url, '/2/posts/sample/stream', w.credentials.apps[1].bearer_token);
  closers.push(() => stream.close());
  assert.equal(stream.status, 200);
  const restored = await admin('POST', `/admin/worlds/${w.id}/snapshots/one-post/restore`);
  assert.equal(restored.status, 200, restored.text);
  await stream.until(() => stream.ended, 'the stream to end');
  assert.match(stream.raw, /operational-disconnect/);
  assert.deepEqual(await dumpStore(await worldStore()), recorded);
  assert.equal((await call(plaza.urls.base_url, `/2/posts/${second.body.data.id}`, { auth: app(w.credentials) })).body.errors?.[0]?.title, 'Not Found Error');
  assert.equal((await call(plaza.urls.base_url, `/2/posts/${first.body.data.id}`, { auth: app(w.credentials) })).status, 200);
  // Reset: the seed state, and the same credentials still work.
  assert.equal((await admin('POST', `/admin/worlds/${w.id}/reset`)).status, 200);
  assert.deepEqual(await dumpStore(await worldStore()), seeded);
  assert.equal((await call(plaza.urls.base_url, '/2/users/me', { auth: as(w.credentials) })).status, 200);
  assert.equal((await call(plaza.urls.base_url, `/2/posts/${first.body.data.id}`, { auth: app(w.credentials) })).body.errors?.[0]?.title, 'Not Found Error');
  // Writes go on after a restore: the event log and its readers start again.
  const third = await call(plaza.urls.base_url, '/2/posts', { method: 'POST', auth: as(w.credentials), body: { text: 'after the reset' } });
  assert.equal(third.status, 201, third.text);
  assert.equal((await admin('DELETE', `/admin/worlds/${w.id}/snapshots/one-post`)).status, 200);
  assert.equal((await admin('POST', `/admin/worlds/${w.id}/snapshots/one-post/restore`)).status, 404);
});

test('a snapshot written to a file makes a new world in that state, with credentials of its own and its media', async () => {
  const w = await newWorld({ seed: 'empty' });
  const uploaded = await call(plaza.urls.base_url, '/2/media/upload', { method: 'POST', auth: as(w.credentials), body: { media: png.toString('base64'), media_category: 'post_image' } });
  assert.equal(uploaded.status, 200, uploaded.text);
  const media = uploaded.body.data as { media_key: string };
  const posted = await call(plaza.urls.base_url, '/2/posts', { method: 'POST', auth: as(w.credentials), body: { text: 'a shared fixture' } });
  assert.equal(posted.status, 201, posted.text);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-snapshot-')), 'fixture.json');
  closers.push(() => fs.rmSync(path.dirname(file), { recursive: true, force: true }));
  assert.equal((await admin('POST', `/admin/worlds/${w.id}/snapshots`, { name: 'fixture', file })).status, 201);
  const copy = await newWorld({ snapshot_file: file });
  // Its media come with it, served from the new world's folder at the new world's address.
  const mediaUrl: string = (await call(plaza.urls.base_url, `/2/media/${media.media_key}?media.fields=url`, { auth: as(copy.credentials) })).body.data.url;
  assert.ok(mediaUrl.includes(`/media/${copy.id}~`), mediaUrl);
  const bytes = await fetch(mediaUrl);
  assert.equal(bytes.status, 200);
  assert.deepEqual(Buffer.from(await bytes.arrayBuffer()), png);
  assert.notEqual(copy.credentials.apps[0].consumer_key, w.credentials.apps[0].consumer_key);
  const read = await call(plaza.urls.base_url, `/2/posts/${posted.body.data.id}`, { auth: app(copy.credentials) });
  assert.equal(read.status, 200, read.text);
  assert.equal(read.body.data.text, 'a shared fixture');
  // The original's credentials are still the original's only.
  assert.equal((await call(plaza.urls.base_url, '/2/users/me', { auth: as(w.credentials) })).status, 200);
  const bad = await admin('POST', '/admin/worlds', { snapshot_file: path.join(path.dirname(file), 'missing.json') });
  assert.equal(bad.status, 400);
  assert.match(bad.text, /snapshot_file/);
});

test('webhooks of a world receive its events only; media, usage and ads accounts are the world\'s own', async () => {
  const [a, b] = [await newWorld(), await newWorld()];
  // The enterprise app of each world, with ada's OAuth 1.0a tokens for it.
  const enterprise1 = (c: CredentialsFile, username = 'ada') => {
    const u = c.users.find((x) => x.username === username)!;
    const t = u.tokens.find((x) => x.app_id === c.apps[1].id)!;
    return { oauth1: { consumer_key: c.apps[1].consumer_key, consumer_secret: c.apps[1].consumer_secret, token: t.access_token, token_secret: t.access_token_secret } };
  };
  const receivers = new Map<string, WebhookReceiver>();
  for (const w of [a, b]) {
    const receiver = await new WebhookReceiver().start();
    closers.push(() => receiver.close());
    receiver.secret = w.credentials.apps[1].consumer_secret;
    receivers.set(w.id, receiver);
    const hook = await call(plaza.urls.base_url, '/2/webhooks', { method: 'POST', auth: { bearer: w.credentials.apps[1].bearer_token }, body: { url: receiver.url('hook') } });
    assert.equal(hook.status, 200, hook.text);
    const sub = await call(plaza.urls.base_url, `/2/account_activity/webhooks/${hook.body.data.id}/subscriptions/all`, { method: 'POST', auth: enterprise1(w.credentials) });
    assert.equal(sub.status, 200, sub.text);
  }
  const posted = new Map<string, string>();
  for (const w of [a, b]) {
    const res = await call(plaza.urls.base_url, '/2/posts', { method: 'POST', auth: enterprise1(w.credentials), body: { text: `a post of ${w.id}` } });
    assert.equal(res.status, 201, res.text);
    posted.set(w.id, res.body.data.id);
  }
  for (const w of [a, b]) {
    const receiver = receivers.get(w.id)!;
    await receiver.until(() => receiver.on('hook').some((d) => d.raw.includes(posted.get(w.id)!)), `${w.id}'s post delivered to ${w.id}'s webhook`);
    const other = w === a ? b : a;
    assert.ok(!receiver.deliveries.some((d) => d.raw.includes(posted.get(other.id)!)), `${other.id}'s post never reaches ${w.id}'s webhook`);
  }

  // Media: uploaded in a, kept in a's folder, unknown in b.
  const upload = await call(plaza.urls.base_url, '/2/media/upload', { method: 'POST', auth: as(a.credentials), body: { media: png.toString('base64'), media_category: 'post_image' } });
  assert.equal(upload.status, 200, upload.text);
  const mediaKey = upload.body.data.media_key;
  // Kept in a's folder on SQLite, in a's own database on PostgreSQL.
  if (plaza.ctx.store.dialect === 'sqlite') assert.ok(fs.readdirSync(path.join(plaza.dataDir, 'worlds', a.id, 'media')).some((f) => f.startsWith(mediaKey)), 'the file in a\'s folder');
  assert.equal((await call(plaza.urls.base_url, `/2/media/${mediaKey}`, { auth: as(a.credentials) })).status, 200);
  // Its bytes are fetched without credentials: the URL names the world.
  const mediaUrl: string = (await call(plaza.urls.base_url, `/2/media/${mediaKey}?media.fields=url`, { auth: as(a.credentials) })).body.data.url;
  assert.ok(mediaUrl.startsWith(`${plaza.urls.base_url}/media/${a.id}~`), mediaUrl);
  const fetched = await fetch(mediaUrl);
  assert.equal(fetched.status, 200);
  assert.deepEqual(Buffer.from(await fetched.arrayBuffer()), png);
  assert.equal((await fetch(mediaUrl.replace(a.id, b.id))).status, 404);
  // The seeded media of a demo world are served in it too.
  const seeded = a.credentials.sample.media_keys[0]!;
  const seededUrl: string = (await call(plaza.urls.base_url, `/2/media/${seeded}?media.fields=url`, { auth: as(a.credentials) })).body.data.url;
  assert.equal((await fetch(seededUrl)).status, 200, seededUrl);
  assert.equal((await call(plaza.urls.base_url, `/2/media/${mediaKey}`, { auth: as(b.credentials) })).body.errors?.[0]?.title, 'Not Found Error');

  // Usage: the posts a's app read are counted in a only.
  const usage = async (c: CredentialsFile) => (await call(plaza.urls.base_url, '/2/usage/posts', { auth: app(c) })).body.data.project_usage;
  const before = await usage(b.credentials);
  for (let i = 0; i < 3; i++) assert.equal((await call(plaza.urls.base_url, `/2/posts/${posted.get(a.id)}`, { auth: app(a.credentials) })).status, 200);
  // Counts are written within a second; written now.
  for (const w of [a, b]) await flushPostReads((await plaza.worlds.get(w.id))!.ctx);
  assert.ok(Number(await usage(a.credentials)) >= 1);
  assert.equal(await usage(b.credentials), before);

  // Ads: a campaign made in a's account is not in b's (the same account id in both).
  const chenA = a.credentials.users.find((u) => u.username === 'chen')!;
  const account = chenA.ads_account_ids[0];
  const ads = (c: CredentialsFile, p: string, method = 'GET') => call(c.ads_url, p, { method, auth: oauth1(c, 'chen') });
  const fi = (await ads(a.credentials, `/12/accounts/${account}/funding_instruments`)).body.data[0].id;
  const made = await ads(a.credentials, `/12/accounts/${account}/campaigns?funding_instrument_id=${fi}&name=only-in-a&daily_budget_amount_local_micro=1000000`, 'POST');
  assert.equal(made.status, 200, made.text);
  const names = async (c: CredentialsFile) => ((await ads(c, `/12/accounts/${account}/campaigns`)).body.data ?? []).map((x: { name: string }) => x.name);
  assert.ok((await names(a.credentials)).includes('only-in-a'));
  assert.ok(!(await names(b.credentials)).includes('only-in-a'));
});

test('the developer console lists the worlds', async () => {
  const w = await newWorld({ seed: 'empty' });
  const browser = new FormClient(plaza.urls.base_url);
  await browser.signIn('ada', plaza.creds.users.find((u) => u.username === 'ada')!.password);
  const page = await browser.get('/developer');
  assert.equal(page.status, 200);
  assert.match(page.text, /<h2 id="worlds">Worlds<\/h2>/);
  assert.ok(page.text.includes(w.id));
});

test('the browser flows find the world by the request token: a person of the world signs in on its consent page and the app gets tokens of that world', async () => {
  const w = await newWorld({ seed: 'empty' });
  const keys = { consumer_key: w.credentials.apps[0]!.consumer_key, consumer_secret: w.credentials.apps[0]!.consumer_secret };
  const form = { oauth_callback: 'oob' };
  const requested = await call(plaza.urls.base_url, '/oauth/request_token', { method: 'POST', form, headers: { authorization: oauth1Header(keys, 'POST', `${plaza.urls.base_url}/oauth/request_token`, form) } });
  assert.equal(requested.status, 200, requested.text);
  const requestToken = new URLSearchParams(requested.text);
  const token = requestToken.get('oauth_token')!;
  assert.ok(token.startsWith(`${w.id}~`), token);
  const ada = w.credentials.users[0]!;
  const pinPage = await approveOAuth1(new FormClient(plaza.urls.base_url), `/oauth/authorize?oauth_token=${token}`, { username: ada.username, password: ada.password });
  const verifier = pinOf(pinPage);
  const exchange = { oauth_verifier: verifier };
  const exchanged = await call(plaza.urls.base_url, '/oauth/access_token', {
    method: 'POST',
    form: exchange,
    headers: { authorization: oauth1Header({ ...keys, token, token_secret: requestToken.get('oauth_token_secret')! }, 'POST', `${plaza.urls.base_url}/oauth/access_token`, exchange) },
  });
  assert.equal(exchanged.status, 200, exchanged.text);
  const issued = new URLSearchParams(exchanged.text);
  assert.equal(issued.get('user_id'), ada.id);
  const me = await call(plaza.urls.base_url, '/2/users/me', { auth: { oauth1: { ...keys, token: issued.get('oauth_token')!, token_secret: issued.get('oauth_token_secret')! } } });
  assert.equal(me.status, 200, me.text);
  assert.equal(me.body.data.id, ada.id);
});
