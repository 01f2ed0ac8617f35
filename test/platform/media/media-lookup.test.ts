import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { mp4, png } from '../../support/media-files.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';
import { normalise } from '../../support/normalise.js';
import { problemType } from '../../support/problems.js';

let plaza: TestPlaza;
let p: Fixtures;
let ada: { bearer: string }, chen: { bearer: string };

before(async () => {
  plaza = await startTestPlaza();
  p = fixtures(plaza);
  ada = await p.selfServeAs('ada');
  chen = await p.selfServeAs('chen');
});

const uploadPng = async (auth = ada) => (await p.send('POST', '/2/media/upload', { auth, body: { media: png(40, 30).toString('base64'), media_category: 'post_image' } })).body.data;

test('GET /2/media/{media_key} and GET /2/media: the owner sees an unposted upload, others do not (partial not-found errors) until a post carries it; media.fields selects', async () => {
  const media = await uploadPng();
  const mine = await p.get(`/2/media/${media.media_key}?media.fields=width,height,url`, { auth: ada });
  assert.equal(mine.status, 200);
  assert.deepEqual({ ...mine.body.data, url: undefined }, { media_key: media.media_key, type: 'photo', width: 40, height: 30, url: undefined });
  const hidden = await p.get(`/2/media/${media.media_key}`, { auth: chen });
  assert.equal(hidden.status, 200);
  assert.deepEqual(normalise(hidden.body, { [media.media_key]: 'media' }), {
    errors: [
      {
        value: '<media>',
        detail: `Could not find media with media_key: [${media.media_key}].`,
        title: 'Not Found Error',
        resource_type: 'media',
        parameter: 'media_key',
        resource_id: '<media>',
        type: problemType('resource-not-found'),
      },
    ],
  });
  await p.post(ada, { text: 'A picture', media: { media_ids: [media.id] } });
  const both = await p.get(`/2/media?media_keys=${media.media_key},3_1234567890123456789`, { auth: chen });
  assert.deepEqual(normalise(both.body, { [media.media_key]: 'media', '3_1234567890123456789': 'missing' }), {
    data: [{ media_key: '<media>', type: 'photo' }],
    errors: [
      {
        value: '<missing>',
        detail: 'Could not find media with media_keys: [3_1234567890123456789].',
        title: 'Not Found Error',
        resource_type: 'media',
        parameter: 'media_keys',
        resource_id: '<missing>',
        type: problemType('resource-not-found'),
      },
    ],
  });
  const appOnly = await p.get(`/2/media?media_keys=${media.media_key}`, { auth: p.appAuth });
  assert.equal(appOnly.body.data[0].media_key, media.media_key, 'app-only reads see posted media');
});

test('media lookup: a bad media key is 400 naming media_keys / media_key; more than 100 keys or an unknown media.fields name is 400', async () => {
  const bad = await p.get('/2/media?media_keys=abc', { auth: ada });
  assert.equal(bad.status, 400);
  assert.ok(bad.body.errors[0].parameters.media_keys);
  const badPath = await p.get('/2/media/3-12', { auth: ada });
  assert.equal(badPath.status, 400);
  const many = await p.get(`/2/media?media_keys=${Array.from({ length: 101 }, (_, i) => `3_${i + 1}`).join(',')}`, { auth: ada });
  assert.equal(many.status, 400);
  const fields = await p.get('/2/media?media_keys=3_1&media.fields=nope', { auth: ada });
  assert.equal(fields.status, 400);
});

test('media of a protected account\'s post: approved followers only (not-authorized error for others)', async () => {
  const bruno = await p.selfServeAs('bruno');
  const media = await uploadPng(bruno);
  await p.post(bruno, { text: 'Private picture', media: { media_ids: [media.id] } });
  const res = await p.get(`/2/media/${media.media_key}`, { auth: chen });
  assert.equal(res.body.data, undefined);
  assert.equal(res.body.errors[0].title, 'Authorization Error');
});

