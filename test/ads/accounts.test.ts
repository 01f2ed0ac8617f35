import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { normalise } from '../support/normalise.js';
import { startAdsPlaza, type AdsKit } from './support.js';

/** Accounts, account apps, features and funding instruments (spec 001 "Account", "Accounts and related"; shared/reference/ads.md §2-§3). */
let k: AdsKit;

before(async () => {
  k = await startAdsPlaza();
});

const ACCOUNT_KEYS = ['name', 'business_name', 'timezone', 'timezone_switch_at', 'id', 'created_at', 'updated_at', 'industry_type', 'business_id', 'approval_status', 'deleted'];

test('GET accounts lists the accounts associated with the user, each with the fields of spec 001 "Account"', async () => {
  k.nextWindow();
  const res = await k.ads.get('/12/accounts', { as: 'chen' });
  assert.equal(res.status, 200);
  assert.deepEqual(normalise(res.body, { [k.accountOf('chen')]: 'chen_account', [k.accountOf('plazanews')]: 'news_account', [res.body.data[0].business_id]: 'business' }), {
    request: { params: {} },
    next_cursor: null,
    data: [
      {
        name: 'Chen Affiliate ads', business_name: 'Plaza Demo Business', timezone: 'America/Los_Angeles', timezone_switch_at: null,
        id: '<chen_account>', created_at: '<time>', updated_at: '<time>', industry_type: 'TECHNOLOGY', business_id: '<business>',
        approval_status: 'ACCEPTED', deleted: false,
      },
      {
        name: 'Plaza News ads', business_name: null, timezone: 'America/Los_Angeles', timezone_switch_at: null, id: '<news_account>',
        created_at: '<time>', updated_at: '<time>', industry_type: 'MEDIA', business_id: null, approval_status: 'ACCEPTED', deleted: false,
      },
    ],
  });
  // The fields in the order of spec 001 "Account" (deepEqual does not compare the order of keys).
  for (const account of res.body.data) assert.deepEqual(Object.keys(account), ACCOUNT_KEYS);
});

test('GET accounts takes account_ids, count (1 to 1000), cursor, q, sort_by, with_deleted and with_total_count', async () => {
  k.nextWindow();
  const news = k.accountOf('plazanews');
  const byId = await k.ads.get('/12/accounts', { as: 'chen', query: { account_ids: news } });
  assert.deepEqual(byId.body.data.map((a: any) => a.id), [news]);
  assert.deepEqual(byId.body.request.params, { account_ids: [news] });
  const q = await k.ads.get('/12/accounts', { as: 'chen', query: { q: 'PLAZA' } });
  assert.deepEqual(q.body.data.map((a: any) => a.id), [news]);
  const page1 = await k.ads.get('/12/accounts', { as: 'chen', query: { count: 1, sort_by: 'name-asc', with_total_count: 'true' } });
  assert.equal(page1.body.total_count, 2);
  assert.equal(page1.body.data[0].name, 'Chen Affiliate ads');
  const page2 = await k.ads.get('/12/accounts', { as: 'chen', query: { count: 1, sort_by: 'name-asc', cursor: page1.body.next_cursor } });
  assert.deepEqual(page2.body.data.map((a: any) => a.name), ['Plaza News ads']);
  assert.equal(page2.body.next_cursor, null);
  const bad = await k.ads.get('/12/accounts', { as: 'chen', query: { count: 1001 } });
  assert.equal(bad.status, 400);
  k.nextWindow();
});

test('PUT accounts/:account_id updates name and industry_type (both optional); industry_type must be one of AGENCY ... OTHER', async () => {
  const path = `/12/accounts/${k.accountOf('dana')}`;
  const res = await k.ads.put(path, { as: 'dana', query: { name: 'Dana Ads', industry_type: 'RETAIL' } });
  assert.equal(res.status, 200);
  assert.deepEqual(normalise(res.body, { [k.accountOf('dana')]: 'account' }), {
    request: { params: { account_id: '<account>', name: 'Dana Ads', industry_type: 'RETAIL' } },
    data: {
      name: 'Dana Ads', business_name: null, timezone: 'America/Los_Angeles', timezone_switch_at: null, id: '<account>', created_at: '<time>',
      updated_at: '<time>', industry_type: 'RETAIL', business_id: null, approval_status: 'ACCEPTED', deleted: false,
    },
  });
  for (const value of ['EDUCATION', 'BUSINESS_TO_BUSINESS', 'OTHER']) {
    assert.equal((await k.ads.put(path, { as: 'dana', query: { industry_type: value } })).body.data.industry_type, value);
  }
  const bad = await k.ads.put(path, { as: 'dana', query: { industry_type: 'SPACE' } });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.errors[0].parameter, 'industry_type');
  assert.match(bad.body.errors[0].message, /^Expected a value in AGENCY, BUSINESS_TO_BUSINESS, .*, OTHER, got "SPACE" for industry_type$/);
  assert.equal((await k.ads.put(path, { as: 'dana', query: { name: '' } })).status, 400);
  const unchanged = await k.ads.get(path, { as: 'dana' });
  assert.equal(unchanged.body.data.name, 'Dana Ads');
  assert.equal(unchanged.body.data.industry_type, 'OTHER');
});

