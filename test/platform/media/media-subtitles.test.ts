import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { ManualClock } from '../../../src/clock.js';
import { oauth1Header, startTestPlaza, type TestPlaza } from '../../support/server.js';
import { ALL_SCOPES, fixtures, type Fixtures } from '../../support/fixtures.js';
import { normalise } from '../../support/normalise.js';
import { problemType } from '../../support/problems.js';
import { gif, mp4, png } from '../../support/media-files.js';

let plaza: TestPlaza;
let p: Fixtures;
let ada: { bearer: string };
let chen: { bearer: string };

before(async () => {
  plaza = await startTestPlaza();
  p = fixtures(plaza);
  ada = await p.selfServeAs('ada');
  chen = await p.selfServeAs('chen');
});

const SRT = '1\r\n00:00:01,000 --> 00:00:02,500\r\nHello there.\r\n\r\n2\r\n00:00:03,000 --> 00:00:05,000\r\nTwo lines\r\nof text.\r\n';
const srt = (text = SRT) => Buffer.from(text, 'utf8');

const upload = (body: Record<string, unknown>, auth = ada) => p.send('POST', '/2/media/upload', { auth, body });
const uploadSrt = async (auth = ada, text = SRT) => {
  const res = await upload({ media: srt(text).toString('base64'), media_category: 'subtitles' }, auth);
  assert.equal(res.status, 200, res.text);
  return res.body.data as { id: string; media_key: string };
};
const uploadVideo = async (auth = ada, category = 'post_video') => {
  const res = await upload({ media: mp4({ width: 64, height: 36, durationMs: 5000 }).toString('base64'), media_category: category }, auth);
  assert.equal(res.status, 200, res.text);
  return res.body.data as { id: string; media_key: string };
};
const create = (body: unknown, auth = ada) => p.send('POST', '/2/media/subtitles', { auth, body });
const remove = (body: unknown, auth = ada) => p.send('DELETE', '/2/media/subtitles', { auth, body });
const tracks = (mediaId: string) => plaza.ctx.store.db.selectFrom('media_subtitles').selectAll().where('media_id', '=', mediaId).orderBy('language_code').execute();
const mediaCount = async () => Number((await plaza.ctx.store.db.selectFrom('media').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

test('"media_category=subtitles" uploads SubRip (SRT) text: 200 with id, media_key and size; stored as media of type subtitles and served as text/srt', async () => {
  const bytes = srt();
  const res = await upload({ media: bytes.toString('base64'), media_category: 'subtitles' });
  assert.equal(res.status, 200, res.text);
  const { data } = res.body;
  assert.deepEqual(normalise(res.body, { [data.id]: 'id', [`15_${data.id}`]: '15_id' }), { data: { id: '<id>', media_key: '<15_id>', size: bytes.length, expires_after_secs: 86400 } });
  const row = await plaza.ctx.store.db.selectFrom('media').selectAll().where('id', '=', data.id).executeTakeFirstOrThrow();
  assert.deepEqual([row.type, row.media_category, row.mime_type, row.width, row.height], ['subtitles', 'subtitles', 'text/srt', null, null]);
  assert.deepEqual(await plaza.ctx.media.read(row.file_path!), bytes);
  const file = await fetch(row.url!);
  assert.equal(file.status, 200);
  assert.equal(file.headers.get('content-type'), 'text/srt');
  assert.equal(await file.text(), SRT);
  const status = await p.get(`/2/media/upload?command=STATUS&media_id=${data.id}`, { auth: ada });
  assert.equal(status.body.data.processing_info.state, 'succeeded');
  const inferred = await upload({ media: srt('1\n00:00:00,000 --> 00:00:01,000\nNo category given\n').toString('base64') });
  assert.equal(inferred.status, 200);
  assert.match(inferred.body.data.media_key, /^15_/, 'text that reads as SRT is subtitles without a category');
});

test('subtitles upload in chunks too: INIT with media_type=text/srt and media_category=subtitles, APPEND, FINALIZE', async () => {
  const bytes = srt();
  const init = await p.send('POST', '/2/media/upload/initialize', { auth: ada, body: { total_bytes: bytes.length, media_type: 'text/srt', media_category: 'subtitles' } });
  assert.equal(init.status, 200, init.text);
  const id = init.body.data.id;
  assert.equal((await p.send('POST', `/2/media/upload/${id}/append`, { auth: ada, body: { segment_index: 0, media: bytes.subarray(0, 20).toString('base64') } })).status, 200);
  assert.equal((await p.send('POST', `/2/media/upload/${id}/append`, { auth: ada, body: { segment_index: 1, media: bytes.subarray(20).toString('base64') } })).status, 200);
  const fin = await p.send('POST', `/2/media/upload/${id}/finalize`, { auth: ada });
  assert.equal(fin.status, 200, fin.text);
  assert.deepEqual([fin.body.data.media_key, fin.body.data.size], [`15_${id}`, bytes.length]);
});

test('"validate it is a parseable SRT": a subtitle file without cue numbers, timings or text, or not UTF-8, or too large is an invalid-request naming media (or total_bytes) and stores nothing', async () => {
  const before = await mediaCount();
  const cases: Array<[Record<string, unknown>, string, RegExp]> = [
    [{ media: srt('just some words\n').toString('base64'), media_category: 'subtitles' }, 'media', /does not start with a cue number/],
    [{ media: srt('1\nHello\n').toString('base64'), media_category: 'subtitles' }, 'media', /no timing line like 00:00:01,000 --> 00:00:02,000/],
    [{ media: srt('1\n00:00:01.000 --> 00:00:02.000\nWebVTT-style dots\n').toString('base64'), media_category: 'subtitles' }, 'media', /no timing line/],
    [{ media: srt('1\n00:00:02,000 --> 00:00:01,000\nBackwards\n').toString('base64'), media_category: 'subtitles' }, 'media', /ends before it starts/],
    [{ media: srt('1\n00:00:01,000 --> 00:00:02,000\n\n2\n00:00:03,000 --> 00:00:04,000\nx\n').toString('base64'), media_category: 'subtitles' }, 'media', /cue 1 \(line 1\) has no text/],
    [{ media: srt('2\n00:00:01,000 --> 00:00:02,000\na\n\n1\n00:00:03,000 --> 00:00:04,000\nb\n').toString('base64'), media_category: 'subtitles' }, 'media', /numbered 1, not after 2/],
    [{ media: srt('\n\n  \n').toString('base64'), media_category: 'subtitles' }, 'media', /no cues/],
    [{ media: Buffer.from([0x31, 0x0a, 0xff, 0xfe, 0x0a]).toString('base64'), media_category: 'subtitles' }, 'media', /not UTF-8 text/],
    [{ media: srt(`${SRT}\n3\n00:00:06,000 --> 00:00:07,000\n${'x'.repeat(1024 * 1024)}\n`).toString('base64'), media_category: 'subtitles' }, 'media', /at most 1 MB/],
    [{ media: png(4, 4).toString('base64'), media_category: 'subtitles' }, 'media_category', /image\/png is not supported as subtitles/],
    [{ media: srt().toString('base64'), media_category: 'post_video' }, 'media_category', /does not fit the uploaded file, which is text\/srt/],
    [{ command: 'INIT', total_bytes: 2 * 1024 * 1024, media_type: 'text/srt', media_category: 'subtitles' }, 'total_bytes', /a subtitle file may be at most 1 MB/],
    [{ command: 'INIT', total_bytes: 100, media_type: 'text/srt', media_category: 'post_image' }, 'media_category', /does not fit/],
  ];
  for (const [body, parameter, message] of cases) {
    const res = await upload(body);
    assert.equal(res.status, 400, `${JSON.stringify(body).slice(0, 80)}: ${res.text}`);
    assert.equal(res.body.type, problemType('invalid-request'));
    assert.ok(parameter in res.body.errors[0].parameters, `${JSON.stringify(body).slice(0, 80)} names ${parameter}: ${JSON.stringify(res.body.errors)}`);
    assert.match(res.body.errors[0].message, message);
  }
  assert.equal(await mediaCount(), before);
});

test('POST /1.1/media/upload.json takes subtitles too (media_category=Subtitles or subtitles); a bad SRT file is a v1.1 error', async () => {
  const send = async (form: Record<string, string>) => {
    const url = `${plaza.urls.base_url}/1.1/media/upload.json`;
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: oauth1Header(p.oauth1As('ada').oauth1, 'POST', url, form) },
      body: new URLSearchParams(form).toString(),
    });
    return { status: res.status, body: JSON.parse(await res.text()) };
  };
  const ok = await send({ media_data: srt().toString('base64'), media_category: 'Subtitles' });
  assert.equal(ok.status, 200);
  assert.equal(ok.body.media_key, `15_${ok.body.media_id_string}`);
  const bad = await send({ media_data: srt('1\nno timing\n').toString('base64'), media_category: 'subtitles' });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.errors[0].code, 44);
  assert.match(bad.body.errors[0].message, /SRT/);
});

