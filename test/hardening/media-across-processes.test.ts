import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PART_BYTES } from '../../src/platform/media/blobs.js';
import { call, startTestPlaza, type TestPlaza } from '../support/server.js';
import { mp4, png } from '../support/media-files.js';

/**
 * Issue 37 item 1, "Media lives on each process's disk": on PostgreSQL media bytes and upload
 * segments are kept in the store, so a chunked upload whose pieces arrive through different
 * processes finalizes on any of them, and a file uploaded through one is served by another.
 * (On SQLite, one machine's data directory keeps them, as before.)
 */
const skip = process.env.DATABASE_URL ? false : 'needs DATABASE_URL: processes on other machines share only the PostgreSQL store';
let first: TestPlaza;
let second: TestPlaza;

before(async () => {
  if (skip) return;
  first = await startTestPlaza();
  second = await startTestPlaza({ databaseUrl: first.databaseUrl });
});
after(async () => {
  await second?.close();
  await first?.close();
});

test('a chunked upload across processes: INIT on one, APPENDs on both, FINALIZE on the other; the video (over a part of the store) and its poster frame are served by each', { skip }, async () => {
  const ada = first.creds.users.find((u) => u.username === 'ada')!;
  const auth = { bearer: ada.oauth2_access_token };
  // Larger than one part of the store, so it is kept, moved and served in several.
  const video = mp4({ width: 640, height: 360, durationMs: 4_000, payload: PART_BYTES + 300_000 });
  const init = await call(first.urls.base_url, `/2/media/upload?command=INIT&total_bytes=${video.length}&media_type=video/mp4&media_category=post_video`, { method: 'POST', auth });
  assert.equal(init.status, 200, init.text);
  const id = init.body.data.id as string;
  const third = Math.ceil(video.length / 3);
  for (const [i, p] of [first, second, first].entries()) {
    const segment = video.subarray(i * third, (i + 1) * third).toString('base64');
    const appended = await call(p.urls.base_url, '/2/media/upload', { method: 'POST', auth, form: { command: 'APPEND', media_id: id, segment_index: String(i), media_data: segment } });
    assert.ok(appended.status === 200 || appended.status === 204, appended.text);
  }
  const fin = await call(second.urls.base_url, '/2/media/upload', { method: 'POST', auth, form: { command: 'FINALIZE', media_id: id } });
  assert.equal(fin.status, 200, fin.text);
  const row = await first.ctx.store.db.selectFrom('media').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  assert.equal(row.file_path, `store:${row.media_key}.mp4`);
  for (const p of [first, second]) {
    const url = row.url!.replace(/^https?:\/\/[^/]+/, p.urls.base_url);
    const served = await fetch(url);
    assert.equal(served.status, 200, url);
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), video, 'the bytes as uploaded, in order');
    const poster = await fetch(row.preview_image_url!.replace(/^https?:\/\/[^/]+/, p.urls.base_url));
    assert.equal(poster.status, 200);
    assert.equal(poster.headers.get('content-type'), 'image/png');
  }
  const segmentsLeft = await first.ctx.store.db.selectFrom('media_blobs').select('name').where('name', 'like', `upload/${id}/%`).execute();
  assert.deepEqual(segmentsLeft, [], 'the segments became the file');
});

test('a simple upload through one process is served by the other, and posted with through it', { skip }, async () => {
  const ada = first.creds.users.find((u) => u.username === 'ada')!;
  const bytes = png(64, 48);
  const form = new FormData();
  form.set('media', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'p.png');
  const up = await fetch(`${first.urls.base_url}/2/media/upload`, { method: 'POST', headers: { authorization: `Bearer ${ada.oauth2_access_token}` }, body: form });
  assert.equal(up.status, 200);
  const { data } = (await up.json()) as { data: { id: string; media_key: string } };
  const posted = await call(second.urls.base_url, '/2/posts', { method: 'POST', auth: { bearer: ada.oauth2_access_token }, body: { text: 'with a picture from the other process', media: { media_ids: [data.id] } } });
  assert.equal(posted.status, 201, posted.text);
  const served = await fetch(`${second.urls.base_url}/media/${data.media_key}.png`);
  assert.equal(served.status, 200);
  assert.deepEqual(Buffer.from(await served.arrayBuffer()), bytes);
});
