import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { ManualClock } from '../../../src/clock.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { problemType } from '../../support/problems.js';
import { gif, jpeg, mp4, png, webp } from '../../support/media-files.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';
import { normalise } from '../../support/normalise.js';

let plaza: TestPlaza;
let p: Fixtures;
let ada: { bearer: string };
const MB = 1024 * 1024;

before(async () => {
  plaza = await startTestPlaza();
  p = fixtures(plaza);
  ada = await p.selfServeAs('ada');
});

/** A multipart/form-data POST, as clients send files. */
async function multipart(pathAndQuery: string, auth: { bearer: string }, fields: Record<string, string>, file?: Buffer) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('media', new Blob([new Uint8Array(file)]), 'upload.bin');
  const res = await fetch(`${plaza.urls.base_url}${pathAndQuery}`, { method: 'POST', headers: { authorization: `Bearer ${auth.bearer}` }, body: form });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const upload = (body: Record<string, unknown>, auth = ada) => p.send('POST', '/2/media/upload', { auth, body });
const mediaRow = (key: string) => plaza.ctx.store.db.selectFrom('media').selectAll().where('media_key', '=', key).executeTakeFirstOrThrow();

test('simple upload (multipart `media`): 200 with id, media_key, size, expires_after_secs and the real image dimensions read from the file; the bytes are stored under the data folder (in the store on PostgreSQL)', async () => {
  const bytes = png(120, 45);
  const res = await multipart('/2/media/upload', ada, { media_category: 'post_image' }, bytes);
  assert.equal(res.status, 200);
  const { data } = res.body;
  assert.match(data.id, /^[0-9]{1,19}$/);
  assert.deepEqual(normalise(res.body, { [data.id]: 'id', [`3_${data.id}`]: '3_id' }), {
    data: { id: '<id>', media_key: '<3_id>', size: bytes.length, expires_after_secs: 86400, image: { image_type: 'image/png', w: 120, h: 45 } },
  });
  const row = await mediaRow(data.media_key);
  assert.equal(row.owner_user_id, p.user('ada').id);
  // Under the data folder on SQLite; in the store, where every process reaches them, on PostgreSQL.
  if (plaza.ctx.store.dialect === 'sqlite') assert.equal(path.dirname(row.file_path!), path.join(plaza.dataDir, 'media'));
  else assert.equal(row.file_path, `store:${data.media_key}.png`);
  assert.deepEqual(await plaza.ctx.media.read(row.file_path!), bytes);
});

test('simple upload: base64 `media` in JSON, `media_data` in a form body, and `media_data` in multipart; the type is read from the bytes (JPEG, GIF, WebP, PNG), tweet_* categories are accepted as post_*', async () => {
  const json = await upload({ media: jpeg(640, 480).toString('base64'), media_category: 'tweet_image' });
  assert.deepEqual(json.body.data.image, { image_type: 'image/jpeg', w: 640, h: 480 });
  const form = await p.send('POST', '/2/media/upload', { auth: ada, form: { media_data: webp(300, 200).toString('base64') } });
  assert.equal(form.status, 200);
  assert.deepEqual(form.body.data.image, { image_type: 'image/webp', w: 300, h: 200 });
  const field = await multipart('/2/media/upload', ada, { media_data: png(7, 9).toString('base64') });
  assert.deepEqual(field.body.data.image, { image_type: 'image/png', w: 7, h: 9 });
  const animated = await upload({ media: gif(50, 40).toString('base64') });
  assert.equal(animated.status, 200);
  assert.equal(animated.body.data.media_key, `16_${animated.body.data.id}`, 'a GIF is an animated_gif unless uploaded as an image');
  assert.deepEqual(animated.body.data.processing_info, { state: 'succeeded', progress_percent: 100 });
  const still = await upload({ media: gif(50, 40).toString('base64'), media_category: 'post_image' });
  assert.equal(still.body.data.media_key, `3_${still.body.data.id}`);
  const row = await mediaRow(animated.body.data.media_key);
  assert.deepEqual([row.type, row.width, row.height, row.mime_type], ['animated_gif', 50, 40, 'image/gif']);
});

