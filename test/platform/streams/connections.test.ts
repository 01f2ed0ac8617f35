import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { eventually } from '../../support/wait.js';
import { streamFixtures } from './support.js';

/**
 * GET /2/connections and DELETE /2/connections/all, /{endpoint_id}, {uuids} (spec 000, Sep 19,
 * 2025; shared/reference/platform.md §8), over real stream connections, on one process and across two.
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
});

test('"Every connection is recorded (id, client_ip, connected_at, disconnected_at, disconnect_reason, endpoint_name)": GET /2/connections with status, endpoints, max_results, pagination_token and connection.fields', async () => {
  const enterprise = plaza.creds.apps[1].bearer_token;
  const auth = { bearer: enterprise };
  const a = await f.open('/2/posts/sample/stream', enterprise);
  const b = await f.open('/2/posts/compliance/stream?partition=1', enterprise);
  assert.equal(a.status, 200);
  assert.equal(b.status, 200);
  const active = await f.g.get('/2/connections?connection.fields=id,client_ip,connected_at,endpoint_name,disconnected_at,disconnect_reason', { auth });
  assert.equal(active.status, 200, active.text);
  assert.equal(active.body.meta.result_count, 2);
  assert.deepEqual(active.body.data.map((c: any) => c.endpoint_name).sort(), ['sample_stream', 'tweets_compliance_stream']);
  for (const c of active.body.data) {
    assert.match(c.id, /^[0-9a-f-]{36}$/);
    assert.equal(c.client_ip, '127.0.0.1');
    assert.ok(!Number.isNaN(Date.parse(c.connected_at)));
    assert.equal(c.disconnected_at, undefined);
  }
  // Default fields: id only.
  const ids = await f.g.get('/2/connections', { auth });
  assert.deepEqual(Object.keys(ids.body.data[0]), ['id']);
  // The client goes away: the record says when and why.
  a.close();
  const sampleId = active.body.data.find((c: any) => c.endpoint_name === 'sample_stream').id;
  await a.until(() => a.ended, 'the client to close');
  // The server records the disconnect once it notices the socket gone.
  const inactive = await eventually(async () => {
    const res = await f.g.get('/2/connections?status=inactive&endpoints=sample_stream&connection.fields=disconnected_at,disconnect_reason', { auth });
    return res.body.meta.result_count > 0 && res;
  }, 'the inactive connection record');
  const record = inactive.body.data.find((c: any) => c.id === sampleId);
  assert.equal(record.disconnect_reason, 'ClientDisconnect');
  assert.ok(record.disconnected_at);
  // Paging, newest first.
  const page1 = await f.g.get('/2/connections?status=all&max_results=1', { auth });
  assert.equal(page1.body.meta.result_count, 1);
  assert.ok(page1.body.meta.next_token);
  const page2 = await f.g.get(`/2/connections?status=all&max_results=1&pagination_token=${page1.body.meta.next_token}`, { auth });
  assert.notEqual(page2.body.data[0].id, page1.body.data[0].id);
  // Bad input names the parameter.
  for (const [q, name] of [['status=open', 'status'], ['max_results=101', 'max_results'], ['endpoints=nope', 'endpoints'], ['connection.fields=nope', 'connection.fields'], ['pagination_token=zzz', 'pagination_token']]) {
    const bad = await f.g.get(`/2/connections?${q}`, { auth });
    assert.equal(bad.status, 400, q);
    assert.deepEqual(Object.keys(bad.body.errors[0].parameters), [name]);
  }
  // Another app sees none of them.
  const other = await f.g.get('/2/connections?status=all', { auth: f.g.appAuth });
  assert.ok(!(other.body.data ?? []).some((c: any) => c.id === sampleId));
});

test('"DELETE /2/connections {uuids}" and "DELETE /2/connections/{endpoint_id}" each answer {successful_kills, failed_kills, results} and kill with ForceDisconnect', async () => {
  const enterprise = plaza.creds.apps[1].bearer_token;
  const auth = { bearer: enterprise };
  const s1 = await f.open('/2/posts/sample/stream', enterprise);
  const s2 = await f.open('/2/users/compliance/stream?partition=2', enterprise);
  const list = await f.g.get('/2/connections?connection.fields=endpoint_name', { auth });
  const sample = list.body.data.find((c: any) => c.endpoint_name === 'sample_stream').id;
  const byUuid = await f.g.send('DELETE', '/2/connections', { auth, body: { uuids: [sample, 'not-a-connection'] } });
  assert.equal(byUuid.status, 200, byUuid.text);
  assert.equal(byUuid.body.data.successful_kills, 1);
  assert.equal(byUuid.body.data.failed_kills, 1);
  assert.deepEqual(byUuid.body.data.results[0], { uuid: sample, success: true });
  assert.equal(byUuid.body.data.results[1].success, false);
  assert.ok(byUuid.body.data.results[1].error_message);
  await s1.until(() => s1.ended, 'the killed sample stream');
  assert.equal(s1.messages().slice(-1)[0].errors[0].disconnect_type, 'ForceDisconnect');
  const byEndpoint = await f.g.send('DELETE', '/2/connections/users_compliance_stream', { auth });
  assert.equal(byEndpoint.body.data.successful_kills, 1);
  await s2.until(() => s2.ended, 'the killed compliance stream');
  const all = await f.g.send('DELETE', '/2/connections/all', { auth });
  assert.deepEqual(all.body, { data: { successful_kills: 0, failed_kills: 0, results: [] } });
  const empty = await f.g.send('DELETE', '/2/connections', { auth, body: { uuids: [] } });
  assert.equal(empty.status, 400);
  const unknownEndpoint = await f.g.send('DELETE', '/2/connections/nope_stream', { auth });
  assert.equal(unknownEndpoint.status, 400);
});

test('"With PostgreSQL and several processes, a kill through one process must reach a connection held by another" (through the event log)', async () => {
  // A second Plaza process on the same store: its own engine, its own reader of the log.
  const second = await startTestPlaza({ databaseUrl: plaza.databaseUrl, activityKeepAliveMs: 100, activityPollMs: 50 });
  const enterprise = plaza.creds.apps[1].bearer_token;
  const held = streamFixtures(second);
  try {
    const stream = await held.open('/2/posts/sample/stream', enterprise);
    assert.equal(stream.status, 200);
    await stream.until(() => stream.keepAlives() >= 1, 'the stream on the second process');
    const res = await f.g.send('DELETE', '/2/connections/all', { auth: { bearer: enterprise } });
    assert.equal(res.body.data.successful_kills, 1);
    await stream.until(() => stream.ended, 'the kill to reach the other process');
    assert.equal(stream.messages().slice(-1)[0].errors[0].disconnect_type, 'ForceDisconnect');
  } finally {
    held.closeAll();
  }
});
