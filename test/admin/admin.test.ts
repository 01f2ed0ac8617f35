import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { eventsAfter, lastEventSeq } from '../../src/events/log.js';
import { WebhookReceiver } from '../support/receivers.js';
import { call, oauth1Header, startTestPlaza, type TestPlaza } from '../support/server.js';
import { adminFixtures } from './support.js';
import { fixtures } from '../support/fixtures.js';

/**
 * The admin interface (issue #17 "An admin interface, for tests and people"): its token, who it
 * refuses, its own OpenAPI description, and acting as a person through the public services.
 */
let plaza: TestPlaza;
let f: ReturnType<typeof fixtures>;
let a: ReturnType<typeof adminFixtures>;
const receiver = new WebhookReceiver();

before(async () => {
  await receiver.start();
  plaza = await startTestPlaza();
  f = fixtures(plaza);
  a = adminFixtures(plaza);
});
after(() => receiver.close());

const eventsSince = async (seq: number, type: string) =>
  (await eventsAfter(plaza.ctx.store.db, seq, 10_000)).filter((e) => e.type === type).map((e) => ({ ...e, payload: JSON.parse(e.payload) }));

test('an admin token is generated on first start, written to the credentials file as admin_token, and kept in the store only as a hash', async () => {
  const token = plaza.creds.admin_token;
  assert.ok(token && token.length >= 32, 'admin_token in the credentials file');
  assert.equal(plaza.adminToken, token);
  const file = JSON.parse(fs.readFileSync(path.join(plaza.dataDir, 'credentials.json'), 'utf8'));
  assert.equal(file.admin_token, token);
  const settings = await plaza.ctx.store.db.selectFrom('settings').select(['key', 'value']).execute();
  assert.ok(settings.some((s) => s.key === 'admin_token'), 'a stored admin token record');
  assert.ok(settings.every((s) => !s.value.includes(token)), 'the token itself is nowhere in the store');
  assert.equal((await a.admin('GET', '/admin/clock')).status, 200);
});

test('the admin routes accept only `Authorization: Bearer <admin_token>`: no credentials, app bearer, OAuth 2.0 user and OAuth 1.0a tokens are refused with 401', async () => {
  const url = `${plaza.urls.base_url}/admin/clock`;
  const ada = f.user('ada');
  const refused: Array<[string, Record<string, string>]> = [
    ['none', {}],
    ['app bearer', { authorization: `Bearer ${f.selfServe.bearer_token}` }],
    ['enterprise app bearer', { authorization: `Bearer ${f.enterprise.bearer_token}` }],
    ['OAuth 2.0 user token', { authorization: `Bearer ${ada.oauth2_access_token}` }],
    ['OAuth 1.0a', { authorization: oauth1Header({ consumer_key: f.selfServe.consumer_key, consumer_secret: f.selfServe.consumer_secret, token: ada.access_token, token_secret: ada.access_token_secret }, 'GET', url) }],
    ['the admin token, not as a bearer token', { authorization: `Basic ${a.token()}` }],
    ['a wrong token', { authorization: `Bearer ${a.token()}x` }],
  ];
  for (const [what, headers] of refused) {
    for (const [method, p] of [['GET', '/admin/clock'], ['POST', `/admin/users/${ada.id}/posts`], ['GET', '/admin/faults']] as const) {
      const res = await call(plaza.urls.base_url, p, { method, headers, body: method === 'POST' ? { text: 'not allowed' } : undefined });
      assert.equal(res.status, 401, `${what} on ${method} ${p}: ${res.text}`);
      assert.match(res.headers.get('content-type') ?? '', /problem\+json/);
    }
  }
  const posts = await plaza.ctx.store.db.selectFrom('posts').select('id').where('text', '=', 'not allowed').execute();
  assert.equal(posts.length, 0, 'nothing was posted');
});

