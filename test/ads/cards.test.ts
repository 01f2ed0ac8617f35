import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { normalise } from '../support/normalise.js';
import { creativesKit, startAdsPlaza, type AdsKit } from './support.js';

/** Issue #13: cards, poll cards and video conversation cards (spec 001; shared/reference/ads.md §3 for poll cards). */
let k: AdsKit;
let c: ReturnType<typeof creativesKit>;
let account: string;
let images: string[];
let video: string;
let square: string;
const cards = (path = '') => `/12/accounts/${account}/cards${path}`;

const media = (key: string) => ({ type: 'MEDIA', media_key: key });
const details = (url = 'https://example.com/') => ({ type: 'DETAILS', title: 'Read more', destination: { type: 'WEBSITE', url } });
const button = (value = 'INSTALL') => ({ type: 'BUTTON', label: { type: 'ENUM', value }, destination: { type: 'APP', country_code: 'US', android_store_app_id: 'com.example', android_store_deep_link: 'example://' } });
const post = (json: unknown, headers?: Record<string, string>) => k.sandbox.post(cards(), { json, headers });

before(async () => {
  k = await startAdsPlaza();
  c = creativesKit(k);
  account = (await k.sandboxSetup('ada')).account;
  images = [await c.inLibrary(account, 'image'), await c.inLibrary(account, 'image'), await c.inLibrary(account, 'image')];
  video = await c.inLibrary(account, 'video');
  const sq = await c.video('ada', { width: 600, height: 600 });
  await k.sandbox.post(`/12/accounts/${account}/media_library`, { query: { media_key: sq } });
  square = sq;
});

test('POST cards takes JSON only (Content-Type application/json, else a clear error): name ≤80 and components; card_uri is card://<id>', async () => {
  const res = await post({ name: 'Website card', components: [media(images[0]), details()] });
  assert.equal(res.status, 200, res.text);
  const d = res.body.data;
  // A media component carries its media's metadata (below); the rest is as it was sent.
  const { media_metadata: metadata, ...mediaComponent } = d.components[0];
  assert.deepEqual(Object.keys(metadata), [images[0]]);
  const answered = { ...res.body, data: { ...d, components: [mediaComponent, ...d.components.slice(1)] } };
  assert.deepEqual(normalise(answered, { [account]: 'account', [d.id]: 'card', [`card://${d.id}`]: 'card_uri', [images[0]]: 'image' }), {
    request: {
      params: {
        account_id: '<account>', name: 'Website card',
        components: [
          { type: 'MEDIA', media_key: '<image>' },
          { type: 'DETAILS', title: 'Read more', destination: { type: 'WEBSITE', url: 'https://example.com/' } },
        ],
      },
    },
    data: {
      name: 'Website card',
      components: [
        { type: 'MEDIA', media_key: '<image>' },
        { type: 'DETAILS', title: 'Read more', destination: { type: 'WEBSITE', url: 'https://example.com/' } },
      ],
      card_uri: '<card_uri>', id: '<card>', card_type: 'IMAGE_WEBSITE', created_at: '<time>', updated_at: '<time>', deleted: false,
    },
  });
  // deepEqual does not compare the order of keys.
  assert.deepEqual(Object.keys(d), ['name', 'components', 'card_uri', 'id', 'card_type', 'created_at', 'updated_at', 'deleted']);
  const form = await k.sandbox.post(cards(), { form: { name: 'x' } });
  assert.equal(form.status, 400);
  assert.equal(form.body.errors[0].parameter, 'Content-Type');
  assert.match(form.body.errors[0].message, /application\/json/);
  assert.equal((await k.sandbox.post(cards(), { query: { name: 'x' } })).status, 400, 'query parameters are not a JSON body');
  assert.equal((await post({ name: 'n'.repeat(81), components: [media(images[0]), details()] })).body.errors[0].parameter, 'name');
  assert.equal((await post({ components: [media(images[0]), details()] })).body.errors[0].code, 'MISSING_PARAMETER');
  assert.equal((await post({ name: 'n'.repeat(80), components: [media(images[0]), details()] })).status, 200);
  assert.equal((await post('[1,2]')).status, 400);
});

