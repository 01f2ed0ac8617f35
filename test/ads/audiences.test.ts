import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { before, test } from 'node:test';
import { PROCESSING_MS } from '../../src/ads/audiences/status.js';
import { normalise } from '../support/normalise.js';
import { lineItemQuery, startAdsPlaza, type AdsKit } from './support.js';

/**
 * Custom audiences, their users batch, targeted audiences and tailored audience permissions
 * (spec 001 "Custom audience users (batch)", "Targeted audiences", "Tailored audience
 * permissions"; shared/reference/ads.md §5): audiences match Plaza's own users.
 */
let k: AdsKit;
const sha = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const emailHash = (username: string) => sha(`${username}@plaza.example`);

before(async () => {
  k = await startAdsPlaza();
});

const base = (account: string) => `/12/accounts/${account}/custom_audiences`;

async function audience(account: string, name = `Audience ${crypto.randomUUID()}`, as = 'ada', api = k.ads) {
  const res = await api.post(base(account), { as, query: { name, description: 'test audience' } });
  assert.equal(res.status, 200, res.text);
  return res.body.data.id as string;
}

const upload = (account: string, id: string, body: unknown, o: { as?: string; headers?: Record<string, string>; api?: AdsKit['ads'] } = {}) =>
  (o.api ?? k.ads).post(`${base(account)}/${id}/users`, { as: o.as ?? 'ada', json: body, headers: o.headers });

const update = (users: unknown[], extra: Record<string, unknown> = {}) => ({ operation_type: 'Update', params: { users, ...extra } });

/** Moves the clock past the PROCESSING window. */
const processed = () => (k.clock.offsetMs += PROCESSING_MS + 1000);

async function matchEveryone(account: string, id: string, usernames = ['ada', 'bruno', 'chen'], api = k.ads, as = 'ada') {
  const res = await upload(account, id, [update(usernames.map((u) => ({ email: [emailHash(u)] })))], { api, as });
  assert.equal(res.status, 200, res.text);
}

test('custom audiences: create (unique name, description), get, list, update, delete; the object of reference §5', async () => {
  const account = k.accountOf('ada');
  const name = `Newsletter ${crypto.randomUUID()}`;
  const created = await k.ads.post(base(account), { query: { name, description: 'CRM list' } });
  assert.equal(created.status, 200, created.text);
  const a = created.body.data;
  assert.deepEqual(normalise(created.body, { [account]: 'account', [a.id]: 'audience', [name]: 'name' }), {
    request: { params: { account_id: '<account>', name: '<name>', description: 'CRM list' } },
    data: {
      id: '<audience>', name: '<name>', description: 'CRM list', audience_type: 'CRM', audience_size: 0, targetable: false,
      targetable_types: ['CUSTOM_AUDIENCE', 'CUSTOM_AUDIENCE_EXPANDED'], reasons_not_targetable: ['TOO_SMALL'], is_owner: true,
      owner_account_id: '<account>', permission_level: 'READ_WRITE', partner_source: 'OTHER', created_at: '<time>', updated_at: '<time>',
      deleted: false,
    },
  });
  const duplicate = await k.ads.post(base(account), { query: { name } });
  assert.equal(duplicate.status, 400);
  assert.equal(duplicate.body.errors[0].parameter, 'name');
  assert.equal((await k.ads.post(base(account), { query: { description: 'x' } })).body.errors[0].code, 'MISSING_PARAMETER');

  const got = await k.ads.get(`${base(account)}/${a.id}`);
  assert.equal(got.body.data.name, name);
  const listed = await k.ads.get(base(account), { query: { custom_audience_ids: a.id } });
  assert.deepEqual(listed.body.data.map((x: { id: string }) => x.id), [a.id]);
  assert.equal(listed.body.next_cursor, null);

  const renamed = await k.ads.put(`${base(account)}/${a.id}`, { query: { name: `${name} v2`, description: '' } });
  assert.equal(renamed.status, 200, renamed.text);
  assert.equal(renamed.body.data.name, `${name} v2`);
  assert.equal(renamed.body.data.description, null);

  const deleted = await k.ads.del(`${base(account)}/${a.id}`);
  assert.equal(deleted.body.data.deleted, true);
  assert.equal((await k.ads.get(`${base(account)}/${a.id}`)).status, 404);
  assert.equal((await k.ads.get(`${base(account)}/${a.id}`, { query: { with_deleted: 'true' } })).body.data.deleted, true);
  assert.equal((await k.ads.del(`${base(account)}/${a.id}`)).status, 404);
  assert.equal((await k.ads.post(base(account), { query: { name } })).status, 200, 'a deleted audience frees its name');
});

