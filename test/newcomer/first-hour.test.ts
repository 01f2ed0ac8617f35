import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, test } from 'node:test';
import Fastify from 'fastify';
import { CompiledQuery } from 'kysely';
import { startPlaza } from '../../src/app.js';
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { Readiness, registerReadyz } from '../../src/http/health.js';
import { DUPLICATE_CONTENT, NOT_SUMMONED, sameTextQuery } from '../../src/platform/posts/rules.js';
import type { CredentialsFile } from '../../src/seed/credentials.js';
import { consentPermissions } from '../../src/web/oauth1-pages.js';
import { call, oauth1Header, startTestPlaza, type TestPlaza } from '../support/server.js';
import { FormClient } from '../web/support.js';

/**
 * Issue #16, a newcomer's first hour: from the credentials file alone, stage "a person mentions
 * the bot; the bot likes it and replies", and meet errors that point the way.
 */

let plaza: TestPlaza;
let creds: CredentialsFile;
const clock = new ManualClock();
const user = (name: string) => creds.users.find((u) => u.username === name)!;
const tokensOf = (name: string, app: number) => user(name).tokens.find((t) => t.app_id === creds.apps[app].id)!;
const bearer = (token: string) => ({ bearer: token });

before(async () => {
  plaza = await startTestPlaza({}, { clock });
  creds = plaza.creds;
});

test('credentials file: every demo user has a `tokens` entry per demo app naming its app_id, in the order of `apps`; the top-level tokens stay those of apps[0]', () => {
  assert.equal(creds.apps.length, 2);
  for (const u of creds.users) {
    assert.deepEqual(u.tokens.map((t) => t.app_id), creds.apps.map((a) => a.id), u.username);
    const first = u.tokens[0];
    assert.deepEqual(
      { access_token: u.access_token, access_token_secret: u.access_token_secret, oauth2_access_token: u.oauth2_access_token, oauth2_refresh_token: u.oauth2_refresh_token },
      { access_token: first.access_token, access_token_secret: first.access_token_secret, oauth2_access_token: first.oauth2_access_token, oauth2_refresh_token: first.oauth2_refresh_token },
    );
    assert.notEqual(u.tokens[1].oauth2_access_token, u.tokens[0].oauth2_access_token);
  }
  const onDisk = JSON.parse(fs.readFileSync(path.join(plaza.dataDir, 'credentials.json'), 'utf8')) as CredentialsFile;
  assert.deepEqual(onDisk.users.map((u) => u.tokens), creds.users.map((u) => u.tokens));
});

test("credentials file: each `tokens` entry works, OAuth 2.0 and OAuth 1.0a, as that user through that app", async () => {
  const me = `${creds.base_url}/2/users/me`;
  for (const u of creds.users) {
    for (const [i, t] of u.tokens.entries()) {
      const app = creds.apps[i];
      const v2 = await call(creds.base_url, '/2/users/me', { auth: bearer(t.oauth2_access_token) });
      assert.equal(v2.status, 200, `${u.username} ${app.tier} OAuth 2.0`);
      assert.equal(v2.body.data.id, u.id);
      const v1 = await call(creds.base_url, '/2/users/me', {
        headers: { authorization: oauth1Header({ consumer_key: app.consumer_key, consumer_secret: app.consumer_secret, token: t.access_token, token_secret: t.access_token_secret }, 'GET', me) },
      });
      assert.equal(v1.status, 200, `${u.username} ${app.tier} OAuth 1.0a`);
      assert.equal(v1.body.data.id, u.id);
    }
  }
});

test('a tier refusal names the rule and the local way out in detail (apps[1] and users[].tokens, or /developer), keeping registration_url; the enterprise tokens then do it', async () => {
  const dana = user('dana');
  const post = creds.sample.post_ids[0];
  const refused = await call(creds.base_url, `/2/users/${dana.id}/likes`, { method: 'POST', auth: bearer(tokensOf('dana', 0).oauth2_access_token), body: { post_id: post } });
  assert.equal(refused.status, 403, refused.text);
  assert.match(refused.body.type, /client-forbidden$/);
  assert.equal(refused.body.registration_url, 'https://developer.twitter.com/en/portal/product');
  assert.match(refused.body.detail, /not available to apps on the pro tier/);
  assert.match(refused.body.detail, /apps\[1\] \("Plaza Enterprise Demo", enterprise\)/);
  assert.match(refused.body.detail, /users\[\]\.tokens/);
  assert.match(refused.body.detail, /\/developer/);
  const liked = await call(creds.base_url, `/2/users/${dana.id}/likes`, { method: 'POST', auth: bearer(tokensOf('dana', 1).oauth2_access_token), body: { post_id: post } });
  assert.equal(liked.status, 200, liked.text);
  assert.equal(liked.body.data.liked, true);
});

