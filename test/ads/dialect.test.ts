import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { ADS_DIALECT_TABLES } from '../../src/ads/http/names.js';
import { lineItemQuery, startAdsPlaza, type AdsKit } from './support.js';

/**
 * The advertising interface's 'tweet' dialect (issues 34, 35 and 38): a client that speaks the
 * public Ads API's names (its hosts, its app's dialect setting, or the names themselves) is
 * answered in them throughout; spec 001's names are unchanged for everyone else.
 */
let k: AdsKit;
let s: { account: string; fundingInstrument: string; campaign: string };

before(async () => {
  k = await startAdsPlaza();
  s = await k.sandboxSetup();
});
after(() => k?.plaza.close());

const adsHost = 'ads-api.x.com';
const sandboxHost = 'ads-api-sandbox.twitter.com';

test('a request sent to the public Ads API\'s host is in the tweet dialect throughout: product_type PROMOTED_TWEETS, placements ALL_ON_TWITTER, automatic_tweet_promotion, media_category TWEET_IMAGE, tweet_volume; spec 001\'s names at Plaza\'s own address', async () => {
  const made = await k.sandbox.post(`/12/accounts/${s.account}/line_items`, { host: sandboxHost, query: lineItemQuery(s.campaign, { product_type: 'PROMOTED_TWEETS', placements: 'ALL_ON_TWITTER' }) });
  assert.equal(made.status, 200, made.text);
  assert.equal(made.body.data.product_type, 'PROMOTED_TWEETS');
  assert.deepEqual(made.body.data.placements, ['ALL_ON_TWITTER']);
  assert.ok('automatic_tweet_promotion' in made.body.data && !('automatic_post_promotion' in made.body.data));
  assert.equal(made.body.request.params.product_type, 'PROMOTED_TWEETS', 'the echo too');

  const plain = await k.sandbox.get(`/12/accounts/${s.account}/line_items/${made.body.data.id}`);
  assert.equal(plain.body.data.product_type, 'PROMOTED_POSTS');
  assert.deepEqual(plain.body.data.placements, ['ALL_ON_PLATFORM']);
  assert.ok('automatic_post_promotion' in plain.body.data);

  const placements = await k.ads.get('/12/line_items/placements', { host: adsHost, query: { product_type: 'PROMOTED_TWEETS' } });
  assert.equal(placements.status, 200, placements.text);
  assert.equal(placements.body.data[0].product_type, 'PROMOTED_TWEETS');
  assert.ok(placements.body.data[0].placements.flat().includes('TWITTER_TIMELINE'), JSON.stringify(placements.body.data));
  assert.ok(!JSON.stringify(placements.body).includes('PLATFORM_'));

  const library = await k.ads.get(`/12/accounts/${k.accountOf('ada')}/media_library`, { host: adsHost });
  assert.equal(library.status, 200, library.text);
  assert.ok(library.body.data.length > 0);
  for (const m of library.body.data) assert.ok(!String(m.media_category).startsWith('POST_'), m.media_category);
  assert.ok(library.body.data.some((m: { media_category: string }) => m.media_category === 'TWEET_IMAGE'));

  const insights = await k.ads.get('/12/insights/keywords/search', { host: adsHost, query: { granularity: 'DAY', keywords: 'plaza', start_time: new Date(k.clock.now().getTime() - 3 * 86_400_000).toISOString() } });
  assert.equal(insights.status, 200, insights.text);
  assert.ok(Array.isArray(insights.body.data.tweet_volume) && !('post_volume' in insights.body.data));
});

test('the public platform\'s paths and parameters are translated at the edge: promoted_tweets with tweet_ids in a signed form body, errors naming tweet_ids, and Plaza\'s paths for the same records', async () => {
  const lineItem = (await k.sandbox.post(`/12/accounts/${s.account}/line_items`, { query: lineItemQuery(s.campaign) })).body.data.id as string;
  const [post] = k.plaza.creds.sample.post_ids;
  const made = await k.sandbox.post(`/12/accounts/${s.account}/promoted_tweets`, { form: { line_item_id: lineItem, tweet_ids: post } });
  assert.equal(made.status, 200, made.text);
  assert.deepEqual(Object.keys(made.body.request.params).sort(), ['account_id', 'line_item_id', 'tweet_ids']);
  assert.equal(made.body.data[0].tweet_id, post);
  const plain = await k.sandbox.get(`/12/accounts/${s.account}/promoted_posts/${made.body.data[0].id}`);
  assert.equal(plain.body.data.post_id, post, 'one record behind both names');

  const missing = await k.sandbox.post(`/12/accounts/${s.account}/promoted_tweets`, { query: { line_item_id: lineItem } });
  assert.equal(missing.status, 400);
  assert.equal(missing.body.errors[0].parameter, 'tweet_ids');
  assert.match(missing.body.errors[0].message, /tweet_ids/);
  assert.ok(!missing.text.includes('post_ids'), missing.text);

  const unknown = await k.sandbox.get(`/12/accounts/${s.account}/promoted_tweets/nothing`);
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.errors[0].parameter, 'promoted_tweet_id');
});

