import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { normalise } from '../support/normalise.js';
import { creativesKit, startAdsPlaza, type AdsKit } from './support.js';
import { mp4, png, webp } from '../support/media-files.js';

/** Issue #13: the media library (spec 001 "Media library", "Media library object"). */
let k: AdsKit;
let c: ReturnType<typeof creativesKit>;
let account: string;
const ml = (path = '') => `/12/accounts/${account}/media_library${path}`;

before(async () => {
  k = await startAdsPlaza();
  c = creativesKit(k);
  account = (await k.sandboxSetup('ada')).account;
});

test('media reach the ads interface uploaded through POST /2/media/upload with a media category, mapped to POST_IMAGE, POST_GIF, POST_VIDEO, PROMO_VIDEO, then added with POST media_library {media_key}', async () => {
  // A video's first frame is its poster: Plaza's generated poster frame (issue 34).
  const video = { duration: 9500, description: null, poster_media_url: '<poster_url>', poster_media_key: null, title: null, aspect_ratio: '16:9' };
  const cases: Array<[string, string, Record<string, unknown>]> = [
    [await c.image(), 'png', { media_category: 'POST_IMAGE', media_type: 'IMAGE' }],
    [await c.gif(), 'gif', { media_category: 'POST_GIF', media_type: 'GIF', duration: null, description: null, poster_media_url: '<media_url>', poster_media_key: null, title: null, aspect_ratio: '1:1' }],
    [await c.video(), 'mp4', { media_category: 'POST_VIDEO', media_type: 'VIDEO', ...video }],
    [await c.video('ada', { category: 'amplify_video' }), 'mp4', { media_category: 'PROMO_VIDEO', media_type: 'VIDEO', ...video }],
  ];
  for (const [key, extension, fields] of cases) {
    const res = await k.sandbox.post(ml(), { query: { media_key: key } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(normalise(res.body, { [account]: 'account', [key]: 'media_key', ...(extension === 'mp4' ? { [`${k.plaza.urls.base_url}/media/${key}.png`]: 'poster_url' } : {}), [`${k.plaza.urls.base_url}/media/${key}.${extension}`]: 'media_url' }), {
      request: { params: { account_id: '<account>', media_key: '<media_key>' } },
      data: {
        posted: false, name: 'Untitled', file_name: null, media_url: '<media_url>', media_key: '<media_key>', created_at: '<time>', updated_at: '<time>',
        media_status: 'TRANSCODE_COMPLETED', deleted: false, ...fields,
      },
    });
  }
  const dm = await c.upload('ada', png(10, 10), 'dm_image');
  const refused = await k.sandbox.post(ml(), { query: { media_key: dm } });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.errors[0].parameter, 'media_key');
  assert.match(refused.body.errors[0].message, /direct messages/);
});

test('Plaza reads the real uploaded bytes for media_type, dimensions, duration and aspect_ratio (PNG, JPEG, GIF, WebP and MP4 headers)', async () => {
  const video = await c.upload('ada', mp4({ width: 1920, height: 1080, durationMs: 12_345 }), 'post_video');
  const v = (await k.sandbox.post(ml(), { query: { media_key: video } })).body.data;
  assert.deepEqual(normalise(v, { [video]: 'video', [`${k.plaza.urls.base_url}/media/${video}.mp4`]: 'media_url', [`${k.plaza.urls.base_url}/media/${video}.png`]: 'poster_url' }), {
    posted: false, name: 'Untitled', file_name: null, media_url: '<media_url>', media_category: 'POST_VIDEO', media_key: '<video>',
    created_at: '<time>', updated_at: '<time>', media_status: 'TRANSCODE_COMPLETED', media_type: 'VIDEO', deleted: false, duration: 12345,
    description: null, poster_media_url: '<poster_url>', poster_media_key: null, title: null, aspect_ratio: '16:9',
  });
  const square = await c.upload('ada', mp4({ width: 720, height: 720, durationMs: 3_000 }), 'post_video');
  assert.equal((await k.sandbox.post(ml(), { query: { media_key: square } })).body.data.aspect_ratio, '1:1');
  const w = await c.upload('ada', webp(30, 20), 'post_image');
  const image = (await k.sandbox.post(ml(), { query: { media_key: w } })).body.data;
  // Images have no video fields.
  assert.deepEqual(normalise(image, { [w]: 'image', [`${k.plaza.urls.base_url}/media/${w}.webp`]: 'media_url' }), {
    posted: false, name: 'Untitled', file_name: null, media_url: '<media_url>', media_category: 'POST_IMAGE', media_key: '<image>',
    created_at: '<time>', updated_at: '<time>', media_status: 'TRANSCODE_COMPLETED', media_type: 'IMAGE', deleted: false,
  });
  // deepEqual does not compare the order of keys.
  assert.deepEqual(Object.keys(image), ['posted', 'name', 'file_name', 'media_url', 'media_category', 'media_key', 'created_at', 'updated_at', 'media_status', 'media_type', 'deleted']);
  assert.deepEqual(Object.keys(v).slice(11), ['duration', 'description', 'poster_media_url', 'poster_media_key', 'title', 'aspect_ratio']);
});

test('media_status is set as upload processing completes: TRANSCODING while a chunked upload is open, TRANSCODE_COMPLETED after FINALIZE', async () => {
  const auth = await c.tokenOf('ada');
  const video = mp4({ width: 1280, height: 720, durationMs: 4_000 });
  const init = await c.p.send('POST', `/2/media/upload?command=INIT&total_bytes=${video.length}&media_type=video/mp4&media_category=amplify_video`, { auth });
  assert.equal(init.status, 200, init.text);
  const key = init.body.data.media_key;
  const added = await k.sandbox.post(ml(), { query: { media_key: key, name: 'Processing' } });
  assert.equal(added.status, 200, added.text);
  assert.deepEqual(normalise(added.body, { [account]: 'account', [key]: 'media_key' }), {
    request: { params: { account_id: '<account>', media_key: '<media_key>', name: 'Processing' } },
    data: {
      posted: false, name: 'Processing', file_name: null, media_url: null, media_category: 'PROMO_VIDEO', media_key: '<media_key>',
      created_at: '<time>', updated_at: '<time>', media_status: 'TRANSCODING', media_type: 'VIDEO', deleted: false, duration: null, description: null,
      poster_media_url: null, poster_media_key: null, title: null, aspect_ratio: null,
    },
  });
  await c.p.send('POST', '/2/media/upload', { auth, form: { command: 'APPEND', media_id: init.body.data.id, segment_index: '0', media_data: video.toString('base64') } });
  const fin = await c.p.send('POST', '/2/media/upload', { auth, form: { command: 'FINALIZE', media_id: init.body.data.id } });
  assert.equal(fin.status, 200, fin.text);
  const done = await k.sandbox.get(ml(`/${key}`));
  assert.deepEqual(normalise(done.body, { [account]: 'account', [key]: 'media_key', [`${k.plaza.urls.base_url}/media/${key}.mp4`]: 'media_url', [`${k.plaza.urls.base_url}/media/${key}.png`]: 'poster_url' }), {
    request: { params: { account_id: '<account>', media_key: '<media_key>' } },
    data: {
      posted: false, name: 'Processing', file_name: null, media_url: '<media_url>', media_category: 'PROMO_VIDEO', media_key: '<media_key>',
      created_at: '<time>', updated_at: '<time>', media_status: 'TRANSCODE_COMPLETED', media_type: 'VIDEO', deleted: false, duration: 4000,
      description: null, poster_media_url: '<poster_url>', poster_media_key: null, title: null, aspect_ratio: '16:9',
    },
  });
});

test('GET media_library lists the account\'s media: count 1-50 default 20, cursor, media_type GIF|IMAGE|VIDEO', async () => {
  const all = await k.sandbox.get(ml());
  assert.equal(all.status, 200);
  assert.ok(all.body.data.length >= 8 && all.body.data.length <= 20);
  assert.equal(all.body.next_cursor, null);
  for (const n of [0, 51]) {
    const res = await k.sandbox.get(ml(), { query: { count: n } });
    assert.equal(res.status, 400);
    assert.equal(res.body.errors[0].parameter, 'count');
  }
  const first = await k.sandbox.get(ml(), { query: { count: 3 } });
  assert.equal(first.body.data.length, 3);
  const second = await k.sandbox.get(ml(), { query: { count: 3, cursor: first.body.next_cursor } });
  assert.ok(second.body.data.every((d: any) => !first.body.data.some((f: any) => f.media_key === d.media_key)));
  for (const type of ['GIF', 'IMAGE', 'VIDEO']) {
    const res = await k.sandbox.get(ml(), { query: { media_type: type } });
    assert.ok(res.body.data.length >= 1 && res.body.data.every((d: any) => d.media_type === type), type);
  }
  assert.equal((await k.sandbox.get(ml(), { query: { media_type: 'AUDIO' } })).body.errors[0].parameter, 'media_type');
  const other = await k.sandbox.get(`/12/accounts/${account}/media_library`, { as: 'dana' });
  assert.equal(other.status, 403, 'the account must belong to the caller');
});

test('q is a case-insensitive term match on name, title, file_name and description (1 to 255 characters)', async () => {
  const video = await c.video();
  await k.sandbox.post(ml(), { query: { media_key: video, name: 'Harbour launch', title: 'Sunrise Teaser', file_name: 'final_cut.mp4', description: 'Waves over the pier' } });
  for (const q of ['harbour', 'TEASER', 'final_cut', 'pier', 'launch harbour']) {
    const res = await k.sandbox.get(ml(), { query: { q } });
    assert.deepEqual(res.body.data.map((d: any) => d.media_key), [video], q);
  }
  assert.equal((await k.sandbox.get(ml(), { query: { q: 'harbour nothing' } })).body.data.length, 0);
  assert.equal((await k.sandbox.get(ml(), { query: { q: '100%' } })).body.data.length, 0, 'wildcards are literal');
  assert.equal((await k.sandbox.get(ml(), { query: { q: 'x'.repeat(256) } })).body.errors[0].parameter, 'q');
  assert.equal((await k.sandbox.get(ml(), { query: { q: '' } })).status, 400);
});

test('POST media_library: description ≤200 and title ≤70 for videos only; file_name ≤255; name ≤100, shown \'Untitled\' when unset; poster_media_key videos only, default the first frame', async () => {
  const image = await c.image();
  const bad = async (key: string, query: Record<string, string>, parameter: string) => {
    const res = await k.sandbox.post(ml(), { query: { media_key: key, ...query } });
    assert.equal(res.status, 400, `${parameter}: ${res.text}`);
    assert.equal(res.body.errors[0].parameter, parameter);
  };
  await bad(image, { title: 'Hello' }, 'title');
  await bad(image, { description: 'Hello' }, 'description');
  await bad(image, { poster_media_key: await c.image() }, 'poster_media_key');
  const video = await c.video();
  await bad(video, { title: 't'.repeat(71) }, 'title');
  await bad(video, { description: 'd'.repeat(201) }, 'description');
  await bad(video, { file_name: 'f'.repeat(256) }, 'file_name');
  await bad(video, { name: 'n'.repeat(101) }, 'name');
  await bad(video, { poster_media_key: await c.video() }, 'poster_media_key');
  assert.equal((await k.sandbox.post(ml(), { query: { media_key: video, poster_media_key: '3_1' } })).status, 404);
  assert.equal((await k.sandbox.get(ml(`/${video}`))).status, 404, 'refused requests changed nothing');
  const plain = await k.sandbox.post(ml(), { query: { media_key: video } });
  assert.equal(plain.body.data.name, 'Untitled');
  assert.equal(plain.body.data.poster_media_key, null, 'the first frame: no poster of its own');
  const poster = await c.image('ada', 160, 90);
  const full = await k.sandbox.post(ml(), {
    query: { media_key: await c.video(), name: 'n'.repeat(100), title: 't'.repeat(70), description: 'd'.repeat(200), file_name: 'f'.repeat(255), poster_media_key: poster },
  });
  assert.equal(full.status, 200, full.text);
  assert.equal(full.body.data.poster_media_key, poster);
  assert.match(full.body.data.poster_media_url, new RegExp(`/media/${poster}\\.png$`));
  const again = await k.sandbox.post(ml(), { query: { media_key: video } });
  assert.equal(again.status, 400, 'a media is in the library once');
  const unknown = await k.sandbox.post(ml(), { query: { media_key: '3_999' } });
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.errors[0].code, 'MEDIA_NOT_FOUND');
  const foreign = await c.image('dana');
  assert.equal((await k.sandbox.post(ml(), { query: { media_key: foreign } })).status, 404, 'only media of the account\'s users');
  assert.equal((await k.sandbox.post(ml(), { query: {} })).body.errors[0].code, 'MISSING_PARAMETER');
});

