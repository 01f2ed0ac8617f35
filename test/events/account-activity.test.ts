import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { issueOAuth2Tokens } from '../../src/auth/issue.js';
import { normalise } from '../support/normalise.js';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { WebhookReceiver } from '../support/receivers.js';
import { eventually } from '../support/wait.js';
import { fixtures } from '../support/fixtures.js';

/**
 * Account Activity v2 (issue #10 "Account Activity v2"; shared/reference/platform.md §1): the
 * subscription endpoints, and deliveries `{for_user_id, <kind>_events: [...]}` built from the
 * event log for the changes a subscribed user makes or receives.
 */
let plaza: TestPlaza;
let f: ReturnType<typeof fixtures>;
const receiver = new WebhookReceiver();
let webhookId: string;
const PATH = 'aaa';

before(async () => {
  await receiver.start();
  plaza = await startTestPlaza();
  f = fixtures(plaza);
  receiver.secret = f.selfServe.consumer_secret;
  const res = await f.send('POST', '/2/webhooks', { auth: f.appAuth, body: { url: receiver.url(PATH) } });
  assert.equal(res.status, 200, res.text);
  webhookId = res.body.data.id;
  // Follows, likes and blocks left the self-serve tiers: this app acts as enterprise here.
  await plaza.ctx.store.db.updateTable('apps').set({ tier: 'enterprise' }).where('id', '=', f.selfServe.id).execute();
});
after(() => receiver.close());

const users = () => plaza.creds.users;
const subsPath = () => `/2/account_activity/webhooks/${webhookId}/subscriptions/all`;

test('POST/GET .../subscriptions/all (user context), GET .../subscriptions/all/list, DELETE .../subscriptions/{user_id}/all, GET /2/account_activity/subscriptions/count', async () => {
  const [a, b] = users();
  const asA = f.oauth1As(a!.username);
  assert.deepEqual((await f.get(subsPath(), { auth: asA })).body, { data: { subscribed: false } });
  const created = await f.send('POST', subsPath(), { auth: asA });
  assert.equal(created.status, 200, created.text);
  assert.deepEqual(created.body, { data: { subscribed: true } });
  assert.deepEqual((await f.get(subsPath(), { auth: asA })).body, { data: { subscribed: true } });
  // OAuth 2.0 user tokens are accepted (Jan 15, 2026).
  assert.deepEqual((await f.send('POST', subsPath(), { auth: f.oauth2As(b!.username) })).body, { data: { subscribed: true } });

  const list = await f.get(`${subsPath()}/list`, { auth: f.appAuth });
  assert.equal(list.status, 200, list.text);
  assert.deepEqual(normalise(list.body, { [f.selfServe.id]: 'app', [webhookId]: 'webhook', [a!.id]: 'subscriber', [b!.id]: 'subscriber', [receiver.url(PATH)]: 'webhook_url' }), {
    data: {
      application_id: '<app>', webhook_id: '<webhook>', webhook_url: '<webhook_url>',
      subscriptions: [{ user_id: '<subscriber>' }, { user_id: '<subscriber>' }],
    },
  });
  // Which subscriber is which, in whatever order.
  assert.deepEqual(new Set(list.body.data.subscriptions.map((s: any) => s.user_id)), new Set([a!.id, b!.id]));

  const count = await f.get('/2/account_activity/subscriptions/count', { auth: f.appAuth });
  assert.equal(count.status, 200, count.text);
  // Every value a string.
  assert.deepEqual(count.body, { data: { account_name: 'Plaza Demo', provisioned_count: '50000', subscriptions_count_all: '2', subscriptions_count_direct_messages: '2' } });

  const removed = await f.send('DELETE', `/2/account_activity/webhooks/${webhookId}/subscriptions/${b!.id}/all`, { auth: f.appAuth });
  assert.deepEqual(removed.body, { data: { subscribed: false } });
  assert.deepEqual((await f.get(subsPath(), { auth: f.oauth2As(b!.username) })).body, { data: { subscribed: false } });
  assert.equal((await f.get('/2/account_activity/subscriptions/count', { auth: f.appAuth })).body.data.subscriptions_count_all, '1');
});

