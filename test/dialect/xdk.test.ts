import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { Client, OAuth1 } from '@xdevplatform/xdk';
import { startTestPlaza, type TestPlaza } from '../support/server.js';

/**
 * @xdevplatform/xdk, the public platform's own TypeScript SDK, with `baseUrl` set to Plaza and
 * nothing else changed (issue 15). It asks for /2/tweets paths with post.fields and its request
 * bodies say tweet_id: both reach Plaza's operations.
 */

let plaza: TestPlaza;
let quote: string;

before(async () => {
  plaza = await startTestPlaza();
  [, , quote] = plaza.creds.sample.post_ids;
});

const user = (name: string) => plaza.creds.users.find((u) => u.username === name)!;

test('xdk with a bearer token: posts.getById(/2/tweets/:id) with post fields and expansions; the quoted post is expanded', async () => {
  const client = new Client({ baseUrl: plaza.urls.base_url, bearerToken: plaza.creds.apps[0].bearer_token });
  const res = (await client.posts.getById(quote, { postFields: ['created_at', 'public_metrics'], expansions: ['author_id'], userFields: ['username'] })) as Record<string, any>;
  assert.equal(res.data.id, quote);
  assert.match(res.data.createdAt, /Z$/, 'xdk gives members in camel case');
  assert.equal(res.includes.users[0].username, 'dana');
});

test('xdk with an OAuth 2.0 user token: users.getMe, posts.create, posts.delete (DELETE with Content-Type: application/json and no body, as xdk sends it, is no body)', async () => {
  const client = new Client({ baseUrl: plaza.urls.base_url, accessToken: user('chen').oauth2_access_token });
  const me = (await client.users.getMe()) as Record<string, any>;
  assert.equal(me.data.username, 'chen');
  const made = (await client.posts.create({ text: `hello from xdk ${Date.now()}` })) as Record<string, any>;
  assert.match(made.data.id, /^[0-9]+$/);
  const deleted = (await client.posts.delete(made.data.id)) as Record<string, any>;
  assert.deepEqual(deleted.data, { deleted: true });
});

test('xdk with OAuth 1.0a user context of the enterprise app: users.likePost sends {tweet_id} and likes; users.followUser follows', async () => {
  const [, enterprise] = plaza.creds.apps;
  const tokens = user('chen').tokens[1];
  const oauth1 = new OAuth1({ apiKey: enterprise.consumer_key, apiSecret: enterprise.consumer_secret, callback: 'oob', accessToken: tokens.access_token, accessTokenSecret: tokens.access_token_secret });
  const client = new Client({ baseUrl: plaza.urls.base_url, oauth1 });
  const liked = (await client.users.likePost(user('chen').id, { tweetId: quote })) as Record<string, any>;
  assert.deepEqual(liked.data, { liked: true });
  const followed = (await client.users.followUser(user('chen').id, { targetUserId: user('ada').id })) as Record<string, any>;
  assert.equal(followed.data.following, true);
});

test('xdk with the app in the tweet dialect (as the README tells SDK users): users.getById reads publicMetrics.tweetCount; posts.getById without fields has editHistoryTweetIds; expansions=author_id brings authorId (issue 34)', async () => {
  const [app] = plaza.creds.apps;
  const setDialect = (dialect: string) =>
    fetch(`${plaza.urls.base_url}/admin/apps/${app.id}`, { method: 'PATCH', headers: { authorization: `Bearer ${plaza.creds.admin_token}`, 'content-type': 'application/json' }, body: JSON.stringify({ dialect }) });
  assert.equal((await setDialect('tweet')).status, 200);
  try {
    const client = new Client({ baseUrl: plaza.urls.base_url, bearerToken: app.bearer_token });
    const dana = (await client.users.getById(user('dana').id, { userFields: ['public_metrics'] })) as Record<string, any>;
    assert.equal(typeof dana.data.publicMetrics.tweetCount, 'number');
    const plain = (await client.posts.getById(quote)) as Record<string, any>;
    assert.deepEqual(plain.data.editHistoryTweetIds, [quote]);
    const expanded = (await client.posts.getById(quote, { expansions: ['author_id'] })) as Record<string, any>;
    assert.equal(expanded.data.authorId, user('dana').id);
  } finally {
    await setDialect('post');
  }
});
