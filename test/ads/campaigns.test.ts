import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { normalise } from '../support/normalise.js';
import { lineItemQuery, startAdsPlaza, type AdsKit } from './support.js';

/** Campaigns (shared/reference/ads.md §3; spec 001 "Versioning", Jun 28, 2026). */
let k: AdsKit;
let s: { account: string; fundingInstrument: string; campaign: string };
let path: string;

before(async () => {
  k = await startAdsPlaza();
  s = await k.sandboxSetup('ada');
  path = `/12/accounts/${s.account}/campaigns`;
});

const create = (query: Record<string, string | number | boolean>) => k.sandbox.post(path, { query: { funding_instrument_id: s.fundingInstrument, ...query } });

test('POST campaigns requires funding_instrument_id and name (at most 255 characters); the campaign object has the reference\'s fields', async () => {
  const res = await create({ name: 'Spring', daily_budget_amount_local_micro: 5_500_000, purchase_order_number: 'PO-1' });
  assert.equal(res.status, 200, res.text);
  // entity_status ACTIVE by default; reasons_not_servable INCOMPLETE: no line items yet.
  assert.deepEqual(normalise(res.body, { [s.account]: 'account', [s.fundingInstrument]: 'funding_instrument', [res.body.data.id]: 'campaign' }), {
    request: {
      params: {
        account_id: '<account>', funding_instrument_id: '<funding_instrument>', name: 'Spring', daily_budget_amount_local_micro: 5500000,
        purchase_order_number: 'PO-1',
      },
    },
    data: {
      name: 'Spring', budget_optimization: 'LINE_ITEM', reasons_not_servable: ['INCOMPLETE'], servable: false, purchase_order_number: 'PO-1',
      effective_status: 'UNKNOWN', daily_budget_amount_local_micro: 5500000, funding_instrument_id: '<funding_instrument>', duration_in_days: null,
      standard_delivery: null, total_budget_amount_local_micro: null, id: '<campaign>', entity_status: 'ACTIVE', frequency_cap: null, currency: 'USD',
      created_at: '<time>', updated_at: '<time>', deleted: false,
    },
  });
  assert.equal((await k.sandbox.post(path, { query: { name: 'no instrument' } })).body.errors[0].code, 'MISSING_PARAMETER');
  assert.equal((await create({})).body.errors[0].parameter, 'name');
  assert.equal((await create({ name: 'x'.repeat(256) })).body.errors[0].parameter, 'name');
  assert.equal((await create({ name: 'x'.repeat(255) })).status, 200);
  assert.equal((await create({ name: 'po', purchase_order_number: 'p'.repeat(51) })).body.errors[0].parameter, 'purchase_order_number');
});

test('"campaigns support only LINE_ITEM for budget_optimization on POST and PUT, and the default changed from CAMPAIGN to LINE_ITEM"', async () => {
  const plain = await create({ name: 'default optimization' });
  assert.equal(plain.body.data.budget_optimization, 'LINE_ITEM');
  assert.equal((await create({ name: 'explicit', budget_optimization: 'LINE_ITEM' })).body.data.budget_optimization, 'LINE_ITEM');
  const refused = await create({ name: 'old style', budget_optimization: 'CAMPAIGN' });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.errors[0].parameter, 'budget_optimization');
  assert.match(refused.body.errors[0].message, /only LINE_ITEM/);
  const put = await k.sandbox.put(`${path}/${plain.body.data.id}`, { query: { budget_optimization: 'CAMPAIGN' } });
  assert.equal(put.status, 400);
  assert.equal((await k.sandbox.put(`${path}/${plain.body.data.id}`, { query: { budget_optimization: 'LINE_ITEM' } })).status, 200);
  assert.equal((await create({ name: 'nonsense', budget_optimization: 'BOTH' })).status, 400);
});

test('"standard_delivery is deprecated on the campaign; it is set on the line item through its own standard_delivery parameter"', async () => {
  const res = await create({ name: 'accelerated?', standard_delivery: false });
  assert.equal(res.status, 200);
  assert.equal(res.body.data.standard_delivery, null, 'ignored on the campaign');
  assert.match(res.headers.get('x-api-warn') ?? '', /standard_delivery is deprecated on campaigns/);
  const put = await k.sandbox.put(`${path}/${res.body.data.id}`, { query: { standard_delivery: true } });
  assert.equal(put.body.data.standard_delivery, null);
  assert.ok(put.headers.get('x-api-warn'));
  assert.equal((await create({ name: 'no warning' })).headers.get('x-api-warn'), null);
  const lineItem = await k.sandbox.post(`/12/accounts/${s.account}/line_items`, { query: lineItemQuery(res.body.data.id, { standard_delivery: false }) });
  assert.equal(lineItem.status, 200, lineItem.text);
  assert.equal(lineItem.body.data.standard_delivery, false, 'set on the line item');
});

