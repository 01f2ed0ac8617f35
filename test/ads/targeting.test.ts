import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { normalise } from '../support/normalise.js';
import { lineItemQuery, startAdsPlaza, type AdsKit } from './support.js';

/** Targeting criteria and the audience estimate (spec 001 "Accounts and related"; shared/reference/ads.md §3). */
let k: AdsKit;
let s: { account: string; fundingInstrument: string; campaign: string };
let path: string;

before(async () => {
  k = await startAdsPlaza();
  s = await k.sandboxSetup('ada');
  path = `/12/accounts/${s.account}/targeting_criteria`;
});

async function lineItem(extra: Record<string, string> = {}): Promise<string> {
  const res = await k.sandbox.post(`/12/accounts/${s.account}/line_items`, { query: lineItemQuery(s.campaign, extra) });
  assert.equal(res.status, 200, res.text);
  return res.body.data.id;
}

const add = (line_item_id: string, targeting_type: string, targeting_value: string, extra: Record<string, string> = {}) =>
  k.sandbox.post(path, { query: { line_item_id, targeting_type, targeting_value, ...extra } });

test('POST targeting_criteria takes line_item_id, targeting_type and targeting_value; operator_type defaults to EQ; the object names the criterion', async () => {
  const li = await lineItem();
  const res = await add(li, 'BROAD_KEYWORD', 'technology');
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(normalise(res.body, { [s.account]: 'account', [li]: 'line_item', [res.body.data.id]: 'criterion' }), {
    request: { params: { account_id: '<account>', line_item_id: '<line_item>', targeting_type: 'BROAD_KEYWORD', targeting_value: 'technology' } },
    data: {
      line_item_id: '<line_item>', name: 'technology', id: '<criterion>', operator_type: 'EQ', created_at: '<time>', targeting_value: 'technology',
      updated_at: '<time>', deleted: false, targeting_type: 'BROAD_KEYWORD',
    },
  });
  const followers = await add(li, 'FOLLOWERS_OF_USER', k.user('plazanews').id);
  assert.equal(followers.body.data.name, '@plazanews');
  const location = await add(li, 'LOCATION', 'us', { operator_type: 'NE' });
  assert.equal(location.body.data.location_type, 'COUNTRIES');
  assert.equal(location.body.data.operator_type, 'NE');
  for (const missing of ['line_item_id', 'targeting_type', 'targeting_value']) {
    const query: Record<string, string> = { line_item_id: li, targeting_type: 'BROAD_KEYWORD', targeting_value: 'x' };
    delete query[missing];
    assert.equal((await k.sandbox.post(path, { query })).body.errors[0].code, 'MISSING_PARAMETER');
  }
  assert.equal((await add(li, 'MIND_READING', 'x')).body.errors[0].parameter, 'targeting_type');
  assert.equal((await add(li, 'BROAD_KEYWORD', 'x', { operator_type: 'ABOUT' })).body.errors[0].parameter, 'operator_type');
  assert.equal((await add('nosuchline', 'BROAD_KEYWORD', 'x')).status, 404);
});

test('"APP_LIST (only with NE)"', async () => {
  const li = await lineItem();
  const eq = await add(li, 'APP_LIST', 'list1');
  assert.equal(eq.status, 400);
  assert.equal(eq.body.errors[0].parameter, 'operator_type');
  assert.equal((await add(li, 'APP_LIST', 'list1', { operator_type: 'NE' })).status, 200);
});

test('"Only one AGE bucket per line item"', async () => {
  const li = await lineItem();
  assert.equal((await add(li, 'AGE', 'AGE_18_TO_24')).status, 200);
  const second = await add(li, 'AGE', 'AGE_25_TO_34');
  assert.equal(second.status, 400);
  assert.match(second.body.errors[0].message, /one AGE bucket/);
  assert.equal((await add(await lineItem(), 'AGE', 'AGE_25_TO_34')).status, 200, 'another line item has its own bucket');
});

test('"TV_SHOW needs a LOCATION criterion first"', async () => {
  const li = await lineItem();
  const early = await add(li, 'TV_SHOW', '10027243420');
  assert.equal(early.status, 400);
  assert.equal(early.body.errors[0].code, 'INVALID_TV_SHOW_LOCATIONS');
  await add(li, 'LOCATION', 'US');
  assert.equal((await add(li, 'TV_SHOW', '10027243420')).status, 200);
});

test('"A custom audience must be targetable": an audience that is not (none exists yet) is refused', async () => {
  const res = await add(await lineItem(), 'CUSTOM_AUDIENCE', '249yj');
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].parameter, 'targeting_value');
  assert.match(res.body.errors[0].message, /not targetable/);
});