test('a chunked subtitle upload that is not SRT fails at FINALIZE naming media, and the upload stays open to fix', async () => {
  const bad = srt('1\n00:00:01,000 --> 00:00:02,000\n');
  const id = (await p.send('POST', '/2/media/upload/initialize', { auth: ada, body: { total_bytes: bad.length, media_type: 'text/srt', media_category: 'subtitles' } })).body.data.id;
  await p.send('POST', `/2/media/upload/${id}/append`, { auth: ada, body: { segment_index: 0, media: bad.toString('base64') } });
  const fin = await p.send('POST', `/2/media/upload/${id}/finalize`, { auth: ada });
  assert.equal(fin.status, 400);
  assert.ok('media' in fin.body.errors[0].parameters);
  assert.match(fin.body.errors[0].message, /has no text/);
  const fixed = srt('1\n00:00:01,000 --> 00:00:02,000\n!\n').subarray(0, bad.length);
  await p.send('POST', `/2/media/upload/${id}/append`, { auth: ada, body: { segment_index: 0, media: fixed.toString('base64') } });
  assert.equal((await p.send('POST', `/2/media/upload/${id}/finalize`, { auth: ada })).status, 400, 'still not SRT: the last byte is cut');
});

test('a subtitle file is not post media: attaching it to a post is an invalid-request naming media.media_ids', async () => {
  const file = await uploadSrt();
  const res = await p.post(ada, { text: 'Subtitles alone', media: { media_ids: [file.id] } });
  assert.equal(res.status, 400);
  assert.ok('media.media_ids' in res.body.errors[0].parameters);
  assert.match(res.body.errors[0].message, /subtitle file/);
});

