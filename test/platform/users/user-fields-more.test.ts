import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';

/**
 * user.fields receives_your_dm, subscribes_to_you, subscription and verified_followers_count
 * (components.schemas User of the public description): what each says, for whom, and that they
 * appear only when selected.
 */

let plaza: TestPlaza;
let g: Fixtures;

before(async () => {
  plaza = await startTestPlaza();
  g = fixtures(plaza);
});

const FIELDS = 'user.fields=receives_your_dm,subscribes_to_you,subscription,verified_followers_count';
const lookup = async (username: string, auth: { bearer: string }, fields = FIELDS) => {
  const res = await g.get(`/2/users/${g.user(username).id}?${fields}`, { auth });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
};

test('"receives_your_dm: Indicates if you can send a DM to this User": false once either side blocks the other or DM-blocks, true again when lifted, never for yourself', async () => {
  const [ada, chen] = [g.user('ada'), g.user('chen')];
  const adaAuth = g.oauth2As('ada');
  assert.equal((await lookup('chen', adaAuth)).receives_your_dm, true);
  assert.equal((await lookup('ada', adaAuth)).receives_your_dm, false, 'nobody messages themselves');

  assert.equal((await g.send('POST', `/2/users/${ada.id}/dm/block`, { auth: g.oauth2As('chen') })).status, 200);
  assert.equal((await lookup('chen', adaAuth)).receives_your_dm, false, 'chen DM-blocks ada');
  assert.equal((await lookup('ada', g.oauth2As('chen'))).receives_your_dm, false, 'and chen cannot message ada either');
  assert.equal((await g.send('POST', `/2/users/${ada.id}/dm/unblock`, { auth: g.oauth2As('chen') })).status, 200);
  assert.equal((await lookup('chen', adaAuth)).receives_your_dm, true);

  const chenAuth = await g.enterpriseAs('chen');
  assert.equal((await g.send('POST', `/2/users/${chen.id}/blocking`, { auth: chenAuth, body: { target_user_id: ada.id } })).status, 200);
  assert.equal((await lookup('chen', adaAuth)).receives_your_dm, false, 'chen blocks ada');
  // The DM send path agrees: what the field says is what sending does.
  const refused = await g.send('POST', `/2/dm_conversations/with/${chen.id}/messages`, { auth: adaAuth, body: { text: 'hi' } });
  assert.equal(refused.status, 403);
  assert.equal((await g.send('DELETE', `/2/users/${chen.id}/blocking/${ada.id}`, { auth: chenAuth })).status, 200);
  assert.equal((await lookup('chen', adaAuth)).receives_your_dm, true);
});

test('"subscribes_to_you" and "subscription" ({subscribes_to_you}): Plaza has no subscriptions between users, so false for a user-context viewer; left out for app-only callers', async () => {
  const data = await lookup('chen', g.oauth2As('ada'));
  assert.equal(data.subscribes_to_you, false);
  assert.deepEqual(data.subscription, { subscribes_to_you: false });
  const app = await lookup('chen', g.appAuth);
  assert.equal('subscribes_to_you' in app, false);
  assert.equal('subscription' in app, false);
  assert.equal('receives_your_dm' in app, false);
});

test('"verified_followers_count: The number of verified followers of this User": counts followers with verified set, follows in and out', async () => {
  const db = plaza.ctx.store.db;
  const dana = g.user('dana');
  const expected = async () =>
    Number(
      (await db.selectFrom('follows as f').innerJoin('users as u', 'u.id', 'f.source_user_id').select((eb) => eb.fn.countAll().as('n')).where('f.target_user_id', '=', dana.id).where('u.verified', '=', 1).executeTakeFirstOrThrow()).n,
    );
  const before = await lookup('dana', g.appAuth);
  assert.equal(before.verified_followers_count, await expected());

  // chen, made verified, follows dana: one more verified follower.
  await db.updateTable('users').set({ verified: 1 }).where('id', '=', g.user('chen').id).execute();
  const chenAuth = await g.enterpriseAs('chen');
  await g.send('DELETE', `/2/users/${g.user('chen').id}/following/${dana.id}`, { auth: chenAuth });
  const without = (await lookup('dana', g.appAuth)).verified_followers_count;
  assert.equal((await g.send('POST', `/2/users/${g.user('chen').id}/following`, { auth: chenAuth, body: { target_user_id: dana.id } })).status, 200);
  const withChen = (await lookup('dana', g.appAuth)).verified_followers_count;
  assert.equal(withChen, without + 1);
  assert.equal(withChen, await expected());
  // An unverified follower does not count.
  await db.updateTable('users').set({ verified: 0 }).where('id', '=', g.user('chen').id).execute();
  assert.equal((await lookup('dana', g.appAuth)).verified_followers_count, without);
});

test('the new fields appear only when selected, also on users in includes and in lists; an unknown user.fields value is still a 400 naming user.fields', async () => {
  const plain = await lookup('chen', g.oauth2As('ada'), 'user.fields=username');
  for (const f of ['receives_your_dm', 'subscribes_to_you', 'subscription', 'verified_followers_count']) assert.equal(f in plain, false, f);
  const ada = g.user('ada');
  const following = await g.get(`/2/users/${ada.id}/following?${FIELDS}`, { auth: await g.enterpriseAs('ada') });
  assert.equal(following.status, 200, following.text);
  assert.ok(following.body.data.length > 0);
  for (const u of following.body.data) {
    assert.equal(typeof u.receives_your_dm, 'boolean');
    assert.equal(typeof u.verified_followers_count, 'number');
  }
  const post = plaza.creds.sample.post_ids[0];
  const withAuthor = await g.get(`/2/posts/${post}?expansions=author_id&${FIELDS}`, { auth: g.oauth2As('ada') });
  assert.equal(withAuthor.status, 200, withAuthor.text);
  const author = withAuthor.body.includes.users[0];
  assert.equal(typeof author.verified_followers_count, 'number');
  assert.equal(typeof author.receives_your_dm, 'boolean');
  const bad = await g.get(`/2/users/${ada.id}?user.fields=receives_your_dms`, { auth: g.oauth2As('ada') });
  assert.equal(bad.status, 400);
  assert.match(JSON.stringify(bad.body), /user\.fields/);
});
