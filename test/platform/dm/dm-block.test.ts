import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';

let plaza: TestPlaza;
let g: Fixtures;
const MISSING = '1234567890123456789';

before(async () => {
  plaza = await startTestPlaza();
  g = fixtures(plaza);
});

const send = (from: string, to: string, text: string) => g.send('POST', `/2/dm_conversations/with/${g.user(to).id}/messages`, { auth: g.oauth2As(from), body: { text } });
const dmBlock = (from: string, to: string, verb: 'block' | 'unblock' = 'block') => g.send('POST', `/2/users/${g.user(to).id}/dm/${verb}`, { auth: g.oauth2As(from) });
const messagesBetween = async (a: string, b: string) =>
  (await plaza.ctx.store.db.selectFrom('dm_events').select('id').where('conversation_id', 'like', `%${g.user(a).id}%`).where('conversation_id', 'like', `%${g.user(b).id}%`).execute()).length;

test('POST /2/users/{id}/dm/block: {blocked:true}; then neither user can message the other (403, nothing stored); dm/unblock: {blocked:false} and messages flow again', async () => {
  assert.equal((await send('chen', 'dana', 'before the block')).status, 201);
  const blocked = await dmBlock('dana', 'chen');
  assert.equal(blocked.status, 200);
  assert.deepEqual(blocked.body, { data: { blocked: true } });
  assert.deepEqual((await dmBlock('dana', 'chen')).body, { data: { blocked: true } }, 'blocking twice is still blocked');
  const count = await messagesBetween('chen', 'dana');
  const toBlocker = await send('chen', 'dana', 'hello?');
  assert.equal(toBlocker.status, 403);
  assert.match(toBlocker.body.detail, /does not accept direct messages from you/);
  const fromBlocker = await send('dana', 'chen', 'hi');
  assert.equal(fromBlocker.status, 403);
  assert.match(fromBlocker.body.detail, /dm\/unblock/);
  assert.equal(await messagesBetween('chen', 'dana'), count, 'a refused message changes nothing');
  const unblocked = await dmBlock('dana', 'chen', 'unblock');
  assert.deepEqual(unblocked.body, { data: { blocked: false } });
  assert.deepEqual((await dmBlock('dana', 'chen', 'unblock')).body, { data: { blocked: false } }, 'unblocking twice is still unblocked');
  assert.equal((await send('chen', 'dana', 'after the unblock')).status, 201);
});

test('a DM block refuses a group started with the blocked user and adding them to a group', async () => {
  await dmBlock('ada', 'plazanews');
  const [ada, chen, plazanews] = [g.user('ada'), g.user('chen'), g.user('plazanews')];
  const group = await g.send('POST', '/2/dm_conversations', {
    auth: g.oauth2As('plazanews'),
    body: { conversation_type: 'Group', participant_ids: [ada.id, chen.id], message: { text: 'group?' } },
  });
  assert.equal(group.status, 403);
  const ok = await g.send('POST', '/2/dm_conversations', { auth: g.oauth2As('chen'), body: { conversation_type: 'Group', participant_ids: [ada.id, g.user('dana').id], message: { text: 'group' } } });
  assert.equal(ok.status, 201);
  const add = await g.send('POST', `/2/dm_conversations/${ok.body.data.dm_conversation_id}/participants`, { auth: g.oauth2As('ada'), body: { participant_ids: [plazanews.id] } });
  assert.equal(add.status, 403, 'ada DM-blocks plazanews: ada cannot add plazanews to a group');
  await dmBlock('ada', 'plazanews', 'unblock');
});

test('DM blocking: yourself is invalid (400 naming id), an unknown user is 404 naming id, a read-only OAuth 1.0a token is refused (403), no user context is refused', async () => {
  const self = await g.send('POST', `/2/users/${g.user('ada').id}/dm/block`, { auth: g.oauth2As('ada') });
  assert.equal(self.status, 400);
  assert.ok(self.body.errors[0].parameters.id);
  const missing = await g.send('POST', `/2/users/${MISSING}/dm/block`, { auth: g.oauth2As('ada') });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.parameter, 'id');
  const readOnly = await g.send('POST', `/2/users/${g.user('chen').id}/dm/block`, { auth: await g.enterpriseOAuth1As('ada', 'read-write') });
  assert.equal(readOnly.status, 403);
  const appOnly = await g.send('POST', `/2/users/${g.user('chen').id}/dm/unblock`, { auth: g.appAuth });
  assert.equal(appOnly.status, 403);
  const badId = await g.send('POST', '/2/users/abc/dm/block', { auth: g.oauth2As('ada') });
  assert.equal(badId.status, 400);
  assert.equal(await plaza.ctx.store.db.selectFrom('dm_blocks').select('source_user_id').where('source_user_id', '=', g.user('ada').id).executeTakeFirst(), undefined, 'refused requests store nothing');
});
