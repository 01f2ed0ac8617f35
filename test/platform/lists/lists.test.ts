import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';
import { normalise } from '../../support/normalise.js';
import { problemType } from '../../support/problems.js';

let plaza: TestPlaza;
let g: Fixtures;
const MISSING = '1234567890123456789';

before(async () => {
  plaza = await startTestPlaza();
  g = fixtures(plaza);
});

async function createList(username: string, body: Record<string, unknown>) {
  const res = await g.send('POST', '/2/lists', { auth: g.oauth2As(username), body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data.id as string;
}

test('POST /2/lists creates a list (201, {id, name}); GET /2/lists/{id} returns id and name by default and list.fields on request, with expansion owner_id', async () => {
  const res = await g.send('POST', '/2/lists', { auth: g.oauth2As('chen'), body: { name: 'Reading', description: 'Good writers', private: false } });
  assert.equal(res.status, 201);
  assert.deepEqual(Object.keys(res.body.data).sort(), ['id', 'name']);
  assert.equal(res.body.data.name, 'Reading');
  const id = res.body.data.id;
  const plain = await g.get(`/2/lists/${id}`, { auth: g.appAuth });
  assert.deepEqual(plain.body, { data: { id, name: 'Reading' } });
  const full = await g.get(`/2/lists/${id}?list.fields=created_at,description,follower_count,member_count,owner_id,private&expansions=owner_id&user.fields=verified`, { auth: g.appAuth });
  assert.deepEqual(normalise(full.body, { [id]: 'list', [g.user('chen').id]: 'chen' }), {
    data: { id: '<list>', name: 'Reading', created_at: '<time>', description: 'Good writers', follower_count: 0, member_count: 0, owner_id: '<chen>', private: false },
    includes: { users: [{ id: '<chen>', name: 'Chen Affiliate', username: 'chen', verified: false }] },
  });
  assert.match(full.body.data.created_at, /Z$/);
  const missing = await g.get(`/2/lists/${MISSING}`, { auth: g.appAuth });
  assert.equal(missing.status, 200);
  assert.equal(missing.body.errors[0].type, problemType('resource-not-found'));
  assert.equal(missing.body.errors[0].resource_type, 'list');
});

test('list names are 1 to 25 characters and descriptions at most 100; bad input is an invalid-request naming the field', async () => {
  for (const [body, field] of [[{}, 'name'], [{ name: '' }, 'name'], [{ name: 'x'.repeat(26) }, 'name'], [{ name: 'ok', description: 'd'.repeat(101) }, 'description'], [{ name: '   ' }, 'name'], [{ name: 'nul\u0000byte' }, 'name']] as const) {
    const res = await g.send('POST', '/2/lists', { auth: g.oauth2As('chen'), body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.ok(field in res.body.errors[0].parameters, JSON.stringify(res.body));
  }
});

test('PUT /2/lists/{id} and DELETE /2/lists/{id} are for the owner only ({updated:true}, {deleted:true}); others get 403', async () => {
  const id = await createList('chen', { name: 'Draft' });
  const notOwner = await g.send('PUT', `/2/lists/${id}`, { auth: g.oauth2As('dana'), body: { name: 'Mine now' } });
  assert.equal(notOwner.status, 403);
  const updated = await g.send('PUT', `/2/lists/${id}`, { auth: g.oauth2As('chen'), body: { name: 'Final', description: 'Done' } });
  assert.deepEqual(updated.body, { data: { updated: true } });
  const read = await g.get(`/2/lists/${id}?list.fields=description`, { auth: g.appAuth });
  assert.deepEqual(read.body.data, { id, name: 'Final', description: 'Done' });
  assert.equal((await g.send('DELETE', `/2/lists/${id}`, { auth: g.oauth2As('dana') })).status, 403);
  const deleted = await g.send('DELETE', `/2/lists/${id}`, { auth: g.oauth2As('chen') });
  assert.deepEqual(deleted.body, { data: { deleted: true } });
  assert.equal((await g.get(`/2/lists/${id}`, { auth: g.appAuth })).body.errors[0].resource_type, 'list');
  assert.equal((await g.send('DELETE', `/2/lists/${id}`, { auth: g.oauth2As('chen') })).status, 404);
});

test('members: POST /2/lists/{id}/members adds ({is_member:true}, member_count and listed_count move), GET lists them newest first, DELETE removes; deleting the list gives listed_count back', async () => {
  const id = await createList('chen', { name: 'Builders' });
  const listed = (await g.userRow('dana')).listed_count;
  for (const u of ['dana', 'plazanews']) {
    const res = await g.send('POST', `/2/lists/${id}/members`, { auth: g.oauth2As('chen'), body: { user_id: g.user(u).id } });
    assert.deepEqual(res.body, { data: { is_member: true } });
  }
  await g.send('POST', `/2/lists/${id}/members`, { auth: g.oauth2As('chen'), body: { user_id: g.user('dana').id } });
  assert.equal((await g.userRow('dana')).listed_count, listed + 1, 'adding twice counts once');
  const list = await g.get(`/2/lists/${id}?list.fields=member_count`, { auth: g.appAuth });
  assert.equal(list.body.data.member_count, 2);
  const members = await g.get(`/2/lists/${id}/members?user.fields=public_metrics`, { auth: g.appAuth });
  assert.deepEqual(members.body.data.map((u: any) => u.username), ['plazanews', 'dana']);
  assert.equal(members.body.data[1].public_metrics.listed_count, listed + 1);
  const page1 = await g.get(`/2/lists/${id}/members?max_results=1`, { auth: g.appAuth });
  const page2 = await g.get(`/2/lists/${id}/members?max_results=1&pagination_token=${page1.body.meta.next_token}`, { auth: g.appAuth });
  assert.equal(page2.body.data[0].username, 'dana');
  assert.equal(page2.body.meta.next_token, undefined);
  const memberships = await g.get(`/2/users/${g.user('dana').id}/list_memberships`, { auth: g.appAuth });
  assert.ok(memberships.body.data.some((l: any) => l.id === id));
  const notOwner = await g.send('POST', `/2/lists/${id}/members`, { auth: g.oauth2As('dana'), body: { user_id: g.user('ada').id } });
  assert.equal(notOwner.status, 403);
  const missing = await g.send('POST', `/2/lists/${id}/members`, { auth: g.oauth2As('chen'), body: { user_id: MISSING } });
  assert.equal(missing.status, 404);
  const removed = await g.send('DELETE', `/2/lists/${id}/members/${g.user('plazanews').id}`, { auth: g.oauth2As('chen') });
  assert.deepEqual(removed.body, { data: { is_member: false } });
  await g.send('DELETE', `/2/lists/${id}`, { auth: g.oauth2As('chen') });
  assert.equal((await g.userRow('dana')).listed_count, listed);
});

test('GET /2/lists/{id}/posts: the members\' posts, newest first, with post fields', async () => {
  const id = await createList('dana', { name: 'News' });
  await g.send('POST', `/2/lists/${id}/members`, { auth: g.oauth2As('dana'), body: { user_id: g.user('plazanews').id } });
  const res = await g.get(`/2/lists/${id}/posts?post.fields=author_id`, { auth: g.appAuth });
  assert.equal(res.status, 200);
  assert.ok(res.body.data.length > 0);
  assert.ok(res.body.data.every((p: any) => p.author_id === g.user('plazanews').id));
  assert.equal(res.body.meta.result_count, res.body.data.length);
});

test('a private list is seen only by its owner: lookup, members and posts give others not-authorized-for-resource; owned_lists hides it from others', async () => {
  const id = await createList('dana', { name: 'Secret', private: true });
  for (const path of [`/2/lists/${id}`, `/2/lists/${id}/members`, `/2/lists/${id}/posts`]) {
    const res = await g.get(path, { auth: g.oauth2As('chen') });
    assert.equal(res.body.errors[0].type, problemType('not-authorized-for-resource'), path);
    assert.equal(res.body.errors[0].resource_type, 'list');
  }
  const own = await g.get(`/2/lists/${id}?list.fields=private`, { auth: g.oauth2As('dana') });
  assert.equal(own.body.data.private, true);
  const ownedByOwner = await g.get(`/2/users/${g.user('dana').id}/owned_lists`, { auth: g.oauth2As('dana') });
  assert.ok(ownedByOwner.body.data.some((l: any) => l.id === id));
  const ownedByOthers = await g.get(`/2/users/${g.user('dana').id}/owned_lists`, { auth: g.appAuth });
  assert.ok(!(ownedByOthers.body.data ?? []).some((l: any) => l.id === id));
  const follow = await g.send('POST', `/2/users/${g.user('chen').id}/followed_lists`, { auth: await g.enterpriseAs('chen'), body: { list_id: id } });
  assert.equal(follow.status, 403);
});

test('"Removed in 2023: ... list-follows endpoints from the basic and pro tiers": following lists and list followers refuse the pro app; enterprise follows lists (follower_count moves)', async () => {
  const id = await createList('ada', { name: 'Follow me' });
  const chen = g.user('chen');
  const pro = await g.send('POST', `/2/users/${chen.id}/followed_lists`, { auth: g.oauth2As('chen'), body: { list_id: id } });
  assert.equal(pro.status, 403);
  assert.equal(pro.body.type, problemType('client-forbidden'));
  assert.equal((await g.get(`/2/lists/${id}/followers`, { auth: g.appAuth })).status, 403);
  assert.equal((await g.get(`/2/users/${chen.id}/followed_lists`, { auth: g.appAuth })).status, 403);
  const auth = await g.enterpriseAs('chen');
  const followed = await g.send('POST', `/2/users/${chen.id}/followed_lists`, { auth, body: { list_id: id } });
  assert.deepEqual(followed.body, { data: { following: true } });
  const list = await g.get(`/2/lists/${id}?list.fields=follower_count`, { auth });
  assert.equal(list.body.data.follower_count, 1);
  const followers = await g.get(`/2/lists/${id}/followers`, { auth });
  assert.deepEqual(followers.body.data.map((u: any) => u.username), ['chen']);
  const followedLists = await g.get(`/2/users/${chen.id}/followed_lists?list.fields=owner_id`, { auth });
  assert.equal(followedLists.body.data[0].id, id);
  const unfollowed = await g.send('DELETE', `/2/users/${chen.id}/followed_lists/${id}`, { auth });
  assert.deepEqual(unfollowed.body, { data: { following: false } });
  assert.equal((await g.get(`/2/lists/${id}?list.fields=follower_count`, { auth })).body.data.follower_count, 0);
});

test('pinned lists: POST pins ({pinned:true}), at most five, GET /2/users/{id}/pinned_lists is the authenticated user\'s own (meta result_count only), DELETE unpins', async () => {
  const ada = g.user('ada');
  const auth = g.oauth2As('ada');
  const before = await g.get(`/2/users/${ada.id}/pinned_lists`, { auth });
  const already = before.body.meta.result_count;
  const ids: string[] = [];
  for (let i = 0; i < 6 - already; i++) ids.push(await createList('ada', { name: `Pin ${i}` }));
  for (const id of ids.slice(0, 5 - already)) {
    const res = await g.send('POST', `/2/users/${ada.id}/pinned_lists`, { auth, body: { list_id: id } });
    assert.deepEqual(res.body, { data: { pinned: true } });
  }
  const sixth = await g.send('POST', `/2/users/${ada.id}/pinned_lists`, { auth, body: { list_id: ids[ids.length - 1] } });
  assert.equal(sixth.status, 400);
  assert.ok('list_id' in sixth.body.errors[0].parameters);
  const pinned = await g.get(`/2/users/${ada.id}/pinned_lists?list.fields=owner_id`, { auth });
  assert.equal(pinned.body.meta.result_count, 5);
  assert.deepEqual(Object.keys(pinned.body.meta), ['result_count']);
  assert.equal((await g.get(`/2/users/${ada.id}/pinned_lists`, { auth: g.oauth2As('chen') })).status, 403);
  const unpinned = await g.send('DELETE', `/2/users/${ada.id}/pinned_lists/${ids[0]}`, { auth });
  assert.deepEqual(unpinned.body, { data: { pinned: false } });
  assert.equal((await g.get(`/2/users/${ada.id}/pinned_lists`, { auth })).body.meta.result_count, 4);
});

test('GET /2/users/{id}/owned_lists pages newest first (max_results 1 to 100) with list.fields', async () => {
  const id1 = await createList('plazanews', { name: 'First' });
  const id2 = await createList('plazanews', { name: 'Second' });
  const news = g.user('plazanews');
  const page1 = await g.get(`/2/users/${news.id}/owned_lists?max_results=1&list.fields=created_at`, { auth: g.appAuth });
  assert.equal(page1.body.data[0].id, id2);
  assert.ok(page1.body.data[0].created_at);
  const page2 = await g.get(`/2/users/${news.id}/owned_lists?max_results=1&pagination_token=${page1.body.meta.next_token}`, { auth: g.appAuth });
  assert.equal(page2.body.data[0].id, id1);
  assert.equal((await g.get(`/2/users/${news.id}/owned_lists?max_results=0`, { auth: g.appAuth })).status, 400);
  assert.equal((await g.get(`/2/users/${news.id}/owned_lists?list.fields=colour`, { auth: g.appAuth })).status, 400);
});