test('uploaded media is served at its url on the platform listener, so media.fields=url works', async () => {
  const bytes = png(33, 22);
  const media = (await upload({ media: bytes.toString('base64') })).body.data;
  const post = await p.post(ada, { text: 'Served', media: { media_ids: [media.id] } });
  const got = await p.get(`/2/posts/${post.body.data.id}?expansions=attachments.media_keys&media.fields=url,width,height`, { auth: p.appAuth });
  const { url, width, height } = got.body.includes.media[0];
  assert.equal(url, `${plaza.urls.base_url}/media/${media.media_key}.png`);
  assert.deepEqual([width, height], [33, 22]);
  const file = await fetch(url);
  assert.equal(file.status, 200);
  assert.equal(file.headers.get('content-type'), 'image/png');
  assert.deepEqual(Buffer.from(await file.arrayBuffer()), bytes);
  assert.equal((await fetch(`${plaza.urls.base_url}/media/3_1.png`)).status, 404);
  assert.equal((await fetch(`${plaza.urls.base_url}/media/${media.media_key}.jpg`)).status, 404, 'only the stored name');
});

test('chunked upload (command=INIT, APPEND with segment_index, FINALIZE, STATUS): an MP4 video whose duration and dimensions come from its mvhd and tkhd boxes', async () => {
  const video = mp4({ width: 1920, height: 1080, durationMs: 12_345, payload: 3000 });
  const init = await p.send('POST', `/2/media/upload?command=INIT&total_bytes=${video.length}&media_type=video/mp4&media_category=post_video`, { auth: ada });
  assert.equal(init.status, 200);
  const id = init.body.data.id;
  assert.equal(init.body.data.media_key, `7_${id}`);
  assert.equal(init.body.data.expires_after_secs, 86400);
  const half = Math.floor(video.length / 2);
  const a0 = await multipart('/2/media/upload', ada, { command: 'APPEND', media_id: id, segment_index: '0' }, video.subarray(0, half));
  assert.equal(a0.status, 200);
  assert.ok(a0.body.data.expires_at > Date.now() / 1000);
  const a1 = await p.send('POST', '/2/media/upload', { auth: ada, form: { command: 'APPEND', media_id: id, segment_index: '1', media_data: video.subarray(half).toString('base64') } });
  assert.equal(a1.status, 200);
  const fin = await p.send('POST', '/2/media/upload', { auth: ada, form: { command: 'FINALIZE', media_id: id } });
  assert.equal(fin.status, 200);
  assert.deepEqual(normalise(fin.body, { [id]: 'id', [`7_${id}`]: '7_id' }), {
    data: { id: '<id>', media_key: '<7_id>', size: video.length, expires_after_secs: 86400, video: { video_type: 'video/mp4' }, processing_info: { state: 'succeeded', progress_percent: 100 } },
  });
  const status = await p.get(`/2/media/upload?command=STATUS&media_id=${id}`, { auth: ada });
  assert.equal(status.status, 200);
  assert.equal(status.body.data.processing_info.state, 'succeeded');
  const post = await p.post(ada, { text: 'A clip', media: { media_ids: [id] } });
  const got = await p.get(`/2/posts/${post.body.data.id}?expansions=attachments.media_keys&media.fields=duration_ms,width,height,public_metrics,variants,url`, { auth: p.appAuth });
  const url = `${plaza.urls.base_url}/media/7_${id}.mp4`;
  assert.deepEqual(normalise(got.body, { [post.body.data.id]: 'post', [`7_${id}`]: '7_id' }), {
    data: { attachments: { media_keys: ['<7_id>'] }, id: '<post>', text: 'A clip' },
    includes: {
      media: [
        {
          media_key: '<7_id>',
          type: 'video',
          duration_ms: 12_345,
          width: 1920,
          height: 1080,
          public_metrics: { view_count: 0 },
          url,
          // 3,352 bytes over 12.345 seconds.
          variants: [{ bit_rate: 2172, content_type: 'video/mp4', url }],
        },
      ],
    },
  });
  const media = got.body.includes.media[0];
  assert.deepEqual(Buffer.from(await (await fetch(media.variants[0].url)).arrayBuffer()), video);
  assert.ok(!fs.existsSync(path.join(plaza.dataDir, 'media', 'uploads', id)), 'segments are cleaned up');
});

