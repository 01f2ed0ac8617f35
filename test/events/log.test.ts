import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { appendEvent, eventsAfter } from '../../src/events/log.js';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { eventually } from '../support/wait.js';

let plaza: TestPlaza;

before(async () => {
  plaza = await startTestPlaza();
});

test('the event log records type, subject, payload and time; the seed appended post.create for every post but the promoted-only ones', async () => {
  const events = await eventsAfter(plaza.ctx.store.db, 0, 1000);
  const creates = events.filter((e) => e.type === 'post.create');
  // Promoted-only posts (nullcast, made through the ads interface) are no one's news.
  const posts = await plaza.ctx.store.db.selectFrom('posts').select('id').where('nullcast', '=', 0).execute();
  assert.equal(creates.length, posts.length);
  const first = creates.find((e) => e.subject === plaza.creds.sample.post_ids[0])!;
  const payload = JSON.parse(first.payload);
  assert.equal(payload.id, first.subject);
  assert.equal(typeof payload.text, 'string');
  assert.ok(payload.author_id);
  assert.match(first.created_at, /Z$/);
  const seqs = events.map((e) => Number(e.seq));
  assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b), 'read in seq order');
});

test('an event is written in the same transaction as the change it records: a rolled-back change leaves no event', async () => {
  const db = plaza.ctx.store.db;
  const before = await eventsAfter(db, 0, 10000);
  await assert.rejects(
    db.transaction().execute(async (tx) => {
      await appendEvent(plaza.ctx, tx, { type: 'test.rollback', subject: '1', payload: { ok: false } });
      throw new Error('the change failed');
    }),
  );
  const after = await eventsAfter(db, 0, 10000);
  assert.equal(after.length, before.length);
  const id = await db.transaction().execute((tx) => appendEvent(plaza.ctx, tx, { type: 'test.commit', subject: '2', payload: { ok: true } }));
  // On PostgreSQL it takes its place once no older transaction is running.
  const last = await eventually(async () => (await eventsAfter(db, Number(before.at(-1)!.seq))).find((e) => e.id === id), 'the committed event in the log');
  assert.equal(last.type, 'test.commit');
  assert.deepEqual(JSON.parse(last.payload), { ok: true });
});

test('on a store without webhooks the fan-out has nothing to route: its cursor moves to the log\'s end and no delivery is written (with webhooks, the delivery tests show events routed)', async () => {
  const db = plaza.ctx.store.db;
  assert.equal(Number((await db.selectFrom('webhooks').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n), 0, 'the demo workspace has no webhook');
  const cursor = async () => Number((await db.selectFrom('event_cursors').select('seq').where('name', '=', 'webhooks').executeTakeFirstOrThrow()).seq);
  const id = await db.transaction().execute((tx) => appendEvent(plaza.ctx, tx, { type: 'test.unrouted', subject: 'x', payload: {} }));
  const placed = await eventually(async () => (await eventsAfter(db, 0, 100_000)).find((e) => e.id === id), 'the event placed');
  await eventually(async () => (await cursor()) >= Number(placed.seq) || undefined, 'the fan-out cursor past the event');
  assert.equal(Number((await db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n), 0);
});
