import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { normalise } from '../support/normalise.js';
import { lineItemQuery, startAdsPlaza, type AdsKit } from './support.js';

/** The account history (spec 001 "Account history record", "Accounts and related"). */
let k: AdsKit;
let s: { account: string; fundingInstrument: string; campaign: string };
let window: { start_time: string; end_time: string };

before(async () => {
  k = await startAdsPlaza();
  s = await k.sandboxSetup('ada');
  await k.sandbox.post(`/12/accounts/${s.account}/features`, { query: { feature_keys: 'ACCOUNT_HISTORY' } });
  const hour = Math.floor(k.clock.now().getTime() / 3_600_000) * 3_600_000;
  window = { start_time: new Date(hour - 3_600_000).toISOString(), end_time: new Date(hour + 2 * 3_600_000).toISOString() };
});

const history = (entity_type: string, entity_id: string, extra: Record<string, string | number> = {}) =>
  k.sandbox.get(`/12/accounts/${s.account}/account_history`, { query: { entity_type, entity_id, ...window, ...extra } });

test('"every create, update and delete of campaigns" is recorded: change_by {user_id, platform}, changes, change_time, entity_id, entity, entity_data (the spec\'s campaign fields), change_type', async () => {
  const path = `/12/accounts/${s.account}/campaigns`;
  const id = (await k.sandbox.post(path, { query: { funding_instrument_id: s.fundingInstrument, name: 'tracked', daily_budget_amount_local_micro: 1_000_000 } })).body.data.id;
  await k.sandbox.put(`${path}/${id}`, { query: { name: 'tracked again', entity_status: 'PAUSED' } });
  await k.sandbox.put(`${path}/${id}`, { query: { daily_budget_amount_local_micro: 'oops' } });
  await k.sandbox.del(`${path}/${id}`);
  const res = await history('CAMPAIGN', id);
  assert.equal(res.status, 200, res.text);
  // Newest first; the refused PUT left nothing.
  assert.deepEqual(normalise(res.body, { [s.account]: 'account', [id]: 'campaign', [k.user('ada').id]: 'ada' }), {
    request: { params: { account_id: '<account>', entity_type: 'CAMPAIGN', entity_id: '<campaign>', start_time: '<time>', end_time: '<time>' } },
    next_cursor: null,
    data: [
      {
        change_by: { user_id: '<ada>', platform: 'API_OTHER' }, changes: { deleted: { old: false, new: true } }, change_time: '<time>',
        entity_id: '<campaign>', entity: 'CAMPAIGN',
        entity_data: {
          name: 'tracked again', start_time: null, purchase_order_number: null, daily_budget_amount_local_micro: 1000000, end_time: null,
          duration_in_days: null, standard_delivery: null, total_budget_amount_local_micro: null, entity_status: 'PAUSED', frequency_cap: null,
          created_at: '<time>', updated_at: '<time>', deleted: true,
        },
        change_type: 'DELETE',
      },
      {
        change_by: { user_id: '<ada>', platform: 'API_OTHER' },
        changes: { name: { old: 'tracked', new: 'tracked again' }, entity_status: { old: 'ACTIVE', new: 'PAUSED' } }, change_time: '<time>',
        entity_id: '<campaign>', entity: 'CAMPAIGN',
        entity_data: {
          name: 'tracked again', start_time: null, purchase_order_number: null, daily_budget_amount_local_micro: 1000000, end_time: null,
          duration_in_days: null, standard_delivery: null, total_budget_amount_local_micro: null, entity_status: 'PAUSED', frequency_cap: null,
          created_at: '<time>', updated_at: '<time>', deleted: false,
        },
        change_type: 'UPDATE',
      },
      {
        change_by: { user_id: '<ada>', platform: 'API_OTHER' }, changes: {}, change_time: '<time>', entity_id: '<campaign>', entity: 'CAMPAIGN',
        entity_data: {
          name: 'tracked', start_time: null, purchase_order_number: null, daily_budget_amount_local_micro: 1000000, end_time: null,
          duration_in_days: null, standard_delivery: null, total_budget_amount_local_micro: null, entity_status: 'ACTIVE', frequency_cap: null,
          created_at: '<time>', updated_at: '<time>', deleted: false,
        },
        change_type: 'CREATE',
      },
    ],
  });
  // deepEqual does not compare the order of keys, nor does normalise check the form of times.
  assert.deepEqual(Object.keys(res.body), ['request', 'next_cursor', 'data']);
  const created = res.body.data[2];
  assert.deepEqual(Object.keys(created), ['change_by', 'changes', 'change_time', 'entity_id', 'entity', 'entity_data', 'change_type']);
  assert.match(created.change_time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.deepEqual(Object.keys(created.entity_data), [
    'name', 'start_time', 'purchase_order_number', 'daily_budget_amount_local_micro', 'end_time', 'duration_in_days', 'standard_delivery',
    'total_budget_amount_local_micro', 'entity_status', 'frequency_cap', 'created_at', 'updated_at', 'deleted',
  ]);
});

test('line items, promoted posts, targeting criteria and promoted accounts record their creates, updates and deletes too', async () => {
  const base = `/12/accounts/${s.account}`;
  const li = (await k.sandbox.post(`${base}/line_items`, { query: lineItemQuery(s.campaign, { name: 'li' }) })).body.data.id;
  await k.sandbox.put(`${base}/line_items/${li}`, { query: { name: 'li renamed' } });
  const tc = (await k.sandbox.post(`${base}/targeting_criteria`, { query: { line_item_id: li, targeting_type: 'BROAD_KEYWORD', targeting_value: 'x' } })).body.data.id;
  await k.sandbox.del(`${base}/targeting_criteria/${tc}`);
  const post = k.plaza.creds.sample.post_ids[0];
  const promoted = (await k.sandbox.post(`${base}/promoted_posts`, { query: { line_item_id: li, post_ids: post } })).body.data[0].id;
  await k.sandbox.del(`${base}/promoted_posts/${promoted}`);
  const followCampaign = (await k.sandbox.post(`${base}/campaigns`, { query: { funding_instrument_id: s.fundingInstrument, name: 'f' } })).body.data.id;
  const accountItem = (
    await k.sandbox.post(`${base}/line_items`, { query: lineItemQuery(followCampaign, { product_type: 'PROMOTED_ACCOUNT', objective: 'FOLLOWERS' }) })
  ).body.data.id;
  const pa = (await k.sandbox.post(`${base}/promoted_accounts`, { query: { line_item_id: accountItem, user_id: k.user('ada').id } })).body.data.id;
  await k.sandbox.del(`${base}/promoted_accounts/${pa}`);
  await k.sandbox.del(`${base}/line_items/${li}`);

  const types = async (entity: string, id: string) => (await history(entity, id)).body.data.map((r: any) => r.change_type);
  assert.deepEqual(await types('LINE_ITEM', li), ['DELETE', 'UPDATE', 'CREATE']);
  assert.deepEqual(await types('TARGETING_CRITERIA', tc), ['DELETE', 'CREATE']);
  assert.deepEqual(await types('PROMOTED_POST', promoted), ['DELETE', 'CREATE']);
  assert.deepEqual(await types('PROMOTED_TWEET', promoted), ['DELETE', 'CREATE'], 'the public platform\'s entity name works too');
  assert.deepEqual(await types('PROMOTED_ACCOUNT', pa), ['DELETE', 'CREATE']);
  const liUpdate = (await history('LINE_ITEM', li)).body.data[1];
  assert.deepEqual(liUpdate.changes, { name: { old: 'li', new: 'li renamed' } });
  assert.equal(liUpdate.entity_data.name, 'li renamed');
  assert.equal((await history('PROMOTED_POST', promoted)).body.data[1].entity_data.post_id, post);
});

test('"entity_type (required: CAMPAIGN, LINE_ITEM, PROMOTED_POST, TARGETING_CRITERIA, PROMOTED_ACCOUNT), entity_id (required), start_time and end_time (both required)"', async () => {
  const path = `/12/accounts/${s.account}/account_history`;
  const full = { entity_type: 'CAMPAIGN', entity_id: s.campaign, ...window };
  for (const missing of ['entity_type', 'entity_id', 'start_time', 'end_time']) {
    const query: Record<string, string> = { ...full };
    delete query[missing];
    const res = await k.sandbox.get(path, { query });
    assert.deepEqual(res.body.errors[0], { code: 'MISSING_PARAMETER', message: `${missing} is missing`, parameter: missing });
  }
  assert.equal((await k.sandbox.get(path, { query: { ...full, entity_type: 'ACCOUNT' } })).body.errors[0].parameter, 'entity_type');
  assert.equal((await k.sandbox.get(path, { query: full })).status, 200);
});

test('"start_time and end_time ... whole hours only"', async () => {
  for (const [name, value] of [['start_time', '2026-01-01T10:30:00Z'], ['end_time', '2030-01-01T10:00:01Z'], ['start_time', '2026-01-01T10:00:00.500Z']]) {
    const res = await history('CAMPAIGN', s.campaign, { [name]: value });
    assert.equal(res.status, 400, value);
    assert.equal(res.body.errors[0].parameter, name);
    assert.match(res.body.errors[0].message, /whole hours/);
  }
  const inverted = await history('CAMPAIGN', s.campaign, { start_time: window.end_time, end_time: window.start_time });
  assert.equal(inverted.body.errors[0].parameter, 'end_time');
  const before = await history('CAMPAIGN', s.campaign, { start_time: '2020-01-01T00:00:00Z', end_time: '2020-01-01T01:00:00Z' });
  assert.deepEqual(before.body.data, [], 'only changes inside the window');
});

test('account history takes count (1 to 1000), cursor and user_id (long)', async () => {
  const path = `/12/accounts/${s.account}/campaigns`;
  const id = (await k.sandbox.post(path, { query: { funding_instrument_id: s.fundingInstrument, name: 'v0' } })).body.data.id;
  for (let i = 1; i <= 3; i++) await k.sandbox.put(`${path}/${id}`, { query: { name: `v${i}` } });
  const first = await history('CAMPAIGN', id, { count: 3 });
  assert.equal(first.body.data.length, 3);
  assert.equal(typeof first.body.next_cursor, 'string');
  const rest = await history('CAMPAIGN', id, { count: 3, cursor: first.body.next_cursor });
  assert.deepEqual(rest.body.data.map((r: any) => r.change_type), ['CREATE']);
  assert.equal(rest.body.next_cursor, null);
  assert.equal((await history('CAMPAIGN', id, { user_id: k.user('ada').id })).body.data.length, 4);
  assert.deepEqual((await history('CAMPAIGN', id, { user_id: k.user('bruno').id })).body.data, []);
  assert.equal((await history('CAMPAIGN', id, { user_id: 'ada' })).body.errors[0].parameter, 'user_id');
  assert.equal((await history('CAMPAIGN', id, { count: 1001 })).status, 400);
});

test('account history is "beta, allowlisting required": an account without the ACCOUNT_HISTORY feature gets 400 FEATURE_NOT_AVAILABLE', async () => {
  const other = (await k.sandbox.post('/12/accounts')).body.data[0].id;
  const res = await k.sandbox.get(`/12/accounts/${other}/account_history`, { query: { entity_type: 'CAMPAIGN', entity_id: 'abc', ...window } });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].code, 'FEATURE_NOT_AVAILABLE');
  await k.sandbox.post(`/12/accounts/${other}/features`, { query: { feature_keys: 'ACCOUNT_HISTORY' } });
  assert.equal((await k.sandbox.get(`/12/accounts/${other}/account_history`, { query: { entity_type: 'CAMPAIGN', entity_id: 'abc', ...window } })).status, 200);
});

test('the demo accounts are allowlisted and their history holds the seed\'s creations', async () => {
  const account = k.accountOf('ada');
  const campaign = (await k.ads.get(`/12/accounts/${account}/campaigns`)).body.data[0].id;
  const res = await k.ads.get(`/12/accounts/${account}/account_history`, { query: { entity_type: 'CAMPAIGN', entity_id: campaign, ...window } });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.data.map((r: any) => r.change_type), ['CREATE']);
});