test('the admin token is refused on every interface route: platform (app-only and user routes) and ads', async () => {
  const bearer = { bearer: a.token() };
  for (const p of ['/2/users/me', `/2/posts/${plaza.creds.sample.post_ids[0]}`, '/2/users/by/username/ada', '/2/webhooks', '/2/connections']) {
    const res = await f.get(p, { auth: bearer });
    assert.equal(res.status, 401, `${p}: ${res.text}`);
  }
  assert.equal((await f.send('POST', '/2/posts', { auth: bearer, body: { text: 'with the admin token' } })).status, 401);
  const ads = await call(plaza.urls.ads_url, '/12/accounts', { auth: bearer });
  assert.ok(ads.status === 401 || ads.status === 403, `ads: ${ads.status} ${ads.text}`);
  const sandbox = await call(plaza.urls.ads_sandbox_url, '/12/accounts', { auth: bearer });
  assert.ok(sandbox.status === 401 || sandbox.status === 403, `ads sandbox: ${sandbox.status}`);
  // The admin routes live on the platform listener only.
  assert.equal((await call(plaza.urls.ads_url, '/admin/clock', { auth: bearer })).status, 404);
});

test('/admin/openapi.json documents the admin routes, apart from /2/openapi.json, which names none of them', async () => {
  const doc = await f.get('/admin/openapi.json');
  assert.equal(doc.status, 200);
  assert.equal(doc.body.openapi, '3.0.3');
  for (const [p, method] of [
    ['/admin/users/{id}/posts', 'post'], ['/admin/users', 'post'], ['/admin/clock', 'get'], ['/admin/clock', 'post'],
    ['/admin/faults', 'post'], ['/admin/faults', 'get'], ['/admin/faults', 'delete'], ['/admin/faults/{fault_id}', 'delete'],
    ['/admin/users/{id}/likes', 'post'], ['/admin/users/{id}/following', 'post'], ['/admin/users/{id}/dm', 'post'],
    ['/admin/users/{id}/profile', 'patch'], ['/admin/users/{id}/spaces', 'post'],
  ]) {
    assert.ok(doc.body.paths[p]?.[method], `${method} ${p} documented`);
    assert.deepEqual(doc.body.paths[p][method].security, [{ AdminToken: [] }]);
  }
  assert.ok(doc.body.paths['/admin/users/{id}/posts'].post.requestBody.content['application/json'].schema.properties.reply_to);
  const platform = await f.get('/2/openapi.json');
  assert.equal(platform.status, 200);
  assert.deepEqual(Object.keys(platform.body.paths).filter((p) => p.startsWith('/admin')), []);
});

