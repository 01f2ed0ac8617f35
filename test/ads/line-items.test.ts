import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { normalise } from '../support/normalise.js';
import { lineItemQuery, startAdsPlaza, type AdsKit } from './support.js';

/** Line items: creation (shared/reference/ads.md §3) and every PUT rule of spec 001 "Line items" and "States and transitions". */
let k: AdsKit;
let s: { account: string; fundingInstrument: string; campaign: string };
let path: string;

before(async () => {
  k = await startAdsPlaza();
  s = await k.sandboxSetup('ada');
  path = `/12/accounts/${s.account}/line_items`;
});

type Q = Record<string, string | number | boolean | string[]>;

/** A campaign of its own for line items of one objective (line items of a campaign share it). */
async function campaign(name = 'c'): Promise<string> {
  const res = await k.sandbox.post(`/12/accounts/${s.account}/campaigns`, { query: { funding_instrument_id: s.fundingInstrument, name } });
  return res.body.data.id;
}

async function make(objective: string, extra: Q = {}, productType = 'PROMOTED_POSTS') {
  return k.sandbox.post(path, { query: lineItemQuery(await campaign(objective), { objective, product_type: productType, ...extra }) });
}

const update = (id: string, query: Q) => k.sandbox.put(`${path}/${id}`, { query });

function assertError(res: { status: number; body: any; text: string }, parameter: string, code = 'INVALID_PARAMETER', message?: RegExp) {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.errors[0].code, code, res.text);
  assert.equal(res.body.errors[0].parameter, parameter, res.text);
  if (message) assert.match(res.body.errors[0].message, message);
}

test('POST line_items requires campaign_id, objective, placements, product_type and start_time; the object has the fields of spec 001 "Line item"', async () => {
  const res = await k.sandbox.post(path, { query: lineItemQuery(s.campaign, { name: 'first' }) });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(normalise(res.body, { [s.account]: 'account', [s.campaign]: 'campaign', [res.body.data.id]: 'line_item' }), {
    request: {
      params: {
        account_id: '<account>', campaign_id: '<campaign>', objective: 'ENGAGEMENTS', placements: ['ALL_ON_PLATFORM'], product_type: 'PROMOTED_POSTS',
        start_time: '<time>', name: 'first',
      },
    },
    data: {
      advertiser_user_id: null, name: 'first', placements: ['ALL_ON_PLATFORM'], start_time: '<time>', end_time: null, bid_amount_local_micro: null,
      advertiser_domain: null, target_cpa_local_micro: null, primary_web_event_tag: null, goal: 'ENGAGEMENT', daily_budget_amount_local_micro: null,
      total_budget_amount_local_micro: null, product_type: 'PROMOTED_POSTS', bid_strategy: 'AUTO', duration_in_days: null, standard_delivery: true,
      objective: 'ENGAGEMENTS', id: '<line_item>', entity_status: 'ACTIVE', automatic_post_promotion: null, frequency_cap: null,
      audience_expansion: null, android_app_store_identifier: null, ios_app_store_identifier: null, categories: [], currency: 'USD',
      pay_by: 'ENGAGEMENT', created_at: '<time>', updated_at: '<time>', campaign_id: '<campaign>', creative_source: 'MANUAL', deleted: false,
    },
  });
  for (const missing of ['campaign_id', 'objective', 'placements', 'product_type', 'start_time']) {
    const query = lineItemQuery(s.campaign);
    delete query[missing];
    assertError(await k.sandbox.post(path, { query }), missing, 'MISSING_PARAMETER');
  }
  assertError(await k.sandbox.post(path, { query: lineItemQuery(s.campaign, { objective: 'SALES' }) }), 'objective', 'INVALID_PARAMETER', /^Expected a value in APP_ENGAGEMENTS, APP_INSTALLS/);
  assertError(await k.sandbox.post(path, { query: lineItemQuery(s.campaign, { placements: 'EVERYWHERE' }) }), 'placements');
  assertError(await k.sandbox.post(path, { query: lineItemQuery(s.campaign, { name: 'x'.repeat(256) }) }), 'name');
});