test('chunked upload through /2/media/upload/initialize, /{id}/append and /{id}/finalize; QuickTime and version-1 box headers are read too', async () => {
  const video = mp4({ width: 720, height: 1280, durationMs: 90_500, brand: 'qt  ', v1: true });
  const init = await p.send('POST', '/2/media/upload/initialize', { auth: ada, body: { total_bytes: video.length, media_type: 'video/quicktime', media_category: 'amplify_video' } });
  assert.equal(init.status, 200);
  const id = init.body.data.id;
  assert.equal((await p.send('POST', `/2/media/upload/${id}/append`, { auth: ada, body: { segment_index: 0, media: video.toString('base64') } })).status, 200);
  const fin = await p.send('POST', `/2/media/upload/${id}/finalize`, { auth: ada });
  assert.equal(fin.status, 200);
  const row = await mediaRow(fin.body.data.media_key);
  assert.deepEqual([row.type, row.mime_type, row.duration_ms, row.width, row.height], ['video', 'video/quicktime', 90_500, 720, 1280]);
});

test('a chunk sent again under the same segment_index replaces it; FINALIZE twice is refused', async () => {
  const bytes = png(16, 16);
  const init = await p.send('POST', '/2/media/upload/initialize', { auth: ada, body: { total_bytes: bytes.length, media_type: 'image/png' } });
  const id = init.body.data.id;
  await p.send('POST', `/2/media/upload/${id}/append`, { auth: ada, body: { segment_index: 0, media: Buffer.alloc(bytes.length, 1).toString('base64') } });
  await p.send('POST', `/2/media/upload/${id}/append`, { auth: ada, body: { segment_index: 0, media: bytes.toString('base64') } });
  assert.equal((await p.send('POST', `/2/media/upload/${id}/finalize`, { auth: ada })).status, 200);
  const again = await p.send('POST', `/2/media/upload/${id}/finalize`, { auth: ada });
  assert.equal(again.status, 400);
  assert.deepEqual(Object.keys(again.body.errors[0].parameters), ['media_id']);
});

test('size limits (images 5 MB, GIFs 15 MB, videos 512 MB) are invalid-requests naming the parameter; one request carries at most 16 MB, larger files go in chunks', async () => {
  const big = Buffer.concat([png(10, 10), Buffer.alloc(5 * MB)]);
  const image = await upload({ media: big.toString('base64') });
  assert.equal(image.status, 400);
  assert.deepEqual(Object.keys(image.body.errors[0].parameters), ['media']);
  assert.match(image.body.errors[0].message, /an image may be at most 5 MB/);
  const init = (total: number, media_type: string) => p.send('POST', '/2/media/upload/initialize', { auth: ada, body: { total_bytes: total, media_type } });
  assert.equal((await init(5 * MB, 'image/png')).status, 200);
  for (const [total, type, limit] of [[5 * MB + 1, 'image/jpeg', /5 MB/], [15 * MB + 1, 'image/gif', /15 MB/], [512 * MB + 1, 'video/mp4', /512 MB/]] as const) {
    const res = await init(total, type);
    assert.equal(res.status, 400, type);
    assert.deepEqual(Object.keys(res.body.errors[0].parameters), ['total_bytes']);
    assert.match(res.body.errors[0].message, limit);
  }
  assert.equal((await init(15 * MB, 'image/gif')).status, 200);
  assert.equal((await init(512 * MB, 'video/mp4')).status, 200);
  const tooBig = await multipart('/2/media/upload', ada, {}, Buffer.alloc(16 * MB + 1));
  assert.equal(tooBig.status, 400);
  assert.equal(tooBig.body.type, problemType('invalid-request'));
  assert.deepEqual(Object.keys(tooBig.body.errors[0].parameters), ['media']);
  assert.match(tooBig.body.errors[0].message, /in chunks/);
});

