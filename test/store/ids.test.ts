import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualClock } from '../../src/clock.js';
import { IdGenerator } from '../../src/store/ids.js';

test('platform ids are decimal strings of at most 19 digits', () => {
  const ids = new IdGenerator(new ManualClock(new Date('2026-11-23T00:00:00.000Z')));
  for (let i = 0; i < 1000; i++) assert.match(ids.next(), /^[0-9]{1,19}$/);
  // The 41-bit time part lasts until 2080: the last millisecond still fits in 19 digits.
  const late = new IdGenerator(new ManualClock(new Date('2079-01-01T00:00:00.000Z')));
  assert.match(late.next(), /^[0-9]{1,19}$/);
});

test('ids are time-ordered: a later time gives a larger id, and ids made in one millisecond still increase', () => {
  const clock = new ManualClock(new Date('2026-11-23T00:00:00.000Z'));
  const ids = new IdGenerator(clock);
  const seen: bigint[] = [];
  for (let i = 0; i < 5000; i++) seen.push(BigInt(ids.next()));
  clock.advance(1);
  seen.push(BigInt(ids.next()));
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i] > seen[i - 1], `id ${i} increases`);
  assert.equal(new Set(seen).size, seen.length);
});

test('a clock moved backwards never yields a smaller or repeated id', () => {
  const clock = new ManualClock(new Date('2026-11-23T00:00:00.000Z'));
  const ids = new IdGenerator(clock);
  const first = BigInt(ids.next());
  clock.advance(-60_000);
  assert.ok(BigInt(ids.next()) > first);
});