test('the public platform\'s names are accepted (PROMOTED_TWEETS, ALL_ON_TWITTER, TWITTER_TIMELINE) and answered in the spec\'s (PROMOTED_POSTS, ALL_ON_PLATFORM, PLATFORM_TIMELINE)', async () => {
  const res = await k.sandbox.post(path, { query: lineItemQuery(s.campaign, { product_type: 'PROMOTED_TWEETS', placements: 'TWITTER_TIMELINE,TWITTER_SEARCH' }) });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.product_type, 'PROMOTED_POSTS');
  assert.deepEqual(res.body.data.placements, ['PLATFORM_TIMELINE', 'PLATFORM_SEARCH']);
  assert.deepEqual((await k.sandbox.post(path, { query: lineItemQuery(s.campaign, { placements: 'ALL_ON_TWITTER' }) })).body.data.placements, ['ALL_ON_PLATFORM']);
});

test('placements must be a valid combination for the product_type (GET line_items/placements)', async () => {
  assertError(await make('ENGAGEMENTS', { placements: 'TAP_BANNER' }), 'placements', 'INVALID_PARAMETER', /cannot be used with product_type PROMOTED_POSTS/);
  assertError(await make('FOLLOWERS', { placements: 'PLATFORM_SEARCH' }, 'PROMOTED_ACCOUNT'), 'placements');
  assert.equal((await make('FOLLOWERS', { placements: 'PLATFORM_TIMELINE' }, 'PROMOTED_ACCOUNT')).status, 200);
});

test('"All line items within a campaign must be of the same product_type and objective"', async () => {
  const c = await campaign('shared');
  assert.equal((await k.sandbox.post(path, { query: lineItemQuery(c) })).status, 200);
  assertError(await k.sandbox.post(path, { query: lineItemQuery(c, { objective: 'REACH' }) }), 'objective');
  assertError(await k.sandbox.post(path, { query: lineItemQuery(c, { product_type: 'PROMOTED_ACCOUNT' }) }), 'product_type');
  assert.equal((await k.sandbox.post(path, { query: lineItemQuery(c) })).status, 200);
});

test('"bid_strategy AUTO ignores bid_amount_local_micro" and is the default', async () => {
  const res = await make('ENGAGEMENTS', { bid_amount_local_micro: 3_000_000 });
  assert.equal(res.body.data.bid_strategy, 'AUTO');
  assert.equal(res.body.data.bid_amount_local_micro, null);
  const toMax = await update(res.body.data.id, { bid_strategy: 'MAX', bid_amount_local_micro: 2_000_000 });
  assert.equal(toMax.body.data.bid_amount_local_micro, 2_000_000);
  const back = await update(res.body.data.id, { bid_strategy: 'AUTO' });
  assert.equal(back.body.data.bid_amount_local_micro, null);
});

test('"bid_strategy MAX (not available for objectives REACH or FOLLOWERS)"', async () => {
  assertError(await make('REACH', { bid_strategy: 'MAX', bid_amount_local_micro: 1_000_000 }), 'bid_strategy', 'INVALID_PARAMETER', /MAX is not available for objective REACH/);
  assertError(await make('FOLLOWERS', { bid_strategy: 'MAX', bid_amount_local_micro: 1_000_000, placements: 'ALL_ON_PLATFORM' }, 'PROMOTED_ACCOUNT'), 'bid_strategy');
  const engagements = await make('ENGAGEMENTS', { bid_strategy: 'MAX', bid_amount_local_micro: 1_000_000 });
  assert.equal(engagements.status, 200);
  const reach = await make('REACH');
  assertError(await update(reach.body.data.id, { bid_strategy: 'MAX', bid_amount_local_micro: 1_000_000 }), 'bid_strategy');
});

test('"bid_strategy TARGET ... available for REACH or WEBSITE_CLICKS"', async () => {
  assert.equal((await make('REACH', { bid_strategy: 'TARGET', bid_amount_local_micro: 1_000_000 })).status, 200);
  assert.equal((await make('WEBSITE_CLICKS', { bid_strategy: 'TARGET', bid_amount_local_micro: 1_000_000 })).status, 200);
  assertError(await make('ENGAGEMENTS', { bid_strategy: 'TARGET', bid_amount_local_micro: 1_000_000 }), 'bid_strategy', 'INVALID_PARAMETER', /TARGET is available only for objectives REACH and WEBSITE_CLICKS/);
  const video = await make('VIDEO_VIEWS');
  assertError(await update(video.body.data.id, { bid_strategy: 'TARGET', bid_amount_local_micro: 1_000_000 }), 'bid_strategy');
});

