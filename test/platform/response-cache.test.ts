import assert from 'node:assert/strict';
import path from 'node:path';
import { before, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { ManualClock } from '../../src/clock.js';
import { CACHE_WINDOW_MS, ResponseCache } from '../../src/platform/response-cache.js';
import { fixtures, startTestPlaza, type TestPlaza } from '../support/server.js';
import { graphFixtures } from './graph-support.js';

const onSqlite = !process.env.DATABASE_URL;
const sqliteOnly = onSqlite ? false : 'the response cache serves the embedded SQLite store only';

let plaza: TestPlaza;
let clock: ManualClock;
let t: ReturnType<typeof fixtures>;
let g: ReturnType<typeof graphFixtures>;
before(async () => {
  clock = new ManualClock();
  plaza = await startTestPlaza({}, { clock });
  t = fixtures(plaza);
  g = graphFixtures(plaza);
});

const metricsOf = async (id: string, auth = t.appAuth, headers: Record<string, string> = {}) => {
  const res = await t.get(`/2/posts/${id}?post.fields=public_metrics,text`, { auth, headers });
  assert.equal(res.status, 200, res.text);
  return res.body.data as { text: string; public_metrics: Record<string, number> };
};

test('a repeated read is answered from the cache only while nothing was written: a like and a reply made through the API show at once', async () => {
  const created = await t.send('POST', '/2/posts', { auth: await g.enterpriseAs('ada'), body: { text: 'Counted while cached' } });
  assert.equal(created.status, 201, created.text);
  const postId: string = created.body.data.id;
  const before = await metricsOf(postId);
  assert.deepEqual(await metricsOf(postId), before);
  const dana = await g.enterpriseAs('dana');
  const like = await t.send('POST', `/2/users/${t.user('dana').id}/likes`, { auth: dana, body: { post_id: postId } });
  assert.equal(like.status, 200, like.text);
  assert.equal((await metricsOf(postId)).public_metrics.like_count, before.public_metrics.like_count + 1);
  const reply = await t.send('POST', '/2/posts', { auth: await g.enterpriseAs('chen'), body: { text: 'A reply for the cache test', reply: { in_reply_to_post_id: postId } } });
  assert.equal(reply.status, 201, reply.text);
  assert.equal((await metricsOf(postId)).public_metrics.reply_count, before.public_metrics.reply_count + 1);
});

test('Cache-Control: no-cache asks for an answer computed afresh, which equals the cached one while nothing changed', async () => {
  const postId = plaza.creds.sample.post_ids[0];
  const cached = await metricsOf(postId);
  assert.deepEqual(await metricsOf(postId, t.appAuth, { 'cache-control': 'no-cache' }), cached);
});

test('an edit of the text written straight into the SQLite file by another connection is seen on the next read', { skip: sqliteOnly }, async () => {
  const postId = plaza.creds.sample.post_ids[1];
  const original = (await metricsOf(postId)).text;
  assert.equal((await metricsOf(postId)).text, original);
  const other = new SQLite(path.join(plaza.dataDir, 'plaza.sqlite'));
  try {
    other.prepare('UPDATE posts SET text = ? WHERE id = ?').run(`${original} (changed elsewhere)`, postId);
  } finally {
    other.close();
  }
  assert.equal((await metricsOf(postId)).text, `${original} (changed elsewhere)`);
});

test('answers are kept per caller: a protected post cached for an approved follower is still withheld from an app-only caller', async () => {
  const protectedId = plaza.creds.sample.post_ids[4];
  const asFollower = await t.get(`/2/posts/${protectedId}`, { auth: t.oauth2As('ada') });
  assert.equal(asFollower.status, 200);
  assert.equal(asFollower.body.data?.id, protectedId, asFollower.text);
  const asApp = await t.get(`/2/posts/${protectedId}`, { auth: t.appAuth });
  assert.equal(asApp.body.data, undefined);
  assert.equal(asApp.body.errors[0].type, 'https://api.twitter.com/2/problems/not-authorized-for-resource');
});

test('a cached answer still needs valid credentials and valid parameters', async () => {
  const postId = plaza.creds.sample.post_ids[0];
  await metricsOf(postId);
  assert.equal((await t.get(`/2/posts/${postId}?post.fields=public_metrics,text`)).status, 401);
  assert.equal((await t.get(`/2/posts/${postId}?post.fields=public_metrics,text`, { auth: { bearer: 'not-a-token' } })).status, 401);
  assert.equal((await t.get(`/2/posts/${postId}?post.fields=nope`, { auth: t.appAuth })).status, 400);
});

test('a revoked OAuth 2.0 token stops working on the very next request, though its answers were cached', async () => {
  const postId = plaza.creds.sample.post_ids[0];
  const chen = t.user('chen');
  const auth = { bearer: chen.oauth2_access_token };
  assert.equal((await t.get(`/2/posts/${postId}`, { auth })).status, 200);
  assert.equal((await t.get(`/2/posts/${postId}`, { auth })).status, 200);
  const app = t.selfServe;
  const revoke = await t.send('POST', '/2/oauth2/revoke', {
    headers: { authorization: `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString('base64')}` },
    form: { token: chen.oauth2_access_token, token_type_hint: 'access_token' },
  });
  assert.equal(revoke.status, 200, revoke.text);
  assert.equal((await t.get(`/2/posts/${postId}`, { auth })).status, 401);
});

test('the store generation moves with every write that a reader could see, not with OAuth 1.0a nonces', { skip: sqliteOnly }, async () => {
  const { store } = plaza.ctx;
  const g0 = store.generation();
  assert.ok(g0);
  await store.db.insertInto('oauth_nonces').values({ consumer_key: 'k', nonce: 'cache-test', timestamp: 1, created_at: clock.now().toISOString() }).execute();
  assert.equal(store.generation(), g0);
  await store.db.updateTable('users').set({ description: 'moved' }).where('id', '=', t.user('dana').id).execute();
  assert.notEqual(store.generation(), g0);
});

test('on PostgreSQL, which other processes write unseen, nothing is cached: the store has no generation', { skip: onSqlite ? 'PostgreSQL only' : false }, () => {
  assert.equal(plaza.ctx.store.generation(), undefined);
});

test('an entry lives CACHE_WINDOW_MS by the injected clock, only at its generation, and the least recently used goes first', () => {
  const cache = new ResponseCache(3 * 2 * 10);
  const entry = (body: string, storedAt = 0) => ({ generation: 'g1', storedAt, contentType: 'application/json', body });
  cache.set('a', entry('0123456789'));
  assert.ok(cache.get('a', 'g1', CACHE_WINDOW_MS - 1));
  assert.equal(cache.get('a', 'g2', 1), undefined, 'another generation is a miss');
  cache.set('a', entry('0123456789'));
  assert.equal(cache.get('a', 'g1', CACHE_WINDOW_MS), undefined, 'too old');
  cache.set('a', entry('0123456789', 10));
  assert.equal(cache.get('a', 'g1', 9), undefined, 'a clock moved back is a miss');
  cache.set('a', entry('0123456789'));
  cache.set('b', entry('0123456789'));
  cache.set('c', entry('0123456789'));
  assert.ok(cache.get('a', 'g1', 1));
  cache.set('d', entry('0123456789'));
  assert.equal(cache.size, 3);
  assert.equal(cache.get('b', 'g1', 1), undefined, 'b was the least recently used');
  assert.ok(cache.get('a', 'g1', 1));
  cache.set('huge', entry('x'.repeat(100)));
  assert.equal(cache.get('huge', 'g1', 1), undefined, 'an answer larger than the whole budget is not kept');
});

test('time moves cached answers on: once the window has passed by the injected clock, is_edit_eligible is computed afresh', async () => {
  const created = await t.send('POST', '/2/posts', { auth: await g.enterpriseAs('ada'), body: { text: 'Editable for an hour' } });
  assert.equal(created.status, 201, created.text);
  const read = () => t.get(`/2/posts/${created.body.data.id}?post.fields=edit_controls`, { auth: t.appAuth });
  assert.equal((await read()).body.data.edit_controls.is_edit_eligible, true);
  assert.equal((await read()).body.data.edit_controls.is_edit_eligible, true);
  clock.advance(60 * 60_000);
  assert.equal((await read()).body.data.edit_controls.is_edit_eligible, false);
});