test('bad uploads are invalid-requests naming the parameter and store nothing: not media, a category that does not fit, unsupported types, missing fields, bad base64', async () => {
  const count = async () => Number((await plaza.ctx.store.db.selectFrom('media').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const before = await count();
  const cases: Array<[Record<string, unknown>, string, RegExp?]> = [
    [{ media: Buffer.from('hello, not an image').toString('base64') }, 'media', /not a PNG, JPEG, GIF or WebP image/],
    [{ media: Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0, 0, 0, 0]).toString('base64') }, 'media', /WebM/],
    [{ media: Buffer.concat([Buffer.from([0, 0, 0, 16]), Buffer.from('ftypisom'), Buffer.alloc(4)]).toString('base64') }, 'media', /no moov box/],
    [{ media: png(4, 4).subarray(0, 12).toString('base64') }, 'media', /IHDR/],
    [{ media: png(4, 4).toString('base64'), media_category: 'post_video' }, 'media_category', /does not fit/],
    [{ media: png(4, 4).toString('base64'), media_category: 'subtitles' }, 'media_category', /not supported/],
    [{ media: '***' }, 'media', /base64/],
    [{}, 'media', /missing/],
    [{ command: 'INIT', media_type: 'video/mp4' }, 'total_bytes'],
    [{ command: 'INIT', total_bytes: 100 }, 'media_type'],
    [{ command: 'INIT', total_bytes: 100, media_type: 'video/webm' }, 'media_type', /not supported/],
    [{ command: 'INIT', total_bytes: 100, media_type: 'image/png', media_category: 'post_gif' }, 'media_category'],
    [{ command: 'APPEND', segment_index: 0, media: 'AAAA' }, 'media_id'],
    [{ command: 'FINALIZE', media_id: '1234567890123456789' }, 'media_id'],
  ];
  for (const [body, parameter, message] of cases) {
    const res = await upload(body);
    assert.ok(res.status === 400 || res.status === 404, `${JSON.stringify(body).slice(0, 80)}: ${res.status}`);
    if (res.status === 400) {
      assert.ok(parameter in res.body.errors[0].parameters, `${JSON.stringify(body).slice(0, 80)} names ${parameter}: ${JSON.stringify(res.body.errors)}`);
      if (message) assert.match(res.body.errors[0].message, message);
    } else {
      assert.equal(res.body.parameter, parameter);
    }
  }
  assert.equal(await count(), before);
});

test('chunked upload refusals: a segment past total_bytes, a missing segment, a size that differs from total_bytes, and a file that is not the declared media_type; a refused FINALIZE leaves the upload open to fix', async () => {
  const bytes = png(20, 10);
  const id = (await p.send('POST', '/2/media/upload/initialize', { auth: ada, body: { total_bytes: bytes.length, media_type: 'image/png' } })).body.data.id;
  const append = (index: number, data: Buffer) => p.send('POST', `/2/media/upload/${id}/append`, { auth: ada, body: { segment_index: index, media: data.toString('base64') } });
  const over = await append(0, Buffer.concat([bytes, Buffer.alloc(1)]));
  assert.equal(over.status, 400);
  assert.match(over.body.errors[0].message, /more than its total_bytes/);
  assert.equal((await append(1, bytes.subarray(10))).status, 200);
  const gap = await p.send('POST', `/2/media/upload/${id}/finalize`, { auth: ada });
  assert.equal(gap.status, 400);
  assert.deepEqual(gap.body.errors[0].parameters, { segment_index: ['0'] });
  await append(0, bytes.subarray(0, 5));
  const short = await p.send('POST', `/2/media/upload/${id}/finalize`, { auth: ada });
  assert.deepEqual(Object.keys(short.body.errors[0].parameters), ['total_bytes']);
  const disguised = jpeg(20, 10);
  const jid = (await p.send('POST', '/2/media/upload/initialize', { auth: ada, body: { total_bytes: disguised.length, media_type: 'image/png' } })).body.data.id;
  await p.send('POST', `/2/media/upload/${jid}/append`, { auth: ada, body: { segment_index: 0, media: disguised.toString('base64') } });
  const mismatch = await p.send('POST', `/2/media/upload/${jid}/finalize`, { auth: ada });
  assert.equal(mismatch.status, 400);
  assert.deepEqual(Object.keys(mismatch.body.errors[0].parameters), ['media_type']);
  // The first upload, fixed: segment 0 replaced with the right bytes.
  await append(0, bytes.subarray(0, 10));
  const fixed = await p.send('POST', `/2/media/upload/${id}/finalize`, { auth: ada });
  assert.equal(fixed.status, 200);
  assert.deepEqual(fixed.body.data.image, { image_type: 'image/png', w: 20, h: 10 });
});

test('uploads are private to their owner: another user\'s upload session or media id is not found (404 resource-not-found, resource_type media); STATUS before FINALIZE is refused', async () => {
  const id = (await p.send('POST', '/2/media/upload/initialize', { auth: ada, body: { total_bytes: 10, media_type: 'image/png' } })).body.data.id;
  const dana = await p.selfServeAs('dana');
  const append = await p.send('POST', `/2/media/upload/${id}/append`, { auth: dana, body: { segment_index: 0, media: 'AAAA' } });
  assert.equal(append.status, 404);
  assert.equal(append.body.type, problemType('resource-not-found'));
  assert.equal(append.body.resource_type, 'media');
  assert.equal((await p.get(`/2/media/upload?media_id=${id}`, { auth: dana })).status, 404);
  const early = await p.get(`/2/media/upload?command=STATUS&media_id=${id}`, { auth: ada });
  assert.equal(early.status, 400);
  assert.match(early.body.errors[0].message, /not been finalized/);
  assert.equal((await p.get('/2/media/upload?media_id=1234567890123456789', { auth: ada })).status, 404);
});