test('"bid_amount_local_micro: required when bid_strategy is MAX or TARGET; must be greater than zero"', async () => {
  assertError(await make('ENGAGEMENTS', { bid_strategy: 'MAX' }), 'bid_amount_local_micro', 'MISSING_PARAMETER', /required when bid_strategy is MAX/);
  assertError(await make('REACH', { bid_strategy: 'TARGET' }), 'bid_amount_local_micro', 'MISSING_PARAMETER');
  assertError(await make('ENGAGEMENTS', { bid_strategy: 'MAX', bid_amount_local_micro: 0 }), 'bid_amount_local_micro', 'INVALID_PARAMETER', /greater than zero/);
  const max = await make('ENGAGEMENTS', { bid_strategy: 'MAX', bid_amount_local_micro: 1 });
  assert.equal(max.status, 200);
  assertError(await update(max.body.data.id, { bid_amount_local_micro: '' }), 'bid_amount_local_micro', 'MISSING_PARAMETER');
  assertError(await update(max.body.data.id, { bid_amount_local_micro: 0 }), 'bid_amount_local_micro', 'INVALID_PARAMETER');
  const auto = await make('ENGAGEMENTS');
  assertError(await update(auto.body.data.id, { bid_strategy: 'MAX' }), 'bid_amount_local_micro', 'MISSING_PARAMETER');
  assert.equal((await k.sandbox.get(`${path}/${auto.body.data.id}`)).body.data.bid_strategy, 'AUTO', 'a refused PUT changes nothing');
});

test('"advertiser_domain: domain without protocol; required when placement is PUBLISHER_NETWORK" and "categories: required when placement is PUBLISHER_NETWORK"', async () => {
  const base = { placements: 'PUBLISHER_NETWORK' };
  assertError(await make('ENGAGEMENTS', { ...base, categories: 'IAB19' }), 'advertiser_domain', 'MISSING_PARAMETER');
  assertError(await make('ENGAGEMENTS', { ...base, advertiser_domain: 'example.com' }), 'categories', 'MISSING_PARAMETER');
  assertError(await make('ENGAGEMENTS', { ...base, advertiser_domain: 'https://example.com', categories: 'IAB19' }), 'advertiser_domain', 'INVALID_PARAMETER', /without protocol/);
  const ok = await make('ENGAGEMENTS', { ...base, advertiser_domain: 'example.com', categories: 'IAB19,IAB19-6' });
  assert.equal(ok.status, 200, ok.text);
  assert.deepEqual(ok.body.data.categories, ['IAB19', 'IAB19-6']);
  assertError(await update(ok.body.data.id, { advertiser_domain: '' }), 'advertiser_domain', 'MISSING_PARAMETER');
  assertError(await update(ok.body.data.id, { categories: '' }), 'categories', 'MISSING_PARAMETER');
  const plain = await make('ENGAGEMENTS');
  assertError(await update(plain.body.data.id, { placements: 'PUBLISHER_NETWORK' }), 'advertiser_domain', 'MISSING_PARAMETER');
  assertError(await make('ENGAGEMENTS', { categories: 'Sports' }), 'categories');
});

test('"for objectives APP_INSTALLS and APP_ENGAGEMENTS at least one of the two store identifiers is required"; ios_app_store_identifier is the numeric part', async () => {
  for (const objective of ['APP_INSTALLS', 'APP_ENGAGEMENTS']) {
    assertError(await make(objective), 'android_app_store_identifier', 'MISSING_PARAMETER', new RegExp(`objective ${objective} needs`));
    assert.equal((await make(objective, { ios_app_store_identifier: '333903271' })).status, 200);
    assert.equal((await make(objective, { android_app_store_identifier: 'com.example.app' })).status, 200);
  }
  assertError(await make('APP_INSTALLS', { ios_app_store_identifier: 'id333903271' }), 'ios_app_store_identifier');
  const app = await make('APP_INSTALLS', { ios_app_store_identifier: '333903271' });
  assertError(await update(app.body.data.id, { ios_app_store_identifier: '' }), 'ios_app_store_identifier', 'MISSING_PARAMETER');
  assert.equal((await update(app.body.data.id, { android_app_store_identifier: 'com.example.app', ios_app_store_identifier: '' })).status, 200);
});