test('Account Activity subscription endpoints: bad input gets a problem naming the parameter, and the wrong kind of credentials is refused', async () => {
  const [a] = users();
  const asA = f.oauth1As(a!.username);
  const unknown = await f.send('POST', '/2/account_activity/webhooks/1234567890123/subscriptions/all', { auth: asA });
  assert.equal(unknown.status, 400, unknown.text);
  assert.ok('webhook_id' in unknown.body.errors[0].parameters);
  const badId = await f.send('POST', '/2/account_activity/webhooks/abc/subscriptions/all', { auth: asA });
  assert.equal(badId.status, 400);
  assert.equal((await f.send('POST', subsPath(), { auth: f.appAuth })).status, 403, 'subscribing needs user context');
  assert.equal((await f.get(`${subsPath()}/list`, { auth: asA })).status, 403, 'the list is app-only');
  assert.equal((await f.get('/2/account_activity/subscriptions/count')).status, 401);
  const notSubscribed = await f.send('DELETE', `/2/account_activity/webhooks/${webhookId}/subscriptions/${users().at(-1)!.id}/all`, { auth: f.appAuth });
  assert.equal(notSubscribed.status, 400);
  assert.ok('user_id' in notSubscribed.body.errors[0].parameters);
});

/** Waits for a delivery to the subscribed user carrying `key`, matching `pick`. */
async function deliveryOf(forUser: string, key: string, pick: (item: any) => boolean = () => true) {
  let found: any;
  await receiver.until(() => {
    found = receiver.on(PATH).find((d) => d.body?.for_user_id === forUser && Array.isArray(d.body?.[key]) && d.body[key].some(pick));
    return found !== undefined;
  }, `${key} for ${forUser}`);
  return found.body;
}

test('deliveries `{for_user_id, <kind>_events: [...]}` for posts (create, delete), likes, follows and unfollows, blocks, mutes, built from the log', async () => {
  const [a, , c] = users();
  const asA = f.oauth1As(a!.username);
  await f.send('POST', subsPath(), { auth: asA });

  const post = await f.send('POST', '/2/posts', { auth: asA, body: { text: 'hello subscribers' } });
  assert.equal(post.status, 201, post.text);
  const postId = post.body.data.id;
  const created = await deliveryOf(a!.id, 'tweet_create_events', (p) => p.id === postId);
  assert.equal(created.tweet_create_events[0].text, 'hello subscribers');
  assert.equal(created.tweet_create_events[0].user.id_str, a!.id);

  const liked = plaza.creds.sample.post_ids.find((id) => id !== postId)!;
  assert.equal((await f.send('POST', `/2/users/${a!.id}/likes`, { auth: asA, body: { post_id: liked } })).status, 200);
  const like = await deliveryOf(a!.id, 'favorite_events', (e) => e.favorited_status?.id === liked);
  assert.equal(like.favorite_events[0].user.id, a!.id);

  // From a clean start: the demo graph may already have a follow c.
  await f.send('DELETE', `/2/users/${a!.id}/following/${c!.id}`, { auth: asA });
  const followed = await f.send('POST', `/2/users/${a!.id}/following`, { auth: asA, body: { target_user_id: c!.id } });
  assert.equal(followed.status, 200, followed.text);
  const follow = await deliveryOf(a!.id, 'follow_events', (e) => e.target?.id === c!.id);
  assert.equal(follow.follow_events[0].type, 'follow');
  assert.equal(follow.follow_events[0].source.id, a!.id);
  assert.equal((await f.send('DELETE', `/2/users/${a!.id}/following/${c!.id}`, { auth: asA })).status, 200);
  await deliveryOf(a!.id, 'unfollow_events', (e) => e.target?.id === c!.id && Number(e.created_timestamp) >= Number(follow.follow_events[0].created_timestamp));

  assert.equal((await f.send('POST', `/2/users/${a!.id}/muting`, { auth: asA, body: { target_user_id: c!.id } })).status, 200);
  await deliveryOf(a!.id, 'mute_events', (e) => e.target?.id === c!.id && e.type === 'mute');
  assert.equal((await f.send('DELETE', `/2/users/${a!.id}/muting/${c!.id}`, { auth: asA })).status, 200);
  await deliveryOf(a!.id, 'unmute_events', (e) => e.target?.id === c!.id);

  const blocked = await f.send('POST', `/2/users/${a!.id}/blocking`, { auth: asA, body: { target_user_id: c!.id } });
  assert.equal(blocked.status, 200, blocked.text);
  await deliveryOf(a!.id, 'block_events', (e) => e.target?.id === c!.id);
  assert.equal((await f.send('DELETE', `/2/users/${a!.id}/blocking/${c!.id}`, { auth: asA })).status, 200);
  await deliveryOf(a!.id, 'unblock_events', (e) => e.target?.id === c!.id);

  assert.equal((await f.send('DELETE', `/2/posts/${postId}`, { auth: asA })).status, 200);
  const deleted = await deliveryOf(a!.id, 'tweet_delete_events', (e) => e.status?.id === postId);
  assert.equal(deleted.tweet_delete_events[0].status.user_id, a!.id);

  // Everything went to the subscribed user only: no delivery for anyone else.
  assert.ok(receiver.on(PATH).every((d) => d.body?.for_user_id === a!.id || users().slice(1, 2).some((u) => u.id === d.body?.for_user_id)));
});

