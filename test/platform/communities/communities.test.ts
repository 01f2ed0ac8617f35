import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { problemType } from '../../support/problems.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';
import { normalise } from '../../support/normalise.js';

let plaza: TestPlaza;
let p: Fixtures;
let communityId: string;
let mural: string;

before(async () => {
  plaza = await startTestPlaza();
  p = fixtures(plaza);
  const community = await plaza.ctx.store.db.selectFrom('communities').selectAll().where('name', '=', 'Plaza Builders').executeTakeFirstOrThrow();
  communityId = community.id;
  [, , , , , , mural] = plaza.creds.sample.post_ids;
});

test('the demo seed has a community with members (plazanews, ada, chen) and posts; GET /2/communities/{id} answers it with community.fields', async () => {
  const res = await p.get(`/2/communities/${communityId}`, { auth: p.appAuth });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.data, { id: communityId, name: 'Plaza Builders' }, 'defaults: id and name');
  const all = await p.get(`/2/communities/${communityId}?community.fields=access,created_at,description,join_policy,member_count`, { auth: await p.selfServeAs('dana') });
  assert.deepEqual(normalise(all.body, { [communityId]: 'community' }), {
    data: {
      id: '<community>',
      name: 'Plaza Builders',
      description: 'People building on Plaza: share what you make.',
      access: 'Public',
      join_policy: 'Open',
      member_count: 3,
      created_at: '<time>',
    },
  });
  assert.match(all.body.data.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  const bad = await p.get(`/2/communities/${communityId}?community.fields=members`, { auth: p.appAuth });
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.body.errors[0].parameters, { 'community.fields': ['members'] });
  const missing = await p.get('/2/communities/1234567890123456789', { auth: p.appAuth });
  assert.equal(missing.status, 404);
  assert.match(missing.body.detail, /Could not find community/);
});

test('posting to a community (community_id) requires membership: a member\'s post carries community_id; a non-member gets 403 and nothing changes; an unknown community is an invalid-request naming community_id', async () => {
  const res = await p.post(await p.selfServeAs('chen'), { text: 'Build log #2', community_id: communityId });
  assert.equal(res.status, 201);
  const post = await p.lookup(res.body.data.id);
  assert.equal(post.community_id, communityId);
  const seq = await p.lastSeq();
  const outsider = await p.post(await p.enterpriseAs('dana'), { text: 'Let me in', community_id: communityId });
  assert.equal(outsider.status, 403);
  assert.match(outsider.body.detail, /Only members of the community "Plaza Builders"/);
  const unknown = await p.post(await p.enterpriseAs('dana'), { text: 'Where?', community_id: '1234567890123456789' });
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.type, problemType('invalid-request'));
  assert.deepEqual(unknown.body.errors[0].parameters, { community_id: ['1234567890123456789'] });
  assert.equal((await p.eventsSince(seq)).length, 0);
});

test('a reply to a community post stays in the community, so only members can reply', async () => {
  const member = await p.post(await p.enterpriseAs('plazanews'), { text: 'Love it', reply: { in_reply_to_post_id: mural } });
  assert.equal(member.status, 201);
  assert.equal((await p.lookup(member.body.data.id)).community_id, communityId);
  const outsider = await p.post(await p.enterpriseAs('dana'), { text: 'Me too', reply: { in_reply_to_post_id: mural } });
  assert.equal(outsider.status, 403);
  const elsewhere = await p.post(await p.enterpriseAs('chen'), { text: 'Elsewhere', reply: { in_reply_to_post_id: mural }, community_id: '1234567890123456789' });
  assert.equal(elsewhere.status, 400);
  assert.deepEqual(Object.keys(elsewhere.body.errors[0].parameters), ['community_id']);
});

test('GET /2/communities/{id}/posts: the community\'s posts, newest first, paginated (max_results 5-100), with field selection and expansions', async () => {
  const ada = await p.selfServeAs('ada');
  const made: string[] = [];
  for (let i = 0; i < 6; i++) made.push((await p.post(ada, { text: `Community note ${i}`, community_id: communityId })).body.data.id);
  await p.post(ada, { text: 'Not in the community' });
  const first = await p.get(`/2/communities/${communityId}/posts?max_results=5&post.fields=community_id,author_id&expansions=author_id`, { auth: p.appAuth });
  assert.equal(first.status, 200);
  assert.deepEqual(first.body.data.map((x: any) => x.id), made.slice(1).reverse());
  assert.ok(first.body.data.every((x: any) => x.community_id === communityId));
  assert.deepEqual(first.body.includes.users.map((u: any) => u.username), ['ada']);
  assert.equal(first.body.meta.newest_id, made[5]);
  const second = await p.get(`/2/communities/${communityId}/posts?max_results=5&pagination_token=${first.body.meta.next_token}`, { auth: p.appAuth });
  assert.equal(second.body.data[0].id, made[0]);
  const all = await p.get(`/2/communities/${communityId}/posts?max_results=100`, { auth: p.appAuth });
  assert.ok(all.body.data.some((x: any) => x.id === mural), 'the seeded community posts');
  assert.equal((await p.get(`/2/communities/${communityId}/posts?max_results=4`, { auth: p.appAuth })).status, 400);
  assert.equal((await p.get('/2/communities/1234567890123456789/posts', { auth: p.appAuth })).status, 404);
});

test('contract with the home timeline: a followed author\'s community post reaches followers only with share_with_followers (community_id IS NULL OR share_with_followers = 1)', async () => {
  // dana follows ada and is not a member of the community.
  const ada = await p.selfServeAs('ada');
  const shared = await p.post(ada, { text: 'For the community and my followers', community_id: communityId, share_with_followers: true });
  const kept = await p.post(ada, { text: 'For the community only', community_id: communityId, share_with_followers: false });
  assert.equal((await p.postRow(shared.body.data.id)).share_with_followers, 1);
  assert.equal((await p.postRow(kept.body.data.id)).share_with_followers, 0);
  const dana = p.user('dana');
  const home = await p.get(`/2/users/${dana.id}/timelines/reverse_chronological?max_results=100`, { auth: p.oauth2As('dana') });
  assert.equal(home.status, 200);
  const ids = home.body.data.map((x: any) => x.id);
  assert.ok(ids.includes(shared.body.data.id), 'shared with followers');
  assert.ok(!ids.includes(kept.body.data.id), 'community only');
  assert.ok(ids.includes(mural), 'the seeded shared community post');
});