test('"frequency_cap: only for REACH, ENGAGEMENTS, VIDEO_VIEWS, PREROLL_VIEWS objectives"', async () => {
  for (const objective of ['REACH', 'ENGAGEMENTS', 'VIDEO_VIEWS']) {
    assert.equal((await make(objective, { frequency_cap: 5, duration_in_days: 7 })).status, 200, objective);
  }
  assertError(await make('WEBSITE_CLICKS', { frequency_cap: 5 }), 'frequency_cap', 'INVALID_PARAMETER', /only for objectives REACH, ENGAGEMENTS, VIDEO_VIEWS, PREROLL_VIEWS/);
  const clicks = await make('WEBSITE_CLICKS');
  assertError(await update(clicks.body.data.id, { frequency_cap: 3 }), 'frequency_cap');
  assertError(await make('ENGAGEMENTS', { frequency_cap: 0 }), 'frequency_cap');
});

test('"duration_in_days: 1, 7 or 30; the period of the frequency cap"', async () => {
  const res = await make('REACH', { frequency_cap: 2, duration_in_days: 30 });
  assert.equal(res.body.data.duration_in_days, 30);
  for (const bad of ['2', '14', 'week']) assertError(await update(res.body.data.id, { duration_in_days: bad }), 'duration_in_days');
  assert.equal((await update(res.body.data.id, { duration_in_days: 1 })).body.data.duration_in_days, 1);
});

test('"entity_status: ACTIVE or PAUSED" on PUT (DRAFT only on creation); "PUT line item with entity_status ... next state: the given value"', async () => {
  const res = await make('ENGAGEMENTS', { entity_status: 'DRAFT' });
  assert.equal(res.body.data.entity_status, 'DRAFT');
  assertError(await update(res.body.data.id, { entity_status: 'DRAFT' }), 'entity_status');
  assert.equal((await update(res.body.data.id, { entity_status: 'PAUSED' })).body.data.entity_status, 'PAUSED');
  assert.equal((await update(res.body.data.id, { entity_status: 'ACTIVE' })).body.data.entity_status, 'ACTIVE');
  assertError(await update(res.body.data.id, { entity_status: 'DELETED' }), 'entity_status');
});

test('"pay_by: changeable only for APP_INSTALLS line items"', async () => {
  const app = await make('APP_INSTALLS', { ios_app_store_identifier: '1' });
  assert.equal(app.body.data.pay_by, 'IMPRESSION');
  assert.equal((await update(app.body.data.id, { pay_by: 'APP_CLICK' })).body.data.pay_by, 'APP_CLICK');
  assertError(await update(app.body.data.id, { pay_by: 'LINK_CLICK' }), 'pay_by', 'INVALID_PARAMETER', /supports pay_by IMPRESSION or APP_CLICK/);
  const clicks = await make('WEBSITE_CLICKS', { pay_by: 'LINK_CLICK' });
  assert.equal(clicks.body.data.pay_by, 'LINK_CLICK', 'chosen at creation for LINK_CLICKS');
  assertError(await update(clicks.body.data.id, { pay_by: 'IMPRESSION' }), 'pay_by', 'INVALID_PARAMETER', /only for line items with objective APP_INSTALLS/);
  assert.equal((await update(clicks.body.data.id, { pay_by: 'LINK_CLICK', name: 'sent back unchanged' })).status, 200, 'sending back the current value is no change');
  assertError(await make('ENGAGEMENTS', { pay_by: 'IMPRESSION' }), 'pay_by', 'INVALID_PARAMETER', /set automatically for goal ENGAGEMENT/);
});

test('"IMPRESSION is the default for goals APP_INSTALLS and LINK_CLICKS, except that it is unsupported with bid_strategy TARGET for LINK_CLICKS"', async () => {
  assert.equal((await make('APP_ENGAGEMENTS', { android_app_store_identifier: 'com.a.b', goal: 'APP_INSTALLS' })).body.data.pay_by, 'IMPRESSION');
  assert.equal((await make('WEBSITE_CLICKS')).body.data.pay_by, 'IMPRESSION');
  const target = await make('WEBSITE_CLICKS', { bid_strategy: 'TARGET', bid_amount_local_micro: 500_000 });
  assert.equal(target.body.data.pay_by, 'LINK_CLICK', 'TARGET on LINK_CLICKS bills by click');
  assertError(await make('WEBSITE_CLICKS', { bid_strategy: 'TARGET', bid_amount_local_micro: 500_000, pay_by: 'IMPRESSION' }), 'pay_by', 'INVALID_PARAMETER', /not supported with bid_strategy TARGET/);
  const impression = await make('WEBSITE_CLICKS');
  const toTarget = await update(impression.body.data.id, { bid_strategy: 'TARGET', bid_amount_local_micro: 500_000 });
  assert.equal(toTarget.body.data.pay_by, 'LINK_CLICK', 'moving to TARGET leaves IMPRESSION');
});