test('act as a person: POST /admin/users/{id}/posts is a first-party post: a self-serve bot may reply to the person who mentions it, and the person is bound by no self-serve rule', async () => {
  const [ada, chen, dana] = [f.user('ada'), f.user('chen'), f.user('dana')];
  const seq = await lastEventSeq(plaza.ctx.store.db);
  const mention = await a.admin('POST', `/admin/users/${ada.id}/posts`, { body: { text: `@${chen.username} what do you think?` } });
  assert.equal(mention.status, 201, mention.text);
  const postId = mention.body.data.id;
  assert.equal(mention.body.data.text, `@${chen.username} what do you think?`);
  const read = await f.get(`/2/posts/${postId}?post.fields=author_id,source,entities`, { auth: f.appAuth });
  assert.equal(read.body.data.author_id, ada.id);
  assert.equal(read.body.data.source, 'Plaza Web App');
  const created = await eventsSince(seq, 'post.create');
  assert.ok(created.some((e) => e.subject === postId), 'post.create emitted as the public route does');

  // The bot (a self-serve app acting for chen) was summoned: its reply is allowed.
  const reply = await f.send('POST', '/2/posts', { auth: f.oauth1As(chen.username), body: { text: 'Thanks for asking!', reply: { in_reply_to_post_id: postId } } });
  assert.equal(reply.status, 201, reply.text);

  // The person replies and quotes where a self-serve app could not (nobody summoned ada).
  const danaPost = await a.admin('POST', `/admin/users/${dana.id}/posts`, { body: { text: 'a thought of my own' } });
  assert.equal(danaPost.status, 201);
  const viaApp = await f.send('POST', '/2/posts', { auth: f.oauth1As(ada.username), body: { text: 'unsummoned', reply: { in_reply_to_post_id: danaPost.body.data.id } } });
  assert.equal(viaApp.status, 403, 'a self-serve app is bound by the summoned-only rule');
  const personReply = await a.admin('POST', `/admin/users/${ada.id}/posts`, { body: { text: 'I agree', reply_to: danaPost.body.data.id } });
  assert.equal(personReply.status, 201, personReply.text);
  const personQuote = await a.admin('POST', `/admin/users/${ada.id}/posts`, { body: { text: 'worth reading', quote_of: danaPost.body.data.id } });
  assert.equal(personQuote.status, 201, personQuote.text);
  const refs = await f.get(`/2/posts?ids=${personReply.body.data.id},${personQuote.body.data.id}&post.fields=referenced_posts`, { auth: f.appAuth });
  assert.deepEqual(refs.body.data.map((p: any) => p.referenced_posts), [[{ type: 'replied_to', id: danaPost.body.data.id }], [{ type: 'quoted', id: danaPost.body.data.id }]]);

  const deleted = await a.admin('DELETE', `/admin/users/${dana.id}/posts/${danaPost.body.data.id}`);
  assert.equal(deleted.status, 200, deleted.text);
  assert.deepEqual(deleted.body.data, { deleted: true });
});

