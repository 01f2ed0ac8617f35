import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { WebhookReceiver } from '../../support/receivers.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures } from '../../support/fixtures.js';
import { problemType } from '../../support/problems.js';

/**
 * Filtered-stream webhooks (spec 000: "The filtered stream webhooks deliver matching public posts,
 * including edit history, as JSON to the registered webhook. They are available to enterprise
 * developers."; shared/reference/platform.md §1 "Filtered-stream webhooks").
 */
const RULES = '/2/posts/search/stream/rules';

let plaza: TestPlaza;
let f: ReturnType<typeof fixtures>;
let enterprise: { bearer: string };
const receiver = new WebhookReceiver();
let hookA: string;
let hookB: string;

before(async () => {
  await receiver.start();
  plaza = await startTestPlaza();
  f = fixtures(plaza);
  enterprise = { bearer: f.enterprise.bearer_token };
  receiver.secret = f.enterprise.consumer_secret;
  const a = await f.send('POST', '/2/webhooks', { auth: enterprise, body: { url: receiver.url('a') } });
  assert.equal(a.status, 200, a.text);
  hookA = a.body.data.id;
  const b = await f.send('POST', '/2/webhooks', { auth: enterprise, body: { url: receiver.url('b') } });
  assert.equal(b.status, 200, b.text);
  hookB = b.body.data.id;
});
after(() => receiver.close());

