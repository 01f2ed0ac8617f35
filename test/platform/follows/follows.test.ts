import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { decodePageToken } from '../../../src/http/pagination.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';
import { normalise } from '../../support/normalise.js';
import { clientNotEnrolled, problemType } from '../../support/problems.js';

let plaza: TestPlaza;
let g: Fixtures;
const MISSING = '1234567890123456789';
/** What Plaza adds to a client-forbidden refusal of the self-serve app: where to find an enterprise app. */
const ENTERPRISE_HINT =
  'In Plaza: use the demo app apps[1] ("Plaza Enterprise Demo", enterprise) of the credentials file: its bearer_token, and each user\'s tokens for it in ' +
  'users[].tokens (the entry whose app_id is that app\'s id); or create an app on the enterprise tier (or change this one\'s tier) in the developer console at /developer.';

before(async () => {
  plaza = await startTestPlaza();
  g = fixtures(plaza);
});

test('POST /2/users/{id}/following (enterprise): follows, moves following_count and followers_count, and appends follow.follow with {source:{data}, target:{data}}', async () => {
  const [dana, bruno] = [g.user('dana'), g.user('bruno')];
  const plazanews = g.user('plazanews');
  const seq = await g.lastSeq();
  const before = { dana: await g.userRow('dana'), news: await g.userRow('plazanews') };
  const auth = await g.enterpriseAs('plazanews');
  const res = await g.send('POST', `/2/users/${plazanews.id}/following`, { auth, body: { target_user_id: dana.id } });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { data: { following: true, pending_follow: false } });
  assert.equal((await g.userRow('plazanews')).following_count, before.news.following_count + 1);
  assert.equal((await g.userRow('dana')).followers_count, before.dana.followers_count + 1);
  const [event] = await g.eventsSince(seq, 'follow.follow');
  assert.equal(event.subject, dana.id);
  // The users' public fields, with the counters as moved; no private fields (confirmed_email) in events.
  assert.deepEqual(normalise(event.payload, { [dana.id]: 'dana', [plazanews.id]: 'plazanews' }), {
    source: {
      data: {
        id: '<plazanews>',
        name: 'Plaza News',
        username: 'plazanews',
        created_at: '<time>',
        description: 'Verified organisation posting news. https://example.com',
        // The links of its description and url (issue 34: demo users carry entities).
        entities: {
          description: { urls: [{ display_url: 'example.com', end: 55, expanded_url: 'https://example.com', start: 36, url: 'https://example.com' }] },
          url: { urls: [{ display_url: 'example.com', end: 19, expanded_url: 'https://example.com', start: 0, url: 'https://example.com' }] },
        },
        profile_image_url: 'https://abs.twimg.com/sticky/default_profile_images/default_profile_normal.png',
        protected: false,
        public_metrics: { followers_count: 3, following_count: before.news.following_count + 1, post_count: 4, listed_count: 1, like_count: 0, media_count: 1 },
        subscription_type: 'None',
        url: 'https://example.com',
        verified: true,
        verified_type: 'business',
      },
    },
    target: {
      data: {
        id: '<dana>',
        name: 'Dana Reader',
        username: 'dana',
        created_at: '<time>',
        description: 'Mostly reads, sometimes quotes.',
        profile_image_url: 'https://abs.twimg.com/sticky/default_profile_images/default_profile_normal.png',
        protected: false,
        public_metrics: { followers_count: before.dana.followers_count + 1, following_count: 3, post_count: 3, listed_count: 1, like_count: 1, media_count: 0 },
        subscription_type: 'None',
        url: '',
        verified: false,
        verified_type: 'none',
      },
    },
  });

  const again = await g.send('POST', `/2/users/${plazanews.id}/following`, { auth, body: { target_user_id: dana.id } });
  assert.deepEqual(again.body.data, { following: true, pending_follow: false });
  assert.equal((await g.eventsSince(seq, 'follow.follow')).length, 1, 'following again changes nothing');
  assert.ok(bruno);
});

test('DELETE /2/users/{source_user_id}/following/{target_user_id}: unfollows, moves the counters back and appends follow.unfollow; repeating it is harmless', async () => {
  const [news, dana] = [g.user('plazanews'), g.user('dana')];
  const auth = await g.enterpriseAs('plazanews');
  await g.send('POST', `/2/users/${news.id}/following`, { auth, body: { target_user_id: dana.id } });
  const followers = (await g.userRow('dana')).followers_count;
  const seq = await g.lastSeq();
  const res = await g.send('DELETE', `/2/users/${news.id}/following/${dana.id}`, { auth });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { data: { following: false } });
  assert.equal((await g.userRow('dana')).followers_count, followers - 1);
  const events = await g.eventsSince(seq, 'follow.unfollow');
  assert.equal(events.length, 1);
  assert.equal(events[0].payload.source.data.id, news.id);
  const again = await g.send('DELETE', `/2/users/${news.id}/following/${dana.id}`, { auth });
  assert.deepEqual(again.body.data, { following: false });
  assert.equal((await g.eventsSince(seq, 'follow.unfollow')).length, 1);
  assert.equal((await g.userRow('dana')).followers_count, followers - 1);
});

