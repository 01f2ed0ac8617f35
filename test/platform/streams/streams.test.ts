import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { eventually } from '../../support/wait.js';
import { streamFixtures } from './support.js';
import { problemType } from '../../support/problems.js';

/**
 * GET /2/posts/search/stream (issue #12 "The stream", shared/reference/platform.md §6) over real
 * sockets: lines of {data, includes, matching_rules}, edits, protected authors, keep-alives,
 * backfill, the rules' validity, and the connection allowance.
 */

let plaza: TestPlaza;
let f: ReturnType<typeof streamFixtures>;

before(async () => {
  plaza = await startTestPlaza({ activityKeepAliveMs: 100, activityPollMs: 50 });
  f = streamFixtures(plaza);
});

after(() => f.closeAll());

beforeEach(async () => {
  f.closeAll();
  await f.killAll();
  await f.deleteAllRules();
  await f.deleteAllRules(plaza.creds.apps[1].bearer_token);
});

test('"GET /2/posts/search/stream: a persistent HTTP response of one JSON object per line, {data, includes, matching_rules:[{id, tag}]}, with every *.fields and expansion of post lookup"', async () => {
  const [rule] = await f.addRules([{ value: 'lighthouse', tag: 'coast' }, { value: 'from:nobody_at_all' }]);
  const stream = await f.open('/2/posts/search/stream?post.fields=author_id,created_at,lang&expansions=author_id&user.fields=username');
  assert.equal(stream.status, 200);
  assert.match(String(stream.headers['content-type']), /application\/json/);
  await stream.until(() => stream.keepAlives() >= 2, '\\r\\n keep-alives');
  const ada = f.g.user('ada');
  await f.post('ada', 'Nothing to see here');
  const made = await f.post('ada', 'A lighthouse at dusk');
  await stream.until(() => stream.events().length >= 1, 'the matching post');
  const [line] = stream.events();
  assert.deepEqual(Object.keys(line).sort(), ['data', 'includes', 'matching_rules']);
  assert.equal(line.data.id, made.id);
  assert.equal(line.data.text, 'A lighthouse at dusk');
  assert.equal(line.data.author_id, ada.id);
  assert.ok(line.data.created_at && line.data.lang);
  assert.deepEqual(line.includes.users, [{ id: ada.id, name: line.includes.users[0].name, username: 'ada' }]);
  assert.deepEqual(line.matching_rules, [{ id: rule.id, tag: 'coast' }]);
  // The same post through post lookup: the same object.
  const looked = await f.g.get(`/2/posts/${made.id}?post.fields=author_id,created_at,lang&expansions=author_id&user.fields=username`, { auth: f.g.appAuth });
  assert.deepEqual(looked.body.data, line.data);
  assert.deepEqual(looked.body.includes, line.includes);
  assert.equal(stream.events().length, 1, 'the post that matches no rule is not sent');
});

test('"edits of matching posts (their edit history included)" are delivered; "protected authors\' posts never"', async () => {
  await f.addRules([{ value: 'harbour' }]);
  const stream = await f.open('/2/posts/search/stream?post.fields=edit_history_post_ids');
  await f.post('bruno', 'The harbour from a protected account');
  const original = await f.post('ada', 'The harbour at dawn');
  await stream.until(() => stream.events().length >= 1, 'the original');
  const edited = await f.post('ada', 'The harbour at dawn, edited', { edit_options: { previous_post_id: original.id } });
  await stream.until(() => stream.events().length >= 2, 'the edit');
  const [first, second] = stream.events();
  assert.equal(first.data.id, original.id);
  assert.deepEqual(first.data.edit_history_post_ids, [original.id]);
  assert.equal(second.data.id, edited.id);
  assert.deepEqual(second.data.edit_history_post_ids, [original.id, edited.id]);
  assert.ok(!stream.events().some((e) => e.data.text.includes('protected')));
});

test('"backfill_minutes 0-5 and start_time/end_time replayed from the event log"; bad values are invalid requests naming the parameter', async () => {
  await f.addRules([{ value: 'backfilled' }]);
  const early = await f.post('ada', 'backfilled before the connection');
  const stream = await f.open('/2/posts/search/stream?backfill_minutes=5');
  await stream.until(() => stream.events().length >= 1, 'the backfilled post');
  assert.equal(stream.events()[0].data.id, early.id);
  const bad = await f.g.get('/2/posts/search/stream?backfill_minutes=6', { auth: f.g.appAuth });
  assert.equal(bad.status, 400);
  assert.deepEqual(Object.keys(bad.body.errors[0].parameters), ['backfill_minutes']);
  stream.close();
  await f.killAll();
  const from = new Date(Date.now() - 60_000).toISOString();
  const to = new Date(Date.now() + 60_000).toISOString();
  const window = await f.open(`/2/posts/search/stream?start_time=${from}&end_time=${to}`);
  await window.until(() => window.events().length >= 1, 'the post of the window');
  assert.equal(window.events()[0].data.id, early.id);
});

