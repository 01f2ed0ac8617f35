import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { normalise } from '../support/normalise.js';
import { lineItemQuery, startAdsPlaza, type AdsKit } from './support.js';

/**
 * The conventions of spec 001 ("General conventions", "Errors", "Limits", "Versioning") and
 * shared/reference/ads.md §1, §2 and §4, each on at least two list endpoints (campaigns and line
 * items; accounts, targeting criteria and others in their own files).
 */
let k: AdsKit;
let sandbox: { account: string; fundingInstrument: string; campaign: string };
const campaigns: Record<string, string> = {};
const lineItems: Record<string, string> = {};

before(async () => {
  k = await startAdsPlaza();
  sandbox = await k.sandboxSetup('ada');
  for (const name of ['alpha one', 'Alpha two', 'bravo', 'charlie']) {
    const res = await k.sandbox.post(`/12/accounts/${sandbox.account}/campaigns`, { query: { funding_instrument_id: sandbox.fundingInstrument, name } });
    assert.equal(res.status, 200, res.text);
    campaigns[name] = res.body.data.id;
  }
  for (const name of ['alpha line', 'Alpha second', 'bravo line', 'charlie line']) {
    const res = await k.sandbox.post(`/12/accounts/${sandbox.account}/line_items`, { query: lineItemQuery(sandbox.campaign, { name }) });
    assert.equal(res.status, 200, res.text);
    lineItems[name] = res.body.data.id;
  }
});

const LISTS = [
  { name: 'campaigns', path: () => `/12/accounts/${sandbox.account}/campaigns`, ids: 'campaign_ids', made: () => campaigns, total: 5 },
  { name: 'line_items', path: () => `/12/accounts/${sandbox.account}/line_items`, ids: 'line_item_ids', made: () => lineItems, total: 4 },
] as const;

test('"Every request is OAuth 1.0a user context": no credentials, a bearer token, a bad signature or an unknown token are 401 UNAUTHORIZED_ACCESS echoing empty params', async () => {
  const path = `/12/accounts/${k.accountOf('ada')}/campaigns`;
  const none = await k.ads.get(path, { as: null });
  const bearer = await k.ads.get(path, { as: null, headers: { authorization: `Bearer ${k.plaza.creds.apps[0].bearer_token}` } });
  const badSecret = await k.ads.get(path, { as: { ...k.credsOf('ada'), token_secret: 'wrong' } });
  const unknownToken = await k.ads.get(path, { as: { ...k.credsOf('ada'), token: '123-unknown' } });
  for (const res of [none, bearer, badSecret, unknownToken]) {
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, { errors: [{ code: 'UNAUTHORIZED_ACCESS', message: 'This request is not properly authenticated' }], request: { params: {} } });
  }
});

test('"account_id must identify an account associated with the authenticated user": otherwise 403 ACCOUNT_NOT_FOUND, on the account and on everything under it', async () => {
  const ada = k.accountOf('ada');
  for (const path of [`/12/accounts/${ada}`, `/12/accounts/${ada}/campaigns`, `/12/accounts/${ada}/line_items`, `/12/accounts/nosuchaccount/campaigns`, `/12/accounts/bad%20id/campaigns`]) {
    const res = await k.ads.get(path, { as: 'bruno' });
    assert.equal(res.status, 403, path);
    assert.equal(res.body.errors[0].code, 'ACCOUNT_NOT_FOUND');
    assert.match(res.body.errors[0].message, /^Account .* was not found$/);
    assert.deepEqual(res.body.request, { params: {} });
  }
  const write = await k.ads.post(`/12/accounts/${ada}/campaigns`, { as: 'bruno', query: { funding_instrument_id: 'x', name: 'intruder' } });
  assert.equal(write.status, 403);
});

