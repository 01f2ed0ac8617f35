import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { normalise } from '../support/normalise.js';
import { creativesKit, lineItemQuery, startAdsPlaza, type AdsKit } from './support.js';

/** Issue #13: media creatives (spec 001 "Media creatives", "Media creative"). */
let k: AdsKit;
let c: ReturnType<typeof creativesKit>;
let s: { account: string; fundingInstrument: string; campaign: string };
let preroll: string;
let banner: string;
let prerollItem: string;
let clicksItem: string;
let clicksCampaign: string;
const mc = (path = '') => `/12/accounts/${s.account}/media_creatives${path}`;

async function accountMediaOf(key: string): Promise<string> {
  const list = await k.sandbox.get(`/12/accounts/${s.account}/account_media`);
  return list.body.data.find((d: any) => d.media_key === key).id;
}

before(async () => {
  k = await startAdsPlaza();
  c = creativesKit(k);
  s = await k.sandboxSetup('ada');
  preroll = await accountMediaOf(await c.inLibrary(s.account, 'promo'));
  const bannerKey = await c.image('ada', 320, 50);
  await k.sandbox.post(`/12/accounts/${s.account}/media_library`, { query: { media_key: bannerKey } });
  banner = await accountMediaOf(bannerKey);
  const media = (extra: Record<string, string>) => lineItemQuery(s.campaign, { product_type: 'MEDIA', placements: 'PUBLISHER_NETWORK', advertiser_domain: 'example.com', categories: 'IAB1', ...extra });
  const p = await k.sandbox.post(`/12/accounts/${s.account}/line_items`, { query: media({ objective: 'VIDEO_VIEWS' }) });
  assert.equal(p.status, 200, p.text);
  prerollItem = p.body.data.id;
  clicksCampaign = (await k.sandbox.post(`/12/accounts/${s.account}/campaigns`, { query: { funding_instrument_id: s.fundingInstrument, name: 'clicks', daily_budget_amount_local_micro: 1_000_000 } })).body.data.id;
  const w = await k.sandbox.post(`/12/accounts/${s.account}/line_items`, { query: { ...media({ objective: 'WEBSITE_CLICKS' }), campaign_id: clicksCampaign } });
  assert.equal(w.status, 200, w.text);
  clicksItem = w.body.data.id;
});

test('POST media_creatives associates account media with a line item: account_media_id and line_item_id required; approval_status and entity_status fields', async () => {
  const res = await k.sandbox.post(mc(), { query: { account_media_id: preroll, line_item_id: prerollItem } });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(normalise(res.body, { [s.account]: 'account', [preroll]: 'account_media', [prerollItem]: 'line_item', [res.body.data.id]: 'media_creative' }), {
    request: { params: { account_id: '<account>', account_media_id: '<account_media>', line_item_id: '<line_item>' } },
    data: {
      line_item_id: '<line_item>', landing_url: null, creative_type: 'PREROLL', id: '<media_creative>', entity_status: 'ACTIVE', created_at: '<time>',
      account_media_id: '<account_media>', updated_at: '<time>', approval_status: 'ACCEPTED', deleted: false,
    },
  });
  // deepEqual does not compare the order of keys.
  assert.deepEqual(Object.keys(res.body.data), ['line_item_id', 'landing_url', 'creative_type', 'id', 'entity_status', 'created_at', 'account_media_id', 'updated_at', 'approval_status', 'deleted']);
  for (const missing of ['account_media_id', 'line_item_id']) {
    const query: Record<string, string> = { account_media_id: preroll, line_item_id: prerollItem };
    delete query[missing];
    const r = await k.sandbox.post(mc(), { query });
    assert.equal(r.status, 400);
    assert.deepEqual([r.body.errors[0].code, r.body.errors[0].parameter], ['MISSING_PARAMETER', missing]);
  }
  assert.equal((await k.sandbox.post(mc(), { query: { account_media_id: 'nothing', line_item_id: prerollItem } })).body.errors[0].parameter, 'account_media_id');
  assert.equal((await k.sandbox.post(mc(), { query: { account_media_id: preroll, line_item_id: 'nothing' } })).status, 404);
  const postsCampaign = (await k.sandbox.post(`/12/accounts/${s.account}/campaigns`, { query: { funding_instrument_id: s.fundingInstrument, name: 'posts', daily_budget_amount_local_micro: 1_000_000 } })).body.data.id;
  const postsItem = await k.sandbox.post(`/12/accounts/${s.account}/line_items`, { query: lineItemQuery(postsCampaign) });
  assert.equal(postsItem.status, 200, postsItem.text);
  const refused = await k.sandbox.post(mc(), { query: { account_media_id: preroll, line_item_id: postsItem.body.data.id } });
  assert.equal(refused.status, 400, 'a PROMOTED_POSTS line item holds no media creatives');
  assert.equal(refused.body.errors[0].parameter, 'line_item_id');
});

