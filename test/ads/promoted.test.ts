import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { linkAccountUser } from '../../src/ads/accounts/store.js';
import { normalise } from '../support/normalise.js';
import { lineItemQuery, startAdsPlaza, type AdsKit } from './support.js';

/** Promoted posts (posts of the `posts` table attached to line items) and promoted accounts. */
let k: AdsKit;
let s: { account: string; fundingInstrument: string; campaign: string };
let lineItem: string;
let adaPost: string;
let chenPost: string;
const pp = () => `/12/accounts/${s.account}/promoted_posts`;

before(async () => {
  k = await startAdsPlaza();
  s = await k.sandboxSetup('ada');
  lineItem = (await k.sandbox.post(`/12/accounts/${s.account}/line_items`, { query: lineItemQuery(s.campaign) })).body.data.id;
  [adaPost, chenPost] = k.plaza.creds.sample.post_ids;
});

async function adaPosts(n: number): Promise<string[]> {
  const rows = await k.plaza.ctx.store.db.selectFrom('posts').select('id').where('author_id', '=', k.user('ada').id).where('deleted_at', 'is', null).execute();
  assert.ok(rows.length >= n, `ada has ${rows.length} posts`);
  return rows.slice(0, n).map((r) => r.id);
}

test('POST promoted_posts attaches posts to a line item: data is an array with total_count; each has post_id, line_item_id, entity_status, approval_status', async () => {
  const ids = await adaPosts(2);
  const res = await k.sandbox.post(pp(), { query: { line_item_id: lineItem, post_ids: ids.join(',') } });
  assert.equal(res.status, 200, res.text);
  // post_ids are echoed as JSON numbers (digits exact), as the public platform writes them (its SDK's fixtures).
  assert.ok(res.text.includes(`"post_ids":[${ids.join(',')}]`), res.text);
  const echoed = { ...res.body, request: { params: { ...res.body.request.params, post_ids: ids } } };
  assert.deepEqual(normalise(echoed, { [s.account]: 'account', [lineItem]: 'line_item', [ids[0]]: 'post1', [ids[1]]: 'post2', [res.body.data[0].id]: 'promoted1', [res.body.data[1].id]: 'promoted2' }), {
    request: { params: { account_id: '<account>', line_item_id: '<line_item>', post_ids: ['<post1>', '<post2>'] } },
    data: [
      {
        line_item_id: '<line_item>', id: '<promoted1>', entity_status: 'ACTIVE', created_at: '<time>', updated_at: '<time>',
        approval_status: 'ACCEPTED', post_id: '<post1>', deleted: false,
      },
      {
        line_item_id: '<line_item>', id: '<promoted2>', entity_status: 'ACTIVE', created_at: '<time>', updated_at: '<time>',
        approval_status: 'ACCEPTED', post_id: '<post2>', deleted: false,
      },
    ],
    total_count: 2,
  });
  // deepEqual does not compare the order of keys.
  assert.deepEqual(Object.keys(res.body.data[0]), ['line_item_id', 'id', 'entity_status', 'created_at', 'updated_at', 'approval_status', 'post_id', 'deleted']);
  const again = await k.sandbox.post(pp(), { query: { line_item_id: lineItem, post_ids: ids[0] } });
  assert.equal(again.body.data[0].id, res.body.data.find((d: any) => d.post_id === ids[0]).id, 'promoting a post twice keeps one record');
});