test('a summoning refusal keeps the public sentence first, then names rule 1 and how to stage a scene or which tokens are exempt', async () => {
  const announcement = creds.sample.post_ids[3];
  const refused = await call(creds.base_url, '/2/posts', { method: 'POST', auth: bearer(tokensOf('dana', 0).oauth2_access_token), body: { text: 'Nice launch', reply: { in_reply_to_post_id: announcement } } });
  assert.equal(refused.status, 403, refused.text);
  assert.ok(refused.body.detail.startsWith(NOT_SUMMONED), refused.body.detail);
  assert.match(refused.body.detail, /rule 1 \(summoning\)/);
  assert.match(refused.body.detail, /To stage a scene, post as that person through the enterprise demo app apps\[1\]/);
  assert.match(refused.body.detail, /apps\[1\]/);
  const mention = await call(creds.base_url, '/2/posts', { method: 'POST', auth: bearer(tokensOf('dana', 0).oauth2_access_token), body: { text: 'Hello @bruno, are you there?' } });
  assert.equal(mention.status, 403);
  assert.match(mention.body.detail, /@bruno has not\. In Plaza: rule 1/);
});

test('the scene of issue #16 from the file alone: a person mentions the bot (apps[1] tokens); the bot (apps[0] tokens) replies, and likes it with its apps[1] tokens', async () => {
  const [person, bot] = [user('chen'), user('dana')];
  // The person acts through the enterprise app, which rule 1 does not bind.
  const mention = await call(creds.base_url, '/2/posts', { method: 'POST', auth: bearer(tokensOf(person.username, 1).oauth2_access_token), body: { text: '@dana what do you think of the plaza?' } });
  assert.equal(mention.status, 201, mention.text);
  const reply = await call(creds.base_url, '/2/posts', {
    method: 'POST',
    auth: bearer(tokensOf(bot.username, 0).oauth2_access_token),
    body: { text: '@chen I like it!', reply: { in_reply_to_post_id: mention.body.data.id } },
  });
  assert.equal(reply.status, 201, reply.text);
  const like = await call(creds.base_url, `/2/users/${bot.id}/likes`, { method: 'POST', auth: bearer(tokensOf(bot.username, 1).oauth2_access_token), body: { post_id: mention.body.data.id } });
  assert.equal(like.status, 200, like.text);
});

test('the demo apps belong to the first demo user, who sees them in the developer console and can open their settings', async () => {
  const owners = await plaza.ctx.store.db.selectFrom('apps').select(['id', 'owner_user_id']).where('id', 'in', creds.apps.map((a) => a.id)).execute();
  assert.deepEqual(owners.map((o) => o.owner_user_id), [creds.users[0].id, creds.users[0].id]);
  const browser = new FormClient(creds.base_url);
  await browser.signIn(creds.users[0].username, creds.users[0].password);
  const consolePage = await browser.get('/developer');
  assert.equal(consolePage.status, 200);
  for (const app of creds.apps) {
    assert.ok(consolePage.text.includes(app.name), `${app.name} listed`);
    const settings = await browser.get(`/developer/apps/${app.id}`);
    assert.equal(settings.status, 200, `${app.name} settings`);
    assert.match(settings.text, /callback_urls/);
  }
});

async function consentFor(app: CredentialsFile['apps'][number]): Promise<string> {
  const form = { oauth_callback: 'oob' };
  const url = `${creds.base_url}/oauth/request_token`;
  const res = await call(creds.base_url, '/oauth/request_token', { method: 'POST', form, headers: { authorization: oauth1Header(app, 'POST', url, form) } });
  assert.equal(res.status, 200, res.text);
  const token = new URLSearchParams(res.text).get('oauth_token')!;
  const page = await call(creds.base_url, `/oauth/authorize?oauth_token=${token}`);
  assert.equal(page.status, 200);
  return page.text;
}