test('POST /2/media/metadata: the uploader sets alt_text (shown as media.fields alt_text) and other metadata (kept across calls); others are refused (403); bad input is 400 and changes nothing', async () => {
  const media = await uploadPng();
  const res = await p.send('POST', '/2/media/metadata', { auth: ada, body: { id: media.id, metadata: { alt_text: { text: 'A grey square' } } } });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { data: { id: media.id, associated_metadata: { alt_text: { text: 'A grey square' } } } });
  const more = await p.send('POST', '/2/media/metadata', { auth: ada, body: { id: media.id, metadata: { allow_download_status: { allow_download: false } } } });
  assert.deepEqual(more.body.data.associated_metadata, { alt_text: { text: 'A grey square' }, allow_download_status: { allow_download: false } });
  const shown = await p.get(`/2/media/${media.media_key}?media.fields=alt_text`, { auth: ada });
  assert.equal(shown.body.data.alt_text, 'A grey square');
  const other = await p.send('POST', '/2/media/metadata', { auth: chen, body: { id: media.id, metadata: { alt_text: { text: 'mine now' } } } });
  assert.equal(other.status, 403);
  const tooLong = await p.send('POST', '/2/media/metadata', { auth: ada, body: { id: media.id, metadata: { alt_text: { text: 'x'.repeat(1001) } } } });
  assert.equal(tooLong.status, 400);
  const empty = await p.send('POST', '/2/media/metadata', { auth: ada, body: { id: media.id, metadata: {} } });
  assert.equal(empty.status, 400);
  assert.ok(empty.body.errors[0].parameters.metadata);
  const missing = await p.send('POST', '/2/media/metadata', { auth: ada, body: { id: '1234567890123456789', metadata: { alt_text: { text: 'x' } } } });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.parameter, 'id');
  const after = await p.get(`/2/media/${media.media_key}?media.fields=alt_text`, { auth: ada });
  assert.equal(after.body.data.alt_text, 'A grey square', 'refused requests change nothing');
});

test('GET /2/media/analytics: a post lookup that shows the owner\'s video counts a video view, a fetch of its file a playback; buckets by granularity; others\' media is not-authorized; bad windows are 400', async () => {
  const video = mp4({ width: 320, height: 240, durationMs: 4000 });
  const up = await p.send('POST', '/2/media/upload', { auth: ada, body: { media: video.toString('base64'), media_category: 'post_video' } });
  const key = up.body.data.media_key;
  const post = await p.post(ada, { text: 'A clip', media: { media_ids: [up.body.data.id] } });
  assert.equal((await p.get(`/2/posts/${post.body.data.id}`, { auth: chen })).status, 200);
  const file = await p.get(`/2/media/${key}?media.fields=url`, { auth: ada });
  const fetched = await fetch(file.body.data.url);
  assert.equal(fetched.status, 200);
  await fetched.arrayBuffer();
  const now = Date.now();
  const start = new Date(now - 2 * 3600_000).toISOString();
  const end = new Date(now + 3600_000).toISOString();
  const total = await p.get(`/2/media/analytics?media_keys=${key}&start_time=${start}&end_time=${end}&granularity=total&media_analytics.fields=video_views,playback_start,playback_complete,watch_time_ms,cta_url_clicks`, { auth: ada });
  assert.equal(total.status, 200);
  const [row] = total.body.data;
  assert.equal(row.media_key, key);
  assert.deepEqual([row.video_views, row.playback_start, row.playback_complete, row.watch_time_ms, row.cta_url_clicks], [1, 1, 1, 4000, 0]);
  assert.equal(row.timestamped_metrics.length, 1);
  const hourly = await p.get(`/2/media/analytics?media_keys=${key}&start_time=${start}&end_time=${end}&granularity=hourly`, { auth: ada });
  const buckets = hourly.body.data[0].timestamped_metrics;
  assert.ok(buckets.length >= 3 && buckets.length <= 4);
  assert.equal(buckets.reduce((s: number, b: { metrics: { video_views: number } }) => s + b.metrics.video_views, 0), 1);
  const others = await p.get(`/2/media/analytics?media_keys=${key}&start_time=${start}&end_time=${end}`, { auth: chen });
  assert.equal(others.body.data, undefined);
  assert.equal(others.body.errors[0].title, 'Authorization Error');
  const backwards = await p.get(`/2/media/analytics?media_keys=${key}&start_time=${end}&end_time=${start}`, { auth: ada });
  assert.equal(backwards.status, 400);
  assert.ok(backwards.body.errors[0].parameters.end_time);
  const notTime = await p.get(`/2/media/analytics?media_keys=${key}&start_time=yesterday&end_time=${end}`, { auth: ada });
  assert.equal(notTime.status, 400);
  assert.ok(notTime.body.errors[0].parameters.start_time);
  const granularity = await p.get(`/2/media/analytics?media_keys=${key}&start_time=${start}&end_time=${end}&granularity=weekly`, { auth: ada });
  assert.equal(granularity.status, 400);
  const appOnly = await p.get(`/2/media/analytics?media_keys=${key}&start_time=${start}&end_time=${end}`, { auth: p.appAuth });
  assert.equal(appOnly.status, 403);
});