test('"audience_size, targetable and reasons_not_targetable come from matching the uploaded hashes against Plaza\'s own users (email, phone, handle, user id)"', async () => {
  const account = k.accountOf('ada');
  const id = await audience(account);
  const db = k.plaza.ctx.store.db;
  const bruno = k.user('bruno');
  const phone = (await db.selectFrom('user_phone_numbers').select('phone_number').where('user_id', '=', bruno.id).executeTakeFirstOrThrow()).phone_number;
  const res = await upload(account, id, [
    update([
      { email: [emailHash('ada')] },
      { phone_number: [sha(phone)] },
      { handle: [sha('chen')] },
      { twitter_id: [sha(k.user('dana').id)] },
      { email: [sha('nobody@elsewhere.example')], partner_user_id: ['crm-123'] },
    ]),
  ]);
  assert.equal(res.status, 200, res.text);
  const got = (await k.ads.get(`${base(account)}/${id}`)).body.data;
  assert.equal(got.audience_size, 4, 'ada by email, bruno by phone, chen by handle, dana by user id; the stranger matches nobody');
});

test('"PROCESSING for a while after a change, by the injected clock"; "TOO_SMALL under a minimum size"; isTargetableAudience consults audiences', async () => {
  const account = k.accountOf('ada');
  const id = await audience(account);
  const fresh = (await k.ads.get(`${base(account)}/${id}`)).body.data;
  assert.deepEqual(fresh.reasons_not_targetable, ['TOO_SMALL']);
  assert.equal(fresh.targetable, false);

  await matchEveryone(account, id, ['ada', 'bruno']);
  let got = (await k.ads.get(`${base(account)}/${id}`)).body.data;
  assert.deepEqual(got.reasons_not_targetable, ['PROCESSING', 'TOO_SMALL']);
  processed();
  got = (await k.ads.get(`${base(account)}/${id}`)).body.data;
  assert.deepEqual(got.reasons_not_targetable, ['TOO_SMALL'], 'two matched users are under the minimum');

  await matchEveryone(account, id, ['chen']);
  got = (await k.ads.get(`${base(account)}/${id}`)).body.data;
  assert.deepEqual(got.reasons_not_targetable, ['PROCESSING']);
  assert.equal(got.audience_size, 3);

  const campaign = (await k.ads.get(`/12/accounts/${account}/campaigns`)).body.data[0].id;
  const li = (await k.ads.post(`/12/accounts/${account}/line_items`, { query: lineItemQuery(campaign, { name: 'audience line item' }) })).body.data.id;
  const target = () => k.ads.post(`/12/accounts/${account}/targeting_criteria`, { query: { line_item_id: li, targeting_type: 'CUSTOM_AUDIENCE', targeting_value: id } });
  const refused = await target();
  assert.equal(refused.status, 400, 'an audience still PROCESSING is not targetable');
  assert.match(refused.body.errors[0].message, /not targetable/);
  processed();
  got = (await k.ads.get(`${base(account)}/${id}`)).body.data;
  assert.equal(got.targetable, true);
  assert.deepEqual(got.reasons_not_targetable, []);
  const accepted = await target();
  assert.equal(accepted.status, 200, accepted.text);
  assert.equal(accepted.body.data.targeting_value, id);
});

test('users batch: "Content-Type application/json required"; a JSON array body', async () => {
  const account = k.accountOf('ada');
  const id = await audience(account);
  const form = await k.ads.post(`${base(account)}/${id}/users`, { form: { operation_type: 'Update' } });
  assert.equal(form.status, 400);
  assert.ok(Array.isArray(form.body.errors));
  const object = await upload(account, id, { operation_type: 'Update' });
  assert.equal(object.status, 400);
  assert.equal(object.body.errors[0].parameter, 'body');
});

