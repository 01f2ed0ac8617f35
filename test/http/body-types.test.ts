import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { fixtures, type Fixtures } from '../support/fixtures.js';

/** Issue 34: a JSON body says what type each member is, and a body that is not JSON is told so. */

let plaza: TestPlaza;
let g: Fixtures;

before(async () => {
  plaza = await startTestPlaza();
  g = fixtures(plaza);
});
after(() => plaza.close());

test('a body member of the wrong JSON type is a 400 naming it ({"text": 5} is not stored as "5"), and nothing is written', async () => {
  const before = await plaza.ctx.store.db.selectFrom('posts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const res = await g.send('POST', '/2/posts', { auth: g.oauth2As('dana'), body: { text: 5 } });
  assert.equal(res.status, 400, res.text);
  assert.match(res.text, /text/);
  assert.match(JSON.stringify(res.body), /string/);
  const inTweets = await g.send('POST', '/2/tweets', { auth: g.oauth2As('dana'), body: { text: ['a'] } });
  assert.equal(inTweets.status, 400);
  const after = await plaza.ctx.store.db.selectFrom('posts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  assert.equal(Number(after.n), Number(before.n));
  const flag = await g.send('POST', `/2/users/${g.user('dana').id}/likes`, { auth: g.oauth2As('dana'), body: { post_id: 1234567890123 } });
  assert.equal(flag.status, 400, flag.text);
  assert.match(flag.text, /post_id/);
});

test('a body without content-type application/json gets an invalid-request problem that says so; a nested member is named by its path', async () => {
  const auth = `Bearer ${g.user('dana').oauth2_access_token}`;
  const res = await fetch(`${plaza.urls.base_url}/2/posts`, { method: 'POST', headers: { authorization: auth, 'content-type': 'text/plain' }, body: '{"text":"hi"}' });
  const body = await res.json();
  assert.equal(res.status, 400, JSON.stringify(body));
  assert.match(body.errors[0].message, /content-type: application\/json .*text\/plain/);
  const none = await fetch(`${plaza.urls.base_url}/2/posts`, { method: 'POST', headers: { authorization: auth }, body: new Uint8Array(Buffer.from('{"text":"hi"}')) });
  const noneBody = await none.json();
  assert.ok(none.status === 415 || none.status === 400, JSON.stringify(noneBody));
  assert.match(JSON.stringify(noneBody), /application\/json/);
  const nested = await g.send('POST', '/2/posts', { auth: g.oauth2As('dana'), body: { text: 'a reply', reply: { in_reply_to_post_id: 12 } } });
  assert.equal(nested.status, 400, nested.text);
  assert.deepEqual(Object.keys(nested.body.errors[0].parameters), ['reply.in_reply_to_post_id']);
});
