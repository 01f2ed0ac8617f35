import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';
import { problemType } from '../../support/problems.js';

let plaza: TestPlaza;
let g: Fixtures;

before(async () => {
  plaza = await startTestPlaza();
  g = fixtures(plaza);
});

test('GET /2/users/search: users whose username or name holds every word, exact username first; max_results 1 to 1000, next_token pages', async () => {
  const res = await g.get('/2/users/search?query=plazanews&user.fields=verified', { auth: g.oauth2As('dana') });
  assert.equal(res.status, 200);
  assert.equal(res.body.data[0].username, 'plazanews');
  assert.equal(res.body.data[0].verified, true);
  const byName = await g.get('/2/users/search?query=Reader%20dana', { auth: g.oauth2As('ada') });
  assert.deepEqual(byName.body.data.map((u: any) => u.username), ['dana']);
  const all = await g.get('/2/users/search?query=a', { auth: g.oauth2As('ada') });
  const names = all.body.data.map((u: any) => u.username);
  const walked: string[] = [];
  let token: string | undefined;
  do {
    const page = await g.get(`/2/users/search?query=a&max_results=2${token ? `&next_token=${token}` : ''}`, { auth: g.oauth2As('ada') });
    walked.push(...page.body.data.map((u: any) => u.username));
    token = page.body.meta.next_token;
  } while (token);
  assert.deepEqual(walked, names);
  const none = await g.get('/2/users/search?query=zzzz', { auth: g.oauth2As('ada') });
  assert.deepEqual(none.body, { meta: { result_count: 0 } });
  for (const bad of ['query=', 'query=semi%3Bcolon', `query=${'a'.repeat(51)}`, 'query=a&max_results=1001', 'query=a&next_token=bogus', 'max_results=5']) {
    assert.equal((await g.get(`/2/users/search?${bad}`, { auth: g.oauth2As('ada') })).status, 400, bad);
  }
  assert.equal((await g.get('/2/users/search?query=a', { auth: g.appAuth })).status, 403, 'user context, as in the reference');
});

test('PATCH /2/users/me changes the profile and answers the user; bio and handle changes append profile.update.bio and profile.update.screenname with {before, after}', async () => {
  const dana = g.user('dana');
  const seq = await g.lastSeq();
  const res = await g.send('PATCH', '/2/users/me?user.fields=description,location,url,entities', {
    auth: g.oauth2As('dana'),
    body: { description: 'Reads #books with @ada', username: 'dana_reads', location: 'Lisbon', url: 'https://dana.example' },
  });
  assert.equal(res.status, 200);
  assert.equal(res.body.data.id, dana.id);
  assert.equal(res.body.data.username, 'dana_reads');
  assert.equal(res.body.data.description, 'Reads #books with @ada');
  assert.equal(res.body.data.location, 'Lisbon');
  assert.equal(res.body.data.url, 'https://dana.example');
  assert.deepEqual(res.body.data.entities.description.hashtags, [{ start: 6, end: 12, tag: 'books' }]);
  assert.equal(res.body.data.entities.url.urls[0].expanded_url, 'https://dana.example');
  const events = await g.eventsSince(seq);
  const byType = Object.fromEntries(events.map((e) => [e.type, e]));
  assert.deepEqual(byType['profile.update.bio'].payload, { before: 'Mostly reads, sometimes quotes.', after: 'Reads #books with @ada' });
  assert.deepEqual(byType['profile.update.screenname'].payload, { before: 'dana', after: 'dana_reads' });
  assert.equal(byType['profile.update.bio'].subject, dana.id);
  assert.deepEqual(byType['profile.update.geo'].payload, { before: '', after: 'Lisbon' });
  assert.ok(byType['profile.update.url']);
  const lookup = await g.get('/2/users/by/username/dana_reads', { auth: g.appAuth });
  assert.equal(lookup.body.data.id, dana.id);
  const same = await g.send('PATCH', '/2/users/me', { auth: g.oauth2As('dana'), body: { description: 'Reads #books with @ada' } });
  assert.equal(same.status, 200);
  assert.equal((await g.eventsSince(seq, 'profile.update.bio')).length, 1, 'no change, no event');
  await g.send('PATCH', '/2/users/me', { auth: g.oauth2As('dana'), body: { username: 'dana' } });
});

test('profile.update.verified and profile.update.affiliate follow verified_type and affiliation changes, with {before, after}', async () => {
  const seq = await g.lastSeq();
  const res = await g.send('PATCH', '/2/users/me?user.fields=verified,verified_type,affiliation', {
    auth: g.oauth2As('chen'),
    body: { verified_type: 'blue', affiliation: null },
  });
  assert.equal(res.body.data.verified, true);
  assert.equal(res.body.data.verified_type, 'blue');
  assert.equal(res.body.data.affiliation, undefined);
  const events = await g.eventsSince(seq);
  const verified = events.find((e) => e.type === 'profile.update.verified')!;
  assert.deepEqual(verified.payload, { before: 'none', after: 'blue' });
  const affiliate = events.find((e) => e.type === 'profile.update.affiliate')!;
  assert.deepEqual(JSON.parse(affiliate.payload.before), { description: 'Plaza News', user_id: [g.user('plazanews').id] });
  assert.equal(affiliate.payload.after, '');
  const back = await g.send('PATCH', '/2/users/me?user.fields=affiliation', {
    auth: g.oauth2As('chen'),
    body: { verified_type: 'none', affiliation: { description: 'Plaza News', user_id: [g.user('plazanews').id] } },
  });
  assert.deepEqual(back.body.data.affiliation.user_id, [g.user('plazanews').id]);
});

