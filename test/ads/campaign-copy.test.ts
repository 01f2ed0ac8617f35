import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { before, test } from 'node:test';
import { PROCESSING_MS } from '../../src/ads/audiences/status.js';
import { normalise } from '../support/normalise.js';
import { lineItemQuery, startAdsPlaza, type AdsKit } from './support.js';

/**
 * Campaign copy (issue #14): POST accounts/:account_id/campaigns with copy_from_campaign_id, and
 * spec 001 "States and transitions": after a tailored audience permission is deleted, "the campaign
 * cannot be copied afterwards".
 */
let k: AdsKit;
const sha = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

before(async () => {
  k = await startAdsPlaza();
});

const campaigns = (account: string) => `/12/accounts/${account}/campaigns`;

async function fundingInstrument(account: string, as: string): Promise<string> {
  return (await k.ads.get(`/12/accounts/${account}/funding_instruments`, { as })).body.data[0].id;
}

async function campaign(account: string, as: string, extra: Record<string, string | number> = {}): Promise<string> {
  const res = await k.ads.post(campaigns(account), { as, query: { funding_instrument_id: await fundingInstrument(account, as), name: `Source ${crypto.randomUUID()}`, daily_budget_amount_local_micro: 1_000_000, ...extra } });
  assert.equal(res.status, 200, res.text);
  return res.body.data.id;
}

async function lineItem(account: string, as: string, campaignId: string, extra: Record<string, string> = {}): Promise<string> {
  const res = await k.ads.post(`/12/accounts/${account}/line_items`, { as, query: lineItemQuery(campaignId, extra) });
  assert.equal(res.status, 200, res.text);
  return res.body.data.id;
}

async function criterion(account: string, as: string, lineItemId: string, targeting_type: string, targeting_value: string) {
  const res = await k.ads.post(`/12/accounts/${account}/targeting_criteria`, { as, query: { line_item_id: lineItemId, targeting_type, targeting_value } });
  assert.equal(res.status, 200, res.text);
  return res.body.data.id as string;
}

async function lineItemsOf(account: string, as: string, campaignId: string) {
  return (await k.ads.get(`/12/accounts/${account}/line_items`, { as, query: { campaign_ids: campaignId, with_draft: 'true' } })).body.data as Array<Record<string, unknown>>;
}

async function criteriaOf(account: string, as: string, lineItemId: string) {
  return (await k.ads.get(`/12/accounts/${account}/targeting_criteria`, { as, query: { line_item_ids: lineItemId } })).body.data as Array<Record<string, unknown>>;
}

const copy = (account: string, as: string, source: string, extra: Record<string, string | number> = {}) =>
  k.ads.post(campaigns(account), { as, query: { copy_from_campaign_id: source, ...extra } });

test('"POST .../campaigns with a copy source": a new campaign with the source\'s settings, its live line items and their targeting, PAUSED', async () => {
  const account = k.accountOf('ada');
  const source = await campaign(account, 'ada', { purchase_order_number: 'PO-7', total_budget_amount_local_micro: 9_000_000 });
  const kept = await lineItem(account, 'ada', source, { name: 'kept' });
  await criterion(account, 'ada', kept, 'BROAD_KEYWORD', 'plaza');
  const dropped = await lineItem(account, 'ada', source, { name: 'deleted' });
  assert.equal((await k.ads.del(`/12/accounts/${account}/line_items/${dropped}`)).status, 200);

  const res = await copy(account, 'ada', source);
  assert.equal(res.status, 200, res.text);
  const c = res.body.data;
  const original = (await k.ads.get(`${campaigns(account)}/${source}`)).body.data;
  // The copy keeps the source's settings, but is PAUSED: a copy does not start spending on its own.
  assert.deepEqual(normalise(res.body, { [account]: 'account', [source]: 'source', [c.id]: 'copy', [original.name]: 'source_name', [original.funding_instrument_id]: 'funding_instrument' }), {
    request: { params: { account_id: '<account>', copy_from_campaign_id: '<source>' } },
    data: {
      name: '<source_name>', budget_optimization: 'LINE_ITEM', reasons_not_servable: ['PAUSED_BY_ADVERTISER', 'INCOMPLETE'], servable: false,
      purchase_order_number: 'PO-7', effective_status: 'UNKNOWN', daily_budget_amount_local_micro: 1000000,
      funding_instrument_id: '<funding_instrument>', duration_in_days: null, standard_delivery: null, total_budget_amount_local_micro: 9000000,
      id: '<copy>', entity_status: 'PAUSED', frequency_cap: null, currency: 'USD', created_at: '<time>', updated_at: '<time>', deleted: false,
    },
  });
  assert.notEqual(c.id, source);
  assert.equal(original.entity_status, 'ACTIVE');

  const items = await lineItemsOf(account, 'ada', c.id);
  assert.deepEqual(items.map((l) => l.name), ['kept'], 'deleted line items are not copied');
  assert.notEqual(items[0].id, kept);
  assert.equal(items[0].entity_status, 'PAUSED');
  assert.equal(items[0].objective, 'ENGAGEMENTS');
  const criteria = await criteriaOf(account, 'ada', items[0].id as string);
  assert.deepEqual(criteria.map((t) => [t.targeting_type, t.targeting_value]), [['BROAD_KEYWORD', 'plaza']]);
  assert.deepEqual((await lineItemsOf(account, 'ada', source)).map((l) => l.id), [kept], 'the source keeps its own line items');

  const named = await copy(account, 'ada', source, { name: 'Renamed copy', entity_status: 'ACTIVE', daily_budget_amount_local_micro: 2_000_000 });
  assert.equal(named.status, 200, named.text);
  assert.equal(named.body.data.name, 'Renamed copy');
  assert.equal(named.body.data.entity_status, 'ACTIVE');
  assert.equal(named.body.data.daily_budget_amount_local_micro, 2_000_000);
});