test('"POST {ads_sandbox_url}/12/accounts: sandbox only; creates an account; data is an array"; production refuses it (405)', async () => {
  const res = await k.sandbox.post('/12/accounts', { as: 'bruno' });
  assert.equal(res.status, 200);
  assert.deepEqual(normalise(res.body, { [res.body.data[0].id]: 'account' }), {
    request: { params: {} },
    next_cursor: null,
    data: [
      {
        name: 'Sandbox account', business_name: null, timezone: 'America/Los_Angeles', timezone_switch_at: null, id: '<account>',
        created_at: '<time>', updated_at: '<time>', industry_type: null, business_id: null, approval_status: 'ACCEPTED', deleted: false,
      },
    ],
  });
  const production = await k.ads.post('/12/accounts', { as: 'bruno' });
  assert.equal(production.status, 405);
  assert.equal(production.body.errors[0].code, 'METHOD_NOT_ALLOWED');
  k.nextWindow();
  assert.deepEqual((await k.ads.get('/12/accounts', { as: 'bruno' })).body.data.map((a: any) => a.id), [k.accountOf('bruno')]);
});

test('"DELETE {ads_sandbox_url}/12/accounts/:account_id: sandbox only": returns the account with deleted = true; a second DELETE is 404; production refuses it', async () => {
  const id = (await k.sandbox.post('/12/accounts', { as: 'bruno' })).body.data[0].id;
  assert.equal((await k.ads.del(`/12/accounts/${k.accountOf('bruno')}`, { as: 'bruno' })).status, 405);
  const res = await k.sandbox.del(`/12/accounts/${id}`, { as: 'bruno' });
  assert.equal(res.status, 200);
  assert.equal(res.body.data.deleted, true);
  assert.equal((await k.sandbox.del(`/12/accounts/${id}`, { as: 'bruno' })).status, 404);
  assert.equal((await k.sandbox.get(`/12/accounts/${id}`, { as: 'bruno' })).status, 404, 'GET of a deleted account is 404');
  const shown = await k.sandbox.get(`/12/accounts/${id}`, { as: 'bruno', query: { with_deleted: 'true' } });
  assert.equal(shown.body.data.deleted, true);
  assert.equal((await k.sandbox.get(`/12/accounts/${id}/campaigns`, { as: 'bruno' })).status, 403, 'nothing under a deleted account is reachable');
  k.nextWindow();
  const listed = await k.sandbox.get('/12/accounts', { as: 'bruno' });
  assert.ok(!listed.body.data.some((a: any) => a.id === id));
  const withDeleted = await k.sandbox.get('/12/accounts', { as: 'bruno', query: { with_deleted: 'true' } });
  assert.ok(withDeleted.body.data.some((a: any) => a.id === id && a.deleted));
});

test('GET accounts/:account_id/account_apps lists the mobile apps of the account (count, cursor, sort_by, with_deleted, with_total_count)', async () => {
  const res = await k.ads.get(`/12/accounts/${k.accountOf('ada')}/account_apps`, { query: { with_total_count: 'true', sort_by: 'created_at-asc', count: 1 } });
  assert.equal(res.status, 200);
  assert.deepEqual(normalise(res.body, { [k.accountOf('ada')]: 'account', [res.body.data[0].id]: 'app' }), {
    request: { params: { account_id: '<account>', count: 1, sort_by: 'created_at-asc', with_total_count: 'true' } },
    next_cursor: null,
    data: [
      {
        app_store_identifier: 'com.plaza.ada', conversion_tracking_enabled: false, deep_link_pattern: 'plaza-ada://', id: '<app>',
        created_at: '<time>', updated_at: '<time>', os_type: 'Android', deleted: false,
      },
    ],
    total_count: 1,
  });
  // deepEqual does not compare the order of keys.
  assert.deepEqual(Object.keys(res.body.data[0]), ['app_store_identifier', 'conversion_tracking_enabled', 'deep_link_pattern', 'id', 'created_at', 'updated_at', 'os_type', 'deleted']);
  assert.equal((await k.ads.get(`/12/accounts/${k.accountOf('ada')}/account_apps`, { query: { count: 0 } })).status, 400);
});