test('"ids of another account\'s entities are never found": GET, PUT and DELETE of them are 404 NOT_FOUND naming the id, and change nothing', async () => {
  const ada = k.accountOf('ada');
  const brunoCampaigns = await k.ads.get(`/12/accounts/${k.accountOf('bruno')}/campaigns`, { as: 'bruno' });
  const brunoLineItems = await k.ads.get(`/12/accounts/${k.accountOf('bruno')}/line_items`, { as: 'bruno' });
  const campaign = brunoCampaigns.body.data[0].id;
  const lineItem = brunoLineItems.body.data[0].id;
  const get = await k.ads.get(`/12/accounts/${ada}/campaigns/${campaign}`);
  assert.equal(get.status, 404);
  assert.deepEqual(get.body.errors, [{ code: 'NOT_FOUND', message: `Campaign ${campaign} was not found for Account ${ada}`, parameter: 'campaign_id' }]);
  assert.equal((await k.ads.put(`/12/accounts/${ada}/campaigns/${campaign}`, { query: { name: 'taken' } })).status, 404);
  assert.equal((await k.ads.del(`/12/accounts/${ada}/line_items/${lineItem}`)).status, 404);
  const filtered = await k.ads.get(`/12/accounts/${ada}/campaigns`, { query: { campaign_ids: campaign } });
  assert.deepEqual(filtered.body.data, []);
  const intoForeign = await k.ads.post(`/12/accounts/${ada}/line_items`, { query: lineItemQuery(campaign) });
  assert.equal(intoForeign.status, 404);
  assert.equal(intoForeign.body.errors[0].parameter, 'campaign_id');
  const still = await k.ads.get(`/12/accounts/${k.accountOf('bruno')}/campaigns/${campaign}`, { as: 'bruno' });
  assert.notEqual(still.body.data.name, 'taken');
  assert.equal((await k.ads.get(`/12/accounts/${k.accountOf('bruno')}/line_items/${lineItem}`, { as: 'bruno' })).body.data.deleted, false);
});

test('"The sandbox and production listeners keep their data apart": each listener sees only its own accounts', async () => {
  const onSandbox = await k.sandbox.get(`/12/accounts/${k.accountOf('ada')}/campaigns`);
  assert.equal(onSandbox.status, 403);
  const onProduction = await k.ads.get(`/12/accounts/${sandbox.account}/campaigns`);
  assert.equal(onProduction.status, 403);
  k.nextWindow();
  const productionIds = (await k.ads.get('/12/accounts')).body.data.map((a: any) => a.id);
  const sandboxIds = (await k.sandbox.get('/12/accounts')).body.data.map((a: any) => a.id);
  assert.deepEqual(productionIds, [k.accountOf('ada')]);
  assert.ok(sandboxIds.includes(sandbox.account));
  assert.ok(!sandboxIds.includes(k.accountOf('ada')));
});

test('"Envelope": one object is {request:{params}, data:{...}}; a list is {request:{params}, next_cursor, data:[...]}; params echo the path and parsed parameters', async () => {
  const one = await k.sandbox.get(`/12/accounts/${sandbox.account}/campaigns/${sandbox.campaign}`);
  assert.deepEqual(normalise(one.body, { [sandbox.account]: 'account', [sandbox.campaign]: 'campaign', [sandbox.fundingInstrument]: 'funding_instrument' }), {
    request: { params: { account_id: '<account>', campaign_id: '<campaign>' } },
    data: {
      name: 'Sandbox campaign', budget_optimization: 'LINE_ITEM', reasons_not_servable: [], servable: true, purchase_order_number: null,
      effective_status: 'RUNNING', daily_budget_amount_local_micro: 10000000, funding_instrument_id: '<funding_instrument>', duration_in_days: null,
      standard_delivery: null, total_budget_amount_local_micro: null, id: '<campaign>', entity_status: 'ACTIVE', frequency_cap: null, currency: 'USD',
      created_at: '<time>', updated_at: '<time>', deleted: false,
    },
  });
  // deepEqual does not compare the order of keys.
  assert.deepEqual(Object.keys(one.body), ['request', 'data']);
  for (const list of LISTS) {
    const res = await k.sandbox.get(list.path(), { query: { count: 2, [list.ids]: Object.values(list.made()).join(','), with_deleted: 'true' } });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body), ['request', 'next_cursor', 'data'], list.name);
    assert.ok(Array.isArray(res.body.data));
    // ids lists echo as arrays, count as a number, list flags as given.
    assert.deepEqual(res.body.request.params, { account_id: sandbox.account, [list.ids]: Object.values(list.made()), count: 2, with_deleted: 'true' });
  }
  assert.equal(one.headers.get('x-current-api-version'), '12');
});

