import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';

/** The v1.1 endpoints SDKs still call (issue 34): account/verify_credentials and media/metadata/create, in v1.1 shapes. */

let plaza: TestPlaza;
let g: Fixtures;

before(async () => {
  plaza = await startTestPlaza();
  g = fixtures(plaza);
});
after(() => plaza.close());

test('GET /1.1/account/verify_credentials.json (OAuth 1.0a): the v1.1 user with id_str, screen_name, v1.1 created_at and its latest status; skip_status, include_email; x-access-level', async () => {
  const dana = g.user('dana');
  const res = await g.get('/1.1/account/verify_credentials.json', { auth: g.oauth1As('dana') });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get('x-access-level'), 'read-write-directmessages');
  assert.equal(res.body.id_str, dana.id);
  assert.equal(res.body.screen_name, 'dana');
  assert.match(res.body.created_at, /^[A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{2}:\d{2}:\d{2} \+0000 \d{4}$/);
  assert.equal(typeof res.body.followers_count, 'number');
  assert.equal(typeof res.body.status.id_str, 'string');
  assert.equal(res.body.status.user, undefined, 'the status of a user object carries no user');
  assert.equal(res.body.email, undefined);
  const lean = await g.get('/1.1/account/verify_credentials.json?skip_status=true&include_email=true', { auth: g.oauth1As('dana') });
  assert.equal(lean.body.status, undefined);
  assert.ok('email' in lean.body);
});

test('v1.1 refusals are {"errors":[{code,message}]}: no credentials (215), a bad flag (44), metadata for unknown media (324) or without media_id (38)', async () => {
  const anonymous = await g.get('/1.1/account/verify_credentials.json');
  // As the public platform answers v1.1 without credentials: 400, code 215 "Bad Authentication data".
  assert.equal(anonymous.status, 400);
  assert.equal(anonymous.body.errors[0].code, 215);
  const bad = await g.get('/1.1/account/verify_credentials.json?skip_status=maybe', { auth: g.oauth1As('dana') });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.errors[0].code, 44);
  assert.match(bad.body.errors[0].message, /skip_status/);
  const unknown = await g.send('POST', '/1.1/media/metadata/create.json', { auth: g.oauth1As('dana'), body: { media_id: '1234567890', alt_text: { text: 'x' } } });
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.errors[0].code, 324);
  const missing = await g.send('POST', '/1.1/media/metadata/create.json', { auth: g.oauth1As('dana'), body: { alt_text: { text: 'x' } } });
  assert.equal(missing.body.errors[0].code, 38);
});

test('POST /1.1/media/metadata/create.json sets the alt text of one\'s media (200, empty body), as /2/media/metadata does', async () => {
  const uploaded = await g.uploadPng(g.oauth2As('dana'));
  const res = await g.send('POST', '/1.1/media/metadata/create.json', { auth: g.oauth1As('dana'), body: { media_id: uploaded.id, alt_text: { text: 'a small picture' } } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.text, '');
  const row = await plaza.ctx.store.db.selectFrom('media').select('alt_text').where('id', '=', uploaded.id).executeTakeFirstOrThrow();
  assert.equal(row.alt_text, 'a small picture');
});
