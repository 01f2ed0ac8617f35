import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { normalise } from '../support/normalise.js';
import { creativesKit, startAdsPlaza, type AdsKit } from './support.js';

/** Issue #13: account media (spec 001 "Account media"), fed by the media library. */
let k: AdsKit;
let c: ReturnType<typeof creativesKit>;
let account: string;
const am = (path = '') => `/12/accounts/${account}/account_media${path}`;

before(async () => {
  k = await startAdsPlaza();
  c = creativesKit(k);
  account = (await k.sandboxSetup('ada')).account;
});

test('a PROMO_VIDEO media library object is automatically available as PREROLL account media', async () => {
  const promo = await c.inLibrary(account, 'promo');
  const list = await k.sandbox.get(am());
  const row = list.body.data.find((d: any) => d.media_key === promo);
  assert.ok(row, list.text);
  // video_id is the id of the uploaded video (its media key is <type>_<id>).
  assert.deepEqual(normalise(row, { [promo]: 'media_key', [promo.split('_')[1]]: 'media_id', [`${k.plaza.urls.base_url}/media/${promo}.mp4`]: 'media_url', [row.id]: 'account_media' }), {
    video_id: '<media_id>', media_url: '<media_url>', creative_type: 'PREROLL', id: '<account_media>', created_at: '<time>', updated_at: '<time>',
    media_key: '<media_key>', deleted: false,
  });
  // deepEqual does not compare the order of keys.
  assert.deepEqual(Object.keys(row), ['video_id', 'media_url', 'creative_type', 'id', 'created_at', 'updated_at', 'media_key', 'deleted']);
  await c.inLibrary(account, 'video');
  assert.equal((await k.sandbox.get(am())).body.data.filter((d: any) => d.creative_type === 'PREROLL').length, 1, 'a POST_VIDEO is not preroll media');
});

test('an image of a display size (e.g. 320x50 BANNER, 300x250 MEDIUM_RECTANGLE) added to the media library becomes account media of that creative type', async () => {
  for (const [w, h, type] of [[320, 50, 'BANNER'], [600, 500, 'MEDIUM_RECTANGLE'], [768, 1024, 'INTERSTITIAL_TABLET']] as const) {
    const key = await c.image('ada', w, h);
    await k.sandbox.post(`/12/accounts/${account}/media_library`, { query: { media_key: key } });
    const row = (await k.sandbox.get(am())).body.data.find((d: any) => d.media_key === key);
    assert.equal(row?.creative_type, type, `${w}x${h}`);
  }
  const other = await c.inLibrary(account, 'image');
  assert.ok(!(await k.sandbox.get(am())).body.data.some((d: any) => d.media_key === other), 'other sizes are not display media');
});

test('GET account_media: account_media_ids (up to 200), count, creative_types (the spec\'s enum), cursor, sort_by, with_deleted, with_total_count; GET one', async () => {
  const all = await k.sandbox.get(am(), { query: { with_total_count: 'true' } });
  assert.equal(all.body.total_count, all.body.data.length);
  assert.ok(all.body.data.length >= 4);
  const banners = await k.sandbox.get(am(), { query: { creative_types: 'BANNER,PREROLL' } });
  assert.deepEqual([...new Set(banners.body.data.map((d: any) => d.creative_type))].sort(), ['BANNER', 'PREROLL']);
  assert.equal((await k.sandbox.get(am(), { query: { creative_types: 'BILLBOARD' } })).body.errors[0].parameter, 'creative_types');
  const one = all.body.data[0];
  assert.deepEqual((await k.sandbox.get(am(), { query: { account_media_ids: one.id } })).body.data, [one]);
  assert.equal((await k.sandbox.get(am(), { query: { account_media_ids: Array.from({ length: 201 }, (_, i) => `a${i}`).join(',') } })).status, 400);
  const page1 = await k.sandbox.get(am(), { query: { count: 2, sort_by: 'created_at-asc' } });
  const page2 = await k.sandbox.get(am(), { query: { count: 2, sort_by: 'created_at-asc', cursor: page1.body.next_cursor } });
  assert.equal(page2.body.data.length, 2);
  assert.notEqual(page2.body.data[0].id, page1.body.data[0].id);
  assert.equal((await k.sandbox.get(am(), { query: { count: 1001 } })).status, 400);
  assert.deepEqual((await k.sandbox.get(am(`/${one.id}`))).body.data, one);
  assert.equal((await k.sandbox.get(am('/nothing'))).body.errors[0].code, 'ACCOUNT_MEDIA_NOT_FOUND');
});

test('DELETE account_media/:id returns it with deleted = true; it shows only with with_deleted=true; deleting the media library object deletes its account media', async () => {
  const promo = await c.inLibrary(account, 'promo');
  const row = (await k.sandbox.get(am())).body.data.find((d: any) => d.media_key === promo);
  const del = await k.sandbox.del(am(`/${row.id}`));
  assert.equal(del.status, 200);
  assert.equal(del.body.data.deleted, true);
  assert.equal((await k.sandbox.get(am(`/${row.id}`))).status, 404);
  assert.equal((await k.sandbox.get(am(`/${row.id}`), { query: { with_deleted: 'true' } })).body.data.deleted, true);
  assert.ok((await k.sandbox.get(am(), { query: { with_deleted: 'true' } })).body.data.some((d: any) => d.id === row.id));
  assert.equal((await k.sandbox.del(am(`/${row.id}`))).status, 404);
  const other = await c.inLibrary(account, 'promo');
  const second = (await k.sandbox.get(am())).body.data.find((d: any) => d.media_key === other);
  await k.sandbox.del(`/12/accounts/${account}/media_library/${other}`);
  assert.equal((await k.sandbox.get(am(`/${second.id}`))).status, 404);
});