test('a subtitle file is not DM or article media either: a message or an article draft naming one is an invalid-request naming its parameter, and stores nothing', async () => {
  const file = await uploadSrt();
  const db = plaza.ctx.store.db;
  const count = async (table: 'dm_events' | 'articles') => Number((await db.selectFrom(table).select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const before = { dm: await count('dm_events'), articles: await count('articles') };
  const dmAuth = await p.selfServeAs('ada', [...ALL_SCOPES, 'dm.read', 'dm.write']);
  const dm = await p.send('POST', `/2/dm_conversations/with/${p.user('chen').id}/messages`, { auth: dmAuth, body: { text: 'subtitles', attachments: [{ media_id: file.id }] } });
  assert.equal(dm.status, 400, dm.text);
  assert.ok('media_id' in dm.body.errors[0].parameters);
  assert.match(dm.body.errors[0].message, /subtitle file/);
  const content = {
    blocks: [{ text: ' ', type: 'atomic', entity_ranges: [{ key: 0, offset: 0, length: 1 }] }],
    entities: [{ key: '0', value: { type: 'image', mutability: 'immutable', data: { media_items: [{ media_id: file.id, media_category: 'tweet_image' }] } } }],
  };
  const image = await p.send('POST', '/2/articles/draft', { auth: ada, body: { title: 'Subtitles as an image', content_state: content } });
  assert.equal(image.status, 400, image.text);
  assert.ok('content_state.entities[0].value.data.media_items[0].media_id' in image.body.errors[0].parameters, image.text);
  assert.match(image.body.errors[0].message, /subtitle file/);
  const cover = await p.send('POST', '/2/articles/draft', { auth: ada, body: { title: 'Subtitles as a cover', content_state: { blocks: [{ text: 'Text', type: 'unstyled' }], entities: [] }, cover_media: { media_id: file.id, media_category: 'tweet_image' } } });
  assert.equal(cover.status, 400, cover.text);
  assert.ok('cover_media.media_id' in cover.body.errors[0].parameters, cover.text);
  assert.deepEqual({ dm: await count('dm_events'), articles: await count('articles') }, before);
});

test('POST /2/media/subtitles: the owner gives a video a track per language; the answer is the media id, media_category and every associated track; a track in a language the video has replaces it', async () => {
  const video = await uploadVideo();
  const english = await uploadSrt();
  const res = await create({ id: video.id, media_category: 'TweetVideo', subtitles: { display_name: 'English', id: english.id, language_code: 'EN' } });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, { data: { id: video.id, media_category: 'TweetVideo', associated_subtitles: { subtitles: [{ display_name: 'English', id: english.id, language_code: 'EN' }] } } });
  const french = await uploadSrt();
  const both = await create({ id: video.id, subtitles: { display_name: 'Français', id: french.id, language_code: 'FR' } });
  assert.equal(both.body.data.media_category, 'PostVideo', 'without media_category the video\'s own is answered');
  assert.deepEqual(both.body.data.associated_subtitles.subtitles.map((t: { language_code: string }) => t.language_code), ['EN', 'FR']);
  const newer = await uploadSrt();
  const replaced = await create({ id: video.id, media_category: 'PostVideo', subtitles: { display_name: 'English (US)', id: newer.id, language_code: 'EN' } });
  assert.equal(replaced.status, 200);
  assert.deepEqual(replaced.body.data.associated_subtitles.subtitles, [
    { display_name: 'English (US)', id: newer.id, language_code: 'EN' },
    { display_name: 'Français', id: french.id, language_code: 'FR' },
  ]);
  const rows = await tracks(video.id);
  assert.deepEqual(rows.map((r) => [r.language_code, r.subtitle_media_id]), [['EN', newer.id], ['FR', french.id]]);
  const amplify = await uploadVideo(ada, 'amplify_video');
  const noName = await create({ id: amplify.id, media_category: 'AmplifyVideo', subtitles: { id: english.id, language_code: 'DE' } });
  assert.equal(noName.status, 200);
  assert.deepEqual(noName.body.data.associated_subtitles.subtitles, [{ display_name: 'DE', id: english.id, language_code: 'DE' }], 'one file may serve several videos; display_name defaults to the code');
});

test('POST /2/media/subtitles refusals: "the caller must own both" (404 unknown, 403 another\'s), the target must be a post or amplify video, the file a subtitle file, media_category must fit, language_code ^[A-Z]{2}$; nothing is stored', async () => {
  const video = await uploadVideo();
  const file = await uploadSrt();
  const chensVideo = await uploadVideo(chen);
  const chensFile = await uploadSrt(chen);
  const photo = await p.uploadPng(ada);
  const animated = (await upload({ media: gif(8, 8).toString('base64') })).body.data;
  const dmVideo = await uploadVideo(ada, 'dm_video');
  const track = (over: Record<string, unknown> = {}) => ({ display_name: 'English', id: file.id, language_code: 'EN', ...over });
  const unknown = await create({ id: '1234567890123456789', subtitles: track() });
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.type, problemType('resource-not-found'));
  assert.equal(unknown.body.parameter, 'id');
  const others = await create({ id: chensVideo.id, subtitles: track() });
  assert.equal(others.status, 403);
  assert.equal(others.body.parameter, 'id');
  const othersFile = await create({ id: video.id, subtitles: track({ id: chensFile.id }) });
  assert.equal(othersFile.status, 403);
  assert.equal(othersFile.body.parameter, 'subtitles.id');
  const cases: Array<[unknown, string, RegExp?]> = [
    [{ id: photo.id, subtitles: track() }, 'id', /an image/],
    [{ id: animated.id, subtitles: track() }, 'id', /a GIF/],
    [{ id: dmVideo.id, subtitles: track() }, 'id', /dm_video/],
    [{ id: file.id, subtitles: track() }, 'id', /a subtitle file/],
    [{ id: video.id, subtitles: track({ id: photo.id }) }, 'subtitles.id', /not a subtitle file/],
    [{ id: video.id, media_category: 'AmplifyVideo', subtitles: track() }, 'media_category', /does not fit/],
    [{ id: video.id, media_category: 'post_video', subtitles: track() }, 'media_category'],
    [{ id: video.id, subtitles: track({ language_code: 'en' }) }, 'subtitles.language_code'],
    [{ id: video.id, subtitles: track({ language_code: 'ENG' }) }, 'subtitles.language_code'],
    [{ id: video.id, subtitles: track({ display_name: '  ' }) }, 'subtitles.display_name'],
    [{ id: video.id, subtitles: track({ display_name: 'x'.repeat(101) }) }, 'subtitles.display_name'],
    [{ id: video.id, subtitles: track({ id: 'abc' }) }, 'subtitles.id'],
    [{ id: video.id }, 'subtitles'],
    [{ id: 'abc', subtitles: track() }, 'id'],
    [{ id: video.id, subtitles: track(), extra: 1 }, 'extra'],
  ];
  for (const [body, parameter, message] of cases) {
    const res = await create(body);
    assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
    assert.ok(parameter in res.body.errors[0].parameters, `${JSON.stringify(body)} names ${parameter}: ${JSON.stringify(res.body.errors)}`);
    if (message) assert.match(res.body.errors[0].message, message);
  }
  assert.deepEqual(await tracks(video.id), []);
});