test('POST /2/users/:id/following is removed from all self-serve tiers (client-forbidden, HTTP 403, reason and registration_url); enterprise keeps it', async () => {
  const [chen, dana] = [g.user('chen'), g.user('dana')];
  for (const tier of ['free', 'basic', 'pro', 'pay-per-use'] as const) {
    await g.setTier('selfServe', tier);
    const res = await g.send('POST', `/2/users/${chen.id}/following`, { auth: await g.selfServeAs('chen'), body: { target_user_id: dana.id } });
    assert.equal(res.status, 403, tier);
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.deepEqual(normalise(res.body, { [g.selfServe.id]: 'selfServe' }), clientNotEnrolled(`Following users through POST /2/users/:id/following is not available to apps on the ${tier} tier. Use an app on the enterprise tier. ${ENTERPRISE_HINT}`), tier);
  }
  await g.setTier('selfServe', 'pro');
  const enterprise = await g.send('POST', `/2/users/${chen.id}/following`, { auth: await g.enterpriseAs('chen'), body: { target_user_id: g.user('bruno').id } });
  assert.equal(enterprise.status, 200);
});

test('"Removed in 2023: follows ... endpoints from the basic and pro tiers": followers and following lists refuse basic and pro apps; free, pay-per-use and enterprise read them', async () => {
  const ada = g.user('ada');
  for (const tier of ['basic', 'pro'] as const) {
    await g.setTier('selfServe', tier);
    for (const path of [`/2/users/${ada.id}/followers`, `/2/users/${ada.id}/following`]) {
      const res = await g.get(path, { auth: g.appAuth });
      assert.equal(res.status, 403, `${tier} ${path}`);
      assert.equal(res.body.type, problemType('client-forbidden'));
    }
  }
  for (const tier of ['free', 'pay-per-use'] as const) {
    await g.setTier('selfServe', tier);
    assert.equal((await g.get(`/2/users/${ada.id}/followers`, { auth: g.appAuth })).status, 200, tier);
  }
  await g.setTier('selfServe', 'pro');
  const enterprise = await g.get(`/2/users/${ada.id}/followers`, { auth: { bearer: g.enterprise.bearer_token } });
  assert.equal(enterprise.status, 200);
});

test('followers and following: newest follow first, max_results 1 to 1000, pagination_token (a token Plaza did not make is an invalid-request), meta.result_count and next_token, users with field selection and expansions', async () => {
  const news = g.user('plazanews');
  const bearer = { bearer: g.enterprise.bearer_token };
  const all = await g.get(`/2/users/${news.id}/followers?max_results=1000`, { auth: bearer });
  assert.equal(all.status, 200);
  const ids = all.body.data.map((u: any) => u.id);
  assert.equal(all.body.meta.result_count, ids.length);
  assert.ok(ids.length >= 3, 'chen, dana and ada follow plazanews');
  assert.equal(all.body.meta.next_token, undefined, 'the last page has no next_token');
  assert.equal(new Set(ids).size, ids.length);
  const seen: string[] = [];
  let token: string | undefined;
  do {
    const res = await g.get(`/2/users/${news.id}/followers?max_results=1&user.fields=created_at${token ? `&pagination_token=${token}` : ''}`, { auth: bearer });
    assert.equal(res.body.meta.result_count, 1);
    assert.ok(res.body.data[0].created_at);
    seen.push(res.body.data[0].id);
    token = res.body.meta.next_token;
  } while (token);
  assert.deepEqual(seen, ids, 'paging walks the same order');
  const newest = await g.get(`/2/users/${g.user('dana').id}/following?expansions=pinned_post_id&user.fields=pinned_post_id`, { auth: bearer });
  assert.ok(newest.body.data.some((u: any) => u.username === 'ada'));
  assert.equal(newest.body.includes.posts[0].id, plaza.creds.sample.post_ids[0]);
  for (const bad of ['0', '1001', 'x']) {
    const res = await g.get(`/2/users/${news.id}/followers?max_results=${bad}`, { auth: bearer });
    assert.equal(res.status, 400, bad);
    assert.ok('max_results' in res.body.errors[0].parameters);
  }
  for (const forged of ['nonsense', `p1.${Buffer.from('\u0000\u0000').toString('base64url')}`, `p1.${Buffer.from('2026-01-01 x').toString('base64url')}`]) {
    const badToken = await g.get(`/2/users/${news.id}/followers?pagination_token=${forged}`, { auth: bearer });
    assert.equal(badToken.status, 400, forged);
    assert.ok('pagination_token' in badToken.body.errors[0].parameters);
  }
  const badField = await g.get(`/2/users/${news.id}/followers?user.fields=nope`, { auth: bearer });
  assert.equal(badField.status, 400);
  assert.ok('user.fields' in badField.body.errors[0].parameters);
  assert.ok(decodePageToken((await g.get(`/2/users/${news.id}/followers?max_results=1`, { auth: bearer })).body.meta.next_token));
});

