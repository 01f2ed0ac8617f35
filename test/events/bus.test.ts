import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { LocalEventBus, RedisEventBus } from '../../src/events/bus.js';
import { appendEvent, eventsAfter, lastEventSeq } from '../../src/events/log.js';
import { startTestPlaza } from '../support/server.js';
import { eventually } from '../support/wait.js';

/**
 * The fan-out bus (issue #10 "The pipeline"): wakes consumers when the log grows, in-process by
 * default, across processes by Redis pub/sub when REDIS_URL is set (real Redis on 127.0.0.1:6379),
 * and the reading by cursor that consumers rely on instead of trusting the bus for content.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Resolves on the listener's next call; rejects after `ms`. */
function nextWake(bus: { onAppend(l: () => void): () => void }, ms = 5_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no wake-up within ${ms} ms`));
    }, ms);
    const off = bus.onAppend(() => {
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}

test('in-process bus: notify wakes every listener soon after, again a little later (after the commit), and an unsubscribed listener no more', async () => {
  const bus = new LocalEventBus();
  let calls = 0;
  const off = bus.onAppend(() => calls++);
  const woken = nextWake(bus);
  bus.notify();
  await woken;
  assert.ok(calls >= 1);
  // The trailing wakes come without another notify: a reader that ran before the commit reads again.
  const trailing = nextWake(bus);
  await trailing;
  off();
  const before = calls;
  bus.notify();
  await nextWake(bus);
  assert.equal(calls, before, 'the unsubscribed listener was not called');
  await bus.close();
});

test('Redis pub/sub when REDIS_URL is set: a notify on one bus wakes the listeners of another bus on the same store, and not those of another store', async () => {
  const store = `postgres://example/${randomUUID()}`;
  const a = new RedisEventBus(REDIS_URL, store);
  const b = new RedisEventBus(REDIS_URL, store);
  const other = new RedisEventBus(REDIS_URL, `${store}-other`);
  try {
    await Promise.all([a.ready(), b.ready(), other.ready()]);
    let otherCalls = 0;
    const offOther = other.onAppend(() => otherCalls++);
    const woken = nextWake(b);
    a.notify();
    await woken;
    // And the other way round.
    const back = nextWake(a);
    b.notify();
    await back;
    offOther();
    assert.equal(otherCalls, 0, 'another store\'s bus hears nothing');
  } finally {
    await Promise.all([a.close(), b.close(), other.close()]);
  }
});

test('a consumer woken by the bus reads the log from its cursor and sees an event whose transaction commits after the notify', async () => {
  const plaza = await startTestPlaza();
  const { ctx } = plaza;
  let cursor = await lastEventSeq(ctx.store.db);
  const seen: string[] = [];
  const off = ctx.events.onAppend(() => {
    void eventsAfter(ctx.store.db, cursor).then((rows) => {
      for (const r of rows) {
        if (Number(r.seq) > cursor) {
          cursor = Number(r.seq);
          seen.push(r.type);
        }
      }
    });
  });
  await ctx.store.db.transaction().execute(async (tx) => {
    await appendEvent(ctx, tx, { type: 'test.late-commit', subject: '1', payload: {} });
    // The transaction goes on after the append's notify; the commit comes later.
    for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
    await tx.selectFrom('events').select('seq').limit(1).execute();
  });
  await eventually(() => seen.includes('test.late-commit'), 'the consumer to see the committed event', 5_000);
  off();
});

test('reading by cursor is safe on PostgreSQL: appends are serialised until commit, so seq order is commit order and no event commits behind a reader\'s cursor', { skip: process.env.DATABASE_URL ? false : 'needs DATABASE_URL (SQLite has one writer, so its seq order is commit order already)' }, async () => {
  const plaza = await startTestPlaza();
  const { ctx } = plaza;
  const db = ctx.store.db;
  let cursor = await lastEventSeq(db);
  const start = cursor;
  let stop = false;
  let behind = 0;
  const seen = new Set<number>();
  const reader = (async () => {
    while (!stop) {
      for (const r of await eventsAfter(db, cursor)) {
        if (Number(r.seq) <= cursor) behind++;
        seen.add(Number(r.seq));
        cursor = Number(r.seq);
      }
    }
  })();
  // Transactions that append, then take a varying time to commit.
  await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      db.transaction().execute(async (tx) => {
        await appendEvent(ctx, tx, { type: 'test.concurrent', subject: String(i), payload: { i } });
        // Real time: the commits must land at varying moments among the reader's queries on the server.
        await new Promise((r) => setTimeout(r, (i * 7) % 23));
      }),
    ),
  );
  const all = (await eventsAfter(db, start, 1000)).filter((r) => r.type === 'test.concurrent');
  await eventually(() => all.every((r) => seen.has(Number(r.seq))), 'the reader to catch up', 5_000);
  stop = true;
  await reader;
  assert.equal(all.length, 40);
  assert.equal(behind, 0);
  assert.ok(all.every((r) => seen.has(Number(r.seq))), 'the reader, moving its cursor as it went, missed no event');
});
