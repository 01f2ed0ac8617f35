import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { insertCommunity } from '../../../src/platform/communities/store.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';
import { normalise } from '../../support/normalise.js';

/** GET /2/communities/search (issue #18) over the store's communities. */
let plaza: TestPlaza;
let g: Fixtures;
const gardens: string[] = [];

before(async () => {
  plaza = await startTestPlaza();
  g = fixtures(plaza);
  const ctx = plaza.ctx;
  // Twelve gardening communities of growing size, and one that only says "garden" in its description.
  for (let i = 0; i < 12; i++) {
    const id = ctx.ids.next();
    gardens.push(id);
    await insertCommunity(ctx.store.db, {
      id, name: `Urban Gardening ${i}`, description: 'Balconies and rooftops', access: 'Public', join_policy: 'Open',
      creator_id: g.user('ada').id, member_count: i * 10, created_at: ctx.clock.now().toISOString(),
    });
  }
  await insertCommunity(ctx.store.db, {
    id: ctx.ids.next(), name: 'Cooking 100%', description: 'From the GARDEN to the table', access: 'Closed', join_policy: 'RestrictedJoinRequestsRequireAdminApproval',
    creator_id: g.user('dana').id, member_count: 1000, created_at: ctx.clock.now().toISOString(),
  });
});

const search = async (q: string, username = 'dana') => g.get(`/2/communities/search${q}`, { auth: await g.enterpriseAs(username) });

test('GET /2/communities/search: communities whose name or description holds every word (case-insensitive), largest first; defaults id and name; max_results defaults to 10 with a next_token', async () => {
  const res = await search('?query=garden');
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.length, 10);
  assert.deepEqual(res.body.data[0], { id: res.body.data[0].id, name: 'Cooking 100%' });
  assert.deepEqual(res.body.data.slice(1).map((c: { id: string }) => c.id), gardens.slice().reverse().slice(0, 9));
  assert.equal(res.body.meta.result_count, 10);
  assert.ok(res.body.meta.next_token);
  const rest = await search(`?query=garden&next_token=${res.body.meta.next_token}`);
  assert.deepEqual(rest.body.data.map((c: { id: string }) => c.id), gardens.slice(0, 3).reverse());
  assert.equal(rest.body.meta.next_token, undefined);
  const same = await search(`?query=garden&pagination_token=${res.body.meta.next_token}`);
  assert.deepEqual(same.body.data, rest.body.data, 'pagination_token is a synonym of next_token');
});

test('every word must match; a LIKE wildcard in the query is literal; no match is a 200 with result_count 0 and no data', async () => {
  const two = await search('?query=urban%20rooftops&max_results=100');
  assert.equal(two.body.data.length, 12);
  const literal = await search('?query=100%25');
  assert.deepEqual(literal.body.data.map((c: { name: string }) => c.name), ['Cooking 100%']);
  const none = await search('?query=zzzz%20garden');
  assert.equal(none.status, 200);
  assert.equal(none.body.data, undefined);
  assert.equal(none.body.meta.result_count, 0);
  const builders = await search('?query=builders');
  assert.deepEqual(builders.body.data.map((c: { name: string }) => c.name), ['Plaza Builders'], 'the demo community is found too');
});

test('community.fields selects fields; bad input (no query, max_results outside 10-100, an unknown field, a foreign token) is a 400 naming the parameter', async () => {
  const res = await search('?query=cooking&community.fields=access,join_policy,member_count,description,created_at');
  assert.deepEqual(normalise(res.body), {
    data: [
      {
        id: '<id:1>',
        name: 'Cooking 100%',
        description: 'From the GARDEN to the table',
        access: 'Closed',
        join_policy: 'RestrictedJoinRequestsRequireAdminApproval',
        member_count: 1000,
        created_at: '<time>',
      },
    ],
    meta: { result_count: 1 },
  });
  for (const [q, parameter] of [['', 'query'], ['?query=%20%20', 'query'], ['?query=a&max_results=9', 'max_results'], ['?query=a&max_results=101', 'max_results'], ['?query=a&community.fields=members', 'community.fields'], ['?query=a&next_token=abc', 'next_token']]) {
    const bad = await search(q);
    assert.equal(bad.status, 400, q);
    assert.match(bad.text, new RegExp(parameter.replace('.', '\\.')), q);
  }
});

test('community search needs user context: app-only is refused', async () => {
  const res = await g.get('/2/communities/search?query=garden', { auth: g.appAuth });
  assert.equal(res.status, 403);
});