test('a missing user in a followers list is a resource-not-found item in errors (HTTP 200); a protected account lists its follows only to approved followers', async () => {
  const bearer = { bearer: g.enterprise.bearer_token };
  const missing = await g.get(`/2/users/${MISSING}/followers`, { auth: bearer });
  assert.equal(missing.status, 200);
  assert.equal(missing.body.errors[0].type, problemType('resource-not-found'));
  assert.equal(missing.body.errors[0].parameter, 'id');
  const bruno = g.user('bruno');
  const stranger = await g.get(`/2/users/${bruno.id}/following`, { auth: bearer });
  assert.equal(stranger.body.data, undefined);
  assert.equal(stranger.body.errors[0].type, problemType('not-authorized-for-resource'));
  assert.equal(stranger.body.errors[0].resource_type, 'user');
  const approved = await g.get(`/2/users/${bruno.id}/following`, { auth: await g.enterpriseAs('ada') });
  assert.deepEqual(approved.body.data.map((u: any) => u.username), ['ada']);
});

test('following a protected account creates a pending request (pending_follow:true) that the protected user can accept: POST /2/users/{id}/follow_requests/{requester_id}/accept', async () => {
  const [dana, bruno] = [g.user('dana'), g.user('bruno')];
  const danaAuth = await g.enterpriseAs('dana');
  const brunoAuth = await g.enterpriseAs('bruno');
  const followers = (await g.userRow('bruno')).followers_count;
  const seq = await g.lastSeq();
  const res = await g.send('POST', `/2/users/${dana.id}/following`, { auth: danaAuth, body: { target_user_id: bruno.id } });
  assert.deepEqual(res.body, { data: { following: false, pending_follow: true } });
  assert.equal((await g.userRow('bruno')).followers_count, followers, 'a request is not a follow');
  assert.equal((await g.eventsSince(seq, 'follow.follow')).length, 0);

  const status = await g.get(`/2/users/${bruno.id}?user.fields=connection_status`, { auth: danaAuth });
  assert.deepEqual(status.body.data.connection_status, ['follow_request_sent']);
  const incoming = await g.get(`/2/users/${dana.id}?user.fields=connection_status`, { auth: brunoAuth });
  assert.deepEqual(incoming.body.data.connection_status, ['follow_request_received']);
  const hidden = await g.get(`/2/posts/${plaza.creds.sample.post_ids[4]}`, { auth: danaAuth });
  assert.equal(hidden.body.errors[0].type, problemType('not-authorized-for-resource'), 'a pending request does not show protected posts');

  const requests = await g.get(`/2/users/${bruno.id}/follow_requests`, { auth: brunoAuth });
  assert.ok(requests.body.data.some((u: any) => u.username === 'dana'));
  const notYours = await g.get(`/2/users/${bruno.id}/follow_requests`, { auth: danaAuth });
  assert.equal(notYours.status, 403);

  const accepted = await g.send('POST', `/2/users/${bruno.id}/follow_requests/${dana.id}/accept`, { auth: brunoAuth });
  assert.deepEqual(accepted.body, { data: { accepted: true } });
  assert.equal((await g.userRow('bruno')).followers_count, followers + 1);
  const [event] = await g.eventsSince(seq, 'follow.follow');
  assert.equal(event.payload.source.data.id, dana.id);
  assert.equal(event.payload.target.data.id, bruno.id);
  const visible = await g.get(`/2/posts/${plaza.creds.sample.post_ids[4]}`, { auth: danaAuth });
  assert.equal(visible.body.data.id, plaza.creds.sample.post_ids[4], 'approved followers see protected posts');
  const again = await g.send('POST', `/2/users/${bruno.id}/follow_requests/${dana.id}/accept`, { auth: brunoAuth });
  assert.equal(again.status, 404, 'no pending request any more');
  assert.equal(again.body.parameter, 'requester_id');
});

