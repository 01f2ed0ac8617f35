import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { normalise } from '../support/normalise.js';
import { lineItemQuery, startAdsPlaza, type AdsKit } from './support.js';

/** Advertiser business categories, curated categories and line item curated categories (spec 001). */
let k: AdsKit;
let s: { account: string; fundingInstrument: string; campaign: string };
let prerollCampaign: string;

before(async () => {
  k = await startAdsPlaza();
  s = await k.sandboxSetup('ada');
  prerollCampaign = (await k.sandbox.post(`/12/accounts/${s.account}/campaigns`, { query: { funding_instrument_id: s.fundingInstrument, name: 'preroll' } })).body.data.id;
});

const preroll = (extra: Record<string, string> = {}) =>
  k.sandbox.post(`/12/accounts/${s.account}/line_items`, {
    query: lineItemQuery(prerollCampaign, { objective: 'PREROLL_VIEWS', product_type: 'MEDIA', placements: 'ALL_ON_PLATFORM', ...extra }),
  });

test('GET advertiser_business_categories lists {id, name, iab_categories}', async () => {
  k.nextWindow();
  const res = await k.ads.get('/12/advertiser_business_categories');
  assert.equal(res.status, 200);
  assert.deepEqual(Object.keys(res.body), ['request', 'next_cursor', 'data']);
  assert.ok(res.body.data.length >= 10);
  for (const c of res.body.data) {
    assert.deepEqual(Object.keys(c), ['id', 'name', 'iab_categories']);
    assert.ok(c.iab_categories.every((i: string) => /^IAB\d+(-\d+)?$/.test(i)));
  }
  const travel = res.body.data.find((c: any) => c.name === 'Travel');
  assert.deepEqual(travel.iab_categories, ['IAB20']);
  k.nextWindow();
});

test('"PREROLL_VIEWS line items ... must have one or two [advertiser business categories], set through the categories parameter ... as the corresponding iab_categories values"', async () => {
  const none = await preroll();
  assert.equal(none.status, 400);
  assert.equal(none.body.errors[0].parameter, 'objective');
  assert.match(none.body.errors[0].message, /one or two advertiser business categories/);
  const one = await preroll({ categories: 'IAB20' });
  assert.equal(one.status, 200, one.text);
  assert.deepEqual(one.body.data.categories, ['IAB20']);
  const two = await preroll({ categories: 'IAB20,IAB18,IAB8-5' });
  assert.equal(two.status, 400, 'Travel, Retail and Alcohol are three categories');
  assert.equal(two.body.errors[0].parameter, 'categories');
  assert.equal((await preroll({ categories: 'IAB20,IAB8-5,IAB8-18' })).status, 200, 'two business categories, one of them by both its IAB codes');
  const foreign = await preroll({ categories: 'IAB24' });
  assert.match(foreign.body.errors[0].message, /IAB24 belongs to no advertiser business category/);
  const three = await k.sandbox.put(`/12/accounts/${s.account}/line_items/${one.body.data.id}`, { query: { categories: 'IAB20,IAB18,IAB7' } });
  assert.equal(three.status, 400);
  assert.equal((await k.sandbox.put(`/12/accounts/${s.account}/line_items/${one.body.data.id}`, { query: { categories: '' } })).status, 400, 'they cannot be unset');
});

test('"GET curated_categories: country_codes (required, comma-separated two-letter ISO codes, up to 200)"; the list has total_count', async () => {
  const path = `/12/accounts/${s.account}/curated_categories`;
  const missing = await k.sandbox.get(path);
  assert.deepEqual(missing.body.errors[0], { code: 'MISSING_PARAMETER', message: 'country_codes is missing', parameter: 'country_codes' });
  const bad = await k.sandbox.get(path, { query: { country_codes: 'USA' } });
  assert.equal(bad.body.errors[0].parameter, 'country_codes');
  const many = Array.from({ length: 201 }, (_, i) => String.fromCharCode(65 + Math.floor(i / 26)) + String.fromCharCode(65 + (i % 26)));
  assert.equal((await k.sandbox.get(path, { query: { country_codes: many.join(',') } })).status, 400);
  assert.equal((await k.sandbox.get(path, { query: { country_codes: many.slice(0, 200).join(',') } })).status, 200);
  const us = await k.sandbox.get(path, { query: { country_codes: 'us' } });
  assert.equal(us.status, 200);
  assert.deepEqual(us.body.request.params, { account_id: s.account, country_codes: ['US'] });
  assert.equal(us.body.total_count, us.body.data.length);
  assert.deepEqual(Object.keys(us.body.data[0]), ['name', 'description', 'country_codes', 'publisher_user_ids', 'id', 'created_at', 'updated_at', 'videos_monetized_in_last_thirty_days']);
});

test('"each category is available only in the countries of its country_codes"', async () => {
  const path = `/12/accounts/${s.account}/curated_categories`;
  const jp = (await k.sandbox.get(path, { query: { country_codes: 'JP' } })).body.data;
  assert.ok(jp.length > 0);
  assert.ok(jp.every((c: any) => c.country_codes.includes('JP')));
  const gb = (await k.sandbox.get(path, { query: { country_codes: 'GB' } })).body.data.map((c: any) => c.id);
  assert.ok(!gb.some((id: string) => jp.find((c: any) => c.id === id && !c.country_codes.includes('GB'))));
  const both = (await k.sandbox.get(path, { query: { country_codes: 'JP,GB', count: 1 } }));
  const rest = await k.sandbox.get(path, { query: { country_codes: 'JP,GB', count: 1000, cursor: both.body.next_cursor } });
  assert.equal(both.body.data.length + rest.body.data.length, both.body.total_count);
  assert.deepEqual((await k.sandbox.get(path, { query: { country_codes: 'AQ' } })).body.data, []);
});

