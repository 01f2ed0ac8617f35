import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { issueOAuth1AccessToken, issueOAuth2Tokens } from '../../src/auth/issue.js';
import { call, oauth1Header, startTestPlaza, type TestPlaza } from '../support/server.js';
import { fixtures } from '../support/fixtures.js';

/**
 * Spec 000 (release history): "When OAuth 1.0a permissions are present they fully override OAuth
 * 2.0 scopes." Checked in src/auth/authenticate.ts where scopes are checked: the person's OAuth
 * 1.0a permission for the same app decides what kinds of access an OAuth 2.0 token has.
 */

let plaza: TestPlaza;
let f: ReturnType<typeof fixtures>;

before(async () => {
  plaza = await startTestPlaza();
  f = fixtures(plaza);
  // The demo workspace gives every user OAuth 1.0a tokens for both demo apps; these tests grant
  // the enterprise app's permissions themselves, starting from none.
  await plaza.ctx.store.db.deleteFrom('oauth1_tokens').where('app_id', '=', f.enterprise.id).execute();
});

const EVERYTHING = ['post.read', 'users.read', 'users.email', 'follows.read', 'follows.write', 'dm.read', 'dm.write', 'offline.access'];

async function oauth2(username: string, scopes = EVERYTHING, app = f.enterprise) {
  const issued = await issueOAuth2Tokens(plaza.ctx, plaza.ctx.store.db, app.id, f.user(username).id, scopes);
  return { bearer: issued.accessToken };
}

async function oauth1(username: string, level: 'read' | 'read-write' | 'read-write-directmessages', app = f.enterprise) {
  const issued = await issueOAuth1AccessToken(plaza.ctx, plaza.ctx.store.db, app.id, f.user(username).id, level);
  return { consumer_key: app.consumer_key, consumer_secret: app.consumer_secret, token: issued.token, token_secret: issued.secret };
}

const follow = (username: string, target: string, auth: { bearer: string }) =>
  f.send('POST', `/2/users/${f.user(username).id}/following`, { auth, body: { target_user_id: f.user(target).id } });

test('"OAuth 1.0a permissions fully override OAuth 2.0 scopes": a read permission for the same app takes writing away from an OAuth 2.0 token', async () => {
  const token = await oauth2('ada');
  assert.equal((await follow('ada', 'dana', token)).status, 200, 'without OAuth 1.0a permission the scopes decide');
  await oauth1('ada', 'read');
  const refused = await follow('ada', 'chen', token);
  assert.equal(refused.status, 403);
  assert.match(refused.body.detail, /follows\.write/);
  const me = await f.get('/2/users/me?user.fields=confirmed_email', { auth: token });
  assert.equal(me.status, 200, 'reading stays allowed');
  assert.equal(me.body.data.confirmed_email, 'ada@plaza.example', 'users.email is a read');
});

test('"OAuth 1.0a permissions fully override OAuth 2.0 scopes": read-write allows writing but not direct messages, whatever dm.* scopes say', async () => {
  const token = await oauth2('bruno');
  await oauth1('bruno', 'read-write');
  assert.equal((await follow('bruno', 'dana', token)).status, 200);
  const dms = await f.get('/2/dm_events', { auth: token });
  assert.equal(dms.status, 403);
  assert.match(dms.body.detail, /dm\.read/);
});

test('"OAuth 1.0a permissions fully override OAuth 2.0 scopes": the widest live permission counts, and it never adds scopes the token lacks', async () => {
  const token = await oauth2('chen');
  await oauth1('chen', 'read');
  assert.equal((await f.get('/2/dm_events', { auth: token })).status, 403);
  await oauth1('chen', 'read-write-directmessages');
  assert.equal((await f.get('/2/dm_events', { auth: token })).status, 200);
  const narrow = await oauth2('chen', ['post.read', 'users.read']);
  assert.equal((await f.get('/2/dm_events', { auth: narrow })).status, 403, 'the permission allows DMs, the token has no dm.read');
});

test('"OAuth 1.0a permissions fully override OAuth 2.0 scopes": only the same app\'s permission counts, and an invalidated one no longer does', async () => {
  const token = await oauth2('dana');
  const readOnElsewhere = await oauth1('dana', 'read', f.selfServe);
  assert.ok(readOnElsewhere.token);
  const readHere = await oauth1('dana', 'read');
  assert.equal((await follow('dana', 'ada', token)).status, 403);
  const path = '/1.1/oauth/invalidate_token';
  const res = await call(plaza.urls.base_url, path, { method: 'POST', headers: { authorization: oauth1Header(readHere, 'POST', `${plaza.urls.base_url}${path}`) } });
  assert.equal(res.status, 200);
  assert.equal((await follow('dana', 'ada', token)).status, 200, 'without a live OAuth 1.0a permission for this app the scopes decide again');
});