test('promoted posts must be live posts of the account\'s users (404 for unknown posts, 400 for others\' posts); up to 50 post_ids; a MEDIA line item cannot hold posts', async () => {
  const unknown = await k.sandbox.post(pp(), { query: { line_item_id: lineItem, post_ids: '1234567890123456789' } });
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.errors[0].parameter, 'post_ids');
  const foreign = await k.sandbox.post(pp(), { query: { line_item_id: lineItem, post_ids: `${adaPost},${chenPost}` } });
  assert.equal(foreign.status, 400);
  assert.match(foreign.body.errors[0].message, new RegExp(`Post ${chenPost} cannot be promoted`));
  const tooMany = await k.sandbox.post(pp(), { query: { line_item_id: lineItem, post_ids: Array.from({ length: 51 }, (_, i) => String(1000 + i)).join(',') } });
  assert.equal(tooMany.status, 400);
  assert.match(tooMany.body.errors[0].message, /at most 50/);
  assert.equal((await k.sandbox.post(pp(), { query: { line_item_id: lineItem, post_ids: 'abc' } })).body.errors[0].parameter, 'post_ids');
  const media = await k.sandbox.post(`/12/accounts/${s.account}/campaigns`, { query: { funding_instrument_id: s.fundingInstrument, name: 'media' } });
  const mediaItem = await k.sandbox.post(`/12/accounts/${s.account}/line_items`, {
    query: lineItemQuery(media.body.data.id, { product_type: 'MEDIA', objective: 'VIDEO_VIEWS', placements: 'TAP_BANNER' }),
  });
  const refused = await k.sandbox.post(pp(), { query: { line_item_id: mediaItem.body.data.id, post_ids: adaPost } });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.errors[0].parameter, 'line_item_id');
  assert.equal((await k.sandbox.post(pp(), { query: { line_item_id: 'nothing', post_ids: adaPost } })).status, 404);
});

test('GET promoted_posts lists them (line_item_ids, promoted_post_ids, count, cursor, sort_by, with_deleted, with_total_count) and one by id', async () => {
  const list = await k.sandbox.get(pp(), { query: { line_item_ids: lineItem, with_total_count: 'true', count: 1, sort_by: 'created_at-asc' } });
  assert.equal(list.status, 200);
  assert.equal(list.body.total_count, 2);
  assert.equal(list.body.data.length, 1);
  const next = await k.sandbox.get(pp(), { query: { line_item_ids: lineItem, count: 1, sort_by: 'created_at-asc', cursor: list.body.next_cursor } });
  assert.equal(next.body.data.length, 1);
  assert.notEqual(next.body.data[0].id, list.body.data[0].id);
  const byId = await k.sandbox.get(pp(), { query: { promoted_post_ids: list.body.data[0].id } });
  assert.deepEqual(byId.body.data, list.body.data);
  assert.deepEqual((await k.sandbox.get(`${pp()}/${list.body.data[0].id}`)).body.data, list.body.data[0]);
});

test('DELETE promoted_posts/:id returns it with deleted = true; it shows only with with_deleted=true; a second DELETE is 404', async () => {
  const [post] = await adaPosts(1);
  const made = (await k.sandbox.post(pp(), { query: { line_item_id: lineItem, post_ids: post } })).body.data[0];
  const res = await k.sandbox.del(`${pp()}/${made.id}`);
  assert.equal(res.body.data.deleted, true);
  assert.equal((await k.sandbox.del(`${pp()}/${made.id}`)).status, 404);
  assert.ok(!(await k.sandbox.get(pp())).body.data.some((d: any) => d.id === made.id));
  assert.ok((await k.sandbox.get(pp(), { query: { with_deleted: 'true' } })).body.data.some((d: any) => d.id === made.id && d.deleted));
  const fresh = await k.sandbox.post(pp(), { query: { line_item_id: lineItem, post_ids: post } });
  assert.notEqual(fresh.body.data[0].id, made.id, 'promoting it again makes a new record');
});