test("the OAuth 1.0a consent page lists only what the app's tier allows: a pro app is not said to like or follow, an enterprise app is", async () => {
  const pro = await consentFor(creds.apps[0]);
  assert.match(pro, /Post and repost for you/);
  assert.doesNotMatch(pro, /Post, repost, like/);
  assert.match(pro, /Like posts or follow or unfollow accounts for you \(not available to apps on the pro tier\)/);
  assert.match(pro, /only where they mentioned you/);
  const enterprise = await consentFor(creds.apps[1]);
  assert.match(enterprise, /Post, repost, like and follow and unfollow for you/);
  assert.doesNotMatch(enterprise, /not available to apps/);
  assert.doesNotMatch(enterprise, /only where they mentioned you/);
});

test('consent permissions follow the release history: before Apr 20, 2026 a pro app still likes (not follows: removed in 2023); a read token is never said to write', () => {
  const early = consentPermissions('read-write', 'pro', new Date('2026-03-01T00:00:00Z'));
  assert.ok(early.can.some((t) => t.startsWith('Post, repost and like for you')), early.can.join(' | '));
  assert.ok(early.cannot.some((t) => t.startsWith('Follow or unfollow accounts')));
  const read = consentPermissions('read', 'enterprise', new Date('2026-06-01T00:00:00Z'));
  assert.ok(!read.can.some((t) => /Post/.test(t)));
  assert.ok(read.cannot.includes('Read or send your direct messages.'));
});

test('/healthz is liveness; /readyz answers 200 {status:"ready"} once the store is migrated, the demo seeded and the credentials file written, on every listener', async () => {
  for (const url of [creds.base_url, creds.ads_url, creds.ads_sandbox_url]) {
    assert.equal((await call(url, '/healthz')).status, 200);
    const ready = await call(url, '/readyz');
    assert.equal(ready.status, 200, url);
    assert.deepEqual(ready.body, { status: 'ready' });
  }
  assert.ok(fs.existsSync(path.join(plaza.dataDir, 'credentials.json')));
});

test('/readyz answers 503 {status:"starting", pending:[...]} naming each step not yet done', async () => {
  const readiness = new Readiness();
  const app = Fastify();
  registerReadyz(app, readiness);
  try {
    let res = await app.inject({ url: '/readyz' });
    assert.equal(res.statusCode, 503);
    assert.deepEqual(res.json(), { status: 'starting', pending: ['store_migrated', 'demo_seeded', 'credentials_written', 'workers_started'] });
    readiness.mark('store_migrated');
    readiness.mark('demo_seeded');
    res = await app.inject({ url: '/readyz' });
    assert.deepEqual(res.json().pending, ['credentials_written', 'workers_started']);
    readiness.mark('credentials_written');
    readiness.mark('workers_started');
    assert.equal((await app.inject({ url: '/readyz' })).statusCode, 200);
  } finally {
    await app.close();
  }
});

