import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { issueOAuth2Tokens } from '../../src/auth/issue.js';
import { ManualClock } from '../../src/clock.js';
import { normalise } from '../support/normalise.js';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { ALL_SCOPES, fixtures, type Fixtures } from '../support/fixtures.js';
import { problemType } from '../support/problems.js';

/**
 * The Activity API's subscriptions (spec 000 "Events", shared/reference/platform.md §7): create,
 * list, change, delete; filters; caps per tier; private events and their scopes; event names and
 * their dates by the injected clock.
 */

let plaza: TestPlaza;
let g: Fixtures;

before(async () => {
  plaza = await startTestPlaza();
  g = fixtures(plaza);
});

const create = (body: unknown, auth: any = g.appAuth) => g.send('POST', '/2/activity/subscriptions', { auth, body });
const enterpriseApp = () => ({ bearer: g.enterprise.bearer_token });
const messageOf = (res: any) => res.body.errors?.[0]?.message as string;

async function insertWebhook(appId: string): Promise<string> {
  const id = plaza.ctx.ids.next();
  const now = new Date().toISOString();
  await plaza.ctx.store.db.insertInto('webhooks').values({ id, app_id: appId, url: `http://127.0.0.1:9/${id}`, valid: 1, created_at: now, last_crc_at: now }).execute();
  return id;
}

test('POST/GET/PUT/DELETE /2/activity/subscriptions: a subscription with a tag and an optional webhook_id; only tag and webhook_id change; delete by id and by ids', async () => {
  const ada = g.user('ada');
  const webhookId = await insertWebhook(g.selfServe.id);
  const made = await create({ event_type: 'profile.update.bio', filter: { user_id: ada.id }, tag: 'bios', webhook_id: webhookId });
  assert.equal(made.status, 200, made.text);
  const sub = made.body.data.subscription;
  assert.match(sub.subscription_id, /^[0-9]{1,19}$/);
  assert.deepEqual(normalise(made.body, { [ada.id]: 'ada', [webhookId]: 'webhook', [sub.subscription_id]: 'subscription' }), {
    data: {
      subscription: { subscription_id: '<subscription>', event_type: 'profile.update.bio', filter: { user_id: '<ada>' }, created_at: '<time>', updated_at: '<time>', tag: 'bios', webhook_id: '<webhook>' },
    },
  });
  const second = await create({ event_type: 'follow.follow', filter: { user_id: ada.id } });
  assert.equal(second.status, 200, second.text);
  assert.equal(second.body.data.subscription.tag, undefined);

  const list = await g.get('/2/activity/subscriptions', { auth: g.appAuth });
  assert.equal(list.status, 200);
  assert.deepEqual(list.body.data.map((s: any) => s.subscription_id), [sub.subscription_id, second.body.data.subscription.subscription_id]);
  assert.equal(list.body.meta.total_subscriptions, 2);
  const page1 = await g.get('/2/activity/subscriptions?max_results=1', { auth: g.appAuth });
  assert.equal(page1.body.data.length, 1);
  const page2 = await g.get(`/2/activity/subscriptions?max_results=1&pagination_token=${page1.body.meta.next_token}`, { auth: g.appAuth });
  assert.equal(page2.body.data[0].subscription_id, second.body.data.subscription.subscription_id);
  assert.equal((await g.get('/2/activity/subscriptions?max_results=1001', { auth: g.appAuth })).status, 400);
  // Another app sees none of them.
  assert.equal((await g.get('/2/activity/subscriptions', { auth: enterpriseApp() })).body.meta.total_subscriptions, 0);

  const put = await g.send('PUT', `/2/activity/subscriptions/${sub.subscription_id}`, { auth: g.appAuth, body: { tag: 'renamed' } });
  assert.equal(put.status, 200, put.text);
  assert.deepEqual(normalise(put.body, { [ada.id]: 'ada', [webhookId]: 'webhook', [sub.subscription_id]: 'subscription' }), {
    data: {
      subscription: { subscription_id: '<subscription>', event_type: 'profile.update.bio', filter: { user_id: '<ada>' }, created_at: '<time>', updated_at: '<time>', tag: 'renamed', webhook_id: '<webhook>' },
      total_subscriptions: 2,
    },
  });
  const notChangeable = await g.send('PUT', `/2/activity/subscriptions/${sub.subscription_id}`, { auth: g.appAuth, body: { event_type: 'follow.follow' } });
  assert.equal(notChangeable.status, 400);
  const otherApp = await g.send('PUT', `/2/activity/subscriptions/${sub.subscription_id}`, { auth: enterpriseApp(), body: { tag: 'mine' } });
  assert.equal(otherApp.status, 400);
  assert.deepEqual(otherApp.body.errors[0].parameters, { subscription_id: [sub.subscription_id] });

  const del = await g.send('DELETE', `/2/activity/subscriptions/${sub.subscription_id}`, { auth: g.appAuth });
  assert.deepEqual(del.body, { data: { deleted: true }, meta: { total_subscriptions: 1 } });
  assert.equal((await g.send('DELETE', `/2/activity/subscriptions/${sub.subscription_id}`, { auth: g.appAuth })).status, 400);

  const third = await create({ event_type: 'follow.unfollow', filter: { user_id: ada.id } });
  const missing = '1234567890123456789';
  const many = await g.send('DELETE', `/2/activity/subscriptions?ids=${second.body.data.subscription.subscription_id},${missing},${third.body.data.subscription.subscription_id}`, { auth: g.appAuth });
  assert.equal(many.status, 200, many.text);
  assert.deepEqual(many.body, {
    data: [
      { subscription_id: second.body.data.subscription.subscription_id, deleted: true },
      { subscription_id: third.body.data.subscription.subscription_id, deleted: true },
    ],
    errors: [{ subscription_id: missing, reason: 'SubscriptionNotFound', message: `No subscription with id [${missing}] belongs to this app` }],
    meta: { total_subscriptions: 0 },
  });
  assert.equal((await g.send('DELETE', '/2/activity/subscriptions?ids=', { auth: g.appAuth })).status, 400);
  assert.equal((await g.send('DELETE', `/2/activity/subscriptions?ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`, { auth: g.appAuth })).status, 400);
});

