import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { call, startTestPlaza, type TestPlaza } from '../support/server.js';
import { fixtures } from '../support/fixtures.js';
import { StreamClient } from '../support/streams.js';
import { eventually } from '../support/wait.js';

/**
 * Issue 37 item 9, "Per-process limits that should be shared": with Redis, the OAuth step and
 * sign-in page limits and the Activity stream's connections per app are counted once for every
 * process on the store, as the platform's rate limits are.
 */
const redisUrl = 'redis://127.0.0.1:6379';
let first: TestPlaza;
let second: TestPlaza;

before(async () => {
  const options = { redisUrl, oauthRateLimit: 3, activityStreamConnections: 2, activityKeepAliveMs: 200 };
  first = await startTestPlaza(options);
  second = await startTestPlaza({ ...options, databaseUrl: first.databaseUrl });
});
after(async () => {
  await second?.close();
  await first?.close();
});

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

test('an OAuth step\'s limit is one window for every process: the 4th POST /oauth2/token of an app, alternating between two processes, gets 429', async () => {
  const app = fixtures(first).selfServe;
  const token = (p: TestPlaza) => call(p.urls.base_url, '/oauth2/token', { method: 'POST', form: { grant_type: 'client_credentials' }, headers: { authorization: basic(app.consumer_key, app.consumer_secret) } });
  const answers = [await token(first), await token(second), await token(first)];
  for (const res of answers) assert.equal(res.status, 200, res.text);
  assert.deepEqual(answers.map((r) => r.headers.get('x-rate-limit-remaining')), ['2', '1', '0']);
  const over = await token(second);
  assert.equal(over.status, 429, over.text);
});

test('a sign-in page\'s limit per client address is shared: the 4th GET /oauth/authorize, alternating, gets the 429 page', async () => {
  const page = (p: TestPlaza) => call(p.urls.base_url, '/oauth/authorize?oauth_token=unknown', { headers: { accept: 'text/html' } });
  for (const p of [first, second, first]) assert.notEqual((await page(p)).status, 429);
  assert.equal((await page(second)).status, 429);
});

test('the Activity stream\'s connections per app are counted across processes: a third connection through either is refused; one ended frees its place', async () => {
  const bearer = fixtures(first).selfServe.bearer_token;
  const a = await StreamClient.open(first.urls.base_url, '/2/activity/stream', bearer);
  const b = await StreamClient.open(second.urls.base_url, '/2/activity/stream', bearer);
  try {
    assert.equal(a.status, 200);
    assert.equal(b.status, 200);
    for (const p of [first, second]) {
      const third = await call(p.urls.base_url, '/2/activity/stream', { auth: { bearer } });
      assert.equal(third.status, 429, third.text);
      assert.equal(third.body.title, 'ConnectionException');
    }
    b.close();
    const again = await eventually(async () => {
      const c = await StreamClient.open(first.urls.base_url, '/2/activity/stream', bearer);
      if (c.status === 200) return c;
      c.close();
      return undefined;
    }, 'a place freed once the second process\'s connection ended');
    again.close();
  } finally {
    a.close();
    b.close();
  }
});