test('users batch: "at most 2,500 operation objects (else a request-level error under `errors`)"', async () => {
  const account = k.accountOf('ada');
  const id = await audience(account);
  const op = update([{ email: [emailHash('ada')] }]);
  const over = await upload(account, id, Array.from({ length: 2501 }, () => op));
  assert.equal(over.status, 400);
  assert.equal(over.body.errors[0].code, 'TOO_MANY_OPERATIONS');
  assert.equal(over.body.operation_errors, undefined);
  const full = await upload(account, id, Array.from({ length: 2500 }, () => op));
  assert.equal(full.status, 200, full.text);
  assert.deepEqual(full.body.data, [{ success_count: 2500, total_count: 2500 }]);
});

test('users batch: "a 5,000,000-byte body limit enforced before parsing (else a request-level error, nothing read further)"', async () => {
  const account = k.accountOf('ada');
  const id = await audience(account);
  const op = update([{ email: [emailHash('ada')] }]);
  const text = JSON.stringify(Array.from({ length: 2400 }, () => ({ ...op, params: { ...op.params, padding: 'x'.repeat(2100) } })));
  assert.ok(text.length > 5_000_000);
  const res = await upload(account, id, text);
  assert.equal(res.status, 413);
  assert.equal(res.body.errors[0].parameter, 'body');
  assert.equal((await k.ads.get(`${base(account)}/${id}`)).body.data.audience_size, 0);
  const under = JSON.stringify(Array.from({ length: 2000 }, () => ({ ...op, params: { ...op.params, padding: 'x'.repeat(2100) } })));
  assert.ok(under.length > 256 * 1024 && under.length < 5_000_000);
  assert.equal((await upload(account, id, under)).status, 200, 'bodies above the listener default but within 5,000,000 bytes are read');
});

test('users batch: "1,500 requests per 1-minute window per account"', async () => {
  const account = k.accountOf('ada');
  const id = await audience(account);
  const res = await upload(account, id, [update([{ email: [emailHash('ada')] }])]);
  assert.equal(res.headers.get('x-rate-limit-limit'), '1500');
  const reset = Number(res.headers.get('x-rate-limit-reset'));
  assert.ok(reset * 1000 - k.clock.now().getTime() <= 61_000, 'a one-minute window');
  const other = await upload(k.accountOf('chen'), await audience(k.accountOf('chen'), undefined, 'chen'), [update([{ email: [emailHash('ada')] }])], { as: 'chen' });
  assert.equal(other.headers.get('x-rate-limit-remaining'), '1499', 'each account has its own window');
});

test('users batch: "operation_type Update|Delete"; "every value except partner_user_id must be a SHA-256 lowercase hex digest (anything else is an item error)"; "item-level errors under `operation_errors` with the input index"', async () => {
  const account = k.accountOf('ada');
  const id = await audience(account);
  const res = await upload(account, id, [
    update([{ email: [emailHash('ada')] }]),
    { operation_type: 'Replace', params: { users: [{ email: [emailHash('bruno')] }] } },
    update([{ email: ['ada@plaza.example'] }]),
    update([{ email: [emailHash('chen').toUpperCase()] }]),
    update([{ partner_user_id: ['not-a-hash'] }]),
    { operation_type: 'Update' },
  ]);
  assert.equal(res.status, 400);
  const errs = res.body.operation_errors;
  assert.equal(errs.length, 6, 'one entry per input item, in order');
  assert.deepEqual(errs[0], []);
  assert.equal(errs[1][0].parameter, 'operation_type');
  assert.match(errs[2][0].message, /SHA-256/);
  assert.match(errs[3][0].message, /SHA-256/, 'upper-case hex is refused');
  assert.deepEqual(errs[4], [], 'partner_user_id is not hashed');
  assert.equal(errs[5][0].code, 'MISSING_PARAMETER');
  assert.ok(Array.isArray(res.body.request));
});