test('"count gives the records per request" (default 200, 1 to 1000): outside the range or not a whole number is INVALID_PARAMETER naming count', async () => {
  for (const list of LISTS) {
    const all = await k.sandbox.get(list.path());
    assert.equal(all.body.data.length, list.total, `${list.name} default count takes them all`);
    assert.equal(all.body.next_cursor, null);
    assert.equal((await k.sandbox.get(list.path(), { query: { count: 1 } })).body.data.length, 1);
    assert.equal((await k.sandbox.get(list.path(), { query: { count: 1000 } })).status, 200);
    for (const bad of ['0', '1001', 'abc', '2.5']) {
      const res = await k.sandbox.get(list.path(), { query: { count: bad } });
      assert.equal(res.status, 400, `${list.name} count=${bad}`);
      assert.equal(res.body.errors[0].code, 'INVALID_PARAMETER');
      assert.equal(res.body.errors[0].parameter, 'count');
    }
  }
});

test('"cursor takes the previous next_cursor": pages continue without repeats until next_cursor is null; a cursor Plaza did not make is INVALID_PARAMETER', async () => {
  for (const list of LISTS) {
    for (const sort of [undefined, 'name-asc']) {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const res = await k.sandbox.get(list.path(), { query: { count: 2, ...(cursor ? { cursor } : {}), ...(sort ? { sort_by: sort } : {}) } });
        assert.equal(res.status, 200, res.text);
        seen.push(...res.body.data.map((d: any) => d.id));
        cursor = res.body.next_cursor ?? undefined;
        if (cursor) assert.equal(typeof cursor, 'string');
        pages += 1;
      } while (cursor);
      assert.equal(pages, Math.ceil(list.total / 2), `${list.name} pages`);
      assert.equal(new Set(seen).size, list.total, `${list.name} every record once`);
    }
    const bad = await k.sandbox.get(list.path(), { query: { cursor: 'not-a-cursor' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].parameter, 'cursor');
    const first = await k.sandbox.get(list.path(), { query: { count: 1 } });
    const otherSort = await k.sandbox.get(list.path(), { query: { cursor: first.body.next_cursor, sort_by: 'name-asc' } });
    assert.equal(otherSort.status, 400, 'a cursor continues only the order it came from');
  }
});

test('"with_total_count adds total_count" and is "exclusive with cursor" (EXCLUSIVE_PARAMETERS)', async () => {
  for (const list of LISTS) {
    const res = await k.sandbox.get(list.path(), { query: { with_total_count: 'true', count: 1 } });
    assert.equal(res.body.total_count, list.total, list.name);
    assert.deepEqual(Object.keys(res.body), ['request', 'next_cursor', 'data', 'total_count']);
    const without = await k.sandbox.get(list.path(), { query: { with_total_count: 'false' } });
    assert.equal('total_count' in without.body, false);
    const both = await k.sandbox.get(list.path(), { query: { with_total_count: 'true', cursor: res.body.next_cursor } });
    assert.equal(both.status, 400);
    assert.equal(both.body.errors[0].code, 'EXCLUSIVE_PARAMETERS');
  }
});

