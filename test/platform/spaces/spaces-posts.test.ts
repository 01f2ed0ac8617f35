import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { buySpaceTicket } from '../../../src/platform/spaces/service.js';
import { ProblemError } from '../../../src/http/problems.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';
import { problemType } from '../../support/problems.js';

let plaza: TestPlaza;
let g: Fixtures;

before(async () => {
  plaza = await startTestPlaza();
  g = fixtures(plaza);
});

async function space(username: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await g.send('POST', '/2/spaces', { auth: g.oauth2As(username), body: { title: 'A space', ...body } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data.id;
}

async function post(username: string, text: string): Promise<string> {
  const res = await g.send('POST', '/2/posts', { auth: await g.enterpriseAs(username), body: { text } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data.id;
}

test('GET /2/spaces/{id}/posts lists the "posts shared in a space" (those linking to it, on any host), newest first, and no post linking another space', async () => {
  const id = await space('ada');
  const first = await post('ada', `Join us https://x.com/i/spaces/${id}`);
  const second = await post('chen', `Listening in: https://twitter.com/i/spaces/${id}?s=20 #live`);
  await post('dana', `Another one https://x.com/i/spaces/${id}X`);
  await post('dana', `Just text mentioning ${id}`);
  const res = await g.get(`/2/spaces/${id}/posts`, { auth: g.appAuth });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(res.body.data.map((p: any) => p.id), [second, first]);
  assert.match(res.body.data[0].text, /Listening in/);
  assert.equal(res.body.data[0].author_id, undefined, 'default post fields only');
  assert.equal(res.body.meta.result_count, 2);
  const tweets = await g.get(`/2/spaces/${id}/tweets?tweet.fields=author_id`, { auth: g.appAuth });
  assert.equal(tweets.status, 200, "the public platform's path GET /2/spaces/{id}/tweets");
  assert.deepEqual(tweets.body.data.map((p: any) => p.id), [second, first]);
});

test('space posts come through the post renderer: post.fields, expansions=author_id into includes.users, user.fields, and max_results/pagination_token paging', async () => {
  const id = await space('chen');
  const ids = [];
  for (const who of ['ada', 'chen', 'dana']) ids.push(await post(who, `Shared https://x.com/i/spaces/${id}`));
  const full = await g.get(`/2/spaces/${id}/posts?post.fields=author_id,created_at,entities&expansions=author_id&user.fields=username`, { auth: g.oauth2As('dana') });
  assert.equal(full.status, 200, JSON.stringify(full.body));
  assert.equal(full.body.data[0].author_id, g.user('dana').id);
  assert.ok(full.body.data[0].created_at);
  assert.match(full.body.data[0].entities.urls[0].expanded_url, new RegExp(`/i/spaces/${id}$`));
  assert.deepEqual(new Set(full.body.includes.users.map((u: any) => u.username)), new Set(['ada', 'chen', 'dana']));
  const page1 = await g.get(`/2/spaces/${id}/posts?max_results=2`, { auth: g.appAuth });
  assert.deepEqual(page1.body.data.map((p: any) => p.id), [ids[2], ids[1]]);
  assert.ok(page1.body.meta.next_token);
  const page2 = await g.get(`/2/spaces/${id}/posts?max_results=2&pagination_token=${page1.body.meta.next_token}`, { auth: g.appAuth });
  assert.deepEqual(page2.body.data.map((p: any) => p.id), [ids[0]]);
  assert.equal(page2.body.meta.next_token, undefined);
  for (const [q, name] of [['max_results=0', 'max_results'], ['max_results=101', 'max_results'], ['pagination_token=bad', 'pagination_token'], ['expansions=nope', 'expansions']]) {
    const bad = await g.get(`/2/spaces/${id}/posts?${q}`, { auth: g.appAuth });
    assert.equal(bad.status, 400, q);
    assert.ok(name in bad.body.errors[0].parameters, q);
  }
});

test('space posts of a protected account are a not-authorized item for others; an unknown space is a resource-not-found item; a bad id is a 400', async () => {
  const id = await space('dana');
  const hidden = await post('bruno', `private link https://x.com/i/spaces/${id}`);
  const res = await g.get(`/2/spaces/${id}/posts`, { auth: g.appAuth });
  assert.equal(res.body.data, undefined);
  assert.equal(res.body.errors[0].type, problemType('not-authorized-for-resource'));
  assert.equal(res.body.errors[0].resource_id, hidden);
  const mine = await g.get(`/2/spaces/${id}/posts`, { auth: g.oauth2As('bruno') });
  assert.deepEqual(mine.body.data.map((p: any) => p.id), [hidden]);
  const unknown = await g.get('/2/spaces/1NoSuchSpace1/posts', { auth: g.appAuth });
  assert.equal(unknown.status, 200);
  assert.equal(unknown.body.errors[0].type, problemType('resource-not-found'));
  assert.equal((await g.get('/2/spaces/not-a-space!/posts', { auth: g.appAuth })).status, 400);
});

test('GET /2/spaces/{id}/buyers lists the users who "purchased tickets", newest purchase first, with user.fields and paging; only the space creator may read it', async () => {
  const id = await space('chen', { is_ticketed: true });
  await buySpaceTicket(plaza.ctx, g.user('ada').id, id);
  await buySpaceTicket(plaza.ctx, g.user('dana').id, id);
  const res = await g.get(`/2/spaces/${id}/buyers?user.fields=username`, { auth: g.oauth2As('chen') });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(res.body.data.map((u: any) => u.username), ['dana', 'ada']);
  assert.equal(res.body.meta.result_count, 2);
  const page1 = await g.get(`/2/spaces/${id}/buyers?max_results=1`, { auth: g.oauth2As('chen') });
  assert.equal(page1.body.data[0].id, g.user('dana').id);
  const page2 = await g.get(`/2/spaces/${id}/buyers?max_results=1&pagination_token=${page1.body.meta.next_token}`, { auth: g.oauth2As('chen') });
  assert.equal(page2.body.data[0].id, g.user('ada').id);
  assert.equal(page2.body.meta.next_token, undefined);
  const other = await g.get(`/2/spaces/${id}/buyers`, { auth: g.oauth2As('ada') });
  assert.equal(other.status, 403);
  assert.equal((await g.get(`/2/spaces/${id}/buyers`, { auth: g.appAuth })).status, 403, 'user context only');
  const free = await space('chen');
  const none = await g.get(`/2/spaces/${free}/buyers`, { auth: g.oauth2As('chen') });
  assert.equal(none.status, 200);
  assert.equal(none.body.data, undefined);
  assert.equal(none.body.meta.result_count, 0);
  const unknown = await g.get('/2/spaces/1NoSuchSpace1/buyers', { auth: g.oauth2As('chen') });
  assert.equal(unknown.body.errors[0].type, problemType('resource-not-found'));
});

test('a ticket is bought only to a ticketed space that has not ended, once per buyer, never by its creator or a host', async () => {
  const ticketed = await space('dana', { is_ticketed: true, host_ids: [g.user('ada').id] });
  const free = await space('dana');
  const refused = async (userId: string, spaceId: string, status: number) => {
    await assert.rejects(buySpaceTicket(plaza.ctx, userId, spaceId), (e: unknown) => e instanceof ProblemError && e.status === status);
  };
  await refused(g.user('chen').id, free, 409);
  await refused(g.user('dana').id, ticketed, 409);
  await refused(g.user('ada').id, ticketed, 409);
  await refused(g.user('chen').id, '1NoSuchSpace1', 404);
  assert.deepEqual(await buySpaceTicket(plaza.ctx, g.user('chen').id, ticketed), { bought: true });
  await refused(g.user('chen').id, ticketed, 409);
  await g.send('POST', `/2/spaces/${ticketed}/end`, { auth: g.oauth2As('dana') });
  await refused(g.user('plazanews').id, ticketed, 409);
  const buyers = await g.get(`/2/spaces/${ticketed}/buyers`, { auth: g.oauth2As('dana') });
  assert.deepEqual(buyers.body.data.map((u: any) => u.id), [g.user('chen').id]);
});