test('"the batch succeeds or fails as a whole (nothing written when any item fails) and keeps the request\'s order"', async () => {
  const account = k.accountOf('ada');
  const id = await audience(account);
  const failing = await upload(account, id, [update([{ email: [emailHash('ada')] }, { email: [emailHash('bruno')] }]), update([{ email: ['plain'] }])]);
  assert.equal(failing.status, 400);
  assert.equal((await k.ads.get(`${base(account)}/${id}`)).body.data.audience_size, 0, 'the valid first item was not written');

  const del = (users: unknown[]) => ({ operation_type: 'Delete', params: { users } });
  const ordered = await upload(account, id, [
    update([{ email: [emailHash('ada')] }, { email: [emailHash('bruno')] }]),
    del([{ email: [emailHash('ada')] }]),
    del([{ email: [emailHash('chen')] }]),
    update([{ email: [emailHash('chen')] }]),
  ]);
  assert.equal(ordered.status, 200, ordered.text);
  assert.deepEqual(ordered.body.data, [{ success_count: 5, total_count: 5 }], 'data [{success_count, total_count}] equal to the records sent');
  assert.deepEqual(ordered.body.request.params, { account_id: account, custom_audience_id: id });
  const db = k.plaza.ctx.store.db;
  const users = await db.selectFrom('ads_audience_users').select('user_id').where('list_id', '=', id).execute();
  assert.deepEqual(users.map((u) => u.user_id).sort(), [k.user('bruno').id, k.user('chen').id].sort(), 'ada added then deleted; chen deleted then added');
});

test('users batch: "expires_at later than now, default 13 months"', async () => {
  const account = k.accountOf('ada');
  const id = await audience(account);
  const past = await upload(account, id, [update([{ email: [emailHash('ada')] }], { expires_at: new Date(k.clock.now().getTime() - 60_000).toISOString() })]);
  assert.equal(past.status, 400);
  assert.equal(past.body.operation_errors[0][0].parameter, 'params.expires_at');
  assert.equal((await upload(account, id, [update([{ email: [emailHash('ada')] }], { expires_at: 'tomorrow' })])).status, 400);

  assert.equal((await upload(account, id, [update([{ email: [emailHash('ada')] }])])).status, 200);
  const db = k.plaza.ctx.store.db;
  const row = await db.selectFrom('ads_audience_users').select('expires_at').where('list_id', '=', id).executeTakeFirstOrThrow();
  const expected = k.clock.now();
  expected.setUTCMonth(expected.getUTCMonth() + 13);
  assert.ok(Math.abs(Date.parse(row.expires_at) - expected.getTime()) < 120_000, `expires 13 months out, got ${row.expires_at}`);

  const soon = new Date(k.clock.now().getTime() + 2 * 60 * 60 * 1000).toISOString();
  assert.equal((await upload(account, id, [update([{ email: [emailHash('bruno')] }], { expires_at: soon })])).status, 200);
  assert.equal((await k.ads.get(`${base(account)}/${id}`)).body.data.audience_size, 2);
  k.clock.offsetMs += 3 * 60 * 60 * 1000;
  assert.equal((await k.ads.get(`${base(account)}/${id}`)).body.data.audience_size, 1, 'an expired association no longer counts');
});

test('GET custom_audiences/:id/targeted: "with_active default true; false adds line items with servable=false" from the real line items that target it', async () => {
  const account = k.accountOf('ada');
  const id = await audience(account);
  await matchEveryone(account, id);
  processed();
  const campaigns = (await k.ads.get(`/12/accounts/${account}/campaigns`)).body.data;
  const campaign = campaigns[0];
  const mk = async (status: string) => {
    const li = (await k.ads.post(`/12/accounts/${account}/line_items`, { query: lineItemQuery(campaign.id, { name: `li ${status}`, entity_status: status }) })).body.data.id;
    const tc = await k.ads.post(`/12/accounts/${account}/targeting_criteria`, { query: { line_item_id: li, targeting_type: 'CUSTOM_AUDIENCE', targeting_value: id } });
    assert.equal(tc.status, 200, tc.text);
    return li;
  };
  const active = await mk('ACTIVE');
  const paused = await mk('PAUSED');
  const url = `${base(account)}/${id}/targeted`;
  const def = await k.ads.get(url);
  assert.equal(def.status, 200, def.text);
  assert.deepEqual(def.body.data, [{ campaign_id: campaign.id, campaign_name: campaign.name, line_items: [{ id: active, name: 'li ACTIVE', servable: true }] }]);
  const all = await k.ads.get(url, { query: { with_active: 'false' } });
  assert.deepEqual(
    all.body.data[0].line_items.sort((a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1)),
    [
      { id: active, name: 'li ACTIVE', servable: true },
      { id: paused, name: 'li PAUSED', servable: false },
    ].sort((a, b) => (a.id < b.id ? -1 : 1)),
  );
  assert.equal(all.body.next_cursor, null);
  assert.deepEqual((await k.ads.get(`${base(account)}/${await audience(account)}/targeted`)).body.data, [], 'an audience nothing targets');
});