test('GET accounts/:account_id/features lists the account\'s features; sandbox POST and DELETE add and remove feature_keys; production refuses them', async () => {
  const account = (await k.sandbox.post('/12/accounts', { as: 'dana' })).body.data[0].id;
  assert.deepEqual((await k.sandbox.get(`/12/accounts/${account}/features`, { as: 'dana' })).body.data, []);
  const added = await k.sandbox.post(`/12/accounts/${account}/features`, { as: 'dana', query: { feature_keys: 'ACCOUNT_HISTORY,AGE_TARGETING' } });
  assert.deepEqual(added.body.data, ['ACCOUNT_HISTORY', 'AGE_TARGETING']);
  assert.deepEqual(added.body.request.params.feature_keys, ['ACCOUNT_HISTORY', 'AGE_TARGETING']);
  const removed = await k.sandbox.del(`/12/accounts/${account}/features`, { as: 'dana', query: { feature_keys: 'AGE_TARGETING' } });
  assert.deepEqual(removed.body.data, ['ACCOUNT_HISTORY']);
  assert.equal((await k.sandbox.post(`/12/accounts/${account}/features`, { as: 'dana', query: { feature_keys: 'FLYING' } })).status, 400);
  assert.equal((await k.sandbox.post(`/12/accounts/${account}/features`, { as: 'dana' })).body.errors[0].code, 'MISSING_PARAMETER');
  assert.equal((await k.ads.post(`/12/accounts/${k.accountOf('dana')}/features`, { as: 'dana', query: { feature_keys: 'AGE_TARGETING' } })).status, 405);
  assert.deepEqual((await k.ads.get(`/12/accounts/${k.accountOf('dana')}/features`, { as: 'dana' })).body.data, ['ACCOUNT_HISTORY']);
});

test('GET accounts/:account_id/authenticated_user_access answers the caller\'s permissions on the account', async () => {
  const res = await k.ads.get(`/12/accounts/${k.accountOf('ada')}/authenticated_user_access`);
  assert.deepEqual(res.body.data, { user_id: k.user('ada').id, permissions: ['ACCOUNT_ADMIN', 'TWEET_COMPOSER'] });
});

test('funding instruments: GET lists (funding_instrument_ids, count, cursor, sort_by, with_deleted, with_total_count) and one, with the fields of shared/reference/ads.md §3', async () => {
  const account = k.accountOf('ada');
  const list = await k.ads.get(`/12/accounts/${account}/funding_instruments`, { query: { with_total_count: 'true' } });
  assert.equal(list.status, 200);
  const fi = list.body.data[0];
  assert.deepEqual(normalise(list.body, { [account]: 'account', [fi.id]: 'funding_instrument' }), {
    request: { params: { account_id: '<account>', with_total_count: 'true' } },
    next_cursor: null,
    data: [
      {
        start_time: '<time>', description: 'Visa ending in 4242', credit_limit_local_micro: 500000000, end_time: null, id: '<funding_instrument>',
        entity_status: 'ACTIVE', account_id: '<account>', reasons_not_able_to_fund: [], io_header: null, currency: 'USD',
        funded_amount_local_micro: null, created_at: '<time>', type: 'CREDIT_CARD', able_to_fund: true, updated_at: '<time>',
        credit_remaining_local_micro: 500000000, deleted: false,
      },
    ],
    total_count: 1,
  });
  const one = await k.ads.get(`/12/accounts/${account}/funding_instruments/${fi.id}`);
  assert.deepEqual(one.body.data, fi);
  assert.deepEqual((await k.ads.get(`/12/accounts/${account}/funding_instruments`, { query: { funding_instrument_ids: 'zzz' } })).body.data, []);
  assert.equal((await k.ads.get(`/12/accounts/${account}/funding_instruments/zzz`)).status, 404);
});

