import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { ManualClock } from '../../../src/clock.js';
import { postCountText } from '../../../src/platform/trends/service.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';
import { problemType } from '../../support/problems.js';

let plaza: TestPlaza;
let g: Fixtures;
const clock = new ManualClock(new Date('2026-09-01T12:00:00.000Z'));
const MIN = 60_000;

before(async () => {
  plaza = await startTestPlaza({}, { clock });
  g = fixtures(plaza);
});

async function post(username: string, text: string): Promise<string> {
  const res = await g.send('POST', '/2/posts', { auth: await g.enterpriseAs(username), body: { text } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  clock.advance(1000);
  return res.body.data.id;
}

const worldwide = async (query = 'max_trends=50') => (await g.get(`/2/trends/by/woeid/1?${query}`, { auth: g.appAuth })).body;
const named = (data: any[] | undefined, name: string) => (data ?? []).find((t) => t.trend_name.toLowerCase() === name.toLowerCase());

test('GET /2/trends/by/woeid/1 counts "real hashtag volume": one per post carrying the tag (any case), most posts first, trend_name and post_count by default', async () => {
  await post('ada', 'Kick-off #AlphaTrend #BetaTrend');
  await post('chen', 'more #alphatrend here');
  await post('dana', 'and #ALPHATREND again, #alphatrend twice in one post');
  await post('plazanews', 'just #BetaTrend');
  const body = await worldwide();
  const alpha = named(body.data, '#alphatrend');
  const beta = named(body.data, '#betatrend');
  assert.deepEqual(Object.keys(alpha).sort(), ['post_count', 'trend_name']);
  assert.equal(alpha.post_count, 3);
  assert.equal(beta.post_count, 2);
  assert.ok(body.data.indexOf(alpha) < body.data.indexOf(beta));
  assert.match(alpha.trend_name, /^#alphatrend$/i);
});

test('trends leave out deleted posts and the posts of protected accounts', async () => {
  await post('bruno', 'secret #GammaTrend');
  const id = await post('ada', 'public #GammaTrend');
  await post('chen', 'public too #GammaTrend');
  assert.equal(named((await worldwide()).data, '#gammatrend').post_count, 2);
  assert.equal((await g.send('DELETE', `/2/posts/${id}`, { auth: await g.enterpriseAs('ada') })).status, 200);
  assert.equal(named((await worldwide()).data, '#gammatrend').post_count, 1);
});

test('a protected account\'s own liked post counts in its personalized trends (a protected account\'s posts reach the account itself and its approved followers); muted and blocked accounts\' posts do not count', async () => {
  const bruno = g.user('bruno');
  const auth = await g.enterpriseAs('bruno');
  const own = await post('bruno', 'mine #ThetaTrend');
  assert.equal((await g.send('POST', `/2/users/${bruno.id}/likes`, { auth, body: { post_id: own } })).status, 200);
  const silenced = await post('chen', 'liked but muted #IotaTrend');
  assert.equal((await g.send('POST', `/2/users/${bruno.id}/likes`, { auth, body: { post_id: silenced } })).status, 200);
  assert.equal((await g.send('POST', `/2/users/${bruno.id}/muting`, { auth, body: { target_user_id: g.user('chen').id } })).status, 200);
  const res = await g.get('/2/users/personalized_trends?personalized_trend.fields=category,post_count,trend_name', { auth });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(named(res.body.data, '#thetatrend'), { trend_name: '#ThetaTrend', category: 'Trending in your likes', post_count: '1 post' });
  assert.equal(named(res.body.data, '#iotatrend'), undefined);
  assert.equal(named((await worldwide()).data, '#thetatrend'), undefined, 'not in anyone else\'s trends');
});

test('max_trends (1 to 50, default 20) bounds the list; trend.fields names only trend_name and post_count; bad values are a 400 naming the parameter', async () => {
  assert.equal((await worldwide('max_trends=1')).data.length, 1);
  assert.ok((await worldwide('')).data.length <= 20);
  for (const [q, name] of [['max_trends=0', 'max_trends'], ['max_trends=51', 'max_trends'], ['trend.fields=volume', 'trend.fields']]) {
    const res = await g.get(`/2/trends/by/woeid/1?${q}`, { auth: g.appAuth });
    assert.equal(res.status, 400, q);
    assert.ok(name in res.body.errors[0].parameters, q);
  }
  assert.equal((await g.get('/2/trends/by/woeid/1?trend.fields=trend_name,post_count', { auth: g.appAuth })).status, 200);
  assert.equal((await g.get('/2/trends/by/woeid/abc', { auth: g.appAuth })).status, 400);
  const tweetDialect = await g.get('/2/trends/by/woeid/1?max_trends=1&trend.fields=tweet_count', { auth: g.appAuth });
  assert.equal(tweetDialect.status, 200);
  assert.equal(typeof tweetDialect.body.data[0].tweet_count, 'number', "the public platform's name, answered in its dialect");
});

test('a country WOEID counts only posts whose geo names that country; an unknown WOEID answers a resource-not-found item naming woeid', async () => {
  const us = await post('ada', 'local #DeltaTrend');
  await post('chen', 'elsewhere #DeltaTrend');
  await plaza.ctx.store.db.updateTable('posts').set({ geo: JSON.stringify({ place_id: 'abc', country_code: 'US' }) }).where('id', '=', us).execute();
  const usTrends = (await g.get('/2/trends/by/woeid/23424977?max_trends=50', { auth: g.appAuth })).body;
  assert.equal(named(usTrends.data, '#deltatrend').post_count, 1);
  assert.equal(named(usTrends.data, '#alphatrend'), undefined, 'posts without geo are in no country');
  assert.equal(named((await g.get('/2/trends/by/woeid/23424975?max_trends=50', { auth: g.appAuth })).body.data, '#deltatrend'), undefined);
  assert.equal(named((await worldwide()).data, '#deltatrend').post_count, 2);
  const unknown = await g.get('/2/trends/by/woeid/999', { auth: g.appAuth });
  assert.equal(unknown.status, 200);
  assert.equal(unknown.body.data, undefined);
  assert.equal(unknown.body.errors[0].type, problemType('resource-not-found'));
  assert.equal(unknown.body.errors[0].parameter, 'woeid');
});

test('GET /2/users/personalized_trends: hashtags from "the posts of accounts the user follows and the user\'s own likes", with category, post_count (text), trending_since; not from others', async () => {
  const viewer = g.user('dana');
  const auth = await g.enterpriseAs('dana');
  assert.equal((await g.send('POST', `/2/users/${viewer.id}/following`, { auth, body: { target_user_id: g.user('ada').id } })).status, 200);
  await g.send('DELETE', `/2/users/${viewer.id}/following/${g.user('chen').id}`, { auth });
  const first = clock.now().toISOString();
  await post('ada', 'followed #EpsilonTrend');
  await post('ada', 'again #EpsilonTrend');
  const liked = await post('chen', 'not followed but liked #ZetaTrend');
  await post('chen', 'not followed #EtaTrend');
  assert.equal((await g.send('POST', `/2/users/${viewer.id}/likes`, { auth, body: { post_id: liked } })).status, 200);
  const res = await g.get('/2/users/personalized_trends?personalized_trend.fields=category,post_count,trend_name,trending_since', { auth });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const epsilon = named(res.body.data, '#epsilontrend');
  assert.equal(epsilon.post_count, '2 posts');
  assert.equal(epsilon.category, 'Trending in your network');
  assert.ok(epsilon.trending_since >= first);
  const zeta = named(res.body.data, '#zetatrend');
  assert.equal(zeta.post_count, '1 post');
  assert.equal(zeta.category, 'Trending in your likes');
  assert.equal(named(res.body.data, '#etatrend'), undefined);
  const plain = await g.get('/2/users/personalized_trends', { auth });
  assert.deepEqual(Object.keys(named(plain.body.data, '#epsilontrend')), ['trend_name']);
  const bad = await g.get('/2/users/personalized_trends?personalized_trend.fields=tweet_volume', { auth });
  assert.equal(bad.status, 400);
  assert.ok('personalized_trend.fields' in bad.body.errors[0].parameters);
  assert.equal((await g.get('/2/users/personalized_trends', { auth: g.appAuth })).status, 403, 'user context only');
});

test('post_count of a personalized trend reads as the client shows it', () => {
  assert.equal(postCountText(1), '1 post');
  assert.equal(postCountText(1234), '1,234 posts');
  assert.equal(postCountText(12_345), '12.3K posts');
  assert.equal(postCountText(1_250_000), '1.2M posts');
});

test('"over a recent window by the injected clock": hashtags older than 24 hours no longer trend', async () => {
  await post('ada', 'fresh #ThetaTrend');
  assert.ok(named((await worldwide()).data, '#thetatrend'));
  clock.advance(24 * 60 * MIN + MIN);
  const later = await worldwide();
  assert.equal(named(later.data, '#thetatrend'), undefined);
  assert.equal(named(later.data, '#alphatrend'), undefined);
});