test('POST audience_estimate: a CUSTOM_AUDIENCE criterion reaches the users the audience matches', async () => {
  const account = k.accountOf('ada');
  const id = await audience(account);
  await matchEveryone(account, id, ['ada', 'bruno', 'chen', 'dana']);
  processed();
  const res = await k.ads.post(`/12/accounts/${account}/audience_estimate`, { json: [{ targeting_type: 'CUSTOM_AUDIENCE', targeting_value: id }] });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.data.audience_size, { min: 3, max: 5 });
});

// Tailored audience permissions (version 5).

const perms = (account: string, audienceId: string) => `/5/accounts/${account}/tailored_audiences/${audienceId}/permissions`;

test('tailored audience permissions: list, POST (granted_account_id and permission_level READ_ONLY|READ_WRITE required), DELETE (deleted=true)', async () => {
  const ada = k.accountOf('ada');
  const chen = k.accountOf('chen');
  const id = await audience(ada);
  for (const missing of ['granted_account_id', 'permission_level']) {
    const query: Record<string, string> = { granted_account_id: chen, permission_level: 'READ_ONLY' };
    delete query[missing];
    const res = await k.ads.post(perms(ada, id), { query });
    assert.equal(res.body.errors[0].code, 'MISSING_PARAMETER');
    assert.equal(res.body.errors[0].parameter, missing);
  }
  assert.equal((await k.ads.post(perms(ada, id), { query: { granted_account_id: chen, permission_level: 'OWNER' } })).body.errors[0].parameter, 'permission_level');
  const granted = await k.ads.post(perms(ada, id), { query: { granted_account_id: chen, permission_level: 'READ_ONLY' } });
  assert.equal(granted.status, 200, granted.text);
  const p = granted.body.data;
  assert.deepEqual(normalise(granted.body, { [ada]: 'ada_account', [chen]: 'chen_account', [id]: 'audience', [p.id]: 'permission' }), {
    request: {
      params: { account_id: '<ada_account>', tailored_audience_id: '<audience>', granted_account_id: '<chen_account>', permission_level: 'READ_ONLY' },
    },
    data: {
      tailored_audience_id: '<audience>', permission_level: 'READ_ONLY', id: '<permission>', created_at: '<time>',
      granted_account_id: '<chen_account>', updated_at: '<time>', deleted: false,
    },
  });

  const changed = await k.ads.post(perms(ada, id), { query: { granted_account_id: chen, permission_level: 'READ_WRITE' } });
  assert.equal(changed.body.data.id, p.id, 'a second POST for the same account changes its level');
  assert.equal(changed.body.data.permission_level, 'READ_WRITE');

  const listed = await k.ads.get(perms(ada, id));
  assert.equal(listed.status, 200, listed.text);
  assert.deepEqual(listed.body.data.map((x: { id: string }) => x.id), [p.id]);
  assert.equal((await k.ads.get(perms(ada, id), { query: { granted_account_ids: 'zzz' } })).body.data.length, 0);
  assert.equal((await k.ads.get(perms(ada, id), { query: { tailored_audience_permission_ids: p.id, with_total_count: 'true' } })).body.total_count, 1);
  assert.equal((await k.ads.get(perms(ada, id), { query: { count: 1001 } })).body.errors[0].parameter, 'count');
  assert.equal((await k.ads.get(perms(ada, id), { query: { count: 0 } })).body.errors[0].parameter, 'count');
  const ids = Array.from({ length: 201 }, (_, i) => `a${i}`).join(',');
  assert.equal((await k.ads.get(perms(ada, id), { query: { granted_account_ids: ids } })).body.errors[0].parameter, 'granted_account_ids');
  assert.equal((await k.ads.get(perms(ada, id), { query: { tailored_audience_permission_ids: ids } })).body.errors[0].parameter, 'tailored_audience_permission_ids');
  assert.equal((await k.ads.get(perms(ada, id), { query: { sort_by: 'created_at-asc' } })).status, 200);

  const shared = await k.ads.get(`${base(chen)}/${id}`, { as: 'chen' });
  assert.equal(shared.status, 200, 'the granted account sees the audience');
  assert.equal(shared.body.data.is_owner, false);
  assert.equal(shared.body.data.permission_level, 'READ_WRITE');

  const deleted = await k.ads.del(`${perms(ada, id)}/${p.id}`);
  assert.equal(deleted.status, 200, deleted.text);
  assert.equal(deleted.body.data.deleted, true);
  assert.equal((await k.ads.del(`${perms(ada, id)}/${p.id}`)).status, 404);
  assert.deepEqual((await k.ads.get(perms(ada, id))).body.data, []);
});