test('"goal ... default depends on objective"; goals limited to some objectives are refused elsewhere; PUT takes the spec\'s goal list (no SITE_VISITS)', async () => {
  const defaults: Record<string, string> = { ENGAGEMENTS: 'ENGAGEMENT', REACH: 'MAX_REACH', VIDEO_VIEWS: 'VIDEO_VIEW', WEBSITE_CLICKS: 'LINK_CLICKS' };
  for (const [objective, goal] of Object.entries(defaults)) assert.equal((await make(objective)).body.data.goal, goal, objective);
  assert.equal((await make('FOLLOWERS', { placements: 'ALL_ON_PLATFORM' }, 'PROMOTED_ACCOUNT')).body.data.goal, 'FOLLOWERS');
  assertError(await make('ENGAGEMENTS', { goal: 'APP_PURCHASES' }), 'goal', 'INVALID_PARAMETER', /available only for objectives APP_INSTALLS/);
  assertError(await make('ENGAGEMENTS', { goal: 'SITE_VISITS' }), 'goal');
  const site = await make('WEBSITE_CLICKS', { goal: 'SITE_VISITS' });
  assert.equal(site.body.data.goal, 'SITE_VISITS');
  assertError(await update(site.body.data.id, { goal: 'SITE_VISITS' }), 'goal', 'INVALID_PARAMETER', /^Expected a value in APP_CLICKS/);
  assertError(await update(site.body.data.id, { goal: 'WEBSITE_CONVERSIONS' }), 'primary_web_event_tag', 'MISSING_PARAMETER');
  const conversions = await update(site.body.data.id, { goal: 'WEBSITE_CONVERSIONS', primary_web_event_tag: 'o8z5y' });
  assert.equal(conversions.body.data.goal, 'WEBSITE_CONVERSIONS');
});

test('"daily_budget_amount_local_micro: at most the total budget; only when the parent campaign has budget_optimization LINE_ITEM"', async () => {
  assertError(await make('ENGAGEMENTS', { daily_budget_amount_local_micro: 2_000_000, total_budget_amount_local_micro: 1_000_000 }), 'daily_budget_amount_local_micro');
  const ok = await make('ENGAGEMENTS', { daily_budget_amount_local_micro: 1_000_000, total_budget_amount_local_micro: 5_000_000 });
  assert.equal(ok.status, 200);
  assertError(await update(ok.body.data.id, { total_budget_amount_local_micro: 999_999 }), 'total_budget_amount_local_micro');
  assertError(await update(ok.body.data.id, { daily_budget_amount_local_micro: 6_000_000 }), 'daily_budget_amount_local_micro');
  // A campaign made before Jun 28, 2026 can still have CAMPAIGN optimization.
  const legacy = await campaign('legacy');
  await k.plaza.ctx.store.db.updateTable('ads_campaigns').set({ budget_optimization: 'CAMPAIGN' }).where('id', '=', legacy).execute();
  const refused = await k.sandbox.post(path, { query: lineItemQuery(legacy, { daily_budget_amount_local_micro: 1_000_000 }) });
  assertError(refused, 'daily_budget_amount_local_micro', 'INVALID_PARAMETER', /only when the parent campaign has budget_optimization LINE_ITEM/);
  const plain = await k.sandbox.post(path, { query: lineItemQuery(legacy) });
  assert.equal(plain.status, 200);
  assert.equal(plain.body.data.standard_delivery, null);
  assertError(await update(plain.body.data.id, { daily_budget_amount_local_micro: 1_000_000 }), 'daily_budget_amount_local_micro');
  assertError(await update(plain.body.data.id, { standard_delivery: true }), 'standard_delivery');
  assert.equal((await update(plain.body.data.id, { total_budget_amount_local_micro: 9_000_000 })).status, 200, 'the total budget is fine');
});