test('`components` or `slides`, never both; one media component plus a DETAILS or BUTTON component; order kept as the render order', async () => {
  const both = await post({ name: 'x', components: [media(images[0]), details()], slides: [[media(images[0]), details()]] });
  assert.equal(both.body.errors[0].code, 'EXCLUSIVE_PARAMETERS');
  assert.equal((await post({ name: 'x' })).body.errors[0].code, 'MISSING_PARAMETER');
  const noMedia = await post({ name: 'x', components: [details()] });
  assert.equal(noMedia.status, 400);
  assert.match(noMedia.body.errors[0].message, /media component/);
  assert.match((await post({ name: 'x', components: [media(images[0])] })).body.errors[0].message, /DETAILS or a BUTTON/);
  assert.equal((await post({ name: 'x', components: [media(images[0]), media(images[1]), details()] })).status, 400, 'one media component');
  assert.equal((await post({ name: 'x', components: [media(images[0]), details(), button()] })).status, 400, 'DETAILS or BUTTON, not both');
  assert.equal((await post({ name: 'x', components: [media(images[0]), { type: 'POLL' }] })).body.errors[0].parameter, 'components[1].type');
  const ordered = await post({ name: 'Details first', components: [details('https://example.com/a'), media(images[1])] });
  assert.equal(ordered.status, 200, ordered.text);
  assert.deepEqual(ordered.body.data.components.map((x: any) => x.type), ['DETAILS', 'MEDIA']);
  const got = await k.sandbox.get(cards(`/${ordered.body.data.id}`));
  assert.deepEqual(got.body.data.components, ordered.body.data.components);
});

test('MEDIA needs media_key, SWIPEABLE_MEDIA 2-6 media_keys; DETAILS title + destination; BUTTON label + destination', async () => {
  assert.equal((await post({ name: 'x', components: [{ type: 'MEDIA' }, details()] })).body.errors[0].parameter, 'components[0].media_key');
  assert.equal((await post({ name: 'x', components: [{ type: 'MEDIA', media_key: '3_1' }, details()] })).status, 404, 'media of the media library');
  for (const keys of [[images[0]], [...images, ...images, images[0]]]) {
    const res = await post({ name: 'x', components: [{ type: 'SWIPEABLE_MEDIA', media_keys: keys }, details()] });
    assert.equal(res.body.errors[0].parameter, 'components[0].media_keys', `${keys.length} keys`);
  }
  assert.equal((await post({ name: 'x', components: [media(images[0]), { type: 'DETAILS', destination: details().destination }] })).body.errors[0].parameter, 'components[1].title');
  assert.equal((await post({ name: 'x', components: [media(images[0]), { type: 'DETAILS', title: 'x' }] })).body.errors[0].parameter, 'components[1].destination');
  assert.equal((await post({ name: 'x', components: [media(images[0]), { type: 'BUTTON', destination: button().destination }] })).body.errors[0].parameter, 'components[1].label');
  const carousel = await post({ name: 'Carousel', components: [{ type: 'SWIPEABLE_MEDIA', media_keys: images }, details()] });
  assert.equal(carousel.status, 200, carousel.text);
  assert.equal(carousel.body.data.card_type, 'IMAGE_CAROUSEL_WEBSITE');
});

test('labels {type: ENUM, value: BOOK|CONNECT|INSTALL|OPEN|ORDER|PLAY|SHOP} only on BUTTON; WEBSITE destinations (url required) only for DETAILS; APP destinations only for BUTTON', async () => {
  for (const value of ['BOOK', 'CONNECT', 'INSTALL', 'OPEN', 'ORDER', 'PLAY', 'SHOP']) {
    assert.equal((await post({ name: value, components: [media(images[0]), button(value)] })).status, 200, value);
  }
  assert.equal((await post({ name: 'x', components: [media(images[0]), button('BUY')] })).body.errors[0].parameter, 'components[1].label');
  const labelled = await post({ name: 'x', components: [media(images[0]), { ...details(), label: { type: 'ENUM', value: 'SHOP' } }] });
  assert.equal(labelled.body.errors[0].parameter, 'components[1].label');
  assert.match(labelled.body.errors[0].message, /only to BUTTON/);
  const noUrl = await post({ name: 'x', components: [media(images[0]), { type: 'DETAILS', title: 'x', destination: { type: 'WEBSITE' } }] });
  assert.deepEqual([noUrl.body.errors[0].code, noUrl.body.errors[0].parameter], ['MISSING_PARAMETER', 'components[1].destination.url']);
  const appOnDetails = await post({ name: 'x', components: [media(images[0]), { type: 'DETAILS', title: 'x', destination: button().destination }] });
  assert.equal(appOnDetails.body.errors[0].parameter, 'components[1].destination.type');
  const webOnButton = await post({ name: 'x', components: [media(images[0]), { ...button(), destination: details().destination }] });
  assert.equal(webOnButton.body.errors[0].parameter, 'components[1].destination.type');
});

