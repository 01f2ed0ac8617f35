import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sweepExpiredUploads } from '../../../src/platform/media/sweeper.js';
import { call, startTestPlaza, type TestPlaza } from '../../support/server.js';
import { ALL_SCOPES, fixtures } from '../../support/fixtures.js';
import { mp4 } from '../../support/media-files.js';

/**
 * Issue 37 item 1 ("upload sessions live in the store too"): an upload abandoned open (INIT and
 * APPENDs, never FINALIZE) frees its segments once its 24 hours run out, wherever media live; it
 * is refused as expired before and after, and a finalized upload is never touched.
 */
let plaza: TestPlaza;

before(async () => {
  plaza = await startTestPlaza();
});
after(async () => {
  await plaza?.close();
});

const auth = () => ({ bearer: plaza.creds.users.find((u) => u.username === 'ada')!.oauth2_access_token });

async function openUpload(bytes: Buffer, segments: number): Promise<string> {
  const init = await call(plaza.urls.base_url, `/2/media/upload?command=INIT&total_bytes=${bytes.length}&media_type=video/mp4&media_category=post_video`, { method: 'POST', auth: auth() });
  assert.equal(init.status, 200, init.text);
  const id = init.body.data.id as string;
  const size = Math.ceil(bytes.length / segments);
  for (let i = 0; i < segments; i++) {
    const appended = await call(plaza.urls.base_url, '/2/media/upload', { method: 'POST', auth: auth(), form: { command: 'APPEND', media_id: id, segment_index: String(i), media_data: bytes.subarray(i * size, (i + 1) * size).toString('base64') } });
    assert.ok(appended.status === 200 || appended.status === 204, appended.text);
  }
  return id;
}

test('an upload that expires open frees its segments at the next sweep, and APPEND, FINALIZE and STATUS say it expired; one finalized in time keeps its file', async () => {
  const video = mp4({ width: 320, height: 240, durationMs: 2_000 });
  const abandoned = await openUpload(video, 2);
  const finished = await openUpload(video, 1);
  const fin = await call(plaza.urls.base_url, '/2/media/upload', { method: 'POST', auth: auth(), form: { command: 'FINALIZE', media_id: finished } });
  assert.equal(fin.status, 200, fin.text);
  assert.equal((await plaza.ctx.media.segments(abandoned)).size, 2);

  await sweepExpiredUploads(plaza.ctx);
  assert.equal((await plaza.ctx.media.segments(abandoned)).size, 2, 'an upload within its 24 hours keeps its segments');

  // Its 24 hours run out (the session's, not the clock's: the users' tokens would run out too).
  const expiry = new Date(plaza.ctx.clock.now().getTime() - 1).toISOString();
  await plaza.ctx.store.db.updateTable('media_uploads').set({ expires_at: expiry }).where('id', '=', abandoned).execute();
  await sweepExpiredUploads(plaza.ctx);
  assert.equal((await plaza.ctx.media.segments(abandoned)).size, 0, 'the expired upload\'s segments are gone');
  const session = await plaza.ctx.store.db.selectFrom('media_uploads').select(['state', 'expires_at']).where('id', '=', abandoned).executeTakeFirstOrThrow();
  assert.equal(session.state, 'expired');

  for (const [what, request] of [
    ['APPEND', { command: 'APPEND', media_id: abandoned, segment_index: '2', media_data: 'AAAA' }],
    ['FINALIZE', { command: 'FINALIZE', media_id: abandoned }],
  ] as const) {
    const res = await call(plaza.urls.base_url, '/2/media/upload', { method: 'POST', auth: auth(), form: request });
    assert.equal(res.status, 400, `${what}: ${res.text}`);
    assert.match(JSON.stringify(res.body), new RegExp(`The upload \\[${abandoned}\\] expired at ${session.expires_at.replace(/[.]/g, '\\.')}`), what);
  }
  const status = await call(plaza.urls.base_url, `/2/media/upload?command=STATUS&media_id=${abandoned}`, { auth: auth() });
  assert.equal(status.status, 400, status.text);
  assert.match(JSON.stringify(status.body), /expired at .* before FINALIZE/);

  const media = await plaza.ctx.store.db.selectFrom('media').select(['file_path']).where('id', '=', finished).executeTakeFirstOrThrow();
  assert.ok(await plaza.ctx.media.open(media.file_path!), 'the finalized upload\'s file is kept');
});

test('a chat media upload that expires open frees its segments too', async () => {
  const g = fixtures(plaza);
  const as = (username: string) => g.enterpriseAs(username, [...ALL_SCOPES, 'media.write']);
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  for (const username of ['ada', 'chen']) {
    const key = await g.send('POST', `/2/users/${g.user(username).id}/public_keys`, { auth: await as(username), body: { version: '1', public_key: { public_key: b64(`${username}-identity`) } } });
    assert.equal(key.status, 200, JSON.stringify(key.body));
  }
  const chen = g.user('chen');
  const participants = ['ada', 'chen'].map((u) => ({ user_id: g.user(u).id, encrypted_conversation_key: b64(`key-for-${u}`), public_key_version: '1' }));
  const keys = await g.send('POST', `/2/chat/conversations/${chen.id}/keys`, { auth: await as('ada'), body: { conversation_key_version: '1', conversation_participant_keys: participants } });
  assert.ok(keys.status < 300, JSON.stringify(keys.body));
  const init = await g.send('POST', '/2/chat/media/upload/initialize', { auth: await as('ada'), body: { conversation_id: chen.id, total_bytes: 6 } });
  assert.equal(init.status, 200, JSON.stringify(init.body));
  const { session_id: id, media_hash_key, conversation_id } = init.body.data;
  const append = async (index: number, text: string) => g.send('POST', `/2/chat/media/upload/${id}/append`, { auth: await as('ada'), body: { conversation_id, media_hash_key, segment_index: index, media: b64(text) } });
  assert.equal((await append(0, 'abc')).status, 200);
  await sweepExpiredUploads(plaza.ctx);
  assert.equal((await plaza.ctx.media.segments(id)).size, 1);
  await plaza.ctx.store.db.updateTable('chat_media').set({ expires_at: new Date(plaza.ctx.clock.now().getTime() - 1).toISOString() }).where('id', '=', id).execute();
  await sweepExpiredUploads(plaza.ctx);
  assert.equal((await plaza.ctx.media.segments(id)).size, 0);
  const row = await plaza.ctx.store.db.selectFrom('chat_media').select('state').where('id', '=', id).executeTakeFirstOrThrow();
  assert.equal(row.state, 'expired');
  const late = await append(1, 'def');
  assert.equal(late.status, 400, JSON.stringify(late.body));
  assert.match(JSON.stringify(late.body), /expired at/);
});