test('"Only the owning account may create or change them (the audience\'s is_owner)"', async () => {
  const ada = k.accountOf('ada');
  const chen = k.accountOf('chen');
  const id = await audience(ada);
  const p = (await k.ads.post(perms(ada, id), { query: { granted_account_id: chen, permission_level: 'READ_WRITE' } })).body.data;
  const byGrantee = await k.ads.post(perms(chen, id), { as: 'chen', query: { granted_account_id: k.accountOf('dana'), permission_level: 'READ_ONLY' } });
  assert.equal(byGrantee.status, 403);
  assert.match(byGrantee.body.errors[0].message, /is_owner/);
  assert.equal((await k.ads.del(`${perms(chen, id)}/${p.id}`, { as: 'chen' })).status, 403);
  assert.equal((await k.ads.del(`${base(chen)}/${id}`, { as: 'chen' })).status, 403, 'only the owner deletes the audience');
  const mine = await k.ads.get(perms(chen, id), { as: 'chen' });
  assert.deepEqual(mine.body.data.map((x: { granted_account_id: string }) => x.granted_account_id), [chen], 'a grantee sees only its own permission');
  assert.equal((await k.ads.get(perms(k.accountOf('dana'), id), { as: 'dana' })).status, 404, 'an account the audience is not shared with does not find it');
});

test('"sharing only between accounts of the same business, unless the owner has the account feature SHARE_AUDIENCE_OUTSIDE_BUSINESS"', async () => {
  const ada = k.accountOf('ada');
  const id = await audience(ada);
  const outside = await k.ads.post(perms(ada, id), { query: { granted_account_id: k.accountOf('dana'), permission_level: 'READ_ONLY' } });
  assert.equal(outside.status, 400, 'dana\'s account is not in ada\'s business');
  assert.match(outside.body.errors[0].message, /SHARE_AUDIENCE_OUTSIDE_BUSINESS/);
  assert.equal((await k.ads.post(perms(ada, id), { query: { granted_account_id: k.accountOf('chen'), permission_level: 'READ_ONLY' } })).status, 200, 'chen\'s is');

  const owner = (await k.sandbox.post('/12/accounts', { as: 'ada' })).body.data[0].id;
  const other = (await k.sandbox.post('/12/accounts', { as: 'dana' })).body.data[0].id;
  const sandboxAudience = await audience(owner, undefined, 'ada', k.sandbox);
  const refused = await k.sandbox.post(perms(owner, sandboxAudience), { query: { granted_account_id: other, permission_level: 'READ_ONLY' } });
  assert.equal(refused.status, 400);
  const feature = await k.sandbox.post(`/12/accounts/${owner}/features`, { query: { feature_keys: 'SHARE_AUDIENCE_OUTSIDE_BUSINESS' } });
  assert.equal(feature.status, 200, feature.text);
  const allowed = await k.sandbox.post(perms(owner, sandboxAudience), { query: { granted_account_id: other, permission_level: 'READ_ONLY' } });
  assert.equal(allowed.status, 200, allowed.text);
});