test('"requests that use with_total_count have a lower rate limit (200 per 15 minutes)": the 201st is 429 TOO_MANY_REQUESTS; the next window allows it again', async () => {
  k.nextWindow();
  const paths = [`/12/accounts/${k.accountOf('dana')}/campaigns`, `/12/accounts/${k.accountOf('dana')}/line_items`];
  for (let i = 0; i < 200; i++) {
    const res = await k.ads.get(paths[i % 2], { as: 'dana', query: { with_total_count: 'true' } });
    assert.equal(res.status, 200);
  }
  const over = await k.ads.get(paths[0], { as: 'dana', query: { with_total_count: 'true' } });
  assert.equal(over.status, 429);
  assert.equal(over.body.errors[0].code, 'TOO_MANY_REQUESTS');
  assert.match(over.body.errors[0].message, /with_total_count/);
  assert.equal((await k.ads.get(paths[1], { as: 'dana' })).status, 200, 'without total_count the same list still answers');
  k.nextWindow();
  assert.equal((await k.ads.get(paths[0], { as: 'dana', query: { with_total_count: 'true' } })).status, 200);
});

test('"with_deleted: boolean, default false; includes deleted records", and GET of a deleted entity is 404 unless with_deleted=true', async () => {
  const gone = {
    campaigns: (await k.sandbox.del(`/12/accounts/${sandbox.account}/campaigns/${campaigns.charlie}`)).body.data.id,
    line_items: (await k.sandbox.del(`/12/accounts/${sandbox.account}/line_items/${lineItems['charlie line']}`)).body.data.id,
  };
  for (const list of LISTS) {
    const id = gone[list.name];
    const live = await k.sandbox.get(list.path());
    assert.ok(!live.body.data.some((d: any) => d.id === id), `${list.name} leaves deleted out`);
    const all = await k.sandbox.get(list.path(), { query: { with_deleted: 'true' } });
    assert.equal(all.body.data.find((d: any) => d.id === id)?.deleted, true);
    assert.equal((await k.sandbox.get(`${list.path()}/${id}`)).status, 404);
    const shown = await k.sandbox.get(`${list.path()}/${id}`, { query: { with_deleted: 'true' } });
    assert.equal(shown.status, 200);
    assert.equal(shown.body.data.deleted, true);
    await k.sandbox.get(list.path(), { query: { with_deleted: 'false' } });
  }
  // Put them back for the other tests' counts: recreate with the same names.
  const c = await k.sandbox.post(`/12/accounts/${sandbox.account}/campaigns`, { query: { funding_instrument_id: sandbox.fundingInstrument, name: 'charlie' } });
  campaigns.charlie = c.body.data.id;
  const l = await k.sandbox.post(`/12/accounts/${sandbox.account}/line_items`, { query: lineItemQuery(sandbox.campaign, { name: 'charlie line' }) });
  lineItems['charlie line'] = l.body.data.id;
});

test('"sort_by: an attribute in ascending or descending order" (`field-asc|desc`); an unknown attribute or direction is INVALID_PARAMETER', async () => {
  for (const list of LISTS) {
    const names = Object.keys(list.made());
    const asc = await k.sandbox.get(list.path(), { query: { sort_by: 'name-asc', [list.ids]: Object.values(list.made()) } });
    const desc = await k.sandbox.get(list.path(), { query: { sort_by: 'name-desc', [list.ids]: Object.values(list.made()) } });
    const ascNames = asc.body.data.map((d: any) => d.name);
    assert.deepEqual(desc.body.data.map((d: any) => d.name), [...ascNames].reverse(), list.name);
    assert.equal(ascNames.length, names.length);
    assert.equal(ascNames.at(-1), names.at(-1), 'charlie sorts last by name');
    const created = await k.sandbox.get(list.path(), { query: { sort_by: 'created_at-asc' } });
    const times = created.body.data.map((d: any) => d.created_at);
    assert.deepEqual(times, [...times].sort());
    for (const bad of ['name', 'name-up', 'secret-asc']) {
      const res = await k.sandbox.get(list.path(), { query: { sort_by: bad } });
      assert.equal(res.status, 400);
      assert.equal(res.body.errors[0].parameter, 'sort_by');
    }
  }
});

