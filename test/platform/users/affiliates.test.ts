import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { adminFixtures } from '../../admin/support.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';
import { problemType } from '../../support/problems.js';

/** GET /2/users/{id}/affiliates (issue #18): the accounts whose affiliation names an organisation. */
let plaza: TestPlaza;
let g: Fixtures;
let a: ReturnType<typeof adminFixtures>;
const MISSING = '1234567890123456789';

before(async () => {
  plaza = await startTestPlaza();
  g = fixtures(plaza);
  a = adminFixtures(plaza);
});

const affiliates = (id: string, q = '', auth: { bearer: string } = g.appAuth) => g.get(`/2/users/${id}/affiliates${q}`, { auth });

test('the demo organisation (verified business) lists its affiliate: chen, whose affiliation.user_id names it', async () => {
  const news = g.user('plazanews').id;
  const res = await affiliates(news, '?user.fields=affiliation,verified_type');
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.data.map((u: { username: string }) => u.username), ['chen']);
  assert.deepEqual(res.body.data[0].affiliation.user_id, [news]);
  assert.equal(res.body.meta.result_count, 1);
  const user = await affiliates(news, '', await g.enterpriseAs('dana'));
  assert.equal(user.status, 200, 'user context works too');
});

test('an affiliation set through the admin interface (PATCH /admin/users/{id}/profile affiliation) joins the list, newest account first, with pagination; null removes it', async () => {
  const news = g.user('plazanews').id;
  const set = await a.admin('PATCH', `/admin/users/${g.user('ada').id}/profile`, { body: { affiliation: { description: 'Plaza News', user_id: [news] } } });
  assert.equal(set.status, 200, set.text);
  const both = await affiliates(news);
  assert.deepEqual(both.body.data.map((u: { username: string }) => u.username), ['chen', 'ada']);
  const first = await affiliates(news, '?max_results=1');
  assert.deepEqual(first.body.data.map((u: { username: string }) => u.username), ['chen']);
  const second = await affiliates(news, `?max_results=1&pagination_token=${first.body.meta.next_token}`);
  assert.deepEqual(second.body.data.map((u: { username: string }) => u.username), ['ada']);
  assert.equal(second.body.meta.next_token, undefined);
  await a.admin('PATCH', `/admin/users/${g.user('ada').id}/profile`, { body: { affiliation: null } });
  assert.deepEqual((await affiliates(news)).body.data.map((u: { username: string }) => u.username), ['chen']);
});

test('an account with no affiliates answers meta.result_count 0 and no data; an affiliation to another organisation does not count', async () => {
  await a.admin('PATCH', `/admin/users/${g.user('dana').id}/profile`, { body: { affiliation: { user_id: [g.user('ada').id] } } });
  const none = await affiliates(g.user('bruno').id);
  assert.equal(none.status, 200);
  assert.equal(none.body.data, undefined);
  assert.equal(none.body.meta.result_count, 0);
  assert.deepEqual((await affiliates(g.user('ada').id)).body.data.map((u: { username: string }) => u.username), ['dana']);
});

test('expansions=pinned_post_id and user.fields work as on other user lists; an unknown user is a 200 with a resource-not-found error; bad max_results or fields are a 400 naming the parameter', async () => {
  const news = g.user('plazanews').id;
  const expanded = await affiliates(news, '?expansions=pinned_post_id&user.fields=created_at');
  assert.equal(expanded.status, 200, expanded.text);
  assert.ok(expanded.body.data[0].created_at);
  const missing = await affiliates(MISSING);
  assert.equal(missing.status, 200);
  assert.equal(missing.body.errors[0].type, problemType('resource-not-found'));
  for (const q of ['?max_results=0', '?max_results=1001', '?user.fields=nope', '?pagination_token=zzz']) {
    const res = await affiliates(news, q);
    assert.equal(res.status, 400, q);
  }
  assert.equal((await affiliates('abc')).status, 400);
});