test('GET curated_categories/:curated_category_id answers one category; an unknown id is 404', async () => {
  const res = await k.sandbox.get(`/12/accounts/${s.account}/curated_categories/929wbl6ymlfk`);
  assert.equal(res.body.data.name, 'Basketball');
  assert.equal((await k.sandbox.get(`/12/accounts/${s.account}/curated_categories/nothing`)).status, 404);
});

test('POST line_item_curated_categories needs curated_category_id and line_item_id; the category must be available in a country the PREROLL_VIEWS line item targets', async () => {
  const path = `/12/accounts/${s.account}/line_item_curated_categories`;
  const li = (await preroll({ categories: 'IAB17' })).body.data.id;
  assert.equal((await k.sandbox.post(path, { query: { line_item_id: li } })).body.errors[0].code, 'MISSING_PARAMETER');
  assert.equal((await k.sandbox.post(path, { query: { curated_category_id: '929wbl6ymlfk' } })).body.errors[0].code, 'MISSING_PARAMETER');
  const untargeted = await k.sandbox.post(path, { query: { line_item_id: li, curated_category_id: '929wbl6ymlfk' } });
  assert.equal(untargeted.status, 400);
  assert.match(untargeted.body.errors[0].message, /available only in US/);
  await k.sandbox.post(`/12/accounts/${s.account}/targeting_criteria`, { query: { line_item_id: li, targeting_type: 'LOCATION', targeting_value: 'JP' } });
  assert.equal((await k.sandbox.post(path, { query: { line_item_id: li, curated_category_id: '929wbl6ymlfk' } })).status, 400, 'Basketball is US only');
  const ok = await k.sandbox.post(path, { query: { line_item_id: li, curated_category_id: '9lav5usxfmdc' } });
  assert.equal(ok.status, 200, ok.text);
  assert.deepEqual(normalise(ok.body, { [s.account]: 'account', [li]: 'line_item', [ok.body.data.id]: 'line_item_curated_category' }), {
    request: { params: { account_id: '<account>', curated_category_id: '9lav5usxfmdc', line_item_id: '<line_item>' } },
    data: {
      line_item_id: '<line_item>', curated_category_id: '9lav5usxfmdc', id: '<line_item_curated_category>', created_at: '<time>',
      updated_at: '<time>', deleted: false,
    },
  });
  // deepEqual does not compare the order of keys.
  assert.deepEqual(Object.keys(ok.body.data), ['line_item_id', 'curated_category_id', 'id', 'created_at', 'updated_at', 'deleted']);
  assert.equal((await k.sandbox.post(path, { query: { line_item_id: li, curated_category_id: 'nothing' } })).status, 404);
  const engagement = (await k.sandbox.post(`/12/accounts/${s.account}/line_items`, { query: lineItemQuery(s.campaign) })).body.data.id;
  const notPreroll = await k.sandbox.post(path, { query: { line_item_id: engagement, curated_category_id: '9lav5usxfmdc' } });
  assert.match(notPreroll.body.errors[0].message, /only to line items with objective PREROLL_VIEWS/);
});

test('line item curated categories: GET list (count, cursor, sort_by, with_deleted, with_total_count) and one (with_deleted); PUT changes curated_category_id or line_item_id under the same rule; DELETE returns deleted = true', async () => {
  const path = `/12/accounts/${s.account}/line_item_curated_categories`;
  const li = (await preroll({ categories: 'IAB9-30' })).body.data.id;
  await k.sandbox.post(`/12/accounts/${s.account}/targeting_criteria`, { query: { line_item_id: li, targeting_type: 'LOCATION', targeting_value: 'US' } });
  const made = (await k.sandbox.post(path, { query: { line_item_id: li, curated_category_id: '929wbl6ymlfk' } })).body.data;
  const list = await k.sandbox.get(path, { query: { with_total_count: 'true', sort_by: 'created_at-desc', count: 1 } });
  assert.equal(list.body.data[0].id, made.id);
  assert.ok(list.body.total_count >= 1);
  const put = await k.sandbox.put(`${path}/${made.id}`, { query: { curated_category_id: '94ngssfrr01x' } });
  assert.equal(put.body.data.curated_category_id, '94ngssfrr01x');
  const unavailable = await k.sandbox.put(`${path}/${made.id}`, { query: { curated_category_id: '8tujg1lvi8sn' } });
  assert.equal(unavailable.status, 400, 'Football is not available in the US');
  assert.equal((await k.sandbox.get(`${path}/${made.id}`)).body.data.curated_category_id, '94ngssfrr01x');
  const deleted = await k.sandbox.del(`${path}/${made.id}`);
  assert.equal(deleted.body.data.deleted, true);
  assert.equal((await k.sandbox.del(`${path}/${made.id}`)).status, 404);
  assert.equal((await k.sandbox.get(`${path}/${made.id}`)).status, 404);
  assert.equal((await k.sandbox.get(`${path}/${made.id}`, { query: { with_deleted: 'true' } })).body.data.deleted, true);
  assert.ok(!(await k.sandbox.get(path)).body.data.some((r: any) => r.id === made.id));
  assert.ok((await k.sandbox.get(path, { query: { with_deleted: 'true' } })).body.data.some((r: any) => r.id === made.id));
});