test('"q: name prefix matches are case-insensitive"; LIKE wildcards in q are literal', async () => {
  for (const list of LISTS) {
    const res = await k.sandbox.get(list.path(), { query: { q: 'ALPHA' } });
    const names = res.body.data.map((d: any) => d.name).sort();
    assert.equal(names.length, 2, list.name);
    assert.ok(names.every((n: string) => n.toLowerCase().startsWith('alpha')));
    assert.deepEqual((await k.sandbox.get(list.path(), { query: { q: 'lpha' } })).body.data, [], 'a prefix, not a substring');
    assert.deepEqual((await k.sandbox.get(list.path(), { query: { q: '%' } })).body.data, []);
    assert.deepEqual((await k.sandbox.get(list.path(), { query: { q: '_lpha' } })).body.data, []);
  }
});

test('"id lists: up to 200 ids" for ids-type filters, comma-separated or as repeated keys; 201 is INVALID_PARAMETER', async () => {
  for (const list of LISTS) {
    const ids = Object.values(list.made());
    const comma = await k.sandbox.get(list.path(), { query: { [list.ids]: ids.slice(0, 2).join(',') } });
    const repeated = await k.sandbox.get(list.path(), { query: { [list.ids]: ids.slice(0, 2) } });
    assert.deepEqual(comma.body.data.map((d: any) => d.id).sort(), ids.slice(0, 2).sort());
    assert.deepEqual(repeated.body.data.map((d: any) => d.id).sort(), ids.slice(0, 2).sort());
    const many = Array.from({ length: 200 }, (_, i) => `x${i}`);
    assert.equal((await k.sandbox.get(list.path(), { query: { [list.ids]: many.join(',') } })).status, 200);
    const tooMany = await k.sandbox.get(list.path(), { query: { [list.ids]: [...many, 'x200'].join(',') } });
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.errors[0].parameter, list.ids);
    assert.match(tooMany.body.errors[0].message, /at most 200/);
  }
});

test('"Parameters arrive in the query string, a form body or a JSON body": the same campaign can be created each way', async () => {
  const path = `/12/accounts/${sandbox.account}/campaigns`;
  const values = { funding_instrument_id: sandbox.fundingInstrument, daily_budget_amount_local_micro: 2_000_000 };
  const viaQuery = await k.sandbox.post(path, { query: { ...values, name: 'via query' } });
  const viaForm = await k.sandbox.post(path, { form: { ...values, name: 'via form' } });
  const viaJson = await k.sandbox.post(path, { json: { ...values, name: 'via json' } });
  for (const [res, name] of [[viaQuery, 'via query'], [viaForm, 'via form'], [viaJson, 'via json']] as const) {
    assert.equal(res.status, 200, res.text);
    // Micros echo as numbers.
    assert.deepEqual(normalise(res.body, { [sandbox.account]: 'account', [res.body.data.id]: 'campaign', [sandbox.fundingInstrument]: 'funding_instrument' }), {
      request: { params: { account_id: '<account>', funding_instrument_id: '<funding_instrument>', name, daily_budget_amount_local_micro: 2000000 } },
      data: {
        name, budget_optimization: 'LINE_ITEM', reasons_not_servable: ['INCOMPLETE'], servable: false, purchase_order_number: null,
        effective_status: 'UNKNOWN', daily_budget_amount_local_micro: 2000000, funding_instrument_id: '<funding_instrument>', duration_in_days: null,
        standard_delivery: null, total_budget_amount_local_micro: null, id: '<campaign>', entity_status: 'ACTIVE', frequency_cap: null, currency: 'USD',
        created_at: '<time>', updated_at: '<time>', deleted: false,
      },
    });
    await k.sandbox.del(`${path}/${res.body.data.id}`);
  }
  const broken = await k.sandbox.post(path, { json: '{"name": ' });
  assert.equal(broken.status, 400);
  assert.equal(broken.body.errors[0].parameter, 'body');
  const emptyJson = await k.sandbox.post(path, { json: '', query: { ...values, name: 'empty json body' } });
  assert.equal(emptyJson.status, 200, 'an empty JSON body is no body');
  await k.sandbox.del(`${path}/${emptyJson.body.data.id}`);
});

