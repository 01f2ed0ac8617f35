import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { fixtures, type Fixtures } from '../support/fixtures.js';
import { createTestApp } from '../web/support.js';
import { issueAppBearerToken } from '../../src/auth/issue.js';

/**
 * Issue 34, the tweet dialect whole: who the client is decides the names (the host it sent the
 * request to, its app's dialect setting), the dialect's default post fields, expansions that bring
 * their field, and x-access-level.
 */

let plaza: TestPlaza;
let g: Fixtures;
let quote: string;

before(async () => {
  plaza = await startTestPlaza();
  g = fixtures(plaza);
  quote = plaza.creds.sample.post_ids[2];
});
after(() => plaza.close());

const admin = (method: string, path: string, body?: unknown) => g.send(method, path, { headers: { authorization: `Bearer ${plaza.creds.admin_token}` }, ...(body ? { body } : {}) });

/** A request whose Host header names `host`, as a client pointed at Plaza by a proxy or a hosts-file entry sends it. */
function requestFor(host: string, path: string, bearer: string): Promise<{ status: number; body: any }> {
  const { port, hostname } = new URL(plaza.urls.base_url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path, headers: { host, authorization: `Bearer ${bearer}` } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('a request sent to one of the public platform\'s host names (api.twitter.com, api.x.com) is in the tweet dialect on every path: GET /2/users/:id answers tweet_count', async () => {
  const dana = g.user('dana');
  for (const host of ['api.twitter.com', 'api.x.com:443']) {
    const res = await requestFor(host, `/2/users/${dana.id}?user.fields=public_metrics`, g.selfServe.bearer_token);
    assert.equal(res.status, 200);
    assert.equal(typeof res.body.data.public_metrics.tweet_count, 'number', host);
    assert.equal(res.body.data.public_metrics.post_count, undefined);
  }
  const plain = await g.get(`/2/users/${dana.id}?user.fields=public_metrics`, { auth: g.appAuth });
  assert.equal(typeof plain.body.data.public_metrics.post_count, 'number', 'Plaza\'s own address keeps Plaza\'s names');
});

test('an app\'s dialect setting (PATCH /admin/apps/:app, GET /admin/apps, the credentials file) holds for all its requests: user lookups, timelines and errors in tweet names', async () => {
  assert.equal(plaza.creds.apps[0].dialect, 'post', 'the demo apps use Plaza\'s names');
  const owner = g.user('ada');
  const app = await createTestApp(plaza, owner.id, { name: 'Tweet names app', dialect: 'tweet' });
  const listed = await admin('GET', '/admin/apps');
  assert.equal(listed.body.data.find((a: { id: string }) => a.id === app.id).dialect, 'tweet');
  const auth = { bearer: await plaza.ctx.store.db.transaction().execute((tx) => issueAppBearerToken(plaza.ctx, tx, app.id)) };
  const dana = g.user('dana');
  const user = await g.get(`/2/users/${dana.id}?user.fields=public_metrics`, { auth });
  assert.equal(typeof user.body.data.public_metrics.tweet_count, 'number');
  const timeline = await g.get(`/2/users/${dana.id}/posts?max_results=5`, { auth });
  assert.equal(timeline.status, 200);
  assert.ok(timeline.body.data.every((p: Record<string, unknown>) => Array.isArray(p.edit_history_tweet_ids)));
  assert.equal(typeof timeline.body.meta.newest_id, 'string');
  const missing = await g.get('/2/posts/1234567890123456789', { auth });
  assert.equal(missing.body.errors[0].resource_type, 'tweet');

  const off = await admin('PATCH', `/admin/apps/${encodeURIComponent('Tweet names app')}`, { dialect: 'post' });
  assert.equal(off.status, 200);
  assert.equal(off.body.data.dialect, 'post');
  const back = await g.get(`/2/users/${dana.id}?user.fields=public_metrics`, { auth });
  assert.equal(typeof back.body.data.public_metrics.post_count, 'number');
  const bad = await admin('PATCH', `/admin/apps/${app.id}`, { dialect: 'x' });
  assert.equal(bad.status, 400);
});

test('in the tweet dialect a post\'s default fields are id, text and edit_history_tweet_ids; in Plaza\'s names id and text (spec 000)', async () => {
  const tweets = await g.get(`/2/tweets/${quote}`, { auth: g.appAuth });
  assert.deepEqual(Object.keys(tweets.body.data).sort(), ['edit_history_tweet_ids', 'id', 'text']);
  const chosen = await g.get(`/2/tweets/${quote}?tweet.fields=created_at`, { auth: g.appAuth });
  assert.deepEqual(Object.keys(chosen.body.data).sort(), ['created_at', 'edit_history_tweet_ids', 'id', 'text']);
  const posts = await g.get(`/2/posts/${quote}`, { auth: g.appAuth });
  assert.deepEqual(Object.keys(posts.body.data).sort(), ['id', 'text']);
});

test('an expansion brings its field: expansions=author_id shows author_id, referenced_posts.id shows referenced_posts, pinned_post_id shows pinned_post_id, owner_id on lists', async () => {
  const res = await g.get(`/2/posts/${quote}?expansions=author_id,referenced_posts.id`, { auth: g.appAuth });
  assert.equal(res.status, 200);
  assert.equal(typeof res.body.data.author_id, 'string');
  assert.ok(Array.isArray(res.body.data.referenced_posts));
  assert.ok(res.body.includes.users.some((u: { id: string }) => u.id === res.body.data.author_id));
  const plain = await g.get(`/2/posts/${quote}`, { auth: g.appAuth });
  assert.equal(plain.body.data.author_id, undefined, 'without the expansion, the field stays unselected');
  const dana = g.user('dana');
  const user = await g.get(`/2/users/${dana.id}?expansions=pinned_post_id`, { auth: g.appAuth });
  assert.equal(user.status, 200);
  assert.deepEqual(Object.keys(user.body.data).filter((k) => !['id', 'name', 'username', 'pinned_post_id'].includes(k)), []);
});

test('every expansion of the public description is accepted on post endpoints: entities.note.mentions.username and referenced_tweets.id.attachments.media_keys', async () => {
  const res = await g.get(`/2/tweets/${quote}?expansions=entities.note.mentions.username,referenced_tweets.id.attachments.media_keys`, { auth: g.appAuth });
  assert.equal(res.status, 200, res.text);
  assert.ok(Array.isArray(res.body.data.referenced_tweets));
  const search = await g.get('/2/tweets/search/recent?query=plaza&expansions=referenced_tweets.id.attachments.media_keys', { auth: g.appAuth });
  assert.equal(search.status, 200, search.text);
});

test('x-access-level is on every user-context answer (read, read-write, read-write-directmessages), and on no app-only one', async () => {
  const dana = g.user('dana');
  const oauth1 = await g.get(`/2/users/me`, { auth: g.oauth1As('dana') });
  assert.equal(oauth1.headers.get('x-access-level'), 'read-write-directmessages');
  const read = await g.get(`/2/users/me`, { auth: await g.enterpriseOAuth1As('dana', 'read') });
  assert.equal(read.headers.get('x-access-level'), 'read');
  const scoped = await g.get(`/2/users/me`, { auth: await g.selfServeAs('dana', ['users.read', 'post.read', 'post.write']) });
  assert.equal(scoped.headers.get('x-access-level'), 'read-write', scoped.text);
  const app = await g.get(`/2/users/${dana.id}`, { auth: g.appAuth });
  assert.equal(app.headers.get('x-access-level'), null);
});

test('errors in the tweet dialect echo names as the client wrote them (parameters of expansions), and edit_options.previous_tweet_id edits a post', async () => {
  const dana = g.user('dana');
  const bad = await g.get(`/2/users/${dana.id}?expansions=edit_history_tweet_ids`, { auth: g.appAuth });
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.body.errors[0].parameters, { expansions: ['edit_history_tweet_ids'] });
  assert.match(bad.body.errors[0].message, /\[edit_history_tweet_ids\]/);
  assert.doesNotMatch(bad.text, /_post_/);

  const ada = await g.enterpriseAs('ada');
  const first = await g.send('POST', '/2/tweets', { auth: ada, body: { text: `a tweet to edit ${Date.now()}` } });
  assert.equal(first.status, 201, first.text);
  const edited = await g.send('POST', '/2/tweets', { auth: ada, body: { text: 'a tweet, edited', edit_options: { previous_tweet_id: first.body.data.id } } });
  assert.equal(edited.status, 201, edited.text);
  assert.deepEqual(edited.body.data.edit_history_tweet_ids, [first.body.data.id, edited.body.data.id]);
});