test('follower targeting names an existing user (INVALID_USER_ID otherwise)', async () => {
  const res = await add(await lineItem(), 'SIMILAR_TO_FOLLOWERS_OF_USER', '12345');
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].code, 'INVALID_USER_ID');
});

test('"GET targeting_criteria requires line_item_ids" (up to 200) and takes targeting_criterion_ids, count, cursor, sort_by, with_deleted, with_total_count', async () => {
  const li = await lineItem();
  const a = (await add(li, 'BROAD_KEYWORD', 'alpha')).body.data.id;
  const b = (await add(li, 'BROAD_KEYWORD', 'bravo')).body.data.id;
  const missing = await k.sandbox.get(path);
  assert.deepEqual(missing.body.errors[0], { code: 'MISSING_PARAMETER', message: 'line_item_ids is missing', parameter: 'line_item_ids' });
  const list = await k.sandbox.get(path, { query: { line_item_ids: li, with_total_count: 'true', count: 1, sort_by: 'created_at-asc' } });
  assert.equal(list.body.total_count, 2);
  assert.deepEqual(list.body.data.map((t: any) => t.id), [a]);
  const rest = await k.sandbox.get(path, { query: { line_item_ids: li, count: 1, sort_by: 'created_at-asc', cursor: list.body.next_cursor } });
  assert.deepEqual(rest.body.data.map((t: any) => t.id), [b]);
  assert.deepEqual((await k.sandbox.get(path, { query: { line_item_ids: li, targeting_criterion_ids: b } })).body.data.map((t: any) => t.id), [b]);
  assert.equal((await k.sandbox.get(`${path}/${a}`)).body.data.targeting_value, 'alpha');
  const tooMany = await k.sandbox.get(path, { query: { line_item_ids: Array.from({ length: 201 }, (_, i) => `l${i}`).join(',') } });
  assert.equal(tooMany.status, 400);
  assert.ok(list.headers.get('x-rate-limit-limit'), 'targeting reads answer their category\'s user-level limit');
});

test('DELETE targeting_criteria/:id returns it with deleted = true; it then shows only with with_deleted=true; a second DELETE is 404', async () => {
  const li = await lineItem();
  const id = (await add(li, 'LANGUAGE', 'en')).body.data.id;
  const res = await k.sandbox.del(`${path}/${id}`);
  assert.equal(res.body.data.deleted, true);
  assert.equal((await k.sandbox.del(`${path}/${id}`)).status, 404);
  assert.deepEqual((await k.sandbox.get(path, { query: { line_item_ids: li } })).body.data, []);
  assert.equal((await k.sandbox.get(path, { query: { line_item_ids: li, with_deleted: 'true' } })).body.data[0].deleted, true);
  assert.equal((await k.sandbox.get(`${path}/${id}`)).status, 404);
  assert.equal((await k.sandbox.get(`${path}/${id}`, { query: { with_deleted: 'true' } })).status, 200);
  const again = await add(li, 'AGE', 'AGE_18_TO_24');
  await k.sandbox.del(`${path}/${again.body.data.id}`);
  assert.equal((await add(li, 'AGE', 'AGE_25_TO_34')).status, 200, 'a deleted AGE bucket no longer counts');
});

// The audience estimate, computed from Plaza's own users.
const estimate = (body: unknown, o: { headers?: Record<string, string> } = {}) => k.sandbox.post(`/12/accounts/${s.account}/audience_estimate`, { json: body, ...o });

async function followersOf(userId: string): Promise<string[]> {
  const rows = await k.plaza.ctx.store.db.selectFrom('follows').select('source_user_id').where('target_user_id', '=', userId).execute();
  return rows.map((r) => r.source_user_id);
}

const expected = (n: number) => ({ min: Math.floor(n * 0.95), max: Math.ceil(n * 1.05) });

test('"POST audience_estimate: JSON array of targeting criteria objects": the size counts Plaza users who follow the account for FOLLOWERS_OF_USER', async () => {
  const ada = k.user('ada').id;
  const followers = await followersOf(ada);
  assert.ok(followers.length > 0);
  const res = await estimate([{ targeting_type: 'FOLLOWERS_OF_USER', targeting_value: ada }]);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, {
    request: { params: { account_id: s.account, targeting_criteria: [{ targeting_type: 'FOLLOWERS_OF_USER', targeting_value: ada, operator_type: 'EQ' }] } },
    data: { audience_size: expected(followers.length) },
  });
  const wrapped = await estimate({ targeting_criteria: [{ targeting_type: 'FOLLOWERS_OF_USER', targeting_value: ada }] });
  assert.deepEqual(wrapped.body.data, res.body.data, 'the public docs\' {targeting_criteria:[...]} body works too');
});