test('card_type is derived from the components (the spec\'s card_type list); slides make multi-destination carousels, each slide a full card', async () => {
  const cases: Array<[unknown, string]> = [
    [{ components: [media(video), details()] }, 'VIDEO_WEBSITE'],
    [{ components: [media(images[0]), button()] }, 'IMAGE_APP'],
    [{ components: [media(video), button()] }, 'VIDEO_APP'],
    [{ components: [{ type: 'SWIPEABLE_MEDIA', media_keys: images.slice(0, 2) }, button()] }, 'IMAGE_CAROUSEL_APP'],
    [{ components: [{ type: 'SWIPEABLE_MEDIA', media_keys: [video, square] }, details()] }, 'VIDEO_CAROUSEL_WEBSITE'],
    [{ components: [{ type: 'SWIPEABLE_MEDIA', media_keys: [video, square] }, button()] }, 'VIDEO_CAROUSEL_APP'],
    [{ components: [{ type: 'SWIPEABLE_MEDIA', media_keys: [images[0], video] }, details()] }, 'MIXED_MEDIA_SINGLE_DEST_CAROUSEL_WEBSITE'],
    [{ components: [{ type: 'SWIPEABLE_MEDIA', media_keys: [images[0], video] }, button()] }, 'MIXED_MEDIA_SINGLE_DEST_CAROUSEL_APP'],
    [{ slides: [[media(images[0]), details('https://example.com/1')], [media(images[1]), details('https://example.com/2')]] }, 'IMAGE_MULTI_DEST_CAROUSEL_WEBSITE'],
    [{ slides: [[media(video), details()], [media(square), details()]] }, 'VIDEO_MULTI_DEST_CAROUSEL_WEBSITE'],
    [{ slides: [[media(images[0]), details()], [details(), media(video)]] }, 'MIXED_MEDIA_MULTI_DEST_CAROUSEL_WEBSITE'],
  ];
  for (const [body, type] of cases) {
    const res = await post({ name: type, ...(body as object) });
    assert.equal(res.status, 200, `${type}: ${res.text}`);
    assert.equal(res.body.data.card_type, type);
  }
  const slides = await post({ name: 's', slides: [[media(images[0]), details()], [details(), media(video)]] });
  assert.deepEqual(slides.body.data.slides[1].map((x: any) => x.type), ['DETAILS', 'MEDIA'], 'slide order and component order kept');
  assert.equal((await post({ name: 's', slides: [[media(images[0]), details()]] })).body.errors[0].parameter, 'slides');
  assert.equal((await post({ name: 's', slides: [[media(images[0]), button()], [media(images[1]), button()]] })).status, 400, 'no APP multi-destination carousel');
});

test('GET cards: card_types, card_id ≤200, card_uris ≤200, count 1-200 default 100, q ≤80 case-insensitive prefix, sort_by, with_deleted; only cards created through this POST', async () => {
  const all = await k.sandbox.get(cards());
  assert.equal(all.status, 200);
  assert.ok(all.body.data.length > 20 && all.body.data.length <= 100);
  assert.ok(all.body.data.every((d: any) => d.components || d.slides));
  const apps = await k.sandbox.get(cards(), { query: { card_types: 'IMAGE_APP,VIDEO_APP' } });
  assert.ok(apps.body.data.length >= 8 && apps.body.data.every((d: any) => ['IMAGE_APP', 'VIDEO_APP'].includes(d.card_type)));
  const [a, b] = all.body.data;
  assert.deepEqual((await k.sandbox.get(cards(), { query: { card_id: `${a.id},${b.id}` } })).body.data.map((d: any) => d.id).sort(), [a.id, b.id].sort());
  assert.deepEqual((await k.sandbox.get(cards(), { query: { card_uris: a.card_uri } })).body.data.map((d: any) => d.id), [a.id]);
  assert.equal((await k.sandbox.get(cards(), { query: { card_uris: 'https://example.com' } })).body.errors[0].parameter, 'card_uris');
  assert.equal((await k.sandbox.get(cards(), { query: { card_id: Array.from({ length: 201 }, (_, i) => `c${i}`).join(',') } })).status, 400);
  assert.equal((await k.sandbox.get(cards(), { query: { count: 201 } })).status, 400);
  const two = await k.sandbox.get(cards(), { query: { count: 2 } });
  assert.equal(two.body.data.length, 2);
  assert.notEqual((await k.sandbox.get(cards(), { query: { count: 2, cursor: two.body.next_cursor } })).body.data[0].id, two.body.data[0].id);
  const q = await k.sandbox.get(cards(), { query: { q: 'website' } });
  assert.deepEqual(q.body.data.map((d: any) => d.name), ['Website card']);
  assert.equal((await k.sandbox.get(cards(), { query: { q: 'card' } })).body.data.length, 0, 'a prefix, not a substring');
  assert.equal((await k.sandbox.get(cards(), { query: { q: 'q'.repeat(81) } })).body.errors[0].parameter, 'q');
  const byName = await k.sandbox.get(cards(), { query: { sort_by: 'name-asc', count: 3 } });
  assert.deepEqual(byName.body.data.map((d: any) => d.name), [...byName.body.data.map((d: any) => d.name)].sort());
});

