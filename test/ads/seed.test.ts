import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { startAdsPlaza, type AdsKit } from './support.js';

/** The demo workspace's advertising side and the credentials file's ads_account_ids. */
let k: AdsKit;

before(async () => {
  k = await startAdsPlaza();
});

test('the demo seed gives each demo user an ads account with a funding instrument, a campaign and line items', async () => {
  for (const u of k.plaza.creds.users) {
    assert.ok(u.ads_account_ids.length >= 1, u.username);
    const account = u.ads_account_ids[0];
    const as = u.username;
    const info = await k.ads.get(`/12/accounts/${account}`, { as });
    assert.equal(info.status, 200, `${as}: ${info.text}`);
    assert.match(info.body.data.name, / ads$/);
    const fis = await k.ads.get(`/12/accounts/${account}/funding_instruments`, { as });
    assert.equal(fis.body.data.length, 1);
    assert.equal(fis.body.data[0].able_to_fund, true);
    const campaigns = await k.ads.get(`/12/accounts/${account}/campaigns`, { as });
    assert.equal(campaigns.body.data.length, 1);
    assert.equal(campaigns.body.data[0].funding_instrument_id, fis.body.data[0].id);
    const lineItems = await k.ads.get(`/12/accounts/${account}/line_items`, { as });
    assert.equal(lineItems.body.data.length, 2);
    assert.ok(lineItems.body.data.every((l: any) => l.campaign_id === campaigns.body.data[0].id));
    const criteria = await k.ads.get(`/12/accounts/${account}/targeting_criteria`, { as, query: { line_item_ids: lineItems.body.data.map((l: any) => l.id) } });
    assert.ok(criteria.body.data.length >= 1);
    assert.equal((await k.ads.get(`/12/accounts/${account}/account_apps`, { as })).body.data.length, 1);
  }
  const ada = k.accountOf('ada');
  const promoted = await k.ads.get(`/12/accounts/${ada}/promoted_posts`);
  assert.equal(promoted.body.data.length, 2, 'ada\'s latest post is promoted, and her promoted-only post (issue #13)');
});

test('ads_account_ids lists the accounts a user administers first, then those shared with them; a later start reads them back from the store', async () => {
  const original = new Map(k.plaza.creds.users.map((u) => [u.id, [...u.ads_account_ids]]));
  const chen = k.user('chen');
  assert.equal(chen.ads_account_ids.length, 2);
  assert.equal(chen.ads_account_ids[1], k.user('plazanews').ads_account_ids[0]);
  const file = path.join(k.plaza.dataDir, 'credentials.json');
  const written = JSON.parse(fs.readFileSync(file, 'utf8'));
  for (const u of written.users) u.ads_account_ids = ['stale'];
  fs.writeFileSync(file, JSON.stringify(written));
  await k.sandbox.post('/12/accounts', { as: 'dana' });
  const restarted = await k.plaza.restart();
  for (const u of restarted.credentials!.users) {
    assert.deepEqual(u.ads_account_ids, original.get(u.id), `${u.username}: from the store, not the old file; sandbox accounts are not listed`);
  }
});

test('the demo lets one user post for another\'s account (issue 34): ada granted dana TWEET_COMPOSER, so dana posts on ada\'s account for ada with her own tokens, promoted-only; nullcast=false is only for the authenticated user', async () => {
  const ada = k.user('ada');
  const account = k.accountOf('ada');
  assert.ok(k.user('dana').ads_account_ids.includes(account), 'ada\'s account is among dana\'s');
  const made = await k.ads.post(`/12/accounts/${account}/tweet`, { as: 'dana', query: { as_user_id: ada.id, text: `for ada, by dana ${Date.now()}` } });
  assert.equal(made.status, 200, made.text);
  assert.equal(made.body.data.user.id_str ?? made.body.data.user.id, ada.id);
  const organic = await k.ads.post(`/12/accounts/${account}/tweet`, { as: 'dana', query: { as_user_id: ada.id, text: `organic for ada ${Date.now()}`, nullcast: false } });
  assert.equal(organic.status, 400, organic.text);
  assert.equal(organic.body.errors[0].parameter, 'nullcast');
  const own = await k.ads.post(`/12/accounts/${account}/tweet`, { as: 'ada', query: { as_user_id: ada.id, text: `organic by ada ${Date.now()}`, nullcast: false } });
  assert.equal(own.status, 200, own.text);
});