test('"daily_budget_amount_local_micro ... should be less than or equal to the total_budget_amount_local_micro", on POST and PUT; budgets are greater than zero', async () => {
  const over = await create({ name: 'over', daily_budget_amount_local_micro: 2_000_000, total_budget_amount_local_micro: 1_000_000 });
  assert.equal(over.status, 400);
  assert.equal(over.body.errors[0].parameter, 'daily_budget_amount_local_micro');
  const ok = await create({ name: 'ok', daily_budget_amount_local_micro: 1_000_000, total_budget_amount_local_micro: 1_000_000 });
  assert.equal(ok.status, 200);
  const lower = await k.sandbox.put(`${path}/${ok.body.data.id}`, { query: { total_budget_amount_local_micro: 500_000 } });
  assert.equal(lower.status, 400);
  assert.equal(lower.body.errors[0].parameter, 'total_budget_amount_local_micro');
  assert.equal((await create({ name: 'zero', daily_budget_amount_local_micro: 0 })).status, 400);
  const unset = await k.sandbox.put(`${path}/${ok.body.data.id}`, { query: { total_budget_amount_local_micro: '' } });
  assert.equal(unset.status, 200, 'an empty value unsets the total, and the daily budget then has no bound');
  assert.equal(unset.body.data.total_budget_amount_local_micro, null);
  assert.equal(unset.body.data.daily_budget_amount_local_micro, 1_000_000);
});

test('entity_status is ACTIVE, DRAFT or PAUSED on POST and ACTIVE or PAUSED on PUT; lists hide DRAFT campaigns unless with_draft=true', async () => {
  const draft = await create({ name: 'draft', entity_status: 'DRAFT' });
  assert.equal(draft.body.data.entity_status, 'DRAFT');
  const paused = await create({ name: 'paused', entity_status: 'PAUSED' });
  assert.deepEqual(paused.body.data.reasons_not_servable, ['PAUSED_BY_ADVERTISER', 'INCOMPLETE']);
  assert.equal((await create({ name: 'bad', entity_status: 'RUNNING' })).status, 400);
  assert.equal((await k.sandbox.put(`${path}/${paused.body.data.id}`, { query: { entity_status: 'DRAFT' } })).status, 400);
  assert.equal((await k.sandbox.put(`${path}/${paused.body.data.id}`, { query: { entity_status: 'ACTIVE' } })).body.data.entity_status, 'ACTIVE');
  const listed = (await k.sandbox.get(path)).body.data.map((c: any) => c.id);
  assert.ok(!listed.includes(draft.body.data.id));
  const withDraft = (await k.sandbox.get(path, { query: { with_draft: 'true' } })).body.data.map((c: any) => c.id);
  assert.ok(withDraft.includes(draft.body.data.id));
  assert.equal((await k.sandbox.get(`${path}/${draft.body.data.id}`)).status, 200, 'a draft is found by id');
});

test('a campaign is created under a funding instrument of the account that is able to fund: another account\'s is 404, an expired one is 400', async () => {
  const other = (await k.ads.get(`/12/accounts/${k.accountOf('ada')}/funding_instruments`)).body.data[0].id;
  const foreign = await create({ name: 'foreign', funding_instrument_id: other });
  assert.equal(foreign.status, 404);
  assert.equal(foreign.body.errors[0].parameter, 'funding_instrument_id');
  const expired = await k.sandbox.post(`/12/accounts/${s.account}/funding_instruments`, {
    query: { currency: 'USD', start_time: '2019-01-01', end_time: '2020-01-01', type: 'CREDIT_CARD' },
  });
  assert.deepEqual(expired.body.data.reasons_not_able_to_fund, ['EXPIRED']);
  const refused = await create({ name: 'expired', funding_instrument_id: expired.body.data.id });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.errors[0].code, 'INVALID_FUNDING_INSTRUMENT');
});

test('GET campaigns filters by campaign_ids and funding_instrument_ids (up to 200 each) and q', async () => {
  const second = await k.sandbox.post(`/12/accounts/${s.account}/funding_instruments`, { query: { currency: 'USD', start_time: '2020-01-01', type: 'CREDIT_LINE' } });
  const mine = await create({ name: 'Filtered by instrument', funding_instrument_id: second.body.data.id });
  const byFi = await k.sandbox.get(path, { query: { funding_instrument_ids: second.body.data.id } });
  assert.deepEqual(byFi.body.data.map((c: any) => c.id), [mine.body.data.id]);
  assert.deepEqual(byFi.body.request.params.funding_instrument_ids, [second.body.data.id]);
  const byQ = await k.sandbox.get(path, { query: { q: 'filtered BY' } });
  assert.deepEqual(byQ.body.data.map((c: any) => c.id), [mine.body.data.id]);
  const tooMany = await k.sandbox.get(path, { query: { funding_instrument_ids: Array.from({ length: 201 }, (_, i) => `f${i}`).join(',') } });
  assert.equal(tooMany.status, 400);
});