async function post(text: string, username = 'ada', extra: Record<string, unknown> = {}): Promise<string> {
  const res = await f.send('POST', '/2/posts', { auth: f.oauth1As(username), body: { text, ...extra } });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

const deliveredTo = (path: string, postId: string) => receiver.on(path).filter((d) => d.body?.data?.id === postId);

test('"POST /2/posts/search/webhooks/{webhook_id} with post.fields/expansions links a webhook to the app\'s filtered stream"; "GET /2/posts/search/webhooks" lists the links', async () => {
  const linked = await f.send('POST', `/2/posts/search/webhooks/${hookA}?post.fields=created_at,lang&expansions=author_id&user.fields=username`, { auth: enterprise });
  assert.equal(linked.status, 200, linked.text);
  assert.deepEqual(linked.body, { data: { provisioned: true } });
  assert.equal((await f.send('POST', `/2/posts/search/webhooks/${hookB}`, { auth: enterprise })).status, 200);
  const links = await f.get('/2/posts/search/webhooks', { auth: enterprise });
  assert.equal(links.status, 200, links.text);
  const a = links.body.data.find((l: any) => l.webhook_id === hookA);
  assert.equal(a.application_id, f.enterprise.id);
  assert.equal(a.instance_id, f.enterprise.id);
  assert.deepEqual(a.fields, ['expansions=author_id', 'post.fields=created_at,lang', 'user.fields=username']);
  assert.ok(!Number.isNaN(Date.parse(a.created_at)));
  assert.deepEqual(links.body.data.find((l: any) => l.webhook_id === hookB).fields, []);
});

test('"Matching public posts, edits included, are delivered through the events issue\'s signed, retried outbox as {data, includes, matching_rules}"', async () => {
  await f.send('POST', `${RULES}?delete_all=true`, { auth: enterprise });
  const rules = await f.send('POST', RULES, { auth: enterprise, body: { add: [{ value: 'walrus', tag: 'sea' }, { value: 'walrus from:ada' }, { value: 'narwhal' }] } });
  assert.equal(rules.status, 200, rules.text);
  const [sea, fromAda] = rules.body.data;

  const id = await post('A walrus on the ice');
  await receiver.until(() => deliveredTo('a', id).length > 0 && deliveredTo('b', id).length > 0, 'the walrus post on both webhooks');
  const body = deliveredTo('a', id)[0]!.body;
  assert.deepEqual(body.matching_rules, [{ id: sea.id, tag: 'sea' }, { id: fromAda.id }]);
  assert.equal(body.data.text, 'A walrus on the ice');
  assert.ok(body.data.created_at && body.data.lang, 'the link\'s post.fields');
  assert.deepEqual(
    body.includes.users.map((u: any) => u.username),
    ['ada'],
    'the link\'s expansions and user.fields',
  );
  assert.ok(deliveredTo('a', id)[0]!.headers['x-twitter-webhooks-signature'], 'signed as every outbox delivery is');
  const plain = deliveredTo('b', id)[0]!.body;
  assert.deepEqual(Object.keys(plain.data).sort(), ['edit_history_post_ids', 'id', 'text'], 'a link without fields gets the default fields, and the edit history always');
  assert.equal(plain.includes, undefined);

  // An edit is a new version of the post: it matches on its own text and carries its edit history.
  const edited = await post('A walrus and a narwhal on the ice', 'ada', { edit_options: { previous_post_id: id } });
  await receiver.until(() => deliveredTo('b', edited).length > 0, 'the edited walrus post');
  const editBody = deliveredTo('b', edited)[0]!.body;
  assert.deepEqual(editBody.data.edit_history_post_ids, [id, edited]);
  assert.deepEqual(editBody.matching_rules.map((r: any) => r.id), [sea.id, fromAda.id, rules.body.data[2].id]);
  // An edit that no longer holds the words is still an edit of a matching post: its subscribers hear of it.
  const reworded = await post('Only ice now', 'ada', { edit_options: { previous_post_id: edited } });
  await receiver.until(() => deliveredTo('b', reworded).length > 0, 'the reworded edit');
  const rewordedBody = deliveredTo('b', reworded)[0]!.body;
  assert.deepEqual(rewordedBody.data.edit_history_post_ids, [id, edited, reworded]);
  assert.deepEqual(rewordedBody.matching_rules.map((r: any) => r.id), [sea.id, fromAda.id, rules.body.data[2].id], "the rules its earlier version matched");
});

test('"Protected authors\' posts are not delivered", and posts that match no rule are not delivered', async () => {
  const hidden = await post('A protected walrus', 'bruno');
  const unmatched = await post('A seal, nothing else');
  const marker = await post('The marker walrus');
  // Deliveries follow the log in order: once the marker arrived, the posts before it were decided.
  await receiver.until(() => deliveredTo('b', marker).length > 0, 'the marker post');
  assert.equal(deliveredTo('a', hidden).length + deliveredTo('b', hidden).length, 0);
  assert.equal(deliveredTo('a', unmatched).length + deliveredTo('b', unmatched).length, 0);
});

test('"DELETE /2/posts/search/webhooks/{webhook_id}" unlinks the webhook: it gets no more posts, the other link still does', async () => {
  const removed = await f.send('DELETE', `/2/posts/search/webhooks/${hookA}`, { auth: enterprise });
  assert.equal(removed.status, 200, removed.text);
  assert.deepEqual(removed.body, { data: { deleted: true } });
  const again = await f.send('DELETE', `/2/posts/search/webhooks/${hookA}`, { auth: enterprise });
  assert.equal(again.status, 400, again.text);
  assert.ok('webhook_id' in again.body.errors[0].parameters);
  const id = await post('A walrus after the unlink');
  await receiver.until(() => deliveredTo('b', id).length > 0, 'the post on the linked webhook');
  assert.equal(deliveredTo('a', id).length, 0);
  const links = await f.get('/2/posts/search/webhooks', { auth: enterprise });
  assert.deepEqual(links.body.data.map((l: any) => l.webhook_id), [hookB]);
});

test('filtered-stream webhooks are "Refused to self-serve apps with client-forbidden"; bad input names the parameter', async () => {
  const selfServe = { bearer: f.selfServe.bearer_token };
  for (const [method, path] of [
    ['POST', `/2/posts/search/webhooks/${hookB}`],
    ['GET', '/2/posts/search/webhooks'],
    ['DELETE', `/2/posts/search/webhooks/${hookB}`],
  ] as const) {
    const res = await f.send(method, path, { auth: selfServe });
    assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
    assert.equal(res.body.type, problemType('client-forbidden'));
    assert.equal(res.body.reason, 'client-not-enrolled');
  }
  const unknown = await f.send('POST', '/2/posts/search/webhooks/1234567890123456789', { auth: enterprise });
  assert.equal(unknown.status, 400, unknown.text);
  assert.ok('webhook_id' in unknown.body.errors[0].parameters);
  const badField = await f.send('POST', `/2/posts/search/webhooks/${hookB}?post.fields=colour`, { auth: enterprise });
  assert.equal(badField.status, 400, badField.text);
  assert.ok(JSON.stringify(badField.body.errors).includes('post.fields'));
  const badId = await f.send('POST', '/2/posts/search/webhooks/abc', { auth: enterprise });
  assert.equal(badId.status, 400, badId.text);
});

test('filtered-stream webhook deliveries follow the app\'s dialect: an app in the tweet dialect receives edit_history_tweet_ids (issue 34)', async () => {
  const admin = { authorization: `Bearer ${plaza.creds.admin_token}` };
  assert.equal((await f.send('PATCH', `/admin/apps/${f.enterprise.id}`, { headers: admin, body: { dialect: 'tweet' } })).status, 200);
  try {
    const id = await post('A walrus in tweet names');
    await receiver.until(() => deliveredTo('b', id).length > 0, 'the post in tweet names');
    const body = deliveredTo('b', id)[0]!.body;
    assert.deepEqual(body.data.edit_history_tweet_ids, [id]);
    assert.equal(body.data.edit_history_post_ids, undefined);
    assert.ok(body.matching_rules.length > 0);
  } finally {
    await f.send('PATCH', `/admin/apps/${f.enterprise.id}`, { headers: admin, body: { dialect: 'post' } });
  }
});