test('GET / on the platform listener: a browser (Accept: text/html) gets a page linking the console, sign-in, the OpenAPI document and /healthz; an API client gets the JSON 404', async () => {
  const page = await call(creds.base_url, '/', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  for (const link of ['/developer', '/login', '/2/openapi.json', '/healthz']) assert.ok(page.text.includes(`href="${link}"`), link);
  const api = await call(creds.base_url, '/', { headers: { accept: 'application/json' } });
  assert.equal(api.status, 404);
  assert.match(api.headers.get('content-type') ?? '', /application\/problem\+json/);
  assert.equal(api.body.title, 'Not Found');
  assert.equal((await call(creds.base_url, '/')).status, 404, 'no Accept header: an API client');
});

test('minting on start happens once per store: a second process on the same store given no credentials file of its own mints nothing and writes none; given the file, it reuses it', async () => {
  const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-second-'));
  const tokenCount = async () => Number((await plaza.ctx.store.db.selectFrom('oauth2_tokens').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const before = await tokenCount();
  const config = (file: string) =>
    loadConfig({ port: 0, adsPort: 0, adsSandboxPort: 0, proxyPort: 0, logLevel: 'silent', databaseUrl: plaza.databaseUrl, dataDir: otherDir, credentialsFile: file }, {});
  try {
    const alone = await startPlaza(config(path.join(otherDir, 'credentials.json')), { clock });
    try {
      assert.equal(alone.credentials, undefined);
      assert.equal(fs.existsSync(path.join(otherDir, 'credentials.json')), false, 'no file written');
      assert.equal(await tokenCount(), before, 'no OAuth 2.0 token minted');
      assert.equal((await call(alone.urls.base_url, '/readyz')).status, 200);
    } finally {
      await alone.close();
    }
    const given = path.join(otherDir, 'given.json');
    fs.copyFileSync(path.join(plaza.dataDir, 'credentials.json'), given);
    const withFile = await startPlaza(config(given), { clock });
    try {
      assert.deepEqual(withFile.credentials!.users, creds.users.map((u) => ({ ...u })), 'the same tokens, reused');
      assert.equal(await tokenCount(), before, 'no OAuth 2.0 token minted');
    } finally {
      await withFile.close();
    }
  } finally {
    fs.rmSync(otherDir, { recursive: true, force: true });
  }
});

test('duplicate content: a post repeating its author\'s post of the last 24 hours is refused with 403 "duplicate content" and changes nothing; other places, a deleted original or a day later are not duplicates', async () => {
  const ada = bearer(tokensOf('ada', 1).oauth2_access_token);
  const text = 'Same words, posted twice by a bot that forgot to dedupe.';
  const first = await call(creds.base_url, '/2/posts', { method: 'POST', auth: ada, body: { text } });
  assert.equal(first.status, 201, first.text);
  const count = async () => Number((await plaza.ctx.store.db.selectFrom('posts').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const before = await count();
  const again = await call(creds.base_url, '/2/posts', { method: 'POST', auth: ada, body: { text } });
  assert.equal(again.status, 403, again.text);
  assert.deepEqual(again.body, { title: 'Forbidden', type: 'about:blank', status: 403, detail: DUPLICATE_CONTENT });
  assert.equal(await count(), before, 'nothing written');
  // The same words by another author, or as a reply elsewhere, are other posts.
  assert.equal((await call(creds.base_url, '/2/posts', { method: 'POST', auth: bearer(tokensOf('chen', 1).oauth2_access_token), body: { text } })).status, 201);
  assert.equal((await call(creds.base_url, '/2/posts', { method: 'POST', auth: ada, body: { text, reply: { in_reply_to_post_id: first.body.data.id } } })).status, 201);
  // Posted more than a day ago (the clock moved back, then forward again): outside the window.
  const old = 'Words a bot posted yesterday and posts again today.';
  const day = 24 * 60 * 60 * 1000 + 1000;
  clock.advance(-day);
  try {
    assert.equal((await call(creds.base_url, '/2/posts', { method: 'POST', auth: ada, body: { text: old } })).status, 201);
  } finally {
    clock.advance(day);
  }
  const later = await call(creds.base_url, '/2/posts', { method: 'POST', auth: ada, body: { text: old } });
  assert.equal(later.status, 201, later.text);
  // A deleted original is no duplicate.
  assert.equal((await call(creds.base_url, `/2/posts/${first.body.data.id}`, { method: 'DELETE', auth: ada })).status, 200);
  assert.equal((await call(creds.base_url, '/2/posts', { method: 'POST', auth: ada, body: { text } })).status, 201);
});

test('duplicate content: texts alike in their first 64 characters and different after are two posts, a long text repeated is refused; the check reads the author\'s posts that begin alike (index posts_same_text), not every post of their day', async () => {
  const dana = bearer(tokensOf('dana', 1).oauth2_access_token);
  const start = 'A reading from the weather station on the hill, every ten minutes: '.repeat(2);
  assert.ok(start.length > 64);
  for (const end of ['12.1 C', '12.4 C']) assert.equal((await call(creds.base_url, '/2/posts', { method: 'POST', auth: dana, body: { text: start + end } })).status, 201, end);
  const again = await call(creds.base_url, '/2/posts', { method: 'POST', auth: dana, body: { text: `${start}12.4 C` } });
  assert.equal(again.status, 403, again.text);
  assert.equal(again.body.detail, DUPLICATE_CONTENT);

  const { db, dialect } = plaza.ctx.store;
  const query = sameTextQuery(db, user('dana').id, new Date(0).toISOString(), `${start}12.4 C`).compile();
  const plan = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(`${dialect === 'postgres' ? 'explain' : 'explain query plan'} ${query.sql}`, [...query.parameters]));
  assert.match(JSON.stringify(plan.rows), /posts_same_text/);
});