test('the public platform\'s promoted_tweets path, tweet_ids and tweet_id work for the official SDKs, answered in their names', async () => {
  const [post] = await adaPosts(1);
  const res = await k.sandbox.post(`/12/accounts/${s.account}/promoted_tweets`, { query: { line_item_id: lineItem, tweet_ids: post } });
  assert.equal(res.status, 200, res.text);
  // tweet_ids echoed as a JSON number, as the public platform writes it (the SDK's fixture).
  assert.ok(res.text.includes(`"tweet_ids":[${post}]`), res.text);
  const echoed = { ...res.body, request: { params: { ...res.body.request.params, tweet_ids: [post] } } };
  assert.deepEqual(normalise(echoed, { [s.account]: 'account', [lineItem]: 'line_item', [post]: 'post', [res.body.data[0].id]: 'promoted_post' }), {
    request: { params: { account_id: '<account>', line_item_id: '<line_item>', tweet_ids: ['<post>'] } },
    data: [
      {
        line_item_id: '<line_item>', id: '<promoted_post>', entity_status: 'ACTIVE', created_at: '<time>', updated_at: '<time>',
        approval_status: 'ACCEPTED', tweet_id: '<post>', deleted: false,
      },
    ],
    total_count: 1,
  });
  const list = await k.sandbox.get(`/12/accounts/${s.account}/promoted_tweets`, { query: { promoted_tweet_ids: res.body.data[0].id } });
  assert.equal(list.body.data[0].tweet_id, post);
  const deleted = await k.sandbox.del(`/12/accounts/${s.account}/promoted_tweets/${res.body.data[0].id}`);
  assert.equal(deleted.body.data.deleted, true);
  assert.deepEqual(deleted.body.request.params, { account_id: s.account, promoted_tweet_id: res.body.data[0].id });
});

test('"GET promoted_accounts ... returns HTTP 400 when none of the given line items is configured for promoted accounts"', async () => {
  const path = `/12/accounts/${s.account}/promoted_accounts`;
  const res = await k.sandbox.get(path, { query: { line_item_ids: lineItem } });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].parameter, 'line_item_ids');
  assert.match(res.body.errors[0].message, /configured for promoted accounts/);
  assert.equal((await k.sandbox.get(path, { query: { line_item_ids: 'unknown1,unknown2' } })).status, 400);
  const followers = await k.sandbox.post(`/12/accounts/${s.account}/campaigns`, { query: { funding_instrument_id: s.fundingInstrument, name: 'followers' } });
  const accountItem = (
    await k.sandbox.post(`/12/accounts/${s.account}/line_items`, {
      query: lineItemQuery(followers.body.data.id, { product_type: 'PROMOTED_ACCOUNT', objective: 'FOLLOWERS', placements: 'ALL_ON_PLATFORM' }),
    })
  ).body.data.id;
  const mixed = await k.sandbox.get(path, { query: { line_item_ids: `${lineItem},${accountItem}` } });
  assert.equal(mixed.status, 200, 'one of them is configured');
  assert.deepEqual(mixed.body.data, []);
  assert.equal((await k.sandbox.get(path)).status, 200, 'without line_item_ids every promoted account is listed');
});

test('POST promoted_accounts attaches a user to a PROMOTED_ACCOUNT line item (again is ignored); GET lists and gets them; DELETE returns deleted = true', async () => {
  const path = `/12/accounts/${s.account}/promoted_accounts`;
  const campaign = await k.sandbox.post(`/12/accounts/${s.account}/campaigns`, { query: { funding_instrument_id: s.fundingInstrument, name: 'follow me' } });
  const item = (
    await k.sandbox.post(`/12/accounts/${s.account}/line_items`, {
      query: lineItemQuery(campaign.body.data.id, { product_type: 'PROMOTED_ACCOUNT', objective: 'FOLLOWERS', placements: 'PLATFORM_TIMELINE' }),
    })
  ).body.data.id;
  const ada = k.user('ada').id;
  const res = await k.sandbox.post(path, { query: { line_item_id: item, user_id: ada } });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(normalise(res.body, { [s.account]: 'account', [item]: 'line_item', [ada]: 'ada', [res.body.data.id]: 'promoted_account' }), {
    request: { params: { account_id: '<account>', line_item_id: '<line_item>', user_id: '<ada>' } },
    data: {
      line_item_id: '<line_item>', user_id: '<ada>', id: '<promoted_account>', entity_status: 'ACTIVE', created_at: '<time>', updated_at: '<time>',
      approval_status: 'ACCEPTED', deleted: false,
    },
  });
  // deepEqual does not compare the order of keys.
  assert.deepEqual(Object.keys(res.body.data), ['line_item_id', 'user_id', 'id', 'entity_status', 'created_at', 'updated_at', 'approval_status', 'deleted']);
  assert.equal((await k.sandbox.post(path, { query: { line_item_id: item, user_id: ada } })).body.data.id, res.body.data.id);
  const incompatible = await k.sandbox.post(path, { query: { line_item_id: lineItem, user_id: ada } });
  assert.equal(incompatible.status, 400);
  assert.equal(incompatible.body.errors[0].code, 'INCOMPATIBLE_LINE_ITEM');
  assert.equal((await k.sandbox.post(path, { query: { line_item_id: item, user_id: '42' } })).body.errors[0].code, 'INVALID_USER_ID');
  const list = await k.sandbox.get(path, { query: { line_item_ids: item, with_total_count: 'true' } });
  assert.equal(list.body.total_count, 1);
  assert.equal((await k.sandbox.get(`${path}/${res.body.data.id}`)).body.data.user_id, ada);
  const deleted = await k.sandbox.del(`${path}/${res.body.data.id}`);
  assert.equal(deleted.body.data.deleted, true);
  assert.equal((await k.sandbox.del(`${path}/${res.body.data.id}`)).status, 404);
  assert.deepEqual((await k.sandbox.get(path, { query: { line_item_ids: item } })).body.data, []);
  assert.equal((await k.sandbox.get(path, { query: { line_item_ids: item, with_deleted: 'true' } })).body.data.length, 1);
});