test('DELETE .../cards/image_conversation/:card_id returns the card with deleted = true; it shows only with with_deleted=true', async () => {
  const made = (await post({ name: 'Doomed', components: [media(images[0]), details()] })).body.data;
  const del = await k.sandbox.del(cards(`/image_conversation/${made.id}`));
  assert.equal(del.status, 200, del.text);
  assert.equal(del.body.data.deleted, true);
  assert.equal((await k.sandbox.get(cards(`/${made.id}`))).status, 404);
  assert.equal((await k.sandbox.get(cards(`/${made.id}`), { query: { with_deleted: 'true' } })).body.data.deleted, true);
  assert.ok(!(await k.sandbox.get(cards(), { query: { q: 'Doomed' } })).body.data.length);
  assert.equal((await k.sandbox.get(cards(), { query: { q: 'Doomed', with_deleted: 'true' } })).body.data.length, 1);
  assert.equal((await k.sandbox.del(cards(`/image_conversation/${made.id}`))).body.errors[0].code, 'CARD_NOT_FOUND');
});

test('poll cards: POST per the reference (duration_in_minutes 5-10080, choices ≤25 characters, third and fourth in order, optional media_key, end_time = start + duration, numbers as strings)', async () => {
  const poll = (query: Record<string, string | number>) => k.sandbox.post(cards('/poll'), { query: { name: 'Poll', duration_in_minutes: 60, first_choice: 'Yes', second_choice: 'No', ...query } });
  const res = await poll({ third_choice: 'Maybe', media_key: video });
  assert.equal(res.status, 200, res.text);
  const d = res.body.data;
  assert.deepEqual(normalise(res.body, { [account]: 'account', [d.id]: 'card', [`card://${d.id}`]: 'card_uri', [video]: 'video', [`${k.plaza.urls.base_url}/media/${video}.mp4`]: 'video_url', [`${k.plaza.urls.base_url}/media/${video}.png`]: 'poster_url' }), {
    request: {
      params: {
        account_id: '<account>', name: 'Poll', duration_in_minutes: 60, first_choice: 'Yes', second_choice: 'No', third_choice: 'Maybe',
        media_key: '<video>',
      },
    },
    data: {
      name: 'Poll', first_choice: 'Yes', second_choice: 'No', third_choice: 'Maybe', start_time: '<time>', end_time: '<time>',
      duration_in_minutes: '60', content_duration_seconds: '10', media_key: '<video>', image_url: null, video_url: '<video_url>', video_hls_url: null,
      video_width: '1280', video_height: '720', video_poster_url: '<poster_url>', video_poster_width: null, video_poster_height: null, id: '<card>',
      card_uri: '<card_uri>', card_type: 'VIDEO_POLLS', created_at: '<time>', updated_at: '<time>', deleted: false,
    },
  });
  assert.equal(new Date(d.end_time).getTime() - new Date(d.start_time).getTime(), 60 * 60_000);
  assert.equal((await poll({ media_key: images[0] })).body.data.card_type, 'IMAGE_POLLS');
  for (const n of [4, 10_081, 'soon']) assert.equal((await poll({ duration_in_minutes: n })).body.errors[0].parameter, 'duration_in_minutes', String(n));
  assert.equal((await poll({ duration_in_minutes: 5 })).status, 200);
  assert.equal((await poll({ duration_in_minutes: 10_080 })).status, 200);
  assert.equal((await poll({ first_choice: 'c'.repeat(26) })).body.errors[0].parameter, 'first_choice');
  assert.equal((await poll({ first_choice: 'c'.repeat(25) })).status, 200);
  assert.equal((await poll({ fourth_choice: 'Late' })).body.errors[0].parameter, 'third_choice');
  assert.equal((await k.sandbox.post(cards('/poll'), { query: { name: 'P', duration_in_minutes: 60, first_choice: 'Yes' } })).body.errors[0].parameter, 'second_choice');
  assert.equal((await poll({ media_key: '3_1' })).status, 404);
});