test('"the campaign cannot be copied" after the tailored audience permission is deleted: the copy is refused and nothing is written', async () => {
  const ada = k.accountOf('ada');
  const chen = k.accountOf('chen');
  const audience = (await k.ads.post(`/12/accounts/${ada}/custom_audiences`, { query: { name: `Shared ${crypto.randomUUID()}` } })).body.data.id;
  const upload = await k.ads.post(`/12/accounts/${ada}/custom_audiences/${audience}/users`, {
    json: [{ operation_type: 'Update', params: { users: ['ada', 'bruno', 'chen'].map((u) => ({ email: [sha(`${u}@plaza.example`)] })) } }],
  });
  assert.equal(upload.status, 200, upload.text);
  k.clock.offsetMs += PROCESSING_MS + 1000;
  const permission = await k.ads.post(`/5/accounts/${ada}/tailored_audiences/${audience}/permissions`, { query: { granted_account_id: chen, permission_level: 'READ_ONLY' } });
  assert.equal(permission.status, 200, permission.text);

  const source = await campaign(chen, 'chen');
  const li = await lineItem(chen, 'chen', source);
  await criterion(chen, 'chen', li, 'CUSTOM_AUDIENCE', audience);
  const allowed = await copy(chen, 'chen', source);
  assert.equal(allowed.status, 200, 'while the permission is live, the campaign can be copied');
  const copied = await lineItemsOf(chen, 'chen', allowed.body.data.id);
  assert.deepEqual((await criteriaOf(chen, 'chen', copied[0].id as string)).map((t) => t.targeting_value), [audience]);

  assert.equal((await k.ads.del(`/5/accounts/${ada}/tailored_audiences/${audience}/permissions/${permission.body.data.id}`)).status, 200);
  const before = (await k.ads.get(campaigns(chen), { as: 'chen', query: { with_draft: 'true' } })).body.data.length;
  const refused = await copy(chen, 'chen', source);
  assert.equal(refused.status, 400, refused.text);
  assert.equal(refused.body.errors[0].parameter, 'copy_from_campaign_id');
  assert.match(refused.body.errors[0].message, /cannot be copied/);
  assert.equal((await k.ads.get(campaigns(chen), { as: 'chen', query: { with_draft: 'true' } })).body.data.length, before, 'nothing written');
  const running = await k.ads.get(`/12/accounts/${chen}/line_items/${li}`, { as: 'chen' });
  assert.equal(running.body.data.entity_status, 'ACTIVE', 'its running campaign keeps serving');
});

test('"a copy source" must be a live campaign of the account; without one, funding_instrument_id and name are required', async () => {
  const ada = k.accountOf('ada');
  const chen = k.accountOf('chen');
  const unknown = await copy(ada, 'ada', 'zzzzz');
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.errors[0].parameter, 'copy_from_campaign_id');
  const others = await campaign(chen, 'chen');
  assert.equal((await copy(ada, 'ada', others)).status, 404, "another account's campaign is not a source");
  const gone = await campaign(ada, 'ada');
  assert.equal((await k.ads.del(`${campaigns(ada)}/${gone}`)).status, 200);
  assert.equal((await copy(ada, 'ada', gone)).status, 404, 'a deleted campaign is not a source');

  const source = await campaign(ada, 'ada');
  const optimisation = await copy(ada, 'ada', source, { budget_optimization: 'CAMPAIGN' });
  assert.equal(optimisation.status, 400);
  assert.equal(optimisation.body.errors[0].parameter, 'budget_optimization');
  const badFi = await copy(ada, 'ada', source, { funding_instrument_id: 'zzzzz' });
  assert.equal(badFi.status, 404);
  assert.equal(badFi.body.errors[0].parameter, 'funding_instrument_id');

  const noName = await k.ads.post(campaigns(ada), { query: { funding_instrument_id: await fundingInstrument(ada, 'ada') } });
  assert.equal(noName.status, 400);
  assert.deepEqual([noName.body.errors[0].code, noName.body.errors[0].parameter], ['MISSING_PARAMETER', 'name']);
  const noFi = await k.ads.post(campaigns(ada), { query: { name: 'x' } });
  assert.deepEqual([noFi.body.errors[0].code, noFi.body.errors[0].parameter], ['MISSING_PARAMETER', 'funding_instrument_id']);
});

test('a copy records CREATE in account history for the campaign, its line items and their targeting criteria', async () => {
  const account = k.accountOf('ada');
  const source = await campaign(account, 'ada');
  const li = await lineItem(account, 'ada', source);
  await criterion(account, 'ada', li, 'BROAD_KEYWORD', 'plaza');
  const c = (await copy(account, 'ada', source)).body.data;
  const rows = await k.plaza.ctx.store.db.selectFrom('ads_account_history').select(['entity_type', 'change_type']).where('account_id', '=', account).where('entity_id', '=', c.id).execute();
  assert.deepEqual(rows.map((r) => [r.entity_type, r.change_type]), [['CAMPAIGN', 'CREATE']]);
  const items = await lineItemsOf(account, 'ada', c.id);
  const itemRows = await k.plaza.ctx.store.db.selectFrom('ads_account_history').select('change_type').where('entity_id', '=', items[0].id as string).execute();
  assert.deepEqual(itemRows.map((r) => r.change_type), ['CREATE']);
});