test('"past it, 429 with a streaming-connection problem (connection_issue TooManyConnections)": one connection on self-serve, more on enterprise; the connections operations clear it at once', async () => {
  await f.addRules([{ value: 'allowance' }]);
  const first = await f.open('/2/posts/search/stream');
  assert.equal(first.status, 200);
  const second = await f.g.get('/2/posts/search/stream', { auth: f.g.appAuth });
  assert.equal(second.status, 429);
  assert.equal(second.body.type, problemType('streaming-connection'));
  assert.equal(second.body.connection_issue, 'TooManyConnections');
  const killed = await f.g.send('DELETE', '/2/connections/filtered_stream', { auth: f.g.appAuth });
  assert.equal(killed.status, 200, killed.text);
  assert.equal(killed.body.data.successful_kills, 1);
  assert.equal(killed.body.data.failed_kills, 0);
  // Cleared at once: no time-out to wait for.
  const third = await f.open('/2/posts/search/stream');
  assert.equal(third.status, 200);
  await first.until(() => first.ended, 'the killed stream to end');
  const last = first.messages().slice(-1)[0];
  assert.equal(last.errors[0].type, problemType('operational-disconnect'));
  assert.equal(last.errors[0].disconnect_type, 'ForceDisconnect');
  // Enterprise: two at once (config streamConnectionsEnterprise).
  const enterprise = plaza.creds.apps[1].bearer_token;
  await f.addRules([{ value: 'allowance' }], enterprise);
  assert.equal((await f.open('/2/posts/search/stream', enterprise)).status, 200);
  assert.equal((await f.open('/2/posts/search/stream', enterprise)).status, 200);
  assert.equal((await f.g.get('/2/posts/search/stream', { auth: { bearer: enterprise } })).status, 429);
});

test('a filtered stream without rules is refused with 409 (RuleConfigurationIssue); "InvalidRules when the rules become invalid"', async () => {
  const none = await f.g.get('/2/posts/search/stream', { auth: f.g.appAuth });
  assert.equal(none.status, 409);
  assert.equal(none.body.connection_issue, 'RuleConfigurationIssue');
  // An enterprise app's rule of 1,500 characters, valid on its tier...
  const enterprise = plaza.creds.apps[1];
  await f.addRules([{ value: `longrule ${'x'.repeat(1_490)}` }], enterprise.bearer_token);
  const stream = await f.open('/2/posts/search/stream', enterprise.bearer_token);
  assert.equal(stream.status, 200);
  // ...becomes invalid when the app moves to a self-serve tier (1,024 characters); the next change of its rules cuts the stream.
  await plaza.ctx.store.db.updateTable('apps').set({ tier: 'pro' }).where('id', '=', enterprise.id).execute();
  try {
    await f.addRules([{ value: 'another' }], enterprise.bearer_token);
    await stream.until(() => stream.ended, 'the InvalidRules disconnect');
    assert.equal(stream.messages().slice(-1)[0].errors[0].disconnect_type, 'InvalidRules');
    const refused = await f.g.get('/2/posts/search/stream', { auth: { bearer: enterprise.bearer_token } });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.connection_issue, 'RulesInvalidIssue');
  } finally {
    await plaza.ctx.store.db.updateTable('apps').set({ tier: 'enterprise' }).where('id', '=', enterprise.id).execute();
  }
});

test('the stream needs app-only auth; unknown fields are invalid requests', async () => {
  assert.equal((await f.g.get('/2/posts/search/stream', { auth: f.g.oauth2As('ada') })).status, 403);
  assert.equal((await f.g.get('/2/posts/search/stream')).status, 401);
  await f.addRules([{ value: 'fields' }]);
  const bad = await f.g.get('/2/posts/search/stream?post.fields=nope', { auth: f.g.appAuth });
  assert.equal(bad.status, 400);
  await eventually(async () => (await f.g.get('/2/connections', { auth: f.g.appAuth })).body.meta.result_count === 0, 'no connection left open');
});

test('streams close cleanly on shutdown with an OperationalDisconnect message', async () => {
  const closing = await startTestPlaza({ activityKeepAliveMs: 100, activityPollMs: 50 });
  const c = streamFixtures(closing);
  await c.addRules([{ value: 'shutdown' }]);
  const stream = await c.open('/2/posts/search/stream');
  await stream.until(() => stream.keepAlives() >= 1, 'the stream to be open');
  await closing.close();
  await stream.until(() => stream.ended, 'the stream to end');
  assert.equal(stream.messages().slice(-1)[0].errors[0].disconnect_type, 'OperationalDisconnect');
  c.closeAll();
});
