import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { before, test } from 'node:test';
import { startAdsPlaza, type AdsKit } from './support.js';

/**
 * The write path of the custom audience users batch (src/ads/audiences/batch.ts): the identifiers
 * of a batch go to the store in one statement per key type, their columns sent as joined text.
 * These check what that must keep: values the joining could break, the last operation on an
 * identifier deciding it, and matched and unmatched identifiers side by side.
 */
let k: AdsKit;
const sha = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

before(async () => {
  k = await startAdsPlaza();
});

const base = (account: string) => `/12/accounts/${account}/custom_audiences`;

async function audience(account: string) {
  const res = await k.ads.post(base(account), { query: { name: `Writes ${crypto.randomUUID()}` } });
  assert.equal(res.status, 200, res.text);
  return res.body.data.id as string;
}

/** The list's stored identifiers, each value as it was sent (stored as bytes: a digest's 32, a partner id's UTF-8). */
const rowsOf = async (listId: string) =>
  (await k.plaza.ctx.store.db.selectFrom('ads_audience_users').select(['key_type', 'key_hash', 'user_id', 'expires_at']).where('list_id', '=', listId).orderBy('key_type').orderBy('key_hash').execute()).map((r) => ({
    ...r,
    key_hash: Buffer.from(r.key_hash).toString(r.key_type === 'partner_user_id' ? 'utf8' : 'hex'),
  }));

test('users batch: "the batch keeps the request\'s order": the last operation on an identifier decides it, matched and unmatched identifiers stored alike', async () => {
  const account = k.accountOf('ada');
  const id = await audience(account);
  const ada = sha('ada@plaza.example');
  const stranger = sha('nobody@example.com');
  const gone = sha('gone@example.com');
  const later = new Date(k.clock.now().getTime() + 30 * 86_400_000).toISOString();
  const res = await k.ads.post(`${base(account)}/${id}/users`, {
    json: [
      { operation_type: 'Update', params: { users: [{ email: [ada, stranger, gone] }] } },
      { operation_type: 'Delete', params: { users: [{ email: [gone] }] } },
      { operation_type: 'Update', params: { users: [{ email: [stranger] }], expires_at: later } },
    ],
  });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.data, [{ success_count: 3, total_count: 3 }]);
  const rows = await rowsOf(id);
  assert.deepEqual(
    rows.map((r) => r.key_hash),
    [ada, stranger].sort(),
  );
  const byHash = new Map(rows.map((r) => [r.key_hash, r]));
  assert.equal(byHash.get(ada)!.user_id, k.user('ada').id, 'a matched identifier names its user');
  assert.equal(byHash.get(stranger)!.user_id, null, 'an unmatched identifier is kept, naming nobody');
  assert.equal(Date.parse(byHash.get(stranger)!.expires_at), Date.parse(later), 'the later Update set the expiry');
});

test('users batch: partner_user_id values "except partner_user_id" are stored as sent, commas and quotes included', async () => {
  const account = k.accountOf('ada');
  const id = await audience(account);
  const odd = ['a,b', 'c", d', '{e}', 'plain', 'back\\slash'];
  const res = await k.ads.post(`${base(account)}/${id}/users`, {
    json: [{ operation_type: 'Update', params: { users: [{ partner_user_id: odd, email: [sha('x@example.com')] }] } }],
  });
  assert.equal(res.status, 200, res.text);
  const rows = await rowsOf(id);
  assert.deepEqual(rows.filter((r) => r.key_type === 'partner_user_id').map((r) => r.key_hash).sort(), [...odd].sort());
  assert.equal(rows.filter((r) => r.key_type === 'email').length, 1);
  // A second upload renews what is there rather than adding rows.
  const again = await k.ads.post(`${base(account)}/${id}/users`, { json: [{ operation_type: 'Update', params: { users: [{ partner_user_id: odd }] } }] });
  assert.equal(again.status, 200, again.text);
  assert.equal((await rowsOf(id)).length, odd.length + 1);
});

test('users batch: a batch of 2,500 operations is written whole (one statement per key type, past every bind-parameter limit)', async () => {
  const account = k.accountOf('ada');
  const id = await audience(account);
  const body = Array.from({ length: 2500 }, (_, i) => ({
    operation_type: 'Update',
    params: { users: Array.from({ length: 11 }, (_, j) => ({ email: [sha(`${i}-${j}@example.com`)], phone_number: [sha(`+1555-${i}-${j}`)] })) },
  }));
  const res = await k.ads.post(`${base(account)}/${id}/users`, { json: body });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.data, [{ success_count: 27_500, total_count: 27_500 }]);
  assert.equal((await rowsOf(id)).length, 55_000);
});
