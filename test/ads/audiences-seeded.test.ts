import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { before, test } from 'node:test';
import { PROCESSING_MS } from '../../src/ads/audiences/status.js';
import { contactEmail, contactPhone } from '../../src/seed/posts.js';
import { startAdsPlaza, type AdsKit } from './support.js';

/**
 * Issue 34: `plaza seed --contacts` (POST /admin/seed {contacts: true}) gives the generated
 * authors e-mail addresses and phone numbers, listed by GET /admin/users, so a custom audience
 * built from their hashes matches many users and becomes targetable.
 */
let k: AdsKit;
before(async () => {
  k = await startAdsPlaza();
});

const sha = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

test('seeded authors with contacts are listed with email and phone_number; an audience of their hashes matches them all and becomes targetable', async () => {
  const admin = (method: string, path: string, body?: unknown) =>
    fetch(`${k.plaza.urls.base_url}${path}`, { method, headers: { authorization: `Bearer ${k.plaza.creds.admin_token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined }).then(async (r) => ({ status: r.status, body: await r.json() }));
  const seeded = await admin('POST', '/admin/seed', { posts: 20, users: 120, contacts: true });
  assert.equal(seeded.status, 201, JSON.stringify(seeded.body));
  const people = (await admin('GET', '/admin/users')).body.data as Array<{ username: string; email: string | null; phone_number: string | null }>;
  const fifth = people.find((p) => p.username === 'seed_user_5')!;
  assert.deepEqual({ email: fifth.email, phone_number: fifth.phone_number }, { email: contactEmail(5), phone_number: contactPhone(5) });

  const account = k.accountOf('ada');
  const base = `/12/accounts/${account}/custom_audiences`;
  const created = await k.ads.post(base, { query: { name: `Seeded ${crypto.randomUUID()}`, description: 'seeded contacts' } });
  assert.equal(created.status, 200, created.text);
  const id = created.body.data.id;
  const users = Array.from({ length: 120 }, (_, i) => (i % 2 === 0 ? { email: [sha(contactEmail(i))] } : { phone_number: [sha(contactPhone(i))] }));
  const uploaded = await k.ads.post(`${base}/${id}/users`, { json: [{ operation_type: 'Update', params: { users } }] });
  assert.equal(uploaded.status, 200, uploaded.text);
  k.clock.offsetMs += PROCESSING_MS + 1000;
  const read = await k.ads.get(`${base}/${id}`);
  assert.equal(read.body.data.audience_size, 120);
  assert.equal(read.body.data.targetable, true);
});