test('landing_url is required when the line item\'s objective is WEBSITE_CLICKS, used only with display image creatives and ignored for preroll', async () => {
  const missing = await k.sandbox.post(mc(), { query: { account_media_id: banner, line_item_id: clicksItem } });
  assert.equal(missing.status, 400);
  assert.deepEqual([missing.body.errors[0].code, missing.body.errors[0].parameter], ['MISSING_PARAMETER', 'landing_url']);
  assert.equal((await k.sandbox.post(mc(), { query: { account_media_id: banner, line_item_id: clicksItem, landing_url: 'not a url' } })).body.errors[0].parameter, 'landing_url');
  const display = await k.sandbox.post(mc(), { query: { account_media_id: banner, line_item_id: clicksItem, landing_url: 'https://example.com/shop' } });
  assert.equal(display.status, 200, display.text);
  assert.equal(display.body.data.landing_url, 'https://example.com/shop');
  assert.equal(display.body.data.creative_type, 'BANNER');
  const ignored = await k.sandbox.post(mc(), { query: { account_media_id: preroll, line_item_id: clicksItem, landing_url: 'https://example.com/ignored' } });
  assert.equal(ignored.status, 200, 'preroll needs no landing_url even for WEBSITE_CLICKS');
  assert.equal(ignored.body.data.landing_url, null);
  const withoutUrl = await k.sandbox.post(mc(), { query: { account_media_id: preroll, line_item_id: clicksItem } });
  assert.equal(withoutUrl.status, 200);
});

test('GET media_creatives: campaign_id, line_item_ids, media_creative_ids, count, cursor, sort_by, with_deleted, with_total_count; GET one', async () => {
  const all = await k.sandbox.get(mc(), { query: { with_total_count: 'true' } });
  assert.equal(all.body.total_count, 4);
  assert.equal((await k.sandbox.get(mc(), { query: { campaign_id: clicksCampaign } })).body.data.length, 3);
  assert.equal((await k.sandbox.get(mc(), { query: { line_item_ids: prerollItem } })).body.data.length, 1);
  const one = all.body.data[0];
  assert.deepEqual((await k.sandbox.get(mc(), { query: { media_creative_ids: one.id } })).body.data, [one]);
  const first = await k.sandbox.get(mc(), { query: { count: 3 } });
  const rest = await k.sandbox.get(mc(), { query: { count: 3, cursor: first.body.next_cursor } });
  assert.equal(rest.body.data.length, 1);
  assert.equal((await k.sandbox.get(mc(), { query: { cursor: first.body.next_cursor, with_total_count: 'true' } })).body.errors[0].code, 'EXCLUSIVE_PARAMETERS');
  assert.deepEqual((await k.sandbox.get(mc(`/${one.id}`))).body.data, one);
  assert.equal((await k.sandbox.get(mc('/nothing'))).body.errors[0].code, 'MEDIA_CREATIVE_NOT_FOUND');
});

test('DELETE media_creatives/:id returns it with deleted = true; it shows only with with_deleted=true', async () => {
  const made = (await k.sandbox.post(mc(), { query: { account_media_id: preroll, line_item_id: prerollItem } })).body.data;
  const del = await k.sandbox.del(mc(`/${made.id}`));
  assert.equal(del.body.data.deleted, true);
  assert.equal((await k.sandbox.get(mc(`/${made.id}`))).status, 404);
  assert.equal((await k.sandbox.get(mc(`/${made.id}`), { query: { with_deleted: 'true' } })).body.data.deleted, true);
  assert.ok((await k.sandbox.get(mc(), { query: { with_deleted: 'true' } })).body.data.some((d: any) => d.id === made.id));
  assert.equal((await k.sandbox.del(mc(`/${made.id}`))).status, 404);
});