test('subscription input is checked, naming the parameter, and changes nothing: event type, user id, webhook_id of the app, duplicates, tag 1-200', async () => {
  const ada = g.user('ada');
  const before = (await g.get('/2/activity/subscriptions', { auth: g.appAuth })).body.meta.total_subscriptions;
  const cases: Array<[unknown, number, string]> = [
    [{ event_type: 'profile.update.nothing', filter: { user_id: ada.id } }, 400, 'event_type'],
    [{ event_type: 'profile.update.bio', filter: {} }, 400, 'filter.user_id'],
    [{ event_type: 'profile.update.bio', filter: { user_id: '1234567890123456789' } }, 404, 'filter.user_id'],
    [{ event_type: 'profile.update.bio', filter: { user_id: ada.id }, webhook_id: '1234567890123456789' }, 400, 'webhook_id'],
    [{ event_type: 'profile.update.bio', filter: { user_id: ada.id }, tag: '' }, 400, 'tag'],
    [{ event_type: 'profile.update.bio', filter: { user_id: ada.id }, tag: 'x'.repeat(201) }, 400, 'tag'],
    [{ event_type: 'news.new', filter: { user_id: ada.id } }, 400, 'filter.user_id'],
  ];
  const otherAppsWebhook = await insertWebhook(g.enterprise.id);
  cases.push([{ event_type: 'profile.update.bio', filter: { user_id: ada.id }, webhook_id: otherAppsWebhook }, 400, 'webhook_id']);
  for (const [body, status, parameter] of cases) {
    const res = await create(body);
    assert.equal(res.status, status, `${JSON.stringify(body)}: ${res.text}`);
    if (status === 400) assert.ok(JSON.stringify(res.body).includes(parameter), `${parameter} named in ${res.text}`);
    else assert.equal(res.body.parameter, parameter);
  }
  const first = await create({ event_type: 'profile.update.geo', filter: { user_id: ada.id } });
  assert.equal(first.status, 200);
  const dup = await create({ event_type: 'profile.update.geo', filter: { user_id: ada.id }, tag: 'again' });
  assert.equal(dup.status, 400);
  assert.match(messageOf(dup), /DuplicateSubscription/);
  assert.equal((await g.get('/2/activity/subscriptions', { auth: g.appAuth })).body.meta.total_subscriptions, before + 1);
  await g.send('DELETE', `/2/activity/subscriptions/${first.body.data.subscription.subscription_id}`, { auth: g.appAuth });
});

