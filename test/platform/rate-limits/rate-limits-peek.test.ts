import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { after, test } from 'node:test';
import { ManualClock } from '../../../src/clock.js';
import { FixedWindowRateLimiter, MemoryRateLimitCounter, RedisRateLimitCounter, type RateLimitCounter, type RateLimitRule } from '../../../src/http/rate-limit.js';
import { within } from '../../support/wait.js';

/**
 * The limiter's read-only view (issue #17, the console's "remaining requests"): `peek` tells the
 * limit, the requests left and the reset of the current window without spending one, and `active`
 * lists the windows still open; the same for the in-process counter and the Redis-shared one.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const closers: Array<() => Promise<void>> = [];
after(async () => {
  for (const close of closers) await close();
});

const WINDOW = 15 * 60_000;
const rule: RateLimitRule = { name: 'GET /2/users/{id}', limit: 3, windowMs: WINDOW };
const other: RateLimitRule = { name: 'POST /2/posts', limit: 100, windowMs: WINDOW };

async function exercise(counter: RateLimitCounter, appId: string): Promise<void> {
  // A minute into a window, so moving on by a window lands in the next one.
  const clock = new ManualClock(new Date(Math.ceil(Date.now() / WINDOW) * WINDOW + 60_000));
  const limiter = new FixedWindowRateLimiter(clock, counter);
  const key = `app:${appId}`;
  const reset = Math.ceil((Math.floor(clock.now().getTime() / WINDOW) * WINDOW + WINDOW) / 1000);

  assert.deepEqual(await limiter.peek(rule, key), { limit: 3, remaining: 3, reset, allowed: true }, 'an unused window is whole');
  assert.deepEqual(await limiter.active(`\u0000${key}`), [], 'no window is open before a request');
  await limiter.hit(rule, key);
  await limiter.hit(rule, key);
  for (let i = 0; i < 5; i++) assert.deepEqual(await limiter.peek(rule, key), { limit: 3, remaining: 1, reset, allowed: true }, '"peek does not consume": the same answer every time');
  const third = await limiter.hit(rule, key);
  assert.deepEqual(third, { limit: 3, remaining: 0, reset, allowed: true }, 'the peeks spent nothing: the third request is still allowed');
  assert.deepEqual(await limiter.peek(rule, key), { limit: 3, remaining: 0, reset, allowed: false }, 'at the limit, peek says the next request would be refused');
  assert.equal((await limiter.hit(rule, key)).allowed, false);

  await limiter.hit(other, `user:${appId}:42`);
  const open = (await limiter.active(`\u0000${key}`)).concat(await limiter.active(`\u0000user:${appId}:`));
  assert.deepEqual(
    open.sort((a, b) => a.name.localeCompare(b.name)),
    [
      { name: 'GET /2/users/{id}', key },
      { name: 'POST /2/posts', key: `user:${appId}:42` },
    ],
  );

  clock.advance(WINDOW);
  assert.deepEqual(await limiter.peek(rule, key), { limit: 3, remaining: 3, reset: reset + WINDOW / 1000, allowed: true }, 'a new window is whole again');
  // The in-process counter ends windows by the clock; Redis by the keys' expiry, in real time.
  if (counter instanceof MemoryRateLimitCounter) assert.deepEqual(await limiter.active(`\u0000${key}`), [], 'an ended window is not open');
}

test('in-process counter: "peek" reads the limit, remaining requests and reset of the current window without consuming; "active" lists the open windows', async () => {
  await exercise(new MemoryRateLimitCounter(), '1001');
});

test('Redis-shared counter: "peek" reads the shared window without consuming, from another process\'s counter too; "active" lists the open windows', { skip: process.env.REDIS_URL ? false : 'needs REDIS_URL' }, async () => {
  // A store key of its own: nothing else's windows in the way.
  const store = `peek-test-${randomBytes(6).toString('hex')}`;
  const a = new RedisRateLimitCounter(REDIS_URL, store);
  const b = new RedisRateLimitCounter(REDIS_URL, store);
  closers.push(() => a.close(), () => b.close());
  await waitReady(a);
  await waitReady(b);
  await exercise(a, '2002');
  // What process A spent, process B sees without spending.
  const clock = new ManualClock();
  const limiterA = new FixedWindowRateLimiter(clock, a);
  const limiterB = new FixedWindowRateLimiter(clock, b);
  await limiterA.hit(rule, 'app:3003');
  assert.equal((await limiterB.peek(rule, 'app:3003')).remaining, 2);
  assert.equal((await limiterB.peek(rule, 'app:3003')).remaining, 2);
  assert.deepEqual(await limiterB.active('\u0000app:3003'), [{ name: rule.name, key: 'app:3003' }]);
});

async function waitReady(counter: RedisRateLimitCounter): Promise<void> {
  const redis = (counter as unknown as { redis: { status: string } & EventEmitter }).redis;
  if (redis.status !== 'ready') await within(once(redis, 'ready'), `Redis at ${REDIS_URL} to be ready`);
}