test('GET media_library/:media_key; PUT with the same rules (an empty value unsets); DELETE answers deleted=true and the object leaves the library', async () => {
  const video = await c.inLibrary(account, 'video', 'ada', { name: 'Before', title: 'Title' });
  const got = await k.sandbox.get(ml(`/${video}`));
  assert.equal(got.body.data.name, 'Before');
  const put = await k.sandbox.put(ml(`/${video}`), { query: { name: 'After', title: '', description: 'Now described' } });
  assert.equal(put.status, 200, put.text);
  assert.deepEqual(normalise(put.body, { [account]: 'account', [video]: 'video', [`${k.plaza.urls.base_url}/media/${video}.mp4`]: 'media_url', [`${k.plaza.urls.base_url}/media/${video}.png`]: 'poster_url' }), {
    request: { params: { account_id: '<account>', media_key: '<video>', description: 'Now described', name: 'After', title: null } },
    data: {
      posted: false, name: 'After', file_name: null, media_url: '<media_url>', media_category: 'POST_VIDEO', media_key: '<video>',
      created_at: '<time>', updated_at: '<time>', media_status: 'TRANSCODE_COMPLETED', media_type: 'VIDEO', deleted: false, duration: 9500,
      description: 'Now described', poster_media_url: '<poster_url>', poster_media_key: null, title: null, aspect_ratio: '16:9',
    },
  });
  assert.equal((await k.sandbox.put(ml(`/${video}`), { query: { title: 't'.repeat(71) } })).body.errors[0].parameter, 'title');
  assert.equal((await k.sandbox.put(ml(`/${video}`), { query: { name: '' } })).body.data.name, 'Untitled');
  const image = await c.inLibrary(account, 'image');
  assert.equal((await k.sandbox.put(ml(`/${image}`), { query: { title: 'x' } })).status, 400, 'title is for videos only');
  const del = await k.sandbox.del(ml(`/${video}`));
  assert.equal(del.status, 200);
  assert.equal(del.body.data.deleted, true);
  assert.equal((await k.sandbox.get(ml(`/${video}`))).status, 404);
  assert.equal((await k.sandbox.del(ml(`/${video}`))).status, 404);
  assert.ok(!(await k.sandbox.get(ml(), { query: { count: 50 } })).body.data.some((d: any) => d.media_key === video));
  assert.equal((await k.sandbox.get(ml('/not-a-key'))).status, 404);
  const readded = await k.sandbox.post(ml(), { query: { media_key: video } });
  assert.equal(readded.status, 200, 'a deleted object can be added again');
});