test('the pinned post: PATCH /2/users/me {pinned_post_id} pins one of your own posts, null unpins; someone else\'s post is an invalid-request', async () => {
  const [withMedia, , , announcement] = plaza.creds.sample.post_ids;
  const adaPosts = await g.get(`/2/users/${g.user('ada').id}/posts?max_results=5`, { auth: g.appAuth });
  const other = adaPosts.body.data.find((p: any) => p.id !== withMedia).id;
  const pinned = await g.send('PATCH', '/2/users/me?user.fields=pinned_post_id&expansions=pinned_post_id', { auth: g.oauth2As('ada'), body: { pinned_post_id: other } });
  assert.equal(pinned.body.data.pinned_post_id, other);
  assert.equal(pinned.body.includes.posts[0].id, other);
  const notMine = await g.send('PATCH', '/2/users/me', { auth: g.oauth2As('ada'), body: { pinned_post_id: announcement } });
  assert.equal(notMine.status, 400);
  assert.ok('pinned_post_id' in notMine.body.errors[0].parameters);
  const unpinned = await g.send('PATCH', '/2/users/me?user.fields=pinned_post_id', { auth: g.oauth2As('ada'), body: { pinned_post_id: null } });
  assert.equal(unpinned.body.data.pinned_post_id, undefined);
  await g.send('PATCH', '/2/users/me', { auth: g.oauth2As('ada'), body: { pinned_post_id: withMedia } });
});

test('making a protected account public approves its pending follow requests (follow.follow each)', async () => {
  const [bruno, news] = [g.user('bruno'), g.user('plazanews')];
  const requested = await g.send('POST', `/2/users/${news.id}/following`, { auth: await g.enterpriseAs('plazanews'), body: { target_user_id: bruno.id } });
  assert.equal(requested.body.data.pending_follow, true);
  const seq = await g.lastSeq();
  const res = await g.send('PATCH', '/2/users/me?user.fields=protected', { auth: g.oauth2As('bruno'), body: { protected: false } });
  assert.equal(res.body.data.protected, false);
  const follows = await g.eventsSince(seq, 'follow.follow');
  assert.ok(follows.some((e) => e.payload.source.data.id === news.id && e.payload.target.data.id === bruno.id));
  const status = await g.get(`/2/users/${bruno.id}?user.fields=connection_status`, { auth: g.oauth2As('plazanews') });
  assert.deepEqual(status.body.data.connection_status, ['following']);
  await g.send('PATCH', '/2/users/me', { auth: g.oauth2As('bruno'), body: { protected: true } });
});

test('bad profile input is an invalid-request naming the field and changes nothing: a taken or malformed username, a long bio, a bad url, an empty body, an unknown field', async () => {
  const seq = await g.lastSeq();
  const before = await g.userRow('dana');
  for (const [body, field] of [
    [{ username: 'ADA' }, 'username'],
    [{ username: 'no spaces here' }, 'username'],
    [{ username: 'abc' }, 'username'],
    [{ description: 'x'.repeat(161) }, 'description'],
    [{ url: 'not a url' }, 'url'],
    [{ profile_image_url: 'http://insecure.example/a.png' }, 'profile_image_url'],
    [{ verified_type: 'gold' }, 'verified_type'],
    [{ colour: 'red' }, 'colour'],
    [{ name: '   ' }, 'name'],
  ] as const) {
    const res = await g.send('PATCH', '/2/users/me', { auth: g.oauth2As('dana'), body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.type, problemType('invalid-request'));
    assert.ok(field in res.body.errors[0].parameters, JSON.stringify(res.body));
  }
  assert.equal((await g.send('PATCH', '/2/users/me', { auth: g.oauth2As('dana'), body: {} })).status, 400);
  assert.equal((await g.send('PATCH', '/2/users/me?user.fields=bogus', { auth: g.oauth2As('dana'), body: { name: 'Changed' } })).status, 400);
  assert.deepEqual(await g.userRow('dana'), before);
  assert.equal((await g.eventsSince(seq)).length, 0);
  assert.equal((await g.send('PATCH', '/2/users/me', { auth: g.appAuth, body: { name: 'App' } })).status, 403);
  const readOnly = await g.enterpriseOAuth1As('dana', 'read');
  assert.equal((await g.send('PATCH', '/2/users/me', { auth: readOnly, body: { name: 'Read only' } })).status, 403);
});