test('start_time and end_time: ISO 8601 serving window; end_time after start_time; end_time is optional and can be unset', async () => {
  const res = await make('ENGAGEMENTS', { start_time: '2030-01-01', end_time: '2030-02-01' });
  assert.equal(res.body.data.end_time, '2030-02-01T00:00:00Z');
  assertError(await update(res.body.data.id, { end_time: '2029-12-31' }), 'end_time');
  assertError(await update(res.body.data.id, { start_time: '2030-03-01' }), 'start_time');
  assert.equal((await update(res.body.data.id, { end_time: '' })).body.data.end_time, null);
  assert.equal((await make('ENGAGEMENTS')).body.data.end_time, null);
});

test('name, audience_expansion (BROAD, DEFINED, EXPANDED) and the other optional parameters; an empty value unsets', async () => {
  const res = await make('ENGAGEMENTS', { name: 'named', audience_expansion: 'BROAD' });
  assert.equal(res.body.data.audience_expansion, 'BROAD');
  assertError(await update(res.body.data.id, { audience_expansion: 'WIDE' }), 'audience_expansion');
  const unset = await update(res.body.data.id, { name: '', audience_expansion: '' });
  assert.equal(unset.body.data.name, null);
  assert.equal(unset.body.data.audience_expansion, null);
});

test('"advertiser_user_id: only certain client applications may use it": a self-serve app gets "setting advertiser_user_id is not allowed"; the enterprise app may', async () => {
  assertError(await make('ENGAGEMENTS', { advertiser_user_id: k.user('ada').id }), 'advertiser_user_id', 'INVALID_PARAMETER', /^setting advertiser_user_id is not allowed$/);
  const enterprise = await k.enterpriseToken('ada');
  const c = await campaign('enterprise');
  const res = await k.sandbox.post(path, { as: enterprise, query: lineItemQuery(c, { advertiser_user_id: k.user('ada').id }) });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.advertiser_user_id, k.user('ada').id);
  const unknown = await k.sandbox.put(`${path}/${res.body.data.id}`, { as: enterprise, query: { advertiser_user_id: '42' } });
  assertError(unknown, 'advertiser_user_id', 'INVALID_USER_ID');
});

test('"DELETE line item: deleted = true; not reversible"; "DELETE line item again: HTTP 404"', async () => {
  const res = await make('ENGAGEMENTS');
  const id = res.body.data.id;
  const deleted = await k.sandbox.del(`${path}/${id}`);
  assert.equal(deleted.status, 200);
  assert.equal(deleted.body.data.deleted, true);
  assert.deepEqual(deleted.body.request.params, { account_id: s.account, line_item_id: id });
  const again = await k.sandbox.del(`${path}/${id}`);
  assert.equal(again.status, 404);
  assert.equal(again.body.errors[0].code, 'NOT_FOUND');
  assert.equal((await update(id, { entity_status: 'ACTIVE' })).status, 404, 'not reversible');
  assert.equal((await k.sandbox.get(`${path}/${id}`, { query: { with_deleted: 'true' } })).body.data.deleted, true);
});

test('"child promoted posts are not deleted; they show only with with_deleted=true"', async () => {
  const post = k.plaza.creds.sample.post_ids[0];
  const li = await make('ENGAGEMENTS');
  const promoted = await k.sandbox.post(`/12/accounts/${s.account}/promoted_posts`, { query: { line_item_id: li.body.data.id, post_ids: post } });
  assert.equal(promoted.status, 200, promoted.text);
  const pp = promoted.body.data[0].id;
  await k.sandbox.del(`${path}/${li.body.data.id}`);
  const list = await k.sandbox.get(`/12/accounts/${s.account}/promoted_posts`, { query: { line_item_ids: li.body.data.id } });
  assert.deepEqual(list.body.data, []);
  assert.equal((await k.sandbox.get(`/12/accounts/${s.account}/promoted_posts/${pp}`)).status, 404);
  const withDeleted = await k.sandbox.get(`/12/accounts/${s.account}/promoted_posts`, { query: { line_item_ids: li.body.data.id, with_deleted: 'true' } });
  assert.equal(withDeleted.body.data.length, 1);
  assert.equal(withDeleted.body.data[0].deleted, false, 'not deleted themselves');
  assert.equal((await k.sandbox.get(`/12/accounts/${s.account}/promoted_posts/${pp}`, { query: { with_deleted: 'true' } })).body.data.deleted, false);
});