test('"After DELETE the granted account cannot target the audience in new line items, its running campaigns keep serving"', async () => {
  const ada = k.accountOf('ada');
  const chen = k.accountOf('chen');
  const id = await audience(ada);
  await matchEveryone(ada, id);
  processed();
  const p = (await k.ads.post(perms(ada, id), { query: { granted_account_id: chen, permission_level: 'READ_ONLY' } })).body.data;
  const campaign = (await k.ads.get(`/12/accounts/${chen}/campaigns`, { as: 'chen' })).body.data[0].id;
  const lineItem = async () => (await k.ads.post(`/12/accounts/${chen}/line_items`, { as: 'chen', query: lineItemQuery(campaign) })).body.data.id as string;
  const target = async (li: string) =>
    k.ads.post(`/12/accounts/${chen}/targeting_criteria`, { as: 'chen', query: { line_item_id: li, targeting_type: 'CUSTOM_AUDIENCE', targeting_value: id } });
  const running = await lineItem();
  assert.equal((await target(running)).status, 200, 'the granted account may target the shared audience');

  assert.equal((await k.ads.del(`${perms(ada, id)}/${p.id}`)).status, 200);
  const refused = await target(await lineItem());
  assert.equal(refused.status, 400, 'no new line item may target it');
  const criteria = await k.ads.get(`/12/accounts/${chen}/targeting_criteria`, { as: 'chen', query: { line_item_ids: running } });
  assert.equal(criteria.body.data.length, 1, 'the running line item keeps its audience criterion');
  const li = await k.ads.get(`/12/accounts/${chen}/line_items/${running}`, { as: 'chen' });
  assert.equal(li.body.data.entity_status, 'ACTIVE');
  assert.equal(li.body.data.deleted, false);
});

test('the demo seed: "one audience over demo users" (targetable at once), Ada\'s and Chen\'s accounts in one business (business_id), a catalog, and phone numbers to match', async () => {
  const fresh = await startAdsPlaza();
  const ada = fresh.accountOf('ada');
  const listed = await fresh.ads.get(base(ada));
  const demo = listed.body.data.find((a: { name: string }) => a.name === 'Plaza demo users');
  assert.ok(demo, listed.text);
  assert.equal(demo.audience_size, fresh.plaza.creds.users.length);
  assert.equal(demo.targetable, true);
  const shared = await fresh.ads.post(perms(ada, demo.id), { query: { granted_account_id: fresh.accountOf('chen'), permission_level: 'READ_ONLY' } });
  assert.equal(shared.status, 200, 'ada and chen are in one business');
  assert.equal((await fresh.ads.post(perms(ada, demo.id), { query: { granted_account_id: fresh.accountOf('dana'), permission_level: 'READ_ONLY' } })).status, 400);
  const catalogs = await fresh.ads.get('/12/product_catalogs', { as: 'ada' });
  assert.equal(catalogs.body.data.length, 1);
  const products = await fresh.ads.get(`/12/product_catalogs/${catalogs.body.data[0].id}/products`, { as: 'ada' });
  assert.deepEqual(products.body.data.map((p: { id: string }) => p.id), ['mug-blue', 'tote'], 'the red mug is a variant of the blue one');
  const phones = await fresh.plaza.ctx.store.db.selectFrom('user_phone_numbers').select('user_id').execute();
  assert.equal(phones.length, fresh.plaza.creds.users.length);
});

test('"the campaign cannot be copied" after the permission is deleted (checkCampaignCopyable, for whatever copies a campaign)', async () => {
  const { checkCampaignCopyable } = await import('../../src/ads/audiences/service.js');
  const ada = k.accountOf('ada');
  const chen = k.accountOf('chen');
  const id = await audience(ada);
  await matchEveryone(ada, id);
  processed();
  const p = (await k.ads.post(perms(ada, id), { query: { granted_account_id: chen, permission_level: 'READ_ONLY' } })).body.data;
  const fi = (await k.ads.get(`/12/accounts/${chen}/funding_instruments`, { as: 'chen' })).body.data[0].id;
  const campaign = (await k.ads.post(`/12/accounts/${chen}/campaigns`, { as: 'chen', query: { funding_instrument_id: fi, name: 'To copy', daily_budget_amount_local_micro: 1_000_000 } })).body.data.id;
  const li = (await k.ads.post(`/12/accounts/${chen}/line_items`, { as: 'chen', query: lineItemQuery(campaign) })).body.data.id;
  assert.equal((await k.ads.post(`/12/accounts/${chen}/targeting_criteria`, { as: 'chen', query: { line_item_id: li, targeting_type: 'CUSTOM_AUDIENCE', targeting_value: id } })).status, 200);
  const db = k.plaza.ctx.store.db;
  const account = await db.selectFrom('ads_accounts').selectAll().where('id', '=', chen).executeTakeFirstOrThrow();
  await checkCampaignCopyable(db, account, campaign);
  await k.ads.del(`${perms(ada, id)}/${p.id}`);
  await assert.rejects(checkCampaignCopyable(db, account, campaign), /cannot be copied/);
});