test('poll cards: list (card_ids, count, cursor, q, sort_by, with_deleted, with_total_count) and get per spec 001', async () => {
  const list = await k.sandbox.get(cards('/poll'), { query: { with_total_count: 'true' } });
  assert.equal(list.status, 200);
  assert.ok(list.body.total_count >= 5);
  assert.ok(list.body.data.every((d: any) => /_POLLS$/.test(d.card_type)));
  const one = list.body.data[0];
  assert.deepEqual((await k.sandbox.get(cards(`/poll/${one.id}`))).body.data, one);
  assert.deepEqual((await k.sandbox.get(cards('/poll'), { query: { card_ids: one.id } })).body.data, [one]);
  assert.equal((await k.sandbox.get(cards('/poll'), { query: { q: 'poll' } })).body.data.length, list.body.total_count);
  assert.equal((await k.sandbox.get(cards(`/${one.id}`))).status, 404, 'GET cards/:id answers cards made by POST cards');
  const legacy = await k.sandbox.get(cards(), { query: { include_legacy_cards: 'true', card_types: 'VIDEO_POLLS' } });
  assert.ok(legacy.body.data.length >= 1 && legacy.body.data.every((d: any) => d.card_type === 'VIDEO_POLLS' && d.first_choice), 'include_legacy_cards adds the legacy kinds');
  assert.equal((await k.sandbox.get(cards(), { query: { card_types: 'VIDEO_POLLS' } })).body.data.length, 0, 'without it, only cards of POST cards');
  await k.sandbox.del(cards(`/poll/${one.id}`));
  assert.equal((await k.sandbox.get(cards(`/poll/${one.id}`))).status, 404);
  assert.equal((await k.sandbox.get(cards(`/poll/${one.id}`), { query: { with_deleted: 'true' } })).body.data.deleted, true);
});

test('video conversation cards: first_cta ≤20 without #, thank_you_text ≤23, title ≤23 required when second_cta is absent, second_cta_post required with second_cta, the third and fourth pairs, media_key a 16:9 video of the account\'s media library', async () => {
  const vc = (query: Record<string, string | undefined>) =>
    k.sandbox.post(cards('/video_conversation'), {
      query: Object.fromEntries(Object.entries({ name: 'Conversation', first_cta: '#PlazaRocks', first_cta_post: 'I love Plaza', thank_you_text: 'Thanks!', title: 'Which one?', media_key: video, ...query }).filter(([, v]) => v !== undefined)) as Record<string, string>,
    });
  const res = await vc({});
  assert.equal(res.status, 200, res.text);
  const d = res.body.data;
  assert.deepEqual(normalise(res.body, { [account]: 'account', [d.id]: 'card', [`card://${d.id}`]: 'card_uri', [video]: 'video', [`${k.plaza.urls.base_url}/media/${video}.mp4`]: 'video_url', [`${k.plaza.urls.base_url}/media/${video}.png`]: 'poster_url', [k.user('ada').id]: 'ada' }), {
    request: {
      params: {
        account_id: '<account>', name: 'Conversation', first_cta: '#PlazaRocks', first_cta_post: 'I love Plaza', thank_you_text: 'Thanks!',
        title: 'Which one?', media_key: '<video>',
      },
    },
    data: {
      name: 'Conversation', first_cta: '#PlazaRocks', first_cta_post: 'I love Plaza', second_cta: null, second_cta_post: null, third_cta: null,
      third_cta_post: null, fourth_cta: null, fourth_cta_post: null, thank_you_text: 'Thanks!', title: 'Which one?', media_url: '<video_url>',
      media_key: '<video>', poster_media_url: '<poster_url>', poster_media_key: null, video_owner_id: '<ada>', video_width: '1280', video_height: '720',
      id: '<card>', card_uri: '<card_uri>', card_type: 'VIDEO_CONVERSATION', created_at: '<time>', updated_at: '<time>', deleted: false,
    },
  });
  const param = async (query: Record<string, string | undefined>) => (await vc(query)).body.errors?.[0]?.parameter;
  assert.equal(await param({ first_cta: `#${'a'.repeat(21)}` }), 'first_cta');
  assert.equal((await vc({ first_cta: `#${'a'.repeat(20)}` })).status, 200, '20 characters not counting #');
  assert.equal(await param({ first_cta: 'NoHash' }), 'first_cta');
  assert.equal(await param({ thank_you_text: 't'.repeat(24) }), 'thank_you_text');
  assert.equal(await param({ title: 't'.repeat(24) }), 'title');
  assert.equal(await param({ title: undefined }), 'title');
  assert.equal((await vc({ title: undefined, second_cta: '#Other', second_cta_post: 'Other' })).status, 200, 'title may go when second_cta is set');
  assert.equal(await param({ second_cta: '#Other' }), 'second_cta_post');
  assert.equal(await param({ second_cta: '#Other', second_cta_post: 'x', third_cta: '#Third' }), 'third_cta_post');
  assert.equal(await param({ second_cta: '#Other', second_cta_post: 'x', fourth_cta: '#Four', fourth_cta_post: 'y' }), 'third_cta');
  assert.equal(await param({ fourth_cta: `#${'f'.repeat(21)}` }), 'fourth_cta');
  const four = await vc({ second_cta: '#B', second_cta_post: 'b', third_cta: '#C', third_cta_post: 'c', fourth_cta: '#D', fourth_cta_post: 'd' });
  assert.equal(four.status, 200, four.text);
  assert.equal(four.body.data.fourth_cta_post, 'd');
  assert.equal(await param({ media_key: square }), 'media_key');
  assert.equal(await param({ media_key: images[0] }), 'media_key');
  assert.equal((await vc({ media_key: await c.video() })).status, 404, 'not in the media library');
  assert.equal((await vc({ poster_media_key: images[1] })).body.data.poster_media_key, images[1]);
  for (const missing of ['name', 'first_cta', 'first_cta_post', 'thank_you_text', 'media_key']) {
    assert.equal(await param({ [missing]: undefined }), missing);
  }
});

