import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { StreamClient } from '../support/streams.js';
import { eventually } from '../support/wait.js';
import { childStore, startPlazaChild, type ChildStore, type PlazaChild } from './child.js';

/**
 * Issue #37 item 7, "A dead process holds stream connections": a stream connection's record is a
 * lease its process renews (every third of PLAZA_STREAM_CONNECTION_STALE_MS, 10 s); after a kill
 * -9 the app's allowance frees within those 10 s, and another process on the store lets it
 * reconnect.
 */
let store: ChildStore;
let dead: PlazaChild | undefined;
let other: TestPlaza | undefined;
const clients: StreamClient[] = [];
after(async () => {
  for (const c of clients) c.close();
  await other?.close();
  dead?.kill();
  await dead?.exited;
  await store?.dispose();
});

test('after kill -9 of the process holding an app\'s stream connections, another process lets the app reconnect within 10 s', { timeout: 90_000 }, async () => {
  store = await childStore();
  dead = startPlazaChild(store, { stdout: 'read' });
  const creds = await dead.ready();
  const enterprise = creds.apps[1]!;
  // The enterprise allowance (2 connections to an endpoint), taken through the first process.
  for (let i = 0; i < 2; i++) {
    const held = await StreamClient.open(creds.base_url, '/2/posts/sample/stream', enterprise.bearer_token);
    clients.push(held);
    assert.equal(held.status, 200);
  }
  // Rate limits off: the attempts below would spend the stream endpoint's window.
  other = await startTestPlaza({ databaseUrl: store.db, credentialsFile: store.credentialsFile, platformRateLimits: 'off' });
  const refused = await StreamClient.open(other.urls.base_url, '/2/posts/sample/stream', enterprise.bearer_token);
  clients.push(refused);
  assert.equal(refused.status, 429, 'the allowance is held by the live process');
  dead.child.kill('SIGKILL');
  await dead.exitWithin(10_000);
  const killedAt = Date.now();
  const reconnected = await eventually(async () => {
    const attempt = await StreamClient.open(other!.urls.base_url, '/2/posts/sample/stream', enterprise.bearer_token);
    clients.push(attempt);
    return attempt.status === 200 ? attempt : undefined;
  }, 'the app to reconnect through the other process', 20_000);
  assert.equal(reconnected.status, 200);
  assert.ok(Date.now() - killedAt <= 12_000, `reconnected ${Date.now() - killedAt} ms after the kill`);
});
