import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { OffsetClock } from '../../../src/clock.js';
import { newPostRow, recordPost } from '../../../src/platform/posts/build.js';
import { adsFixtures, type AdsKit } from '../../ads/support.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';

/**
 * The text matchers outside search that run on the query language and its indexes (issue #11):
 * mentions (the mentions timeline and rule 1's summoning), users search on the names index, and
 * the keyword criteria of audience estimates. One Plaza for all, on whichever store the suite runs.
 */
let plaza: TestPlaza;
let g: Fixtures;
let p: Fixtures;
let k: AdsKit;
let account: string;

before(async () => {
  const clock = new OffsetClock();
  plaza = await startTestPlaza({}, { clock });
  g = fixtures(plaza);
  p = fixtures(plaza);
  k = adsFixtures(plaza, clock);
  account = (await k.sandboxSetup('ada')).account;
});

/** Writes a post straight to the store, as the posts area would. */
async function storePost(username: string, text: string) {
  const ctx = plaza.ctx;
  const row = newPostRow(ctx.ids.next(), { authorId: g.user(username).id, text, createdAt: ctx.clock.now() });
  await ctx.store.db.transaction().execute((tx) => recordPost(ctx, tx, row));
  return row;
}

const userSearch = async (query: string) => {
  const res = await g.get(`/2/users/search?query=${encodeURIComponent(query)}`, { auth: g.oauth2As('ada') });
  assert.equal(res.status, 200, res.text);
  return (res.body.data ?? []).map((u: any) => u.username as string);
};

test('GET /2/users/search: each word of the query starts a word of the username or name, case and accents aside; the names index follows every profile change', async () => {
  const renamed = await g.send('PATCH', '/2/users/me', { auth: g.oauth2As('chen'), body: { name: 'Zoë Quiñones-Ártemis' } });
  assert.equal(renamed.status, 200, renamed.text);
  assert.ok((await userSearch('zoe')).includes('chen'), 'accents aside');
  assert.ok((await userSearch('QUIN artem')).includes('chen'), 'the start of each word, in any case');
  assert.ok((await userSearch('chen zoe')).includes('chen'), 'one word in the username, one in the name');
  assert.ok(!(await userSearch('uinones')).includes('chen'), 'the middle of a word is not its start');
  assert.ok(!(await userSearch('affiliate')).includes('chen'), 'the former name is gone from the index');
  const handle = await g.send('PATCH', '/2/users/me', { auth: g.oauth2As('dana'), body: { username: 'dana_reads' } });
  assert.equal(handle.status, 200, handle.text);
  try {
    assert.deepEqual(await userSearch('reads'), ['dana_reads'], 'a username holds the words its underscores separate');
    assert.deepEqual(await userSearch('dana_rea'), ['dana_reads'], 'the words of one query word follow each other');
    assert.ok(!(await userSearch('reads_dana')).includes('dana_reads'), 'in their order');
  } finally {
    await g.send('PATCH', '/2/users/me', { auth: g.oauth2As('dana'), body: { username: 'dana' } });
  }
  assert.deepEqual(await userSearch('_'), [], 'a word without letters or digits matches nobody; `_` is no wildcard');
});

test('GET /2/users/{id}/mentions: a mention is an @username entity of the post, whatever its case; the bare name and a longer handle are not mentions', async () => {
  const ada = g.user('ada');
  const bare = await storePost('dana', 'ada and adas, @ada_fan and @adam, mail ada@example.com');
  const real = await storePost('dana', 'Thanks @AdA!');
  const ids = (await g.get(`/2/users/${ada.id}/mentions?max_results=100`, { auth: g.appAuth })).body.data.map((x: any) => x.id);
  assert.ok(ids.includes(real.id));
  assert.ok(!ids.includes(bare.id));
});

test('rule 1: "summoned" means the account mentioned the replier with @username (or quoted one of its posts); naming it without @ does not summon', async () => {
  const chen = await p.selfServeAs('chen');
  await storePost('plazanews', 'chen wrote this, and chenx, and @chen_x did not');
  const refused = await p.post(chen, { text: 'Hello @plazanews' });
  assert.equal(refused.status, 403, refused.text);
  assert.match(refused.body.detail, /@plazanews has not/);
  await storePost('plazanews', 'Welcome aboard, @CHEN.');
  assert.equal((await p.post(chen, { text: 'Hello @plazanews' })).status, 201);
});

test('audience estimates: keyword criteria reach the users whose posts hold the words, case and accents aside: BROAD_KEYWORD any word, UNORDERED_KEYWORD all of them, PHRASE_KEYWORD and EXACT_KEYWORD in a row', async () => {
  await storePost('chen', 'Zorblax quixotic Écluse');
  await storePost('dana', 'quixotic zorblaxes');
  await storePost('ada', 'écluse, then ZORBLAX');
  const size = async (targeting_type: string, targeting_value: string) => {
    const res = await k.sandbox.post(`/12/accounts/${account}/audience_estimate`, { json: [{ targeting_type, targeting_value }] });
    assert.equal(res.status, 200, res.text);
    return res.body.data.audience_size;
  };
  const reach = (n: number) => ({ min: Math.floor(n * 0.95), max: Math.ceil(n * 1.05) });
  assert.deepEqual(await size('BROAD_KEYWORD', 'ZORBLAX ecluse'), reach(2), 'chen and ada; a longer word (zorblaxes) is another word');
  assert.deepEqual(await size('BROAD_KEYWORD', 'quixotic nothingsaid'), reach(2), 'chen and dana');
  assert.deepEqual(await size('UNORDERED_KEYWORD', 'ecluse zorblax'), reach(2), 'chen and ada, in either order');
  assert.deepEqual(await size('UNORDERED_KEYWORD', 'quixotic écluse'), reach(1), 'chen alone holds both');
  assert.deepEqual(await size('PHRASE_KEYWORD', 'zorblax quixotic'), reach(1));
  assert.deepEqual(await size('EXACT_KEYWORD', 'quixotic zorblax'), reach(0), 'not in that order');
  assert.deepEqual(await size('BROAD_KEYWORD', 'zorb%'), reach(0), '% is no wildcard');
  assert.deepEqual(await size('BROAD_KEYWORD', 'zorb_ax'), reach(0), '_ is no wildcard');
});
