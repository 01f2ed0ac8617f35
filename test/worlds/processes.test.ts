import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { redisClient, storeRedisName } from '../../src/redis.js';
import type { CredentialsFile } from '../../src/seed/credentials.js';
import { call, startTestPlaza, type TestPlaza } from '../support/server.js';
import { StreamClient } from '../support/streams.js';
import { eventually } from '../support/wait.js';

/**
 * A world served by two processes on one store and Redis: a post written through one process
 * reaches the world's stream on the other through the Redis wake-up, which runs in that world
 * (the poll is set to a minute here, so nothing else could deliver it in time).
 */
let first: TestPlaza;
let second: TestPlaza;
const redisUrl = 'redis://127.0.0.1:6379';
before(async () => {
  first = await startTestPlaza({ redisUrl, activityPollMs: 60_000 });
  second = await startTestPlaza({ databaseUrl: first.databaseUrl, redisUrl, activityPollMs: 60_000 });
});
after(async () => {
  await second.close();
  await first.close();
});

test('a post written in a world through one process reaches that world\'s stream on another at once (the Redis wake-up runs in the world)', async () => {
  const made = await call(first.urls.base_url, '/admin/worlds', { method: 'POST', auth: { bearer: first.adminToken! }, body: { seed: 'demo' } });
  assert.equal(made.status, 201, made.text);
  const c = made.body.data.credentials as CredentialsFile;
  const rule = await call(second.urls.base_url, '/2/posts/search/stream/rules', { method: 'POST', auth: { bearer: c.apps[0]!.bearer_token }, body: { add: [{ value: 'from:ada' }] } });
  assert.equal(rule.status, 200, rule.text);
  const stream = await StreamClient.open(second.urls.base_url, '/2/posts/search/stream', c.apps[0]!.bearer_token);
  try {
    assert.equal(stream.status, 200);
    const ada = c.users.find((u) => u.username === 'ada')!;
    const posted = await call(first.urls.base_url, '/2/posts', { method: 'POST', auth: { bearer: ada.oauth2_access_token }, body: { text: 'through the first process' } });
    assert.equal(posted.status, 201, posted.text);
    await stream.until(() => stream.raw.includes(posted.body.data.id), 'the post on the other process\'s stream', 10_000);
  } finally {
    stream.close();
  }
});

test("a process listens to the other processes' writes only while a stream of its world is open: with none, a write through one process wakes no other (the store's wake-up channel has no subscriber)", async () => {
  const redis = redisClient(redisUrl, {});
  const channel = storeRedisName('events', first.databaseUrl);
  const subscribers = async () => Number(((await redis.pubsub('NUMSUB', channel)) as [string, number])[1]);
  try {
    assert.equal(await subscribers(), 0, 'two processes, no stream: nobody listens');
    const app = first.credentials!.apps[0]!;
    const rule = await call(second.urls.base_url, '/2/posts/search/stream/rules', { method: 'POST', auth: { bearer: app.bearer_token }, body: { add: [{ value: 'from:chen' }] } });
    assert.equal(rule.status, 200, rule.text);
    const stream = await StreamClient.open(second.urls.base_url, '/2/posts/search/stream', app.bearer_token);
    try {
      assert.equal(stream.status, 200);
      await eventually(async () => (await subscribers()) === 1 || undefined, 'the process holding the stream listens');
    } finally {
      stream.close();
    }
  } finally {
    redis.disconnect();
  }
});