test('sandbox POST funding_instruments needs currency (ISO-4217), start_time and type (AGENCY_CREDIT_LINE ... PARTNER_MANAGED); production refuses it', async () => {
  const account = (await k.sandbox.post('/12/accounts')).body.data[0].id;
  const path = `/12/accounts/${account}/funding_instruments`;
  const res = await k.sandbox.post(path, {
    query: { currency: 'USD', start_time: '2017-07-10T00:00:00Z', type: 'INSERTION_ORDER', end_time: '2040-01-10T00:00:00Z', funded_amount_local_micro: 140000000000 },
  });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(normalise(res.body, { [account]: 'account', [res.body.data.id]: 'funding_instrument', '2017-07-10T00:00:00Z': 'start', '2040-01-10T00:00:00Z': 'end' }), {
    request: {
      params: { account_id: '<account>', currency: 'USD', start_time: '<start>', type: 'INSERTION_ORDER', end_time: '<end>', funded_amount_local_micro: 140000000000 },
    },
    data: {
      start_time: '<start>', description: '(no payment method has been set up yet)', credit_limit_local_micro: null, end_time: '<end>',
      id: '<funding_instrument>', entity_status: 'ACTIVE', account_id: '<account>', reasons_not_able_to_fund: [], io_header: null, currency: 'USD',
      funded_amount_local_micro: 140000000000, created_at: '<time>', type: 'INSERTION_ORDER', able_to_fund: true, updated_at: '<time>',
      credit_remaining_local_micro: null, deleted: false,
    },
  });
  for (const missing of ['currency', 'start_time', 'type']) {
    const query: Record<string, string> = { currency: 'USD', start_time: '2017-07-10', type: 'CREDIT_CARD' };
    delete query[missing];
    const bad = await k.sandbox.post(path, { query });
    assert.deepEqual(bad.body.errors[0], { code: 'MISSING_PARAMETER', message: `${missing} is missing`, parameter: missing });
  }
  assert.equal((await k.sandbox.post(path, { query: { currency: 'usd', start_time: '2017-07-10', type: 'CREDIT_CARD' } })).body.errors[0].parameter, 'currency');
  assert.equal((await k.sandbox.post(path, { query: { currency: 'USD', start_time: '2017-07-10', type: 'CASH' } })).body.errors[0].parameter, 'type');
  const production = await k.ads.post(`/12/accounts/${k.accountOf('ada')}/funding_instruments`, { query: { currency: 'USD', start_time: '2017-07-10', type: 'CREDIT_CARD' } });
  assert.equal(production.status, 405);
});

test('sandbox DELETE funding_instruments/:id returns it with deleted:true, able_to_fund:false, reasons_not_able_to_fund ["DELETED"]; a second DELETE is 404', async () => {
  const account = (await k.sandbox.post('/12/accounts')).body.data[0].id;
  const path = `/12/accounts/${account}/funding_instruments`;
  const fi = (await k.sandbox.post(path, { query: { currency: 'EUR', start_time: '2020-01-01', type: 'CREDIT_CARD', credit_limit_local_micro: 500000000 } })).body.data;
  const res = await k.sandbox.del(`${path}/${fi.id}`);
  assert.equal(res.status, 200);
  assert.deepEqual(normalise(res.body, { [account]: 'account', [fi.id]: 'funding_instrument' }), {
    request: { params: { account_id: '<account>', funding_instrument_id: '<funding_instrument>' } },
    data: {
      start_time: '<time>', description: '(no payment method has been set up yet)', credit_limit_local_micro: 500000000, end_time: null,
      id: '<funding_instrument>', entity_status: 'ACTIVE', account_id: '<account>', reasons_not_able_to_fund: ['DELETED'], io_header: null,
      currency: 'EUR', funded_amount_local_micro: null, created_at: '<time>', type: 'CREDIT_CARD', able_to_fund: false, updated_at: '<time>',
      credit_remaining_local_micro: 500000000, deleted: true,
    },
  });
  assert.equal((await k.sandbox.del(`${path}/${fi.id}`)).status, 404);
  assert.equal((await k.ads.del(`/12/accounts/${k.accountOf('ada')}/funding_instruments/${fi.id}`)).status, 405);
  assert.equal((await k.sandbox.get(`${path}/${fi.id}`)).status, 404);
  assert.equal((await k.sandbox.get(`${path}/${fi.id}`, { query: { with_deleted: 'true' } })).body.data.deleted, true);
  const noCampaign = await k.sandbox.post(`/12/accounts/${account}/campaigns`, { query: { funding_instrument_id: fi.id, name: 'on a deleted instrument' } });
  assert.equal(noCampaign.status, 404);
  assert.equal(noCampaign.body.errors[0].parameter, 'funding_instrument_id');
});
