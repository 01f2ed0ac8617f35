import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { userDeclaration } from '../../../src/platform/users/wire.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures } from '../../support/fixtures.js';
import { problemType } from '../../support/problems.js';

let plaza: TestPlaza;
let f: ReturnType<typeof fixtures>;
const MISSING = '1234567890123456789';

before(async () => {
  plaza = await startTestPlaza();
  f = fixtures(plaza);
});

test('GET /2/users/{id}: the user object with default fields id, name and username', async () => {
  const ada = f.user('ada');
  const res = await f.get(`/2/users/${ada.id}`, { auth: f.appAuth });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.data, { id: ada.id, name: 'Ada Example', username: 'ada' });
});

test('every user field of the data dictionary can be returned', async () => {
  const all = Object.keys(userDeclaration.fields).join(',');
  const chen = f.user('chen');
  const res = await f.get(`/2/users/${chen.id}?user.fields=${all}`, { auth: f.appAuth });
  const u = res.body.data;
  for (const field of ['created_at', 'profile_image_url', 'verified', 'protected', 'description', 'url', 'public_metrics', 'subscription_type', 'affiliation']) {
    assert.ok(field in u, `${field} returned`);
  }
  assert.deepEqual(Object.keys(u.public_metrics).filter((k) => ['followers_count', 'following_count', 'post_count', 'listed_count'].includes(k)).sort(), ['followers_count', 'following_count', 'listed_count', 'post_count']);
  assert.ok(Array.isArray(u.affiliation.user_id), 'affiliation.user_id is an array of user ids');
  assert.deepEqual(u.affiliation.user_id, [f.user('plazanews').id]);
  assert.equal(u.connection_status, undefined, 'connection_status needs a user context');
});

test('GET /2/users?ids: found users in request order; one resource-not-found item per missing id', async () => {
  const [ada, bruno] = [f.user('ada'), f.user('bruno')];
  const res = await f.get(`/2/users?ids=${bruno.id},${MISSING},${ada.id}`, { auth: f.appAuth });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.data.map((u: any) => u.username), ['bruno', 'ada']);
  assert.equal(res.body.errors.length, 1);
  assert.equal(res.body.errors[0].resource_type, 'user');
  assert.equal(res.body.errors[0].parameter, 'ids');
  assert.equal(res.body.errors[0].detail, `Could not find user with ids: [${MISSING}].`);
});

test('GET /2/users/by/username/{username} and /2/users/by?usernames match usernames case-insensitively', async () => {
  const one = await f.get('/2/users/by/username/ADA?user.fields=subscription_type,verified', { auth: f.appAuth });
  assert.equal(one.body.data.username, 'ada');
  assert.equal(one.body.data.subscription_type, 'Premium');
  const many = await f.get('/2/users/by?usernames=plazanews,nobody_here,Bruno&user.fields=protected', { auth: f.appAuth });
  assert.deepEqual(many.body.data.map((u: any) => [u.username, u.protected]), [['plazanews', false], ['bruno', true]]);
  assert.equal(many.body.errors[0].parameter, 'usernames');
  assert.equal(many.body.errors[0].value, 'nobody_here');
  assert.equal(many.body.errors[0].detail, 'Could not find user with usernames: [nobody_here].');
  const missing = await f.get('/2/users/by/username/nobody_here', { auth: f.appAuth });
  assert.equal(missing.status, 200);
  assert.equal(missing.body.errors[0].parameter, 'username');
});

test('a malformed username or id is an invalid-request naming the parameter', async () => {
  const badName = await f.get('/2/users/by?usernames=ok,not-valid!', { auth: f.appAuth });
  assert.equal(badName.status, 400);
  assert.deepEqual(badName.body.errors[0].parameters, { usernames: ['not-valid!'] });
  const badPath = await f.get('/2/users/by/username/this_name_is_far_too_long', { auth: f.appAuth });
  assert.equal(badPath.status, 400);
  assert.ok('username' in badPath.body.errors[0].parameters);
  const badId = await f.get('/2/users/abc', { auth: f.appAuth });
  assert.equal(badId.status, 400);
  assert.deepEqual(badId.body.errors[0].parameters, { id: ['abc'] });
  const tooMany = await f.get(`/2/users?ids=${Array.from({ length: 101 }, (_, i) => 500 + i).join(',')}`, { auth: f.appAuth });
  assert.equal(tooMany.status, 400);
});

test('GET /2/users/me: the authenticated user, with OAuth 1.0a or OAuth 2.0 user context', async () => {
  const viaOAuth1 = await f.get('/2/users/me', { auth: f.oauth1As('dana') });
  assert.equal(viaOAuth1.status, 200);
  assert.equal(viaOAuth1.body.data.username, 'dana');
  const viaOAuth2 = await f.get('/2/users/me?user.fields=created_at', { auth: f.oauth2As('chen') });
  assert.equal(viaOAuth2.body.data.username, 'chen');
  assert.ok(viaOAuth2.body.data.created_at);
});

test('GET /2/users/me with an app-only bearer token is 403 unsupported-authentication', async () => {
  const res = await f.get('/2/users/me', { auth: f.appAuth });
  assert.equal(res.status, 403);
  assert.equal(res.body.type, problemType('unsupported-authentication'));
  assert.equal(
    res.body.detail,
    'Authenticating with OAuth 2.0 Application-Only is forbidden for this endpoint.  Supported authentication types are [OAuth 1.0a User Context, OAuth 2.0 User Context].',
  );
});

test('users.email lets GET /2/users/me return the confirmed email, only to the user themself', async () => {
  const me = await f.get('/2/users/me?user.fields=confirmed_email', { auth: f.oauth2As('ada') });
  assert.equal(me.body.data.confirmed_email, 'ada@plaza.example');
  const other = await f.get(`/2/users/${f.user('bruno').id}?user.fields=confirmed_email`, { auth: f.oauth2As('ada') });
  assert.equal(other.body.data.confirmed_email, undefined);
});

test('connection_status tells how the viewer and each user relate', async () => {
  const [bruno, news, chen] = [f.user('bruno'), f.user('plazanews'), f.user('chen')];
  const res = await f.get(`/2/users?ids=${bruno.id},${news.id},${chen.id}&user.fields=connection_status`, { auth: f.oauth1As('ada') });
  const status = Object.fromEntries(res.body.data.map((u: any) => [u.username, u.connection_status]));
  assert.deepEqual(status.bruno.sort(), ['followed_by', 'following']);
  assert.deepEqual(status.plazanews, ['following']);
  assert.deepEqual(status.chen, []);
});

test('expansion pinned_post_id adds the pinned post to includes.posts, with post.fields applied', async () => {
  const res = await f.get(`/2/users/${f.user('ada').id}?expansions=pinned_post_id&user.fields=pinned_post_id&post.fields=attachments`, { auth: f.appAuth });
  const pinned = res.body.data.pinned_post_id;
  assert.equal(pinned, plaza.creds.sample.post_ids[0]);
  assert.equal(res.body.includes.posts[0].id, pinned);
  assert.equal(res.body.includes.posts[0].attachments.media_keys.length, 2);
});

test('expansion affiliation adds the affiliated users to includes.users', async () => {
  const res = await f.get(`/2/users/${f.user('chen').id}?expansions=affiliation`, { auth: f.appAuth });
  assert.deepEqual(res.body.includes.users.map((u: any) => u.username), ['plazanews']);
});