test('act as a person: the post rules of the public route still hold, and bad input names its parameter and changes nothing', async () => {
  const ada = f.user('ada');
  // Every event, those still waiting for their place in the log (PostgreSQL) too.
  const eventCount = async () => Number((await plaza.ctx.store.db.selectFrom('events').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const before = await eventCount();
  const empty = await a.admin('POST', `/admin/users/${ada.id}/posts`, { body: { text: '   ' } });
  assert.equal(empty.status, 400, empty.text);
  assert.ok('text' in empty.body.errors[0].parameters);
  const tooLong = await a.admin('POST', `/admin/users/${ada.id}/posts`, { body: { text: 'x'.repeat(25_001) } });
  assert.equal(tooLong.status, 400);
  const unknownUser = await a.admin('POST', '/admin/users/1234567890123/posts', { body: { text: 'hello' } });
  assert.equal(unknownUser.status, 404, unknownUser.text);
  assert.equal(unknownUser.body.parameter, 'id');
  const unknownReply = await a.admin('POST', `/admin/users/${ada.id}/posts`, { body: { text: 'hello', reply_to: '1234567890123' } });
  assert.ok(unknownReply.status === 400 || unknownReply.status === 404, unknownReply.text);
  const badKey = await a.admin('POST', `/admin/users/${ada.id}/posts`, { body: { text: 'hello', media_keys: ['nope'] } });
  assert.equal(badKey.status, 400);
  assert.ok('media_keys' in badKey.body.errors[0].parameters);
  const extra = await a.admin('POST', `/admin/users/${ada.id}/posts`, { body: { text: 'hello', bogus: 1 } });
  assert.equal(extra.status, 400);
  const badId = await a.admin('POST', '/admin/users/abc/posts', { body: { text: 'hello' } });
  assert.equal(badId.status, 400);
  assert.equal(await eventCount(), before, 'nothing was written');
});

test('act as a person: likes, follows, DMs, profile changes and space start/end go through the public services and emit their events', async () => {
  const [ada, bruno, dana] = [f.user('ada'), f.user('bruno'), f.user('dana')];
  const seq = await lastEventSeq(plaza.ctx.store.db);
  const target = (await a.admin('POST', `/admin/users/${ada.id}/posts`, { body: { text: 'something to like' } })).body.data.id;

  const liked = await a.admin('POST', `/admin/users/${dana.id}/likes`, { body: { post_id: target } });
  assert.equal(liked.status, 200, liked.text);
  assert.deepEqual(liked.body.data, { liked: true });
  assert.ok((await eventsSince(seq, 'like.create')).some((e) => e.payload.liking_user_id === dana.id && e.payload.liked_post_id === target));
  assert.deepEqual((await a.admin('DELETE', `/admin/users/${dana.id}/likes/${target}`)).body.data, { liked: false });
  assert.ok((await eventsSince(seq, 'like.delete')).some((e) => e.payload.user_id === dana.id));

  await a.admin('DELETE', `/admin/users/${dana.id}/following/${ada.id}`);
  const followed = await a.admin('POST', `/admin/users/${dana.id}/following`, { body: { target_user_id: ada.id } });
  assert.equal(followed.status, 200, followed.text);
  assert.equal(followed.body.data.following, true);
  assert.ok((await eventsSince(seq, 'follow.follow')).some((e) => e.subject === ada.id));
  // A protected account is asked, as through the public route.
  const pending = await a.admin('POST', `/admin/users/${dana.id}/following`, { body: { target_user_id: bruno.id } });
  assert.equal(pending.body.data.pending_follow, true, pending.text);
  const self = await a.admin('POST', `/admin/users/${dana.id}/following`, { body: { target_user_id: dana.id } });
  assert.equal(self.status, 400);

  const dm = await a.admin('POST', `/admin/users/${dana.id}/dm`, { body: { participant_id: ada.id, text: 'psst' } });
  assert.equal(dm.status, 201, dm.text);
  assert.ok(dm.body.data.dm_event_id && dm.body.data.dm_conversation_id);
  assert.ok((await eventsSince(seq, 'dm.received')).some((e) => e.subject === ada.id));

  const profile = await a.admin('PATCH', `/admin/users/${dana.id}/profile`, { body: { description: 'Now testing bots.' } });
  assert.equal(profile.status, 200, profile.text);
  assert.equal(profile.body.data.description, 'Now testing bots.');
  assert.ok((await eventsSince(seq, 'profile.update.bio')).some((e) => e.subject === dana.id));
  const badUrl = await a.admin('PATCH', `/admin/users/${dana.id}/profile`, { body: { url: 'not a url' } });
  assert.equal(badUrl.status, 400);
  assert.ok('url' in badUrl.body.errors[0].parameters);

  const space = await a.admin('POST', `/admin/users/${dana.id}/spaces`, { body: { title: 'Bot testing hour' } });
  assert.equal(space.status, 201, space.text);
  assert.equal(space.body.data.state, 'live');
  assert.ok((await eventsSince(seq, 'spaces.start')).some((e) => e.subject === space.body.data.id));
  const ended = await a.admin('POST', `/admin/users/${dana.id}/spaces/${space.body.data.id}/end`);
  assert.equal(ended.status, 200, ended.text);
  assert.equal(ended.body.data.state, 'ended');
  assert.ok((await eventsSince(seq, 'spaces.end')).some((e) => e.subject === space.body.data.id));
  assert.equal((await a.admin('POST', `/admin/users/${ada.id}/spaces/${space.body.data.id}/end`)).status, 403, 'only its creator ends it');
});

test('POST /admin/users creates a person with OAuth 1.0a and OAuth 2.0 tokens for the named app, returned once, that work on the interface', async () => {
  const created = await a.admin('POST', '/admin/users', { body: { username: 'testbot_fan', name: 'Test Fan', app: f.enterprise.name } });
  assert.equal(created.status, 201, created.text);
  const u = created.body.data;
  assert.equal(u.username, 'testbot_fan');
  assert.equal(u.app_id, f.enterprise.id);
  for (const key of ['id', 'password', 'access_token', 'access_token_secret', 'oauth2_access_token', 'oauth2_refresh_token']) assert.ok(typeof u[key] === 'string' && u[key].length > 0, key);
  const viaOAuth2 = await f.get('/2/users/me', { auth: { bearer: u.oauth2_access_token } });
  assert.equal(viaOAuth2.status, 200, viaOAuth2.text);
  assert.equal(viaOAuth2.body.data.id, u.id);
  const viaOAuth1 = await f.get('/2/users/me', {
    auth: { oauth1: { consumer_key: f.enterprise.consumer_key, consumer_secret: f.enterprise.consumer_secret, token: u.access_token, token_secret: u.access_token_secret } },
  });
  assert.equal(viaOAuth1.status, 200, viaOAuth1.text);
  assert.equal(viaOAuth1.body.data.username, 'testbot_fan');
  // The app may be named by id too; the first app when none is named.
  const byId = await a.admin('POST', '/admin/users', { body: { username: 'second_fan', app: f.selfServe.id, password: 'a long password' } });
  assert.equal(byId.status, 201, byId.text);
  assert.equal(byId.body.data.password, 'a long password');

  const taken = await a.admin('POST', '/admin/users', { body: { username: 'testbot_fan' } });
  assert.equal(taken.status, 400, taken.text);
  assert.ok('username' in taken.body.errors[0].parameters);
  const noApp = await a.admin('POST', '/admin/users', { body: { username: 'third_fan', app: 'No Such App' } });
  assert.equal(noApp.status, 400);
  assert.ok('app' in noApp.body.errors[0].parameters);
  const none = await plaza.ctx.store.db.selectFrom('users').select('id').where('username', '=', 'third_fan').execute();
  assert.equal(none.length, 0, 'a refused creation makes no user');
});

test('the scene of "Testing your bot": a person mentions the bot, the bot\'s webhook receives it, the bot replies', async () => {
  const [ada, chen] = [f.user('ada'), f.user('chen')];
  receiver.secret = f.selfServe.consumer_secret;
  const hook = await f.send('POST', '/2/webhooks', { auth: f.appAuth, body: { url: receiver.url('bot') } });
  assert.equal(hook.status, 200, hook.text);
  const sub = await f.send('POST', `/2/account_activity/webhooks/${hook.body.data.id}/subscriptions/all`, { auth: f.oauth1As(chen.username) });
  assert.equal(sub.status, 200, sub.text);

  const mention = await a.admin('POST', `/admin/users/${ada.id}/posts`, { body: { text: `@${chen.username} ping` } });
  assert.equal(mention.status, 201, mention.text);
  const id = mention.body.data.id;
  await receiver.until(() => receiver.on('bot').some((d) => d.body?.for_user_id === chen.id && d.body?.tweet_create_events?.some((p: any) => p.id === id)), 'the mention delivered to the bot');
  const reply = await f.send('POST', '/2/posts', { auth: f.oauth1As(chen.username), body: { text: 'pong', reply: { in_reply_to_post_id: id } } });
  assert.equal(reply.status, 201, reply.text);
});

test('--no-admin (config admin: false) turns the admin routes off (404) and writes no admin_token', async () => {
  const off = await startTestPlaza({ admin: false });
  assert.equal(off.creds.admin_token, undefined);
  assert.equal(off.adminToken, undefined);
  for (const p of ['/admin/clock', '/admin/openapi.json', '/admin/faults']) {
    assert.equal((await call(off.urls.base_url, p, { auth: { bearer: a.token() } })).status, 404, p);
  }
  assert.equal((await call(off.urls.base_url, '/admin/users', { method: 'POST', auth: { bearer: a.token() }, body: { username: 'nobody_here' } })).status, 404);
});

test('the admin token survives a restart on the same store', async () => {
  const token = a.token();
  await plaza.restart();
  assert.equal(plaza.creds.admin_token, token);
  assert.equal((await a.admin('GET', '/admin/clock')).status, 200);
});