test('deliveries for DMs (message, typing, read) to both sides, and app revocation (user_event)', async () => {
  const [a, b] = users();
  const asA = f.oauth1As(a!.username);
  const asB = f.oauth1As(b!.username);
  await f.send('POST', subsPath(), { auth: asA });
  await f.send('POST', subsPath(), { auth: asB });
  const sent = await f.send('POST', `/2/dm_conversations/with/${b!.id}/messages`, { auth: asA, body: { text: 'psst' } });
  assert.equal(sent.status, 201, sent.text);
  const conversation = sent.body.data.dm_conversation_id;
  const mine = await deliveryOf(a!.id, 'direct_message_events', (e) => e.message_create?.message_data?.text === 'psst' || JSON.stringify(e).includes('psst'));
  assert.ok(mine.users, 'the users map comes along');
  await deliveryOf(b!.id, 'direct_message_events', (e) => JSON.stringify(e).includes('psst'));

  const typing = await f.send('POST', `/2/dm_conversations/${conversation}/typing`, { auth: asB });
  assert.ok(typing.status < 300, typing.text);
  await deliveryOf(a!.id, 'direct_message_indicate_typing_events');
  const read = await f.send('POST', `/2/dm_conversations/${conversation}/read`, { auth: asB, body: { last_read_event_id: sent.body.data.dm_event_id } });
  assert.ok(read.status < 300, read.text);
  await deliveryOf(a!.id, 'direct_message_mark_read_events');

  // Revoking the app's access: the OAuth 1.0a invalidate_token of user B.
  const revoked = await f.send('POST', '/1.1/oauth/invalidate_token', { auth: asB });
  assert.equal(revoked.status, 200, revoked.text);
  await receiver.until(() => receiver.on(PATH).some((d) => d.body?.for_user_id === b!.id && d.body?.user_event?.revoke?.source?.user_id === b!.id), 'the user_event revoke');
  const event = receiver.on(PATH).find((d) => d.body?.user_event)!.body;
  assert.equal(event.user_event.revoke.target.app_id, f.selfServe.id);
});

