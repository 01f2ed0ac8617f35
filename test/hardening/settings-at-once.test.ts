import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { redisClient } from '../../src/redis.js';
import { settingsChannel } from '../../src/events/settings-bus.js';
import type { CredentialsFile } from '../../src/seed/credentials.js';
import { call, startTestPlaza, type TestPlaza } from '../support/server.js';
import { eventually } from '../support/wait.js';

/**
 * Issue 37 item 8, "Settings that lag": an admin change made through one process is answered only
 * once every other process on the store has applied it (Redis carries the news and the
 * acknowledgements), so the next request through another process sees it. The processes' own
 * poll is set to a minute here: nothing else could explain what the second one sees.
 */
const redisUrl = 'redis://127.0.0.1:6379';
let first: TestPlaza;
let second: TestPlaza;
let creds: CredentialsFile;

before(async () => {
  first = await startTestPlaza({ redisUrl, activityPollMs: 60_000 });
  second = await startTestPlaza({ databaseUrl: first.databaseUrl, redisUrl, activityPollMs: 60_000 });
  creds = first.creds;
  // Both processes listen for announcements before the test makes any.
  const redis = redisClient(redisUrl, {});
  try {
    await eventually(async () => {
      const [, subscribers] = (await redis.pubsub('NUMSUB', settingsChannel(first.databaseUrl))) as [string, number];
      return subscribers >= 2 ? true : undefined;
    }, 'both processes subscribed to the settings channel');
  } finally {
    redis.disconnect();
  }
});
after(async () => {
  await second?.close();
  await first?.close();
});

const admin = () => ({ bearer: first.adminToken! });

test('"a post made right after moving the clock through another process" carries the new time', async () => {
  // Half an hour on (within the demo tokens' lifetime), frozen there.
  const moved = await call(first.urls.base_url, '/admin/clock', { method: 'POST', auth: admin(), body: { advance: 'PT30M', frozen: true } });
  assert.equal(moved.status, 200, moved.text);
  const at = moved.body.data.now as string;
  try {
    const ada = creds.users.find((u) => u.username === 'ada')!;
    const posted = await call(second.urls.base_url, '/2/posts', { method: 'POST', auth: { bearer: ada.oauth2_access_token }, body: { text: 'made right after the clock moved' } });
    assert.equal(posted.status, 201, posted.text);
    const read = await call(second.urls.base_url, `/2/posts/${posted.body.data.id}?post.fields=created_at`, { auth: { bearer: creds.apps[0]!.bearer_token } });
    assert.equal(read.body.data.created_at, at);
    assert.equal((await call(second.urls.base_url, '/admin/clock', { auth: admin() })).body.data.now, at);
  } finally {
    assert.equal((await call(first.urls.base_url, '/admin/clock', { method: 'POST', auth: admin(), body: { real: true } })).status, 200);
  }
  assert.equal((await call(second.urls.base_url, '/admin/clock', { auth: admin() })).body.data.mode, 'real', 'and back, at once');
});

test('a fault and a usage cap set through one process strike the next request through the other, and clearing them is seen as soon', async () => {
  const app = creds.apps[0]!;
  const path = '/2/users/by/username/ada';
  assert.equal((await call(second.urls.base_url, path, { auth: { bearer: app.bearer_token } })).status, 200, 'the cap cache holds the app as uncapped');
  const capped = await call(first.urls.base_url, '/admin/faults', { method: 'POST', auth: admin(), body: { kind: 'usage_cap', app_id: app.id } });
  assert.equal(capped.status, 201, capped.text);
  const struck = await call(second.urls.base_url, path, { auth: { bearer: app.bearer_token } });
  assert.equal(struck.status, 429, struck.text);
  assert.equal(struck.body.title, 'UsageCapExceeded');
  assert.equal((await call(first.urls.base_url, `/admin/faults/${capped.body.data.id}`, { method: 'DELETE', auth: admin() })).status, 200);
  assert.equal((await call(second.urls.base_url, path, { auth: { bearer: app.bearer_token } })).status, 200, 'cleared');

  const limited = await call(first.urls.base_url, '/admin/faults', { method: 'POST', auth: admin(), body: { kind: 'rate_limit', app_id: app.id, endpoint: 'GET /2/users/by/username/{username}' } });
  assert.equal(limited.status, 201, limited.text);
  assert.equal((await call(second.urls.base_url, path, { auth: { bearer: app.bearer_token } })).status, 429, 'the rate_limit fault strikes on the other process');
  assert.equal((await call(first.urls.base_url, path, { auth: { bearer: app.bearer_token } })).status, 200, 'once');
});

test('a world reset through one process is seen by the next request through the other', async () => {
  const made = await call(first.urls.base_url, '/admin/worlds', { method: 'POST', auth: admin(), body: { seed: 'demo' } });
  assert.equal(made.status, 201, made.text);
  const world = made.body.data.id as string;
  const c = made.body.data.credentials as CredentialsFile;
  const ada = c.users.find((u) => u.username === 'ada')!;
  const posted = await call(second.urls.base_url, '/2/posts', { method: 'POST', auth: { bearer: ada.oauth2_access_token }, body: { text: 'gone after the reset' } });
  assert.equal(posted.status, 201, posted.text);
  assert.equal((await call(first.urls.base_url, `/admin/worlds/${world}/reset`, { method: 'POST', auth: admin() })).status, 200);
  const after = await call(second.urls.base_url, `/2/posts/${posted.body.data.id}`, { auth: { bearer: c.apps[0]!.bearer_token } });
  assert.equal(after.status, 200, after.text);
  assert.ok(after.body.errors?.[0]?.title === 'Not Found Error' && after.body.data === undefined, after.text);
  assert.equal((await call(first.urls.base_url, `/admin/worlds/${world}`, { method: 'DELETE', auth: admin() })).status, 200);
  assert.equal((await call(second.urls.base_url, '/2/users/me', { auth: { bearer: ada.oauth2_access_token } })).status, 401, 'a deleted world\'s tokens are refused at once');
});