test('a body member of the dialect puts the request in it: tweet_ids in a JSON body at Plaza\'s own path answers tweet_id', async () => {
  const lineItem = (await k.sandbox.post(`/12/accounts/${s.account}/line_items`, { query: lineItemQuery(s.campaign) })).body.data.id as string;
  const adaPost = (await k.plaza.ctx.store.db.selectFrom('posts').select('id').where('author_id', '=', k.user('ada').id).where('deleted_at', 'is', null).executeTakeFirstOrThrow()).id;
  const made = await k.sandbox.post(`/12/accounts/${s.account}/promoted_posts`, { json: { line_item_id: lineItem, tweet_ids: adaPost } });
  assert.equal(made.status, 200, made.text);
  assert.equal(made.body.data[0].tweet_id, adaPost);
  assert.ok('tweet_ids' in made.body.request.params);
  const plain = await k.sandbox.post(`/12/accounts/${s.account}/promoted_posts`, { json: { line_item_id: lineItem, post_ids: adaPost } });
  assert.equal(plain.status, 200, plain.text);
  assert.equal(plain.body.data[0].post_id, adaPost, 'spec 001\'s names answer in them');
});

test('an app whose dialect is tweet is answered in it on Plaza\'s own paths and address (as its platform requests are)', async () => {
  const admin = { authorization: `Bearer ${k.plaza.creds.admin_token}`, 'content-type': 'application/json' };
  const app = k.plaza.creds.apps[0];
  const setDialect = (dialect: string) => fetch(`${k.plaza.urls.base_url}/admin/apps/${app.id}`, { method: 'PATCH', headers: admin, body: JSON.stringify({ dialect }) });
  assert.equal((await setDialect('tweet')).status, 200);
  try {
    const list = await k.sandbox.get(`/12/accounts/${s.account}/line_items`);
    assert.equal(list.status, 200, list.text);
    assert.ok(list.body.data.length > 0);
    for (const l of list.body.data) {
      assert.equal(l.product_type, 'PROMOTED_TWEETS');
      assert.ok('automatic_tweet_promotion' in l);
    }
    const posts = await k.sandbox.get(`/12/accounts/${s.account}/promoted_posts`);
    assert.equal(posts.status, 200);
    for (const p of posts.body.data) assert.ok('tweet_id' in p && !('post_id' in p));
  } finally {
    assert.equal((await setDialect('post')).status, 200);
  }
  assert.equal((await k.sandbox.get(`/12/accounts/${s.account}/line_items`)).body.data[0].product_type, 'PROMOTED_POSTS');
});

const ADS_REFERENCE = '/work/shared/reference/ads.md';

test('every tweet name the public Ads API reference uses is in the ads dialect\'s table (or answered as is)', { skip: existsSync(ADS_REFERENCE) ? false : `${ADS_REFERENCE} is not here` }, () => {
  const reference = readFileSync(ADS_REFERENCE, 'utf8');
  const known = new Set<string>([...ADS_DIALECT_TABLES.segments, ...ADS_DIALECT_TABLES.names].map(([tweet]) => tweet));
  for (const pairs of Object.values(ADS_DIALECT_TABLES.values)) for (const [tweet] of pairs) known.add(tweet);
  // Error codes the public platform and Plaza both send as they are, and endpoints Plaza does not serve.
  const asIs = new Set(['promoted_tweet', 'promoted_tweets_attach', 'scheduled_promoted_tweets', 'DUPLICATE_TWEET', 'INVALID_TWEET', 'TWEET_CANNOT_BE_BLANK', 'PROMOTED_TWEET_NOT_FOUND', 'TWEET_NOT_FOUND', 'TWEET_RATE_LIMIT_EXCEEDED', 'TWEET_COMPOSER']);
  const names = new Set(reference.match(/\b[A-Za-z_]*(?:tweet|TWEET|TWITTER)[A-Za-z_]*\b/g) ?? []);
  const missing = [...names].filter((n) => /^[a-z_]+$|^[A-Z_]+$/.test(n) && n.includes('_') && !known.has(n) && !asIs.has(n));
  assert.deepEqual(missing, []);
});
