import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';

/**
 * Issue 34: POST /2/tweets takes every member the public description defines: geo.place_id (with
 * Plaza's gazetteer of real place ids), nullcast, made_with_ai, for_super_followers_only,
 * direct_message_deep_link, card_uri.
 */

let plaza: TestPlaza;
let g: Fixtures;
const SAN_FRANCISCO = '5a110d312052166f';

before(async () => {
  plaza = await startTestPlaza();
  g = fixtures(plaza);
});
after(() => plaza.close());

const stamp = () => `${Date.now()}-${Math.random()}`;

test('geo.place_id names a place of the gazetteer: the post keeps it, expansions=geo.place_id includes the place with place.fields; an unknown place is a 400 naming geo.place_id', async () => {
  const auth = await g.enterpriseAs('dana');
  const made = await g.send('POST', '/2/tweets', { auth, body: { text: `from San Francisco ${stamp()}`, geo: { place_id: SAN_FRANCISCO } } });
  assert.equal(made.status, 201, made.text);
  const read = await g.get(`/2/tweets/${made.body.data.id}?expansions=geo.place_id&place.fields=name,country_code,place_type,geo`, { auth: g.appAuth });
  assert.equal(read.status, 200, read.text);
  assert.deepEqual(read.body.data.geo, { place_id: SAN_FRANCISCO }, 'the expansion brings geo');
  const place = read.body.includes.places[0];
  assert.equal(place.id, SAN_FRANCISCO);
  assert.equal(place.full_name, 'San Francisco, CA');
  assert.equal(place.country_code, 'US');
  assert.equal(place.place_type, 'city');
  assert.equal(place.geo.type, 'Feature');
  assert.equal(place.geo.bbox.length, 4);
  const unknown = await g.send('POST', '/2/tweets', { auth, body: { text: `nowhere ${stamp()}`, geo: { place_id: 'ffffffffffffffff' } } });
  assert.equal(unknown.status, 400);
  assert.deepEqual(Object.keys(unknown.body.errors[0].parameters), ['geo.place_id']);
  const badField = await g.get(`/2/tweets/${made.body.data.id}?place.fields=nope`, { auth: g.appAuth });
  assert.equal(badField.status, 400);
});

test('nullcast=true makes a promoted-only post: readable by id, on no timeline', async () => {
  const auth = await g.enterpriseAs('dana');
  const made = await g.send('POST', '/2/tweets', { auth, body: { text: `promoted only ${stamp()}`, nullcast: true } });
  assert.equal(made.status, 201, made.text);
  assert.equal((await g.get(`/2/tweets/${made.body.data.id}`, { auth: g.appAuth })).status, 200);
  const timeline = await g.get(`/2/users/${g.user('dana').id}/tweets?max_results=100`, { auth: g.appAuth });
  assert.ok(!(timeline.body.data ?? []).some((p: { id: string }) => p.id === made.body.data.id));
});

test('made_with_ai and direct_message_deep_link are kept with the post; a deep link of another form is a 400 naming it; for_super_followers_only=true is refused (no Super Follows), false is taken', async () => {
  const auth = await g.enterpriseAs('dana');
  const link = `https://x.com/messages/compose?recipient_id=${g.user('dana').id}`;
  const made = await g.send('POST', '/2/tweets', { auth, body: { text: `disclosed ${stamp()}`, made_with_ai: true, direct_message_deep_link: link, for_super_followers_only: false } });
  assert.equal(made.status, 201, made.text);
  const row = await plaza.ctx.store.db.selectFrom('posts').select(['made_with_ai', 'dm_deep_link']).where('id', '=', made.body.data.id).executeTakeFirstOrThrow();
  assert.deepEqual(row, { made_with_ai: 1, dm_deep_link: link });
  const badLink = await g.send('POST', '/2/tweets', { auth, body: { text: `bad link ${stamp()}`, direct_message_deep_link: 'https://example.com/dm' } });
  assert.equal(badLink.status, 400);
  assert.deepEqual(Object.keys(badLink.body.errors[0].parameters), ['direct_message_deep_link']);
  const exclusive = await g.send('POST', '/2/tweets', { auth, body: { text: `exclusive ${stamp()}`, for_super_followers_only: true } });
  assert.equal(exclusive.status, 403);
});

test('card_uri attaches a card of an advertising account the author may post for; the post\'s card_uri field shows it; another account\'s card is a 400 naming card_uri', async () => {
  const db = plaza.ctx.store.db;
  const dana = g.user('dana');
  const own = await db.selectFrom('ads_cards').select('id').where('account_id', 'in', dana.ads_account_ids).where('deleted', '=', 0).executeTakeFirstOrThrow();
  const auth = await g.enterpriseAs('dana');
  const made = await g.send('POST', '/2/tweets', { auth, body: { text: `with a card ${stamp()}`, card_uri: `card://${own.id}` } });
  assert.equal(made.status, 201, made.text);
  const read = await g.get(`/2/tweets/${made.body.data.id}?tweet.fields=card_uri`, { auth: g.appAuth });
  assert.equal(read.body.data.card_uri, `card://${own.id}`);
  const other = await db.selectFrom('ads_cards').select('id').where('account_id', 'not in', dana.ads_account_ids).where('deleted', '=', 0).executeTakeFirstOrThrow();
  const refused = await g.send('POST', '/2/tweets', { auth, body: { text: `not my card ${stamp()}`, card_uri: `card://${other.id}` } });
  assert.equal(refused.status, 400, refused.text);
  assert.deepEqual(Object.keys(refused.body.errors[0].parameters), ['card_uri']);
});