test('DELETE /2/media/subtitles removes the track of that language: {deleted: true}; a language without a track is 404 naming language_code; bad input is 400; another\'s video is 403', async () => {
  const video = await uploadVideo();
  const file = await uploadSrt();
  for (const code of ['EN', 'ES']) {
    assert.equal((await create({ id: video.id, subtitles: { display_name: code, id: file.id, language_code: code } })).status, 200);
  }
  const res = await remove({ id: video.id, media_category: 'TweetVideo', language_code: 'EN' });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, { data: { deleted: true } });
  assert.deepEqual((await tracks(video.id)).map((t) => t.language_code), ['ES']);
  const again = await remove({ id: video.id, media_category: 'PostVideo', language_code: 'EN' });
  assert.equal(again.status, 404);
  assert.deepEqual(normalise(again.body, { [video.id]: 'video' }), {
    value: 'EN',
    detail: `Could not find subtitles in language [EN] for media with id: [${video.id}].`,
    title: 'Not Found Error',
    resource_type: 'media',
    parameter: 'language_code',
    resource_id: '<video>',
    type: problemType('resource-not-found'),
    status: 404,
  });
  for (const [body, parameter] of [
    [{ id: video.id, language_code: 'ES' }, 'media_category'],
    [{ id: video.id, media_category: 'AmplifyVideo', language_code: 'ES' }, 'media_category'],
    [{ id: video.id, media_category: 'PostVideo', language_code: 'es' }, 'language_code'],
    [{ id: video.id, media_category: 'PostVideo' }, 'language_code'],
    [{ media_category: 'PostVideo', language_code: 'ES' }, 'id'],
  ] as const) {
    const bad = await remove(body);
    assert.equal(bad.status, 400, `${JSON.stringify(body)}: ${bad.text}`);
    assert.ok(parameter in bad.body.errors[0].parameters, `${JSON.stringify(body)} names ${parameter}: ${JSON.stringify(bad.body.errors)}`);
  }
  const chens = await remove({ id: video.id, media_category: 'PostVideo', language_code: 'ES' }, chen);
  assert.equal(chens.status, 403);
  assert.deepEqual((await tracks(video.id)).map((t) => t.language_code), ['ES'], 'refusals change nothing');
});

