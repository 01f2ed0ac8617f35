import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OffsetClock } from '../../src/clock.js';
import { startTestPlaza } from '../support/server.js';
import { fuzzPlaza } from './fuzz.js';

/**
 * The fuzz run of issue #9 in CI (the bounded budget; `npm run fuzz` runs the long one): every
 * operation of the platform's OpenAPI document and of the ads route table, with bad input and
 * bad credentials. No 5xx, every error in its interface's shape, no credential let through, and
 * on SQLite no change to the store from any operation whose requests were all refused.
 */
test('fuzzing every platform and ads operation with bad input and bad credentials: no 5xx, every error in its interface shape, no bypass, refused writes change nothing', { timeout: 180_000 }, async (t) => {
  const clock = new OffsetClock();
  const plaza = await startTestPlaza({}, { clock });
  const started = Date.now();
  const report = await fuzzPlaza(plaza, clock, 'ci');
  const seconds = (Date.now() - started) / 1000;
  t.diagnostic(`${report.operations} operations, ${report.requests} requests in ${seconds} s`);
  assert.ok(report.operations >= 88 + 40, `walked ${report.operations} operations`);
  assert.deepEqual(report.failures, [], `${report.failures.length} failures in ${report.requests} requests (${seconds} s):\n${report.failures.join('\n')}`);
});
