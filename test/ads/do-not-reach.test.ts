import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { before, test } from 'node:test';
import { PROCESSING_MS } from '../../src/ads/audiences/status.js';
import { normalise } from '../support/normalise.js';
import { startAdsPlaza, type AdsKit } from './support.js';

/** Do-not-reach lists and their users batch (spec 001 "Do-not-reach list", "Do-not-reach list users (batch)"; shared/reference/ads.md §5). */
let k: AdsKit;
const sha = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const emailHash = (username: string) => sha(`${username}@plaza.example`);
const inMonths = (months: number) => {
  const d = k.clock.now();
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString();
};

before(async () => {
  k = await startAdsPlaza();
});

const lists = (account: string) => `/12/accounts/${account}/do_not_reach_lists`;
const batch = (account: string, id: string) => `/12/batch/accounts/${account}/do_not_reach_lists/${id}/users`;

test('do-not-reach lists: "create (one per account), get, list, DELETE (deleted=true)"; the object of spec 001', async () => {
  const { account } = await k.sandboxSetup('ada');
  const created = await k.sandbox.post(lists(account), { query: { name: 'Existing customers' } });
  assert.equal(created.status, 200, created.text);
  const l = created.body.data;
  assert.deepEqual(normalise(created.body, { [account]: 'account', [l.id]: 'list' }), {
    request: { params: { account_id: '<account>', name: 'Existing customers' } },
    data: {
      targetable: false, name: 'Existing customers', description: null, id: '<list>', reasons_not_targetable: ['TOO_SMALL'], created_at: '<time>',
      list_size: 0, updated_at: '<time>', deleted: false,
    },
  });
  const second = await k.sandbox.post(lists(account), { query: { name: 'Another' } });
  assert.equal(second.status, 400, 'one list per account');
  assert.equal((await k.sandbox.get(`${lists(account)}/${l.id}`)).body.data.name, 'Existing customers');
  assert.deepEqual((await k.sandbox.get(lists(account))).body.data.map((x: { id: string }) => x.id), [l.id]);
  const deleted = await k.sandbox.del(`${lists(account)}/${l.id}`);
  assert.equal(deleted.status, 200);
  assert.equal(deleted.body.data.deleted, true);
  assert.equal(deleted.body.data.id, l.id);
  assert.equal((await k.sandbox.get(`${lists(account)}/${l.id}`)).status, 404);
  assert.equal((await k.sandbox.del(`${lists(account)}/${l.id}`)).status, 404);
  assert.equal((await k.sandbox.post(lists(account), {})).status, 200, 'after DELETE the account may create its list again');
});

test('POST batch/.../do_not_reach_lists/:id/users: "expires_at required"; `request` echoed as an array; data [{success_count, total_count}]', async () => {
  const { account } = await k.sandboxSetup('ada');
  const id = (await k.sandbox.post(lists(account), {})).body.data.id;
  const users = [{ email: [emailHash('ada')] }, { email: [emailHash('bruno')], phone_number: [sha('+15550100000')] }];
  const missing = await k.sandbox.post(batch(account, id), { json: [{ operation_type: 'Update', params: { users } }] });
  assert.equal(missing.status, 400);
  assert.equal(missing.body.operation_errors[0][0].parameter, 'params.expires_at');
  assert.equal(missing.body.operation_errors[0][0].code, 'MISSING_PARAMETER');
  const tooFar = await k.sandbox.post(batch(account, id), { json: [{ operation_type: 'Update', params: { users, expires_at: inMonths(14) } }] });
  assert.equal(tooFar.status, 400, 'expires_at within 13 months');
  const effective = await k.sandbox.post(batch(account, id), { json: [{ operation_type: 'Update', params: { users, expires_at: inMonths(6), effective_at: inMonths(1) } }] });
  assert.equal(effective.body.operation_errors[0][0].parameter, 'params.effective_at');

  const body = [{ operation_type: 'Update', params: { users, expires_at: inMonths(6) } }];
  const ok = await k.sandbox.post(batch(account, id), { json: body });
  assert.equal(ok.status, 200, ok.text);
  assert.deepEqual(ok.body, { request: body, data: [{ success_count: 2, total_count: 2 }] });
  const list = (await k.sandbox.get(`${lists(account)}/${id}`)).body.data;
  assert.equal(list.list_size, 2);
  assert.deepEqual(list.reasons_not_targetable, ['PROCESSING', 'TOO_SMALL']);
});

test('do-not-reach batch: "the same batching rules" (Content-Type, 2,500 operations, SHA-256 values, all or nothing)', async () => {
  const { account } = await k.sandboxSetup('ada');
  const id = (await k.sandbox.post(lists(account), {})).body.data.id;
  const op = { operation_type: 'Update', params: { users: [{ email: [emailHash('ada')] }], expires_at: inMonths(1) } };
  assert.equal((await k.sandbox.post(batch(account, id), { form: { x: '1' } })).status, 400);
  const over = await k.sandbox.post(batch(account, id), { json: Array.from({ length: 2501 }, () => op) });
  assert.equal(over.status, 400);
  assert.equal(over.body.errors[0].code, 'TOO_MANY_OPERATIONS');
  const mixed = await k.sandbox.post(batch(account, id), { json: [op, { ...op, params: { ...op.params, users: [{ email: ['ada@plaza.example'] }] } }] });
  assert.equal(mixed.status, 400);
  assert.deepEqual(mixed.body.operation_errors[0], []);
  assert.match(mixed.body.operation_errors[1][0].message, /SHA-256/);
  assert.equal((await k.sandbox.get(`${lists(account)}/${id}`)).body.data.list_size, 0, 'nothing written');
});

test('"matched users are excluded from audience estimates"', async () => {
  const account = k.accountOf('ada');
  const audience = (await k.ads.post(`/12/accounts/${account}/custom_audiences`, { query: { name: 'Everyone' } })).body.data.id;
  const everyone = ['ada', 'bruno', 'chen', 'dana', 'plazanews'].map((u) => ({ email: [emailHash(u)] }));
  assert.equal((await k.ads.post(`/12/accounts/${account}/custom_audiences/${audience}/users`, { json: [{ operation_type: 'Update', params: { users: everyone } }] })).status, 200);
  k.clock.offsetMs += PROCESSING_MS + 1000;
  const estimate = async () => (await k.ads.post(`/12/accounts/${account}/audience_estimate`, { json: [{ targeting_type: 'CUSTOM_AUDIENCE', targeting_value: audience }] })).body.data.audience_size;
  const before = await estimate();
  assert.deepEqual(before, { min: 4, max: 6 });
  const list = (await k.ads.post(lists(account), {})).body.data.id;
  const res = await k.ads.post(batch(account, list), { json: [{ operation_type: 'Update', params: { users: [{ handle: [sha('bruno')] }, { email: [emailHash('chen')] }], expires_at: inMonths(2) } }] });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(await estimate(), { min: 2, max: 4 }, 'bruno and chen are never reached');
  assert.equal((await k.ads.post(batch(account, list), { json: [{ operation_type: 'Delete', params: { users: [{ handle: [sha('bruno')] }], expires_at: inMonths(2) } }] })).status, 200);
  assert.deepEqual(await estimate(), { min: 3, max: 5 });
  await k.ads.del(`${lists(account)}/${list}`);
  assert.deepEqual(await estimate(), before, 'a deleted list excludes nobody');
});