test('OAuth 2.0 user tokens with fine-grained scopes are accepted; when OAuth 1.0a permissions are present they fully override OAuth 2.0 scopes (both ways)', async () => {
  const db = plaza.ctx.store.db;
  const [, , , d, e] = users();
  // User d: no OAuth 1.0a authorization of this app, so the OAuth 2.0 token's scopes decide.
  await db.deleteFrom('oauth1_tokens').where('user_id', '=', d!.id).where('app_id', '=', f.selfServe.id).execute();
  const withDm = await issueOAuth2Tokens(plaza.ctx, db, f.selfServe.id, d!.id, ['users.read', 'post.read', 'dm.read']);
  assert.equal((await f.send('POST', subsPath(), { auth: { bearer: withDm.accessToken } })).status, 200);
  const subOf = async (userId: string) => db.selectFrom('account_activity_subscriptions').selectAll().where('webhook_id', '=', webhookId).where('user_id', '=', userId).executeTakeFirstOrThrow();
  assert.equal((await subOf(d!.id)).direct_messages, 1, 'dm.read alone brings DM events');
  const noDm = await issueOAuth2Tokens(plaza.ctx, db, f.selfServe.id, d!.id, ['users.read', 'post.read']);
  assert.equal((await f.send('POST', subsPath(), { auth: { bearer: noDm.accessToken } })).status, 200);
  assert.equal((await subOf(d!.id)).direct_messages, 0);
  const tooFew = await issueOAuth2Tokens(plaza.ctx, db, f.selfServe.id, d!.id, ['dm.read']);
  assert.equal((await f.send('POST', subsPath(), { auth: { bearer: tooFew.accessToken } })).status, 403, 'missing users.read and post.read');

  // User e: an OAuth 1.0a permission without DMs (read-write) overrides the token's dm.read scope.
  await db.updateTable('oauth1_tokens').set({ access_level: 'read-write' }).where('user_id', '=', e!.id).where('app_id', '=', f.selfServe.id).execute();
  const overridden = await issueOAuth2Tokens(plaza.ctx, db, f.selfServe.id, e!.id, ['users.read', 'post.read', 'dm.read']);
  assert.equal((await f.send('POST', subsPath(), { auth: { bearer: overridden.accessToken } })).status, 200);
  assert.equal((await subOf(e!.id)).direct_messages, 0, 'the OAuth 1.0a permission (read-write) overrides dm.read');
  // ...and the other way: with the DM permission present, the same token reaches DMs.
  await db.updateTable('oauth1_tokens').set({ access_level: 'read-write-directmessages' }).where('user_id', '=', e!.id).where('app_id', '=', f.selfServe.id).execute();
  assert.equal((await f.send('POST', subsPath(), { auth: { bearer: overridden.accessToken } })).status, 200);
  assert.equal((await subOf(e!.id)).direct_messages, 1);
  // A read-only OAuth 1.0a permission still allows subscribing (the read scopes survive it).
  await db.updateTable('oauth1_tokens').set({ access_level: 'read' }).where('user_id', '=', e!.id).where('app_id', '=', f.selfServe.id).execute();
  assert.equal((await f.send('POST', subsPath(), { auth: { bearer: overridden.accessToken } })).status, 200);
  assert.equal((await subOf(e!.id)).direct_messages, 0);

  // And the deliveries follow: DM events reach d only while its subscription reads DMs.
  assert.equal((await f.send('POST', subsPath(), { auth: { bearer: noDm.accessToken } })).status, 200);
  const [a] = users();
  const dmTo = async (text: string) => {
    const sent = await f.send('POST', `/2/dm_conversations/with/${d!.id}/messages`, { auth: f.oauth1As(a!.username), body: { text } });
    assert.equal(sent.status, 201, sent.text);
    // The DM's own entry in the log, once it has its place (on PostgreSQL, when no older transaction runs).
    const last = await eventually(() => db.selectFrom('events').select('seq').where('payload', 'like', `%${text}%`).where('seq', 'is not', null).executeTakeFirst(), 'the DM in the log');
    await eventually(async () => Number((await db.selectFrom('event_cursors').select('seq').where('name', '=', 'webhooks').executeTakeFirst())?.seq) >= Number(last.seq), 'the fan-out past the DM');
    const rows = await db.selectFrom('webhook_deliveries').select('body').where('webhook_id', '=', webhookId).execute();
    return rows.filter((r) => r.body.includes(text) && JSON.parse(r.body).for_user_id === d!.id).length;
  };
  assert.equal(await dmTo('not for the webhook'), 0, 'no DM events without dm.read');
  assert.equal((await f.send('POST', subsPath(), { auth: { bearer: withDm.accessToken } })).status, 200);
  assert.equal(await dmTo('now for the webhook'), 1, 'DM events once subscribed with dm.read');
  const count = await f.get('/2/account_activity/subscriptions/count', { auth: f.appAuth });
  assert.ok(Number(count.body.data.subscriptions_count_direct_messages) >= 1);
});