test('GET promotable_users lists the users whose posts the account may promote: its own user FULL, a user who joined it RETWEETS_ONLY; by id too, 404 for another', async () => {
  const ada = k.user('ada').id;
  const bruno = k.user('bruno').id;
  await linkAccountUser(k.plaza.ctx.store.db, s.account, bruno, ['TWEET_COMPOSER'], k.clock.now().toISOString());
  const res = await k.sandbox.get(`/12/accounts/${s.account}/promotable_users`);
  assert.equal(res.status, 200, res.text);
  const byUser = new Map<string, any>(res.body.data.map((u: any) => [u.user_id, u]));
  assert.deepEqual(normalise(byUser.get(ada), { [s.account]: 'account', [ada]: 'ada' }), {
    id: normalise(byUser.get(ada).id), account_id: '<account>', user_id: '<ada>', promotable_user_type: 'FULL', created_at: '<time>', updated_at: '<time>', deleted: false,
  });
  assert.equal(byUser.get(bruno).promotable_user_type, 'RETWEETS_ONLY');
  const brunoId = byUser.get(bruno).id;
  assert.match(brunoId, /^[0-9a-z]+$/);
  const one = await k.sandbox.get(`/12/accounts/${s.account}/promotable_users/${brunoId}`);
  assert.equal(one.status, 200, one.text);
  assert.equal(one.body.data.user_id, bruno);
  const filtered = await k.sandbox.get(`/12/accounts/${s.account}/promotable_users`, { query: { promotable_user_ids: brunoId } });
  assert.deepEqual(filtered.body.data.map((u: any) => u.user_id), [bruno]);
  assert.equal((await k.sandbox.get(`/12/accounts/${s.account}/promotable_users/zzz1`)).status, 404);
  // Promoting a post of each works; the rule and the list agree.
  const [brunoPost] = (await k.plaza.ctx.store.db.selectFrom('posts').select('id').where('author_id', '=', bruno).where('deleted_at', 'is', null).execute()).map((r) => r.id);
  if (brunoPost) assert.equal((await k.sandbox.post(pp(), { query: { line_item_id: lineItem, post_ids: brunoPost } })).status, 200);
});

test('promotable_user_ids that name no promotable user list nothing (400 for what is not an id)', async () => {
  const none = await k.sandbox.get(`/12/accounts/${s.account}/promotable_users`, { query: { promotable_user_ids: 'zz9,zz8' } });
  assert.equal(none.status, 200, none.text);
  assert.deepEqual(none.body.data, []);
  assert.equal((await k.sandbox.get(`/12/accounts/${s.account}/promotable_users`, { query: { promotable_user_ids: 'X!' } })).body.errors[0].parameter, 'promotable_user_ids');
});