test('Filters: keyword (1-150 chars, for high-volume types such as news); direction sent and received (or both) for direct-message and chat events only', async () => {
  const ada = g.user('ada');
  const news = await create({ event_type: 'news.new', filter: { keyword: 'elections' } });
  assert.equal(news.status, 200, news.text);
  assert.deepEqual(news.body.data.subscription.filter, { keyword: 'elections' });
  assert.equal((await create({ event_type: 'news.new', filter: { keyword: 'k'.repeat(150) } })).status, 200);
  for (const keyword of ['', 'k'.repeat(151)]) {
    const res = await create({ event_type: 'news.new', filter: { keyword } });
    assert.equal(res.status, 400, keyword);
    assert.deepEqual(Object.keys(res.body.errors[0].parameters), ['filter.keyword']);
  }
  const noKeyword = await create({ event_type: 'profile.update.bio', filter: { user_id: ada.id, keyword: 'x' } });
  assert.equal(noKeyword.status, 400);
  assert.deepEqual(Object.keys(noKeyword.body.errors[0].parameters), ['filter.keyword']);

  const dmAuth = await g.selfServeAs('ada');
  for (const direction of ['sent', 'received', ['sent', 'received']]) {
    const res = await create({ event_type: 'dm.received', filter: { user_id: ada.id, direction } }, dmAuth);
    assert.equal(res.status, 200, `${JSON.stringify(direction)}: ${res.text}`);
    assert.deepEqual(res.body.data.subscription.filter.direction, direction);
  }
  const chat = await create({ event_type: 'chat.sent', filter: { user_id: ada.id, direction: 'sent' } }, dmAuth);
  assert.equal(chat.status, 200, chat.text);
  for (const [type, direction] of [['follow.follow', 'sent'], ['dm.sent', 'inbound'], ['dm.read', []], ['dm.read', ['sent', 'sent']]] as const) {
    const res = await create({ event_type: type, filter: { user_id: ada.id, direction } }, dmAuth);
    assert.equal(res.status, 400, `${type} ${JSON.stringify(direction)}: ${res.text}`);
  }
});

test('Subscription caps per tier (reference §7): self-serve 1,500, enterprise 75,000', async () => {
  const db = plaza.ctx.store.db;
  const dana = g.user('dana');
  const existing = (await g.get('/2/activity/subscriptions', { auth: g.appAuth })).body.meta.total_subscriptions;
  const now = new Date().toISOString();
  const rows = Array.from({ length: 1_499 - existing }, (_, i) => ({
    id: plaza.ctx.ids.next(), app_id: g.selfServe.id, event_type: 'news.new', canonical_type: 'news.new', user_id: null, keyword: `filler ${i}`,
    direction: null, filter_key: JSON.stringify([null, `filler ${i}`, null]), tag: null, webhook_id: null, owner_user_id: null, created_at: now, updated_at: now,
  }));
  for (let i = 0; i < rows.length; i += 200) await db.insertInto('activity_subscriptions').values(rows.slice(i, i + 200)).execute();
  const last = await create({ event_type: 'profile.update.bio', filter: { user_id: dana.id } });
  assert.equal(last.status, 200, last.text);
  const over = await create({ event_type: 'profile.update.url', filter: { user_id: dana.id } });
  assert.equal(over.status, 400);
  assert.match(messageOf(over), /SubscriptionLimitExceeded.*1500/);
  await g.setTier('selfServe', 'enterprise');
  try {
    const enterprise = await create({ event_type: 'profile.update.url', filter: { user_id: dana.id } });
    assert.equal(enterprise.status, 200, enterprise.text);
  } finally {
    await g.setTier('selfServe', 'pro');
    await db.deleteFrom('activity_subscriptions').where('app_id', '=', g.selfServe.id).execute();
  }
});