test('PUT campaigns/:campaign_id changes only the fields given; an empty value unsets a field', async () => {
  const made = await create({ name: 'to change', purchase_order_number: 'PO-9', daily_budget_amount_local_micro: 3_000_000 });
  const id = made.body.data.id;
  const res = await k.sandbox.put(`${path}/${id}`, { query: { name: 'changed', purchase_order_number: '' } });
  assert.equal(res.status, 200);
  // daily_budget_amount_local_micro untouched.
  assert.deepEqual(normalise(res.body, { [s.account]: 'account', [s.fundingInstrument]: 'funding_instrument', [id]: 'campaign' }), {
    request: { params: { account_id: '<account>', campaign_id: '<campaign>', name: 'changed', purchase_order_number: null } },
    data: {
      name: 'changed', budget_optimization: 'LINE_ITEM', reasons_not_servable: ['INCOMPLETE'], servable: false, purchase_order_number: null,
      effective_status: 'UNKNOWN', daily_budget_amount_local_micro: 3000000, funding_instrument_id: '<funding_instrument>', duration_in_days: null,
      standard_delivery: null, total_budget_amount_local_micro: null, id: '<campaign>', entity_status: 'ACTIVE', frequency_cap: null, currency: 'USD',
      created_at: '<time>', updated_at: '<time>', deleted: false,
    },
  });
  assert.equal((await k.sandbox.put(`${path}/${id}`, { query: { name: '' } })).status, 400, 'a name cannot be unset');
});

test('DELETE campaigns/:campaign_id returns it with deleted = true; it is not reversible and a second DELETE is 404', async () => {
  const id = (await create({ name: 'to delete' })).body.data.id;
  const res = await k.sandbox.del(`${path}/${id}`);
  assert.equal(res.status, 200);
  assert.equal(res.body.data.deleted, true);
  assert.equal((await k.sandbox.del(`${path}/${id}`)).status, 404);
  assert.equal((await k.sandbox.put(`${path}/${id}`, { query: { name: 'revived' } })).status, 404);
  const lineItem = await k.sandbox.post(`/12/accounts/${s.account}/line_items`, { query: lineItemQuery(id) });
  assert.equal(lineItem.status, 404, 'no line items under a deleted campaign');
});

test('"a default limit of 200 active campaigns per account": the 201st active campaign is 400 TOO_MANY_CAMPAIGNS; paused and draft ones are not limited', async () => {
  const fresh = await k.sandboxSetup('bruno');
  const db = k.plaza.ctx.store.db;
  const now = new Date().toISOString();
  const template = (await db.selectFrom('ads_campaigns').selectAll().where('id', '=', fresh.campaign).executeTakeFirstOrThrow());
  const rows = Array.from({ length: 199 }, (_, i) => ({ ...template, id: `bulk${i}`, name: `bulk ${i}`, created_at: now, updated_at: now }));
  await db.insertInto('ads_campaigns').values(rows).execute();
  const p = `/12/accounts/${fresh.account}/campaigns`;
  const over = await k.sandbox.post(p, { as: 'bruno', query: { funding_instrument_id: fresh.fundingInstrument, name: 'one too many' } });
  assert.equal(over.status, 400);
  assert.equal(over.body.errors[0].code, 'TOO_MANY_CAMPAIGNS');
  const paused = await k.sandbox.post(p, { as: 'bruno', query: { funding_instrument_id: fresh.fundingInstrument, name: 'paused is fine', entity_status: 'PAUSED' } });
  assert.equal(paused.status, 200);
  const activate = await k.sandbox.put(`${p}/${paused.body.data.id}`, { as: 'bruno', query: { entity_status: 'ACTIVE' } });
  assert.equal(activate.body.errors[0].code, 'TOO_MANY_CAMPAIGNS');
  assert.equal((await k.sandbox.get(`${p}/${paused.body.data.id}`, { as: 'bruno' })).body.data.entity_status, 'PAUSED', 'unchanged');
});

test('a campaign with an active line item can serve: servable true, effective_status RUNNING, no reasons_not_servable', async () => {
  const campaign = (await create({ name: 'serving' })).body.data.id;
  await k.sandbox.post(`/12/accounts/${s.account}/line_items`, { query: lineItemQuery(campaign) });
  const res = await k.sandbox.get(`${path}/${campaign}`);
  assert.deepEqual(normalise(res.body, { [s.account]: 'account', [s.fundingInstrument]: 'funding_instrument', [campaign]: 'campaign' }), {
    request: { params: { account_id: '<account>', campaign_id: '<campaign>' } },
    data: {
      name: 'serving', budget_optimization: 'LINE_ITEM', reasons_not_servable: [], servable: true, purchase_order_number: null,
      effective_status: 'RUNNING', daily_budget_amount_local_micro: null, funding_instrument_id: '<funding_instrument>', duration_in_days: null,
      standard_delivery: null, total_budget_amount_local_micro: null, id: '<campaign>', entity_status: 'ACTIVE', frequency_cap: null, currency: 'USD',
      created_at: '<time>', updated_at: '<time>', deleted: false,
    },
  });
});
