import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { checkStartable, loadConfig, StartupError } from '../../src/config.js';
import { startBucketServer, type BucketServer } from '../support/bucket.js';
import { call, startTestPlaza, type TestPlaza } from '../support/server.js';
import { mp4, png } from '../support/media-files.js';
import { eventually } from '../support/wait.js';

/**
 * Issue 37 item 1: media bytes "in an S3-compatible object store when one is configured"
 * (--media-bucket, --media-endpoint; src/platform/media/bucket.ts), which every process behind a
 * balancer reaches, on SQLite as on PostgreSQL. On PostgreSQL a second process on the same store
 * and bucket takes part of each upload.
 */
let bucket: BucketServer;
let first: TestPlaza;
let second: TestPlaza;
const PREFIX = 'plaza-media/';

before(async () => {
  bucket = await startBucketServer(['plaza', 'other']);
  const media = { mediaBucket: 's3://plaza/plaza-media', mediaEndpoint: bucket.endpoint };
  first = await startTestPlaza(media);
  second = process.env.DATABASE_URL ? await startTestPlaza({ ...media, databaseUrl: first.databaseUrl }) : first;
});
after(async () => {
  if (second !== first) await second?.close();
  await first?.close();
  await bucket?.close();
});

const ada = () => first.creds.users.find((u) => u.username === 'ada')!;
const mediaRow = (id: string) => first.ctx.store.db.selectFrom('media').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const through = (p: TestPlaza, url: string) => url.replace(/^https?:\/\/[^/]+/, p.urls.base_url);

test('"in an S3-compatible object store when one is configured": the demo\'s photos and a simple upload are objects of the bucket, served at their URLs by each process, and posted with', async () => {
  const seeded = await first.ctx.store.db.selectFrom('media').select(['media_key', 'file_path', 'url']).where('file_path', 'like', 's3:%').execute();
  assert.ok(seeded.length > 0, 'the demo workspace put its photos in the bucket');
  const kept = await bucket.objects('plaza', PREFIX);
  for (const row of seeded) assert.ok(kept.has(row.file_path!.slice('s3:'.length)), `${row.file_path} is an object`);

  const bytes = png(64, 48);
  const form = new FormData();
  form.set('media', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'p.png');
  const up = await fetch(`${first.urls.base_url}/2/media/upload`, { method: 'POST', headers: { authorization: `Bearer ${ada().oauth2_access_token}` }, body: form });
  assert.equal(up.status, 200, await up.clone().text());
  const { data } = (await up.json()) as { data: { id: string; media_key: string } };
  const row = await mediaRow(data.id);
  assert.equal(row.file_path, `s3:${PREFIX}${data.media_key}.png`);
  assert.deepEqual((await bucket.objects('plaza', row.file_path!.slice(3))).get(row.file_path!.slice(3)), bytes, 'the bytes as uploaded, in the bucket');
  assert.equal(fs.existsSync(path.join(first.dataDir, 'media', `${data.media_key}.png`)), false, 'nothing on this machine\'s disk');
  for (const p of new Set([first, second])) {
    const served = await fetch(through(p, row.url!));
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-length'), String(bytes.length));
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), bytes);
    const head = await fetch(through(p, row.url!), { method: 'HEAD' });
    assert.equal(head.status, 200);
  }
  const posted = await call(second.urls.base_url, '/2/posts', { method: 'POST', auth: { bearer: ada().oauth2_access_token }, body: { text: 'a picture kept in the bucket', media: { media_ids: [data.id] } } });
  assert.equal(posted.status, 201, posted.text);
});