test('video conversation cards: list and get', async () => {
  const list = await k.sandbox.get(cards('/video_conversation'), { query: { count: 2, with_total_count: 'true' } });
  assert.equal(list.status, 200);
  assert.equal(list.body.data.length, 2);
  assert.ok(list.body.total_count >= 4);
  const one = list.body.data[0];
  assert.deepEqual((await k.sandbox.get(cards(`/video_conversation/${one.id}`))).body.data, one);
  assert.equal((await k.sandbox.get(cards(`/poll/${one.id}`))).status, 404);
});

test('GET cards: MEDIA and SWIPEABLE_MEDIA components carry media_metadata, each media key\'s type, url, width and height (a video\'s video_duration in ms and video_aspect_ratio too)', async () => {
  const made = await post({ name: 'With metadata', components: [media(video), details()] });
  assert.equal(made.status, 200, made.text);
  const got = await k.sandbox.get(`${cards()}/${made.body.data.id}`);
  assert.equal(got.status, 200, got.text);
  const library = await k.plaza.ctx.store.db.selectFrom('media').selectAll().where('media_key', 'in', [video, ...images.slice(0, 2)]).execute();
  const row = (key: string) => library.find((m) => m.media_key === key)!;
  const v = row(video);
  const meta = got.body.data.components[0].media_metadata[video];
  assert.equal(meta.type, 'VIDEO');
  assert.equal(typeof meta.url, 'string');
  assert.deepEqual([meta.width, meta.height, meta.video_duration], [v.width, v.height, v.duration_ms]);
  assert.match(meta.video_aspect_ratio, /^\d+:\d+$/);
  const [w, h] = meta.video_aspect_ratio.split(':').map(Number);
  assert.equal(w / h, v.width! / v.height!);
  const swipe = await post({ name: 'Swipe', components: [{ type: 'SWIPEABLE_MEDIA', media_keys: images.slice(0, 2) }, details()] });
  assert.equal(swipe.status, 200, swipe.text);
  const listed = await k.sandbox.get(cards(), { query: { card_ids: swipe.body.data.id } });
  const swipeMeta = listed.body.data[0].components[0].media_metadata;
  assert.deepEqual(Object.keys(swipeMeta).sort(), images.slice(0, 2).sort());
  for (const key of images.slice(0, 2)) assert.deepEqual({ ...swipeMeta[key], url: undefined }, { type: 'IMAGE', url: undefined, width: row(key).width, height: row(key).height });
});