test('the audience estimate unions primary criteria, removes NE criteria and narrows by LANGUAGE; keywords reach the users who posted them', async () => {
  const ada = k.user('ada').id;
  const news = k.user('plazanews').id;
  const union = new Set([...(await followersOf(ada)), ...(await followersOf(news))]);
  const both = await estimate([
    { targeting_type: 'FOLLOWERS_OF_USER', targeting_value: ada },
    { targeting_type: 'FOLLOWERS_OF_USER', targeting_value: news },
  ]);
  assert.deepEqual(both.body.data.audience_size, expected(union.size));
  const adaFollowers = await followersOf(ada);
  const newsFollowers = new Set(await followersOf(news));
  const excluded = await estimate([
    { targeting_type: 'FOLLOWERS_OF_USER', targeting_value: ada },
    { targeting_type: 'FOLLOWERS_OF_USER', targeting_value: news, operator_type: 'NE' },
  ]);
  assert.deepEqual(excluded.body.data.audience_size, expected(adaFollowers.filter((u) => !newsFollowers.has(u)).length));
  const posts = await k.plaza.ctx.store.db.selectFrom('posts').select(['author_id', 'text']).where('deleted_at', 'is', null).execute();
  const posters = new Set(posts.filter((p) => p.text.toLowerCase().includes('plaza')).map((p) => p.author_id));
  const keyword = await estimate([{ targeting_type: 'BROAD_KEYWORD', targeting_value: 'PLAZA' }]);
  assert.deepEqual(keyword.body.data.audience_size, expected(posters.size));
  const nobody = await estimate([
    { targeting_type: 'BROAD_KEYWORD', targeting_value: 'plaza' },
    { targeting_type: 'LANGUAGE', targeting_value: 'xx' },
  ]);
  assert.deepEqual(nobody.body.data.audience_size, { min: 0, max: 0 }, 'no one posts in language xx');
  const ignored = await estimate([
    { targeting_type: 'BROAD_KEYWORD', targeting_value: 'plaza' },
    { targeting_type: 'GENDER', targeting_value: '1' },
  ]);
  assert.deepEqual(ignored.body.data, keyword.body.data, 'criteria without data in Plaza do not narrow');
});

test('"at least one primary targeting criterion is required"', async () => {
  const res = await estimate([{ targeting_type: 'LOCATION', targeting_value: 'US' }, { targeting_type: 'LANGUAGE', targeting_value: 'en' }]);
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].parameter, 'targeting_criteria');
  assert.match(res.body.errors[0].message, /primary targeting criterion/);
  const negatedOnly = await estimate([{ targeting_type: 'BROAD_KEYWORD', targeting_value: 'plaza', operator_type: 'NE' }]);
  assert.equal(negatedOnly.status, 400);
});

test('"the parameters are those of the targeting criteria creation operation": each criterion is checked and errors name it; "Content-Type application/json" is required', async () => {
  const missing = await estimate([{ targeting_type: 'BROAD_KEYWORD', targeting_value: 'x' }, { targeting_type: 'FOLLOWERS_OF_USER' }]);
  assert.deepEqual(missing.body.errors[0], { code: 'MISSING_PARAMETER', message: 'targeting_criteria[1].targeting_value is missing', parameter: 'targeting_criteria[1].targeting_value' });
  const badType = await estimate([{ targeting_type: 'PSYCHIC', targeting_value: 'x' }]);
  assert.equal(badType.body.errors[0].parameter, 'targeting_criteria[0].targeting_type');
  const twoAges = await estimate([
    { targeting_type: 'BROAD_KEYWORD', targeting_value: 'x' },
    { targeting_type: 'AGE', targeting_value: 'AGE_18_TO_24' },
    { targeting_type: 'AGE', targeting_value: 'AGE_25_TO_34' },
  ]);
  assert.match(twoAges.body.errors[0].message, /one AGE bucket/);
  const unknownUser = await estimate([{ targeting_type: 'FOLLOWERS_OF_USER', targeting_value: '1' }]);
  assert.equal(unknownUser.body.errors[0].code, 'INVALID_USER_ID');
  const form = await k.sandbox.post(`/12/accounts/${s.account}/audience_estimate`, { form: { targeting_type: 'BROAD_KEYWORD', targeting_value: 'x' } });
  assert.equal(form.status, 400);
  assert.match(form.body.errors[0].message, /Content-Type application\/json/);
  assert.equal((await estimate([])).status, 400);
  assert.equal((await estimate({})).status, 400);
  assert.equal((await estimate(['text'])).status, 400);
});