test('GET line_items filters by campaign_ids, funding_instrument_ids and line_item_ids, and hides DRAFT line items unless with_draft=true', async () => {
  const c = await campaign('filters');
  const a = (await k.sandbox.post(path, { query: lineItemQuery(c) })).body.data.id;
  const draft = (await k.sandbox.post(path, { query: lineItemQuery(c, { entity_status: 'DRAFT' }) })).body.data.id;
  const byCampaign = await k.sandbox.get(path, { query: { campaign_ids: c } });
  assert.deepEqual(byCampaign.body.data.map((l: any) => l.id), [a]);
  const withDraft = await k.sandbox.get(path, { query: { campaign_ids: c, with_draft: 'true', sort_by: 'created_at-asc' } });
  assert.deepEqual(withDraft.body.data.map((l: any) => l.id), [a, draft]);
  const byFi = await k.sandbox.get(path, { query: { funding_instrument_ids: s.fundingInstrument, line_item_ids: a } });
  assert.deepEqual(byFi.body.data.map((l: any) => l.id), [a]);
  assert.deepEqual((await k.sandbox.get(path, { query: { funding_instrument_ids: 'other', line_item_ids: a } })).body.data, []);
});

test('GET line_items/placements answers {product_type, placements: arrays of placement names}, optionally for one product_type', async () => {
  k.nextWindow();
  const all = await k.ads.get('/12/line_items/placements');
  assert.equal(all.status, 200);
  assert.deepEqual(all.body.data.map((d: any) => d.product_type).sort(), ['MEDIA', 'PROMOTED_ACCOUNT', 'PROMOTED_POSTS']);
  const account = await k.ads.get('/12/line_items/placements', { query: { product_type: 'PROMOTED_ACCOUNT' } });
  assert.deepEqual(account.body, { request: { params: { product_type: 'PROMOTED_ACCOUNT' } }, data: [{ product_type: 'PROMOTED_ACCOUNT', placements: [['ALL_ON_PLATFORM'], ['PLATFORM_TIMELINE']] }] });
  const posts = await k.ads.get('/12/line_items/placements', { query: { product_type: 'PROMOTED_POSTS' } });
  assert.ok(posts.body.data[0].placements.some((p: string[]) => p.length === 1 && p[0] === 'PLATFORM_TIMELINE'));
  assert.equal((await k.ads.get('/12/line_items/placements', { query: { product_type: 'BILLBOARD' } })).status, 400);
  k.nextWindow();
});

test('"a limit of 100 line items per campaign and 256 active line items across all campaigns": TOO_MANY_LINE_ITEMS', async () => {
  const fresh = await k.sandboxSetup('dana');
  const db = k.plaza.ctx.store.db;
  const p = `/12/accounts/${fresh.account}/line_items`;
  const first = (await k.sandbox.post(p, { as: 'dana', query: lineItemQuery(fresh.campaign) })).body.data;
  const template = await db.selectFrom('ads_line_items').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow();
  await db.insertInto('ads_line_items').values(Array.from({ length: 99 }, (_, i) => ({ ...template, id: `perc${i}`, entity_status: 'PAUSED' }))).execute();
  const full = await k.sandbox.post(p, { as: 'dana', query: lineItemQuery(fresh.campaign, { entity_status: 'PAUSED' }) });
  assert.equal(full.status, 400);
  assert.equal(full.body.errors[0].code, 'TOO_MANY_LINE_ITEMS');
  assert.equal(full.body.errors[0].parameter, 'campaign_id');
  const other = (await k.sandbox.post(`/12/accounts/${fresh.account}/campaigns`, { as: 'dana', query: { funding_instrument_id: fresh.fundingInstrument, name: 'second' } })).body.data.id;
  await db.insertInto('ads_line_items').values(Array.from({ length: 255 }, (_, i) => ({ ...template, id: `actv${i}`, campaign_id: `elsewhere${i % 5}` }))).execute();
  const overActive = await k.sandbox.post(p, { as: 'dana', query: lineItemQuery(other) });
  assert.equal(overActive.body.errors[0].code, 'TOO_MANY_LINE_ITEMS');
  const paused = await k.sandbox.post(p, { as: 'dana', query: lineItemQuery(other, { entity_status: 'PAUSED' }) });
  assert.equal(paused.status, 200);
  assert.equal((await k.sandbox.put(`${p}/${paused.body.data.id}`, { as: 'dana', query: { entity_status: 'ACTIVE' } })).body.errors[0].code, 'TOO_MANY_LINE_ITEMS');
});