test('media upload needs user context with the media.write scope', async () => {
  const bytes = png(4, 4).toString('base64');
  const app = await upload({ media: bytes }, p.appAuth);
  assert.equal(app.status, 403);
  assert.equal(app.body.type, problemType('unsupported-authentication'));
  const noScope = await upload({ media: bytes }, await p.selfServeAs('ada', ['post.read', 'post.write', 'users.read']));
  assert.equal(noScope.status, 403);
  assert.match(noScope.body.detail, /media\.write/);
  assert.equal((await p.send('POST', '/2/media/upload', { body: { media: bytes } })).status, 401);
});

test('attaching media: up to 4 images, or one GIF, or one video; direct-message media is not for posts; additional_owners lets another user attach it', async () => {
  const photo = await p.uploadPng(ada);
  const clip = (await upload({ media: gif(8, 8).toString('base64') })).body.data;
  const mixed = await p.post(ada, { text: 'Mixed', media: { media_ids: [photo.id, clip.id] } });
  assert.equal(mixed.status, 400);
  assert.match(mixed.body.errors[0].message, /up to 4 images, or one GIF, or one video/);
  const dm = await p.uploadPng(ada, 10, 10, 'dm_image');
  const dmPost = await p.post(ada, { text: 'DM media', media: { media_ids: [dm.id] } });
  assert.equal(dmPost.status, 400);
  assert.match(dmPost.body.errors[0].message, /direct messages/);
  const shared = await upload({ media: png(9, 9).toString('base64'), additional_owners: p.user('dana').id });
  assert.equal(shared.status, 200);
  assert.equal((await p.post(await p.selfServeAs('dana'), { text: 'Shared with me', media: { media_ids: [shared.body.data.id] } })).status, 201);
  assert.equal((await p.post(await p.selfServeAs('chen'), { text: 'Not shared with me', media: { media_ids: [shared.body.data.id] } })).status, 400);
  const unknownOwner = await upload({ media: png(9, 9).toString('base64'), additional_owners: '1234567890123456789' });
  assert.deepEqual(unknownOwner.body.errors[0].parameters, { additional_owners: ['1234567890123456789'] });
});

test('by the store\'s clock: an upload session expires 24 hours after INIT, and media can be attached within 24 hours of upload', async () => {
  const clock = new ManualClock();
  const timed = await startTestPlaza({}, { clock });
  const t = fixtures(timed);
  const auth = await t.selfServeAs('ada');
  const photo = await t.uploadPng(auth);
  const session = (await t.send('POST', '/2/media/upload/initialize', { auth, body: { total_bytes: 10, media_type: 'image/png' } })).body.data.id;
  clock.advance(24 * 60 * 60_000 - 1);
  const fresh = await t.selfServeAs('ada');
  assert.equal((await t.post(fresh, { text: 'Just in time', media: { media_ids: [photo.id] } })).status, 201);
  clock.advance(1);
  const late = await t.selfServeAs('ada');
  const expired = await t.post(late, { text: 'Too late', media: { media_ids: [photo.id] } });
  assert.equal(expired.status, 400);
  assert.match(expired.body.errors[0].message, /expired/);
  const append = await t.send('POST', `/2/media/upload/${session}/append`, { auth: late, body: { segment_index: 0, media: 'AAAA' } });
  assert.equal(append.status, 400);
  assert.match(append.body.errors[0].message, /expired/);
});

test('the demo seed writes real image files: the seeded photo and the new photos are served as PNGs of their stated size', async () => {
  const keys = plaza.creds.sample.media_keys;
  const photos = await plaza.ctx.store.db.selectFrom('media').selectAll().where('media_key', 'in', keys).where('type', '=', 'photo').execute();
  assert.ok(photos.length >= 3);
  for (const photo of photos) {
    assert.ok(photo.url && photo.file_path, photo.media_key);
    const bytes = Buffer.from(await (await fetch(photo.url!)).arrayBuffer());
    assert.equal(bytes.readUInt32BE(16), photo.width);
    assert.equal(bytes.readUInt32BE(20), photo.height);
  }
});