test('a follow request can be declined (POST .../decline) or withdrawn by the requester (DELETE /2/users/{source}/following/{target})', async () => {
  const [news, bruno] = [g.user('plazanews'), g.user('bruno')];
  const newsAuth = await g.enterpriseAs('plazanews');
  const brunoAuth = await g.enterpriseAs('bruno');
  await g.send('POST', `/2/users/${news.id}/following`, { auth: newsAuth, body: { target_user_id: bruno.id } });
  const declined = await g.send('POST', `/2/users/${bruno.id}/follow_requests/${news.id}/decline`, { auth: brunoAuth });
  assert.deepEqual(declined.body, { data: { accepted: false } });
  const status = await g.get(`/2/users/${bruno.id}?user.fields=connection_status`, { auth: newsAuth });
  assert.deepEqual(status.body.data.connection_status, []);
  await g.send('POST', `/2/users/${news.id}/following`, { auth: newsAuth, body: { target_user_id: bruno.id } });
  const withdrawn = await g.send('DELETE', `/2/users/${news.id}/following/${bruno.id}`, { auth: newsAuth });
  assert.deepEqual(withdrawn.body.data, { following: false });
  const after = await g.get(`/2/users/${bruno.id}/follow_requests`, { auth: brunoAuth });
  assert.ok(!(after.body.data ?? []).some((u: any) => u.id === news.id));
});

test('bad input is an invalid-request naming the parameter and changes nothing: target_user_id missing or malformed, following yourself', async () => {
  const chen = g.user('chen');
  const auth = await g.enterpriseAs('chen');
  const seq = await g.lastSeq();
  const counts = await g.userRow('chen');
  for (const body of [{}, { target_user_id: 'abc' }, { target_user_id: chen.id }, { target_user_id: chen.id, extra: 1 }]) {
    const res = await g.send('POST', `/2/users/${chen.id}/following`, { auth, body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.type, problemType('invalid-request'));
    assert.ok(Object.keys(res.body.errors[0].parameters).some((p) => ['target_user_id', 'extra'].includes(p)), JSON.stringify(res.body));
  }
  const missing = await g.send('POST', `/2/users/${chen.id}/following`, { auth, body: { target_user_id: MISSING } });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.type, problemType('resource-not-found'));
  assert.equal(missing.body.parameter, 'target_user_id');
  assert.equal((await g.eventsSince(seq)).length, 0);
  assert.deepEqual(await g.userRow('chen'), counts);
});

test('following acts for the authenticated user only: another user id in the path is 403; app-only auth is 403 unsupported-authentication; a token without follows.write is 403; no credentials is 401', async () => {
  const [chen, dana] = [g.user('chen'), g.user('dana')];
  const other = await g.send('POST', `/2/users/${dana.id}/following`, { auth: await g.enterpriseAs('chen'), body: { target_user_id: chen.id } });
  assert.equal(other.status, 403);
  assert.match(other.body.detail, /authenticated user/);
  const appOnly = await g.send('POST', `/2/users/${chen.id}/following`, { auth: { bearer: g.enterprise.bearer_token }, body: { target_user_id: dana.id } });
  assert.equal(appOnly.status, 403);
  assert.equal(appOnly.body.type, problemType('unsupported-authentication'));
  const noScope = await g.send('POST', `/2/users/${chen.id}/following`, { auth: await g.enterpriseAs('chen', ['users.read', 'post.read']), body: { target_user_id: dana.id } });
  assert.equal(noScope.status, 403);
  assert.match(noScope.body.detail, /follows\.write/);
  const anonymous = await g.send('POST', `/2/users/${chen.id}/following`, { body: { target_user_id: dana.id } });
  assert.equal(anonymous.status, 401);
});

test('OAuth 1.0a permissions fully override OAuth 2.0 scopes: a read-only access token cannot follow', async () => {
  const [chen, dana] = [g.user('chen'), g.user('dana')];
  const readOnly = await g.enterpriseOAuth1As('chen', 'read');
  const res = await g.send('POST', `/2/users/${chen.id}/following`, { auth: readOnly, body: { target_user_id: dana.id } });
  assert.equal(res.status, 403);
  const readWrite = await g.enterpriseOAuth1As('chen', 'read-write');
  const ok = await g.send('POST', `/2/users/${chen.id}/following`, { auth: readWrite, body: { target_user_id: dana.id } });
  assert.equal(ok.status, 200);
});
