import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { LocalEventBus, RedisEventBus } from '../../src/events/bus.js';
import { appendEvent, eventsAfter, lastEventSeq, sequenceEvents } from '../../src/events/log.js';
import { sql } from 'kysely';
import pg from 'pg';
import { redisClient } from '../../src/redis.js';
import { dropPostgresDatabase, freshPostgresDatabase, startTestPlaza } from '../support/server.js';
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

test('in-process bus: a commit wakes every reader and the own-append work once, on the next turn (the commits of a turn share it); events placed wake the readers only; an unsubscribed listener no more', async () => {
  const bus = new LocalEventBus();
  let reads = 0;
  let own = 0;
  const off = bus.onAppend(() => reads++);
  const offOwn = bus.onOwnAppend(() => own++);
  let woken = nextWake(bus);
  bus.committed();
  bus.committed();
  await woken;
  assert.deepEqual([reads, own], [1, 1]);
  woken = nextWake(bus);
  bus.placed();
  await woken;
  assert.deepEqual([reads, own], [2, 1], 'placing wakes the readers, not the work of this process\'s own appends');
  off();
  offOwn();
  woken = nextWake(bus);
  bus.committed();
  await woken;
  assert.deepEqual([reads, own], [2, 1], 'the unsubscribed listeners were not called');
  await bus.close();
});

test('the store says when a commit appended to the log: after the commit of a transaction that appended, after a lone append, and not for a rollback or a transaction that appended nothing', async () => {
  const plaza = await startTestPlaza({ seedDemo: false });
  const { store } = plaza.ctx;
  let commits = 0;
  const off = store.onEventsCommitted(() => commits++);
  try {
    const event = { type: 'test.commit', subject: '1', payload: {} };
    await store.db.transaction().execute(async (tx) => {
      await appendEvent(plaza.ctx, tx, event);
      await appendEvent(plaza.ctx, tx, event);
      assert.equal(commits, 0, 'nothing before the commit');
    });
    assert.equal(commits, 1, 'one for the transaction, after its commit');
    await appendEvent(plaza.ctx, store.db, event);
    assert.equal(commits, 2, 'a lone append is its own commit');
    await assert.rejects(
      store.db.transaction().execute(async (tx) => {
        await appendEvent(plaza.ctx, tx, event);
        throw new Error('rolled back');
      }),
    );
    await store.db.transaction().execute(async (tx) => void (await tx.selectFrom('events').select('id').limit(1).execute()));
    await store.db.insertInto('event_cursors').values({ name: `test-${randomUUID()}`, seq: 0 }).execute();
    assert.equal(commits, 2, 'a rollback, a transaction that appended nothing and a write elsewhere say nothing');
  } finally {
    off();
    await plaza.close();
  }
});

test('Redis pub/sub when REDIS_URL is set: a commit on one bus wakes the listeners of another bus on the same store, and not those of another store', async () => {
  const store = `postgres://example/${randomUUID()}`;
  const a = new RedisEventBus(REDIS_URL, store);
  const b = new RedisEventBus(REDIS_URL, store);
  const other = new RedisEventBus(REDIS_URL, `${store}-other`);
  try {
    // A bus listens on the channel while it has listeners: each has one standing here.
    const standing = [a.onAppend(() => {}), b.onAppend(() => {})];
    let otherCalls = 0;
    const offOther = other.onAppend(() => otherCalls++);
    await Promise.all([a.ready(), b.ready(), other.ready()]);
    const woken = nextWake(b);
    a.committed();
    await woken;
    // And the other way round.
    const back = nextWake(a);
    b.committed();
    await back;
    offOther();
    for (const off of standing) off();
    assert.equal(otherCalls, 0, 'another store\'s bus hears nothing');
  } finally {
    await Promise.all([a.close(), b.close(), other.close()]);
  }
});