test('a chunked upload\'s segments are objects of the bucket while it is open (APPENDs through either process), and become one object at FINALIZE; the video and its poster frame are served', async () => {
  const auth = { bearer: ada().oauth2_access_token };
  const video = mp4({ width: 640, height: 360, durationMs: 3_000, payload: 700_000 });
  const init = await call(first.urls.base_url, `/2/media/upload?command=INIT&total_bytes=${video.length}&media_type=video/mp4&media_category=post_video`, { method: 'POST', auth });
  assert.equal(init.status, 200, init.text);
  const id = init.body.data.id as string;
  const third = Math.ceil(video.length / 3);
  for (const [i, p] of [first, second, first].entries()) {
    const appended = await call(p.urls.base_url, '/2/media/upload', { method: 'POST', auth, form: { command: 'APPEND', media_id: id, segment_index: String(i), media_data: video.subarray(i * third, (i + 1) * third).toString('base64') } });
    assert.ok(appended.status === 200 || appended.status === 204, appended.text);
  }
  const segments = await bucket.objects('plaza', `${PREFIX}uploads/${id}/`);
  assert.deepEqual([...segments.keys()].sort(), [0, 1, 2].map((i) => `${PREFIX}uploads/${id}/${i}`));
  const fin = await call(second.urls.base_url, '/2/media/upload', { method: 'POST', auth, form: { command: 'FINALIZE', media_id: id } });
  assert.equal(fin.status, 200, fin.text);
  const row = await mediaRow(id);
  assert.equal(row.file_path, `s3:${PREFIX}${row.media_key}.mp4`);
  assert.deepEqual((await bucket.objects('plaza', `${PREFIX}uploads/${id}/`)).size, 0, 'the segments are gone');
  for (const p of new Set([first, second])) {
    const served = await fetch(through(p, row.url!));
    assert.equal(served.status, 200);
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), video, 'the bytes as uploaded, in order');
    const poster = await fetch(through(p, row.preview_image_url!));
    assert.equal(poster.status, 200);
    assert.equal(poster.headers.get('content-type'), 'image/png');
  }
  assert.ok((await bucket.objects('plaza', `${PREFIX}${row.media_key}.png`)).size === 1, 'the poster frame is an object beside the video');
});

test('the media bucket out of reach: /readyz answers 503 naming "media", an upload answers a 503 problem and keeps nothing; both come back with the bucket', async () => {
  const before = await first.ctx.store.db.selectFrom('media').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  await bucket.stop();
  try {
    await eventually(async () => {
      const res = await call(first.urls.base_url, '/readyz');
      return res.status === 503 && JSON.stringify(res.body) === JSON.stringify({ status: 'unavailable', unavailable: ['media'] });
    }, 'readiness to drop while the bucket is out of reach');
    const up = await call(first.urls.base_url, '/2/media/upload', { method: 'POST', auth: { bearer: ada().oauth2_access_token }, form: { media_data: png(8, 8).toString('base64'), media_category: 'tweet_image' } });
    assert.equal(up.status, 503, up.text);
    assert.equal(up.body.title, 'Service Unavailable');
    assert.match(up.body.detail, /media store cannot be reached/);
    const after = await first.ctx.store.db.selectFrom('media').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    assert.equal(Number(after.n), Number(before.n), 'no media row for bytes that were not kept');
  } finally {
    await bucket.start();
  }
  await eventually(async () => (await call(first.urls.base_url, '/readyz')).status === 200, 'readiness to come back with the bucket');
  const up = await call(first.urls.base_url, '/2/media/upload', { method: 'POST', auth: { bearer: ada().oauth2_access_token }, form: { media_data: png(8, 8).toString('base64'), media_category: 'tweet_image' } });
  assert.equal(up.status, 200, up.text);
});

test('a media bucket that cannot be opened stops the start with one line naming --media-bucket: a malformed URL, a bucket the store does not have, an endpoint with no bucket', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-bucket-start-'));
  const base = { dataDir, databaseUrl: path.join(dataDir, 'plaza.sqlite'), port: 0, adsPort: 0, adsSandboxPort: 0, proxyPort: 0 };
  try {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ mediaBucket: 'https://plaza/media', mediaEndpoint: bucket.endpoint }, /^--media-bucket \(PLAZA_MEDIA_BUCKET\) must be s3:\/\/<bucket>\[\/<prefix>\]/],
      [{ mediaBucket: 's3://missing-bucket', mediaEndpoint: bucket.endpoint }, /^cannot open the media bucket s3:\/\/missing-bucket at http:\/\/127\.0\.0\.1:\d+ \(--media-bucket, PLAZA_MEDIA_BUCKET\): the store has no bucket missing-bucket$/],
      [{ mediaEndpoint: bucket.endpoint }, /^--media-endpoint \(PLAZA_MEDIA_ENDPOINT\) names a store for --media-bucket/],
      [{ mediaBucket: 's3://plaza', mediaEndpoint: `${bucket.endpoint}/path` }, /^--media-endpoint \(PLAZA_MEDIA_ENDPOINT\) must be an http:\/\/ or https:\/\/ address/],
    ];
    for (const [flags, message] of cases) {
      await assert.rejects(checkStartable(loadConfig({ ...base, ...flags }, {})), (err: Error) => err instanceof StartupError && message.test(err.message), JSON.stringify(flags));
    }
    await checkStartable(loadConfig({ ...base, mediaBucket: 's3://other/a/b/', mediaEndpoint: bucket.endpoint }, {}));
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