test('Private events need the matching OAuth 2.0 scope (reference §7): dm.read, like.read, mute.read, block.read, post.read for mentions; about the authenticated user only', async () => {
  const dana = g.user('dana');
  const ada = g.user('ada');
  const app = await create({ event_type: 'like.create', filter: { user_id: dana.id } });
  assert.equal(app.status, 403);
  assert.equal(app.body.type, problemType('unsupported-authentication'));
  const pairs: Array<[string, string]> = [['dm.sent', 'dm.read'], ['like.create', 'like.read'], ['mute.mute', 'mute.read'], ['block.unblock', 'block.read'], ['post.mention.create', 'post.read']];
  for (const [type, scope] of pairs) {
    const without = await create({ event_type: type, filter: { user_id: dana.id } }, await g.enterpriseAs('dana', ALL_SCOPES.filter((s) => s !== scope)));
    assert.equal(without.status, 403, `${type} without ${scope}`);
    assert.match(without.body.detail, new RegExp(scope.replace('.', '\\.')));
    const withScope = await create({ event_type: type, filter: { user_id: dana.id } }, await g.enterpriseAs('dana', ['users.read', scope]));
    assert.equal(withScope.status, 200, `${type} with ${scope}: ${withScope.text}`);
  }
  const someoneElse = await create({ event_type: 'like.create', filter: { user_id: ada.id } }, await g.enterpriseAs('dana'));
  assert.equal(someoneElse.status, 403);
  // Public events need no user context.
  assert.equal((await create({ event_type: 'profile.update.bio', filter: { user_id: dana.id } }, enterpriseApp())).status, 200);
});

test('OAuth 2.0 user tokens with fine-grained scopes are accepted; when OAuth 1.0a permissions are present they fully override OAuth 2.0 scopes (spec 000 "Authentication")', async () => {
  const chen = g.user('chen');
  // The demo workspace gives chen OAuth 1.0a tokens for the enterprise app; this test grants its permissions itself.
  await plaza.ctx.store.db.deleteFrom('oauth1_tokens').where('app_id', '=', g.enterprise.id).where('user_id', '=', chen.id).execute();
  const oauth2 = await g.enterpriseAs('chen', ['users.read', 'dm.read']);
  const before = await create({ event_type: 'dm.received', filter: { user_id: chen.id } }, oauth2);
  assert.equal(before.status, 200, before.text);
  // An OAuth 1.0a permission without direct messages now decides, whatever the token's scopes say.
  const oauth1 = await g.enterpriseOAuth1As('chen', 'read-write');
  const overridden = await create({ event_type: 'dm.sent', filter: { user_id: chen.id } }, oauth2);
  assert.equal(overridden.status, 403, overridden.text);
  assert.equal((await create({ event_type: 'dm.sent', filter: { user_id: chen.id } }, oauth1)).status, 403);
  assert.equal((await create({ event_type: 'like.create', filter: { user_id: chen.id } }, oauth1)).status, 200);
  const dmLevel = await g.enterpriseOAuth1As('chen', 'read-write-directmessages');
  assert.equal((await create({ event_type: 'dm.sent', filter: { user_id: chen.id } }, dmLevel)).status, 200);
});

