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

const homeIds = async (username: string) => {
  const res = await g.get(`/2/users/${g.user(username).id}/timelines/reverse_chronological?post.fields=author_id`, { auth: await g.enterpriseAs(username) });
  return res.body.data.map((p: any) => p.author_id as string);
};

test("muted users' posts leave the muter's home timeline: POST /2/users/{id}/muting, mute.mute event; unmuting brings them back (mute.unmute)", async () => {
  const [ada, news] = [g.user('ada'), g.user('plazanews')];
  const auth = await g.enterpriseAs('ada');
  assert.ok((await homeIds('ada')).includes(news.id), 'ada follows plazanews');
  const seq = await g.lastSeq();
  const muted = await g.send('POST', `/2/users/${ada.id}/muting`, { auth, body: { target_user_id: news.id } });
  assert.deepEqual(muted.body, { data: { muting: true } });
  assert.ok(!(await homeIds('ada')).includes(news.id));
  const [event] = await g.eventsSince(seq, 'mute.mute');
  assert.equal(event.subject, news.id);
  assert.equal(event.payload.source.data.id, ada.id);
  assert.equal(event.payload.target.data.id, news.id);
  const status = await g.get(`/2/users/${news.id}?user.fields=connection_status`, { auth });
  assert.deepEqual(status.body.data.connection_status, ['following', 'muting']);
  const list = await g.get(`/2/users/${ada.id}/muting`, { auth });
  assert.deepEqual(list.body.data.map((u: any) => u.username), ['plazanews']);
  const unmuted = await g.send('DELETE', `/2/users/${ada.id}/muting/${news.id}`, { auth });
  assert.deepEqual(unmuted.body, { data: { muting: false } });
  assert.ok((await homeIds('ada')).includes(news.id));
  assert.equal((await g.eventsSince(seq, 'mute.unmute')).length, 1);
  const again = await g.send('DELETE', `/2/users/${ada.id}/muting/${news.id}`, { auth });
  assert.deepEqual(again.body, { data: { muting: false } });
  assert.equal((await g.eventsSince(seq, 'mute.unmute')).length, 1, 'nothing to unmute: no event');
});

test('muting: yourself is an invalid-request; a missing user 404; the muting list is the authenticated user\'s own (403 for another id)', async () => {
  const ada = g.user('ada');
  const auth = await g.enterpriseAs('ada');
  const self = await g.send('POST', `/2/users/${ada.id}/muting`, { auth, body: { target_user_id: ada.id } });
  assert.equal(self.status, 400);
  assert.ok('target_user_id' in self.body.errors[0].parameters);
  const missing = await g.send('POST', `/2/users/${ada.id}/muting`, { auth, body: { target_user_id: '1234567890123456789' } });
  assert.equal(missing.status, 404);
  const other = await g.get(`/2/users/${g.user('chen').id}/muting`, { auth });
  assert.equal(other.status, 403);
});

test('the manage-blocks endpoint was removed (2023): POST /2/users/{id}/blocking on a self-serve app is client-forbidden; enterprise keeps it', async () => {
  const [chen, dana] = [g.user('chen'), g.user('dana')];
  const refused = await g.send('POST', `/2/users/${chen.id}/blocking`, { auth: g.oauth2As('chen'), body: { target_user_id: dana.id } });
  assert.equal(refused.status, 403);
  assert.equal(refused.body.type, problemType('client-forbidden'));
  const unblock = await g.send('DELETE', `/2/users/${chen.id}/blocking/${dana.id}`, { auth: g.oauth2As('chen') });
  assert.equal(unblock.status, 403);
  const read = await g.get(`/2/users/${chen.id}/blocking`, { auth: g.oauth2As('chen') });
  assert.equal(read.status, 200, 'the blocks lookup stays');
});

test('blocking ends follows both ways (follow.unfollow, counters) and appends block.block; blocked users cannot follow the blocker', async () => {
  const [dana, ada] = [g.user('dana'), g.user('ada')];
  const adaAuth = await g.enterpriseAs('ada');
  const danaAuth = await g.enterpriseAs('dana');
  const followers = (await g.userRow('ada')).followers_count;
  const seq = await g.lastSeq();
  const res = await g.send('POST', `/2/users/${ada.id}/blocking`, { auth: adaAuth, body: { target_user_id: dana.id } });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { data: { blocking: true } });
  assert.equal((await g.userRow('ada')).followers_count, followers - 1, 'dana no longer follows ada');
  const unfollows = await g.eventsSince(seq, 'follow.unfollow');
  assert.deepEqual(unfollows.map((e) => [e.payload.source.data.id, e.payload.target.data.id]), [[dana.id, ada.id]]);
  const [block] = await g.eventsSince(seq, 'block.block');
  assert.equal(block.subject, dana.id);
  assert.equal(block.payload.source.data.id, ada.id);

  const follow = await g.send('POST', `/2/users/${dana.id}/following`, { auth: danaAuth, body: { target_user_id: ada.id } });
  assert.equal(follow.status, 403);
  assert.match(follow.body.detail, /blocked/);
  assert.equal((await g.userRow('ada')).followers_count, followers - 1);
  const status = await g.get(`/2/users/${dana.id}?user.fields=connection_status`, { auth: adaAuth });
  assert.deepEqual(status.body.data.connection_status, ['blocking']);
  const blocking = await g.get(`/2/users/${ada.id}/blocking?user.fields=username`, { auth: adaAuth });
  assert.deepEqual(blocking.body.data.map((u: any) => u.username), ['dana']);
  assert.equal(blocking.body.meta.result_count, 1);
});

test('the blocker cannot follow whom they block; DELETE /2/users/{source}/blocking/{target} unblocks (block.unblock) and following works again', async () => {
  const [dana, ada] = [g.user('dana'), g.user('ada')];
  const adaAuth = await g.enterpriseAs('ada');
  const follow = await g.send('POST', `/2/users/${ada.id}/following`, { auth: adaAuth, body: { target_user_id: dana.id } });
  assert.equal(follow.status, 403);
  const seq = await g.lastSeq();
  const res = await g.send('DELETE', `/2/users/${ada.id}/blocking/${dana.id}`, { auth: adaAuth });
  assert.deepEqual(res.body, { data: { blocking: false } });
  assert.equal((await g.eventsSince(seq, 'block.unblock')).length, 1);
  const refollow = await g.send('POST', `/2/users/${dana.id}/following`, { auth: await g.enterpriseAs('dana'), body: { target_user_id: ada.id } });
  assert.deepEqual(refollow.body.data, { following: true, pending_follow: false });
});

test('a user who blocks another cannot receive their direct messages (403), and blocked users cannot like the blocker\'s posts', async () => {
  const [chen, news] = [g.user('chen'), g.user('plazanews')];
  await g.send('POST', `/2/users/${news.id}/blocking`, { auth: await g.enterpriseAs('plazanews'), body: { target_user_id: chen.id } });
  const dm = await g.send('POST', `/2/dm_conversations/with/${news.id}/messages`, { auth: await g.enterpriseAs('chen'), body: { text: 'hello?' } });
  assert.equal(dm.status, 403);
  const like = await g.send('POST', `/2/users/${chen.id}/likes`, { auth: await g.enterpriseAs('chen'), body: { post_id: plaza.creds.sample.post_ids[3] } });
  assert.equal(like.status, 403);
  await g.send('DELETE', `/2/users/${news.id}/blocking/${chen.id}`, { auth: await g.enterpriseAs('plazanews') });
});