test('media subtitles need user context with the media.write scope (OAuth 2.0 or OAuth 1.0a)', async () => {
  const video = await uploadVideo();
  const file = await uploadSrt();
  const body = { id: video.id, subtitles: { display_name: 'English', id: file.id, language_code: 'EN' } };
  const app = await create(body, p.appAuth);
  assert.equal(app.status, 403);
  assert.equal(app.body.type, problemType('unsupported-authentication'));
  const noScope = await create(body, await p.selfServeAs('ada', ['post.read', 'post.write', 'users.read']));
  assert.equal(noScope.status, 403);
  assert.match(noScope.body.detail, /media\.write/);
  assert.equal((await p.send('POST', '/2/media/subtitles', { body })).status, 401);
  assert.equal((await p.send('DELETE', '/2/media/subtitles', { body: { id: video.id, media_category: 'PostVideo', language_code: 'EN' } })).status, 401);
  const signed = await p.send('POST', '/2/media/subtitles', { auth: p.oauth1As('ada'), body });
  assert.equal(signed.status, 200, signed.text);
});

test('"If the reference\'s media object shows subtitles anywhere": it does not, so a video looks the same with tracks; the subtitle file itself looks up for its owner as type subtitles, without public_metrics', async () => {
  const video = await uploadVideo();
  const file = await uploadSrt();
  const fields = 'media.fields=duration_ms,height,width,url,variants,public_metrics,alt_text,preview_image_url';
  const before = (await p.get(`/2/media/${video.media_key}?${fields}`, { auth: ada })).body;
  await create({ id: video.id, subtitles: { display_name: 'English', id: file.id, language_code: 'EN' } });
  assert.deepEqual((await p.get(`/2/media/${video.media_key}?${fields}`, { auth: ada })).body, before);
  const own = await p.get(`/2/media/${file.media_key}?${fields}`, { auth: ada });
  assert.equal(own.status, 200);
  assert.deepEqual(Object.keys(own.body.data).sort(), ['media_key', 'type', 'url']);
  assert.equal(own.body.data.type, 'subtitles');
  const others = await p.get(`/2/media/${file.media_key}`, { auth: chen });
  assert.equal(others.body.data, undefined);
  assert.equal(others.body.errors[0].parameter, 'media_key');
});

test('by the store\'s clock: an uploaded subtitle file can be given to a video within 24 hours of upload', async () => {
  const clock = new ManualClock();
  const timed = await startTestPlaza({}, { clock });
  const t = fixtures(timed);
  const auth = await t.selfServeAs('ada');
  const video = (await t.send('POST', '/2/media/upload', { auth, body: { media: mp4({ width: 8, height: 8, durationMs: 1000 }).toString('base64') } })).body.data;
  const file = (await t.send('POST', '/2/media/upload', { auth, body: { media: srt().toString('base64'), media_category: 'subtitles' } })).body.data;
  clock.advance(24 * 60 * 60_000 - 1);
  const body = (code: string) => ({ id: video.id, subtitles: { display_name: code, id: file.id, language_code: code } });
  assert.equal((await t.send('POST', '/2/media/subtitles', { auth: await t.selfServeAs('ada'), body: body('EN') })).status, 200);
  clock.advance(1);
  const late = await t.send('POST', '/2/media/subtitles', { auth: await t.selfServeAs('ada'), body: body('FR') });
  assert.equal(late.status, 400);
  assert.ok('subtitles.id' in late.body.errors[0].parameters);
  assert.match(late.body.errors[0].message, /expired/);
});