test('Event names are dot-separated lowercase; the PascalCase profile names are refused with an invalid-request naming the new name from Mar 18, 2026, and accepted before', async () => {
  const clock = new ManualClock(new Date('2026-03-17T23:59:00.000Z'));
  const dated = await startTestPlaza({}, { clock });
  const d = fixtures(dated);
  const ada = d.user('ada');
  const make = (body: unknown, auth: any = d.appAuth) => d.send('POST', '/2/activity/subscriptions', { auth, body });
  const pascal = [
    ['ProfileBioUpdate', 'profile.update.bio'], ['ProfilePictureUpdate', 'profile.update.profile_picture'], ['ProfileBannerUpdate', 'profile.update.banner_picture'],
    ['ProfileGeoUpdate', 'profile.update.geo'], ['ProfileUrlUpdate', 'profile.update.url'],
  ];
  for (const [old] of pascal) {
    const res = await make({ event_type: old, filter: { user_id: ada.id } });
    assert.equal(res.status, 200, `${old} before Mar 18: ${res.text}`);
    assert.equal(res.body.data.subscription.event_type, old);
  }
  clock.set(new Date('2026-03-18T00:00:00.000Z'));
  for (const [old, renamed] of pascal) {
    const res = await make({ event_type: old, filter: { user_id: d.user('dana').id } });
    assert.equal(res.status, 400, old);
    assert.equal(res.body.type, problemType('invalid-request'));
    assert.deepEqual(res.body.errors[0].parameters, { event_type: [old] });
    assert.ok(res.body.errors[0].message.includes(renamed), res.body.errors[0].message);
  }
  assert.equal((await make({ event_type: 'profile.update.bio', filter: { user_id: d.user('dana').id } })).status, 200);
});

test('Dated event types follow the injected clock: spaces.* from Jan 28, 2026; dm.* from Mar 11, 2026; direction from Mar 18, 2026; post.create and post.delete from Jun 4, 2026', async () => {
  const clock = new ManualClock(new Date('2026-01-27T12:00:00.000Z'));
  const dated = await startTestPlaza({}, { clock });
  const d = fixtures(dated);
  const ada = d.user('ada');
  // A fresh token at each step: OAuth 2.0 access tokens expire by the same clock.
  const make = async (type: string, filter: Record<string, unknown> = { user_id: ada.id }) => {
    const issued = await dated.ctx.store.db.transaction().execute((tx) => issueOAuth2Tokens(dated.ctx, tx, d.enterprise.id, ada.id, ALL_SCOPES));
    return d.send('POST', '/2/activity/subscriptions', { auth: { bearer: issued.accessToken }, body: { event_type: type, filter } });
  };
  const steps: Array<[string, string, string, Record<string, unknown>?]> = [
    ['2026-01-27T23:59:59.000Z', '2026-01-28T00:00:00.000Z', 'spaces.start'],
    ['2026-03-10T23:59:59.000Z', '2026-03-11T00:00:00.000Z', 'dm.received'],
    ['2026-03-17T23:59:59.000Z', '2026-03-18T00:00:00.000Z', 'dm.sent', { user_id: ada.id, direction: 'sent' }],
    ['2026-06-03T23:59:59.000Z', '2026-06-04T00:00:00.000Z', 'post.create'],
    ['2026-06-03T23:59:59.000Z', '2026-06-04T00:00:00.000Z', 'post.delete'],
  ];
  for (const [beforeDay, onDay, type, filter] of steps) {
    clock.set(new Date(beforeDay));
    const early = await make(type, filter);
    assert.equal(early.status, 400, `${type} at ${beforeDay}`);
    clock.set(new Date(onDay));
    const res = await make(type, filter);
    assert.equal(res.status, 200, `${type} at ${onDay}: ${res.text}`);
  }
});