test("every world's bus in a process shares its two Redis connections: ten buses on ten stores hold one publisher and one subscriber, a wake-up still reaches only its store's listeners, and the connections close with the last bus", async () => {
  const admin = redisClient(REDIS_URL, {});
  const ours = async () =>
    String(await admin.client('LIST'))
      .split('\n')
      .filter((line) => new RegExp(`name=plaza-${process.pid}-(publish|subscribe) `).test(line)).length;
  const stores = Array.from({ length: 10 }, () => `postgres://example/${randomUUID()}`);
  const buses = stores.map((store) => new RedisEventBus(REDIS_URL, store));
  const twin = new RedisEventBus(REDIS_URL, stores[0]!);
  try {
    const calls = buses.map(() => 0);
    const offs = buses.map((bus, i) => bus.onAppend(() => calls[i]!++));
    await Promise.all(buses.map((bus) => bus.ready()));
    await eventually(async () => (await ours()) === 2 || undefined, 'two connections for eleven buses');
    twin.committed();
    await eventually(() => calls[0]! > 0 || undefined, "the first store's listener woken");
    assert.deepEqual(calls.slice(1), Array(9).fill(0), "the other stores' listeners were not");
    offs.forEach((off) => off());
  } finally {
    await Promise.all([...buses, twin].map((bus) => bus.close()));
  }
  try {
    await eventually(async () => (await ours()) === 0 || undefined, 'the connections closed with the last bus');
  } finally {
    admin.disconnect();
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

test('reading by cursor is safe on PostgreSQL: an event takes its place in the log only once every older transaction has ended, so none lands behind a reader\'s cursor', { skip: process.env.DATABASE_URL ? false : 'needs DATABASE_URL (SQLite has one writer, so its seq order is commit order already)' }, async () => {
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
  // Every one takes its place once no older transaction (Plaza's own background work too) is running.
  const all = await eventually(async () => {
    const placed = (await eventsAfter(db, start, 1000)).filter((r) => r.type === 'test.concurrent');
    return placed.length === 40 ? placed : undefined;
  }, 'all 40 events in the log', 5_000);
  await eventually(() => all.every((r) => seen.has(Number(r.seq))), 'the reader to catch up', 5_000);
  stop = true;
  await reader;
  assert.equal(all.length, 40);
  assert.equal(behind, 0);
  assert.ok(all.every((r) => seen.has(Number(r.seq))), 'the reader, moving its cursor as it went, missed no event');
});

test('"writers never wait on each other" (issue 37 item 2): a transaction that appended and stays open does not hold back another\'s append and commit; readers get the later event only once the older transaction ends, then both, the older first', { skip: process.env.DATABASE_URL ? false : 'needs DATABASE_URL (SQLite has one writer at a time)' }, async () => {
  const plaza = await startTestPlaza();
  try {
    const { ctx } = plaza;
    const db = ctx.store.db;
    const start = await lastEventSeq(db);
    let releaseOlder!: () => void;
    const held = new Promise<void>((resolve) => (releaseOlder = resolve));
    let olderAppended!: () => void;
    const appended = new Promise<void>((resolve) => (olderAppended = resolve));
    const older = db.transaction().execute(async (tx) => {
      await appendEvent(ctx, tx, { type: 'test.older', subject: 'older', payload: {} });
      olderAppended();
      await held;
    });
    await appended;
    // Before: a global lock held to commit made this wait for the older transaction.
    const later = await Promise.race([
      db.transaction().execute((tx) => appendEvent(ctx, tx, { type: 'test.later', subject: 'later', payload: {} })).then(() => 'committed'),
      new Promise((resolve) => setTimeout(resolve, 5_000, 'waited')),
    ]);
    assert.equal(later, 'committed', 'the later writer did not wait for the older one');
    const early = (await eventsAfter(db, start)).filter((e) => e.type.startsWith('test.'));
    assert.deepEqual(early, [], 'the later event has no place yet: an older transaction is still running');
    releaseOlder();
    await older;
    const after = await eventually(async () => {
      const placed = (await eventsAfter(db, start)).filter((e) => e.type.startsWith('test.'));
      return placed.length === 2 ? placed : undefined;
    }, 'both events in the log once the older transaction ended', 5_000);
    assert.deepEqual(after.map((e) => e.type), ['test.older', 'test.later'], 'in the order of their transactions, once both have ended');
    assert.ok(Number(after[0].seq) < Number(after[1].seq));
  } finally {
    await plaza.close();
  }
});

test('a writing transaction held open in another database of the same PostgreSQL server does not hold this log back: events are placed and read at once', { skip: process.env.DATABASE_URL ? false : 'needs DATABASE_URL' }, async () => {
  const plaza = await startTestPlaza();
  const { ctx } = plaza;
  const elsewhere = await freshPostgresDatabase(process.env.DATABASE_URL!);
  const other = new pg.Client({ connectionString: elsewhere });
  await other.connect();
  try {
    const cursor = await lastEventSeq(ctx.store.db);
    // Another database's transaction with a transaction id, older than the append below, left open.
    await other.query('begin');
    await other.query('create table held (n int)');
    await other.query('insert into held values (1)');
    await ctx.store.db.transaction().execute((tx) => appendEvent(ctx, tx, { type: 'test.beside-other-database', subject: '1', payload: {} }));
    // Held back, the reader would give up on it (after its bounded wait) with the other transaction still open.
    const rows = await eventsAfter(ctx.store.db, cursor);
    assert.deepEqual(rows.map((r) => r.type), ['test.beside-other-database']);
  } finally {
    await other.query('rollback').catch(() => {});
    await other.end();
    await dropPostgresDatabase(elsewhere);
    await plaza.close();
  }
});

test('the log\'s look for events without a place reads the index, not the table: once events took their places, a look visits none of their rows (a bitmap scan, which the planner chose on a store without statistics, visited every one on every look until a vacuum)', { skip: process.env.DATABASE_URL ? false : 'needs DATABASE_URL (SQLite\'s events take their places as they are written)' }, async () => {
  const plaza = await startTestPlaza();
  try {
    const db = plaza.ctx.store.db;
    // 2,000 events without a place, then placed: each leaves a dead entry in the index of events without one.
    await sql`insert into events (id, type, subject, payload, created_at) select 'look-' || g, 'test.look', 'look', '{}', now()::text from generate_series(1, 2000) g`.execute(db);
    await sequenceEvents(db);
    const tablePagesOfALook = () =>
      db.transaction().execute(async (tx) => {
        await sql`select plaza_events_held()`.execute(tx);
        return Number((await sql<{ n: string }>`select pg_stat_get_xact_blocks_fetched('events'::regclass) as n`.execute(tx)).rows[0]!.n);
      });
    const first = await tablePagesOfALook();
    // The first look after they died marks their entries (once no transaction of this database can still see them).
    const later = await eventually(async () => {
      const pages = await tablePagesOfALook();
      return pages <= 1 ? { pages } : undefined;
    }, () => 'a look that reads no table page', 5_000);
    assert.ok(first >= later.pages);
    assert.equal(Number((await sql<{ n: string }>`select plaza_events_held() as n`.execute(db)).rows[0]!.n), 0);
  } finally {
    await plaza.close();
  }
});