test('deliveries carry the public platform\'s v1.1 status and user objects; an app in the tweet dialect receives them in its names: id_str, user, created_at as "Wed Oct 10 20:19:24 +0000 2018", entities, extended_tweet for long text', async () => {
  const [a] = users();
  const asA = f.oauth1As(a!.username);
  await f.send('POST', subsPath(), { auth: asA });
  const admin = { authorization: `Bearer ${plaza.creds.admin_token}` };
  assert.equal((await f.send('PATCH', `/admin/apps/${f.selfServe.id}`, { headers: admin, body: { dialect: 'tweet' } })).status, 200);
  try {
    const text = `#plaza ${'a long post that goes on '.repeat(8)}and ends here`;
    const post = await f.send('POST', '/2/posts', { auth: asA, body: { text } });
    assert.equal(post.status, 201, post.text);
    const postId = post.body.data.id;
    // A receiver written against the public platform: it reads v1.1 names only.
    const delivered = await deliveryOf(a!.id, 'tweet_create_events', (p) => p.id_str === postId);
    const status = delivered.tweet_create_events[0];
    assert.match(status.created_at, /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{2} \d{2}:\d{2}:\d{2} \+0000 \d{4}$/);
    assert.equal(status.user.id_str, a!.id);
    assert.equal(status.user.screen_name, a!.username);
    assert.match(status.user.created_at, /\+0000 \d{4}$/);
    assert.equal(status.truncated, true);
    assert.equal(status.extended_tweet.full_text, text);
    assert.deepEqual(status.extended_tweet.display_text_range, [0, [...text].length]);
    assert.equal(status.extended_tweet.entities.hashtags[0].text, 'plaza');
    assert.equal(status.retweeted, false, 'the v1.1 name, not Plaza\'s');
    assert.equal(typeof status.retweet_count, 'number');
    assert.match(status.timestamp_ms, /^\d{13}$/);
    assert.equal(Math.floor(Number(status.timestamp_ms) / 1000), Date.parse(status.created_at) / 1000);

    const liked = plaza.creds.sample.post_ids[0]!;
    await f.send('DELETE', `/2/users/${a!.id}/likes/${liked}`, { auth: asA });
    assert.equal((await f.send('POST', `/2/users/${a!.id}/likes`, { auth: asA, body: { tweet_id: liked } })).status, 200);
    const like = await deliveryOf(a!.id, 'favorite_events', (e) => e.favorited_status?.id_str === liked);
    assert.equal(like.favorite_events[0].user.screen_name, a!.username);
    assert.equal(typeof like.favorite_events[0].favorited_status.user.id_str, 'string');
  } finally {
    await f.send('PATCH', `/admin/apps/${f.selfServe.id}`, { headers: admin, body: { dialect: 'post' } });
  }
});