test('"lists comma-separated or as repeated keys": placements given either way make the same line item', async () => {
  const path = `/12/accounts/${sandbox.account}/line_items`;
  const comma = await k.sandbox.post(path, { query: lineItemQuery(sandbox.campaign, { placements: 'PLATFORM_SEARCH,PLATFORM_TIMELINE' }) });
  const repeated = await k.sandbox.post(path, { form: lineItemQuery(sandbox.campaign, { placements: ['PLATFORM_SEARCH', 'PLATFORM_TIMELINE'] }) });
  const json = await k.sandbox.post(path, { json: lineItemQuery(sandbox.campaign, { placements: ['PLATFORM_SEARCH', 'PLATFORM_TIMELINE'] }) });
  for (const res of [comma, repeated, json]) {
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data.placements, ['PLATFORM_SEARCH', 'PLATFORM_TIMELINE']);
    assert.deepEqual(res.body.request.params.placements, ['PLATFORM_SEARCH', 'PLATFORM_TIMELINE']);
    await k.sandbox.del(`${path}/${res.body.data.id}`);
  }
});

test('"booleans true and false": any other spelling is INVALID_PARAMETER naming the parameter, on lists and on writes', async () => {
  for (const list of LISTS) {
    for (const bad of ['yes', '1', 'TRUE']) {
      const res = await k.sandbox.get(list.path(), { query: { with_deleted: bad } });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body.errors[0], { code: 'INVALID_PARAMETER', message: `Expected Boolean, got ${JSON.stringify(bad)} for with_deleted`, parameter: 'with_deleted' });
    }
  }
  const write = await k.sandbox.put(`/12/accounts/${sandbox.account}/line_items/${lineItems.bravo_line ?? lineItems['bravo line']}`, { query: { standard_delivery: 'no' } });
  assert.equal(write.status, 400);
  assert.equal(write.body.errors[0].parameter, 'standard_delivery');
  const json = await k.sandbox.put(`/12/accounts/${sandbox.account}/line_items/${lineItems['bravo line']}`, { json: { standard_delivery: false } });
  assert.equal(json.status, 200);
  assert.equal(json.body.data.standard_delivery, false, 'a JSON boolean counts');
});

test('"Money: amounts are integers in micros": 5.5 or 5,500,000 with separators is INVALID_PARAMETER "Expected Long"; negative amounts are refused', async () => {
  const path = `/12/accounts/${sandbox.account}/campaigns/${sandbox.campaign}`;
  for (const bad of ['5.5', '5e6', '1,000', '-5']) {
    const res = await k.sandbox.put(path, { query: { total_budget_amount_local_micro: bad } });
    assert.equal(res.status, 400, bad);
    assert.equal(res.body.errors[0].parameter, 'total_budget_amount_local_micro');
  }
  const ok = await k.sandbox.put(path, { query: { total_budget_amount_local_micro: '5500000000' } });
  assert.equal(ok.body.data.total_budget_amount_local_micro, 5_500_000_000);
});

test('"Timestamps: ISO 8601": a date alone is midnight UTC, offsets are converted, times answer as YYYY-MM-DDTHH:MM:SSZ; anything else is "Expected time"', async () => {
  const path = `/12/accounts/${sandbox.account}/line_items/${lineItems['bravo line']}`;
  const dateOnly = await k.sandbox.put(path, { query: { start_time: '2031-06-15' } });
  assert.equal(dateOnly.body.data.start_time, '2031-06-15T00:00:00Z');
  assert.equal(dateOnly.body.request.params.start_time, '2031-06-15T00:00:00Z');
  const offset = await k.sandbox.put(path, { query: { end_time: '2031-07-01T10:30:00+02:00' } });
  assert.equal(offset.body.data.end_time, '2031-07-01T08:30:00Z');
  for (const bad of ['', 'tomorrow', '2031-02-30', '2031-13-01T00:00:00Z', '2031-01-01T25:00:00Z']) {
    const res = await k.sandbox.put(path, { query: { start_time: bad } });
    assert.equal(res.status, 400, bad);
    assert.deepEqual(res.body.errors[0], { code: 'INVALID_PARAMETER', message: `Expected time, got ${JSON.stringify(bad)} for start_time`, parameter: 'start_time' });
  }
  assert.match(dateOnly.body.data.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
});

test('"Errors": {errors:[{code, message, parameter}], request:{params}}; a missing required parameter is MISSING_PARAMETER; bad input changes nothing', async () => {
  const before = (await k.sandbox.get(`/12/accounts/${sandbox.account}/campaigns`, { query: { with_total_count: 'true' } })).body.total_count;
  const res = await k.sandbox.post(`/12/accounts/${sandbox.account}/campaigns`, { query: { funding_instrument_id: sandbox.fundingInstrument } });
  assert.equal(res.status, 400);
  assert.deepEqual(res.body, {
    errors: [{ code: 'MISSING_PARAMETER', message: 'name is missing', parameter: 'name' }],
    request: { params: { account_id: sandbox.account, funding_instrument_id: sandbox.fundingInstrument } },
  });
  const after = (await k.sandbox.get(`/12/accounts/${sandbox.account}/campaigns`, { query: { with_total_count: 'true' } })).body.total_count;
  assert.equal(after, before);
});

test('"Rate-limit headers": writes answer x-rate-limit-*; GETs under an account answer x-account-rate-limit-* too; resets are epoch seconds', async () => {
  const write = await k.sandbox.put(`/12/accounts/${sandbox.account}`, { query: { name: 'Sandbox renamed' } });
  assert.equal(write.headers.get('x-rate-limit-limit'), '450');
  assert.ok(Number(write.headers.get('x-rate-limit-remaining')) < 450);
  const nowSeconds = Math.floor(k.clock.now().getTime() / 1000);
  const reset = Number(write.headers.get('x-rate-limit-reset'));
  assert.ok(reset > nowSeconds && reset <= nowSeconds + 61);
  assert.equal(write.headers.get('x-account-rate-limit-limit'), null);
  for (const list of LISTS) {
    const read = await k.sandbox.get(list.path());
    assert.equal(read.headers.get('x-account-rate-limit-limit'), '10000');
    const remaining = Number(read.headers.get('x-account-rate-limit-remaining'));
    const again = await k.sandbox.get(list.path());
    assert.equal(Number(again.headers.get('x-account-rate-limit-remaining')), remaining - 1);
    assert.ok(Number(read.headers.get('x-account-rate-limit-reset')) > nowSeconds);
    assert.ok(read.headers.get('x-rate-limit-limit'));
  }
});

test('"Global reads (GET endpoints without :account_id)" are limited to 5 per 15 minutes per user: the sixth is 429 with its headers; the next window allows them again', async () => {
  k.nextWindow();
  for (let i = 0; i < 5; i++) {
    const res = await k.ads.get('/12/line_items/placements', { as: 'chen' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-rate-limit-remaining'), String(4 - i));
  }
  const over = await k.ads.get('/12/line_items/placements', { as: 'chen' });
  assert.equal(over.status, 429);
  assert.equal(over.body.errors[0].code, 'TOO_MANY_REQUESTS');
  assert.equal(over.headers.get('x-rate-limit-remaining'), '0');
  assert.equal((await k.ads.get('/12/line_items/placements', { as: 'dana' })).status, 200, 'limits are per user');
  k.nextWindow();
  assert.equal((await k.ads.get('/12/line_items/placements', { as: 'chen' })).status, 200);
});

test('"Writes (POST, PUT, DELETE)" are limited to 450 per minute per user: the 451st is 429 and changes nothing', async () => {
  k.nextWindow();
  const path = `/12/accounts/${k.accountOf('plazanews')}`;
  for (let i = 0; i < 450; i++) {
    const res = await k.ads.put(path, { as: 'plazanews', query: { name: `News ads ${i}` } });
    assert.equal(res.status, 200);
  }
  const over = await k.ads.put(path, { as: 'plazanews', query: { name: 'one too many' } });
  assert.equal(over.status, 429);
  assert.equal((await k.ads.get(path, { as: 'plazanews' })).body.data.name, 'News ads 449');
  k.nextWindow();
});

test('a read-only token cannot change anything (403 READONLY_CLIENT_APPLICATION) but can read', async () => {
  const token = await k.tokenAt('ada', 'read');
  const write = await k.ads.put(`/12/accounts/${k.accountOf('ada')}`, { as: token, query: { name: 'read only' } });
  assert.equal(write.status, 403);
  assert.equal(write.body.errors[0].code, 'READONLY_CLIENT_APPLICATION');
  assert.equal((await k.ads.get(`/12/accounts/${k.accountOf('ada')}/campaigns`, { as: token })).status, 200);
});

test('a user whose permissions on an account do not allow changes (CAMPAIGN_ANALYST) reads it, and writes are 403 ACTION_NOT_ALLOWED', async () => {
  const news = k.accountOf('plazanews');
  assert.ok(k.user('chen').ads_account_ids.includes(news));
  assert.equal((await k.ads.get(`/12/accounts/${news}/campaigns`, { as: 'chen' })).status, 200);
  const write = await k.ads.post(`/12/accounts/${news}/campaigns`, { as: 'chen', query: { funding_instrument_id: 'x', name: 'analyst' } });
  assert.equal(write.status, 403);
  assert.equal(write.body.errors[0].code, 'ACTION_NOT_ALLOWED');
  const access = await k.ads.get(`/12/accounts/${news}/authenticated_user_access`, { as: 'chen' });
  assert.deepEqual(access.body.data, { user_id: k.user('chen').id, permissions: ['CAMPAIGN_ANALYST'] });
});

test('"The version is the first path segment": /12 answers; other versions and unknown paths are 404 ROUTE_NOT_FOUND', async () => {
  for (const path of ['/11/accounts', '/13/accounts', '/12/nothing', '/accounts']) {
    const res = await k.ads.get(path);
    assert.equal(res.status, 404, path);
    assert.deepEqual(res.body, { errors: [{ code: 'ROUTE_NOT_FOUND', message: 'The requested resource could not be found' }], request: { params: {} } });
  }
});

test('no request a user can make produces a 500: NUL bytes, forged cursors, odd ids, objects for scalars and huge numbers are ads errors', async () => {
  const list = `/12/accounts/${sandbox.account}/campaigns`;
  const forged = `c-${Buffer.from(JSON.stringify(['created_at-desc', { $gt: 1 }, 'x'])).toString('base64url')}`;
  const forgedNumber = `c-${Buffer.from(JSON.stringify(['created_at-desc', 12, 'x'])).toString('base64url')}`;
  const cases = [
    await k.sandbox.get(list, { query: { q: 'a\u0000b' } }),
    await k.sandbox.get(list, { query: { cursor: forged } }),
    await k.sandbox.get(list, { query: { campaign_ids: 'a\u0000' } }),
    await k.sandbox.get(`${list}/%00`),
    await k.sandbox.get(`/12/accounts/%E2%82%AC/campaigns`),
    await k.sandbox.post(list, { json: { name: { $ne: 1 }, funding_instrument_id: sandbox.fundingInstrument } }),
    await k.sandbox.post(list, { json: { name: 'big', funding_instrument_id: sandbox.fundingInstrument, daily_budget_amount_local_micro: 1e300 } }),
    await k.sandbox.post(list, { json: ['not', 'an', 'object'] }),
    await k.sandbox.post(list, { headers: { 'content-type': 'text/plain' }, json: 'hello' }),
  ];
  for (const res of cases) {
    assert.ok(res.status >= 400 && res.status < 500, `${res.status} ${res.text}`);
    assert.ok(Array.isArray(res.body.errors), res.text);
  }
  assert.equal((await k.sandbox.get(list, { query: { cursor: forgedNumber } })).status, 200);
});
