import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { mulberry32 } from '../../../scripts/prng.js';
import type { TimeWindow } from '../../../src/platform/timelines/store.js';
import { newPostRow, recordPost } from '../../../src/platform/posts/build.js';
import type { PostRow } from '../../../src/platform/posts/wire.js';
import { AuthorPosts, HomeAuthors } from '../../../src/platform/timelines/author-posts.js';
import { sql, type SqlBool } from 'kysely';
import { homeAuthors, pagedAuthorKeys, pagedPostKeys, type PageAfter } from '../../../src/platform/timelines/store.js';
import type { FreshGeneration } from '../../../src/store/snapshots.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';

/**
 * Timelines of a set of authors (home, a user's posts) are merged from the authors' kept newest
 * posts (src/platform/timelines/author-posts.ts; on PostgreSQL under a response's settled
 * generation, Store.freshGeneration) and otherwise asked of the store
 * (pagedAuthorKeys' SQL, written per engine). All apply the same rules; these tests hold them to
 * the answers of the query builder's timeline query (pagedPostKeys) over posts of every kind a
 * timeline filters, for windows, cursors and limits drawn at random.
 */
const onSqlite = !process.env.DATABASE_URL;

/**
 * What a response on PostgreSQL keeps under: the store's generation, read afresh, and taken as
 * settled (whether it has held long enough is Snapshots' heuristic, tested in
 * test/store/snapshots.test.ts; other tests' commits on the same server move it all the time);
 * none on SQLite.
 */
async function settledGeneration(): Promise<FreshGeneration | undefined> {
  const fresh = await plaza.ctx.store.freshGeneration?.();
  return fresh && { generation: fresh.generation, settled: true };
}

let plaza: TestPlaza;
let authors: string[];
const times: string[] = [];
before(async () => {
  plaza = await startTestPlaza();
  const { ctx } = plaza;
  authors = plaza.creds.users.slice(0, 3).map((u) => u.id);
  const random = mulberry32(8);
  const rows: PostRow[] = [];
  const base = Date.parse('2026-06-01T00:00:00.000Z');
  await ctx.store.db.transaction().execute(async (tx) => {
    for (let i = 0; i < 180; i++) {
      const authorId = authors[i % authors.length];
      // Some posts share their second, so the id orders them.
      const createdAt = new Date(base + Math.floor(i / 2) * 1000);
      const earlier = rows.length > 0 ? rows[Math.floor(random() * rows.length)] : undefined;
      const kind = random();
      const row = newPostRow(ctx.ids.next(), {
        authorId,
        text: `kept page post ${i}`,
        createdAt,
        replyTo: earlier && kind < 0.2 ? earlier : undefined,
        repostOf: earlier && kind >= 0.2 && kind < 0.3 ? earlier : undefined,
      });
      await recordPost(ctx, tx, row);
      rows.push(row);
      times.push(row.created_at);
    }
    // Community posts, shared with followers or not; deleted, edited-away and promoted-only posts.
    const pick = (n: number) => Array.from({ length: n }, () => rows[Math.floor(random() * rows.length)].id);
    await tx.updateTable('posts').set({ community_id: 'c1', share_with_followers: 0 }).where('id', 'in', pick(20)).execute();
    await tx.updateTable('posts').set({ community_id: 'c2', share_with_followers: 1 }).where('id', 'in', pick(10)).execute();
    await tx.updateTable('posts').set({ deleted_at: new Date(base).toISOString() }).where('id', 'in', pick(8)).execute();
    await tx.updateTable('posts').set({ superseded_by_id: rows[0].id }).where('id', 'in', pick(8)).execute();
    await tx.updateTable('posts').set({ nullcast: 1 }).where('id', 'in', pick(8)).execute();
  });
});

test('a timeline page of authors, asked of the store or merged from their kept posts, is the timeline query\'s page, for every window, cursor and limit', async () => {
  const { db, dialect } = plaza.ctx.store;
  const random = mulberry32(21);
  const pickTime = () => times[Math.floor(random() * times.length)];
  let merged = 0;
  let asked = 0;
  // Nothing this test reads is written meanwhile: one generation serves every round.
  const fresh = await settledGeneration();
  for (let round = 0; round < 400; round++) {
    const count = 1 + Math.floor(random() * authors.length);
    const set = authors.slice(0, count);
    const home = random() < 0.5;
    const window: TimeWindow = { excludeReplies: random() < 0.3, excludeReposts: random() < 0.3 };
    if (random() < 0.2) window.startTime = pickTime();
    if (random() < 0.2) window.endTime = pickTime();
    const all = await pagedAuthorKeys(db, dialect, set, home, { excludeReplies: false, excludeReposts: false }, 1_000);
    if (random() < 0.15 && all.length > 0) window.sinceId = all[Math.floor(random() * all.length)].id;
    if (random() < 0.15 && all.length > 0) window.untilId = all[Math.floor(random() * all.length)].id;
    const limit = 1 + Math.floor(random() * 40);
    const cursorRow = random() < 0.5 && all.length > 0 ? all[Math.floor(random() * all.length)] : undefined;
    const after: PageAfter | undefined = cursorRow && { createdAt: cursorRow.created_at, id: cursorRow.id };
    const expected = (
      await pagedPostKeys(
        db,
        (eb) => eb.and([eb('posts.author_id', 'in', set), home ? eb.or([eb('posts.author_id', '=', set[0]), eb('posts.community_id', 'is', null), eb('posts.share_with_followers', '=', 1)]) : sql<SqlBool>`true`]),
        window,
        limit,
        after,
      )
    ).map((k) => k.id);
    const fromStore = await pagedAuthorKeys(db, dialect, set, home, window, limit, after);
    assert.deepEqual(fromStore.map((k) => k.id), expected, JSON.stringify({ set, home, window, limit, after }));
    // A small allowance per author, so that pages also reach past what is kept.
    const kept = new AuthorPosts(plaza.ctx.store, 1 + Math.floor(random() * 80));
    if (!onSqlite) assert.equal(await kept.page(db, set, home, window, limit, after), undefined, 'on PostgreSQL nothing is kept without a generation');
    const fromKept = await kept.page(db, set, home, window, limit, after, fresh);
    const context = JSON.stringify({ set, home, window, limit, after });
    if (fromKept === undefined) asked++;
    else {
      merged++;
      assert.deepEqual(fromKept.map((k) => k.id), fromStore.map((k) => k.id), context);
    }
    // Through pagedAuthorKeys with what is kept: the same page either way.
    assert.deepEqual((await pagedAuthorKeys(db, dialect, set, home, window, limit, after, kept, fresh)).map((k) => k.id), fromStore.map((k) => k.id), context);
  }
  assert.ok(merged > 100 && asked > 20, `both ways were taken (${merged} merged, ${asked} asked of the store)`);
});

test('what is kept of authors gives way to a write: a new post, a deletion and a post read inside a transaction (on PostgreSQL, any commit changes the generation it is kept under)', async () => {
  const { ctx } = plaza;
  const { db, dialect } = ctx.store;
  const kept = ctx.entities.authorPosts;
  const window: TimeWindow = { excludeReplies: false, excludeReposts: false };
  // Each page as a new response reads it, with its own generation on PostgreSQL.
  const page = async () => (await pagedAuthorKeys(db, dialect, authors, true, window, 5, undefined, kept, await settledGeneration())).map((k) => k.id);
  const first = await page();
  assert.ok(await kept.page(db, authors, true, window, 5, undefined, await settledGeneration()), 'the page is merged from what is kept');
  const row = newPostRow(ctx.ids.next(), { authorId: authors[1], text: 'newest of all', createdAt: new Date('2027-01-01T00:00:00.000Z') });
  await recordPost(ctx, db, row);
  assert.deepEqual(await page(), [row.id, ...first.slice(0, 4)]);
  await db.updateTable('posts').set({ deleted_at: new Date().toISOString() }).where('id', '=', row.id).execute();
  assert.deepEqual(await page(), first);
  // Inside a transaction, its own uncommitted post shows; nothing of it is kept after a rollback.
  const inside = newPostRow(ctx.ids.next(), { authorId: authors[0], text: 'uncommitted', createdAt: new Date('2027-01-02T00:00:00.000Z') });
  await db
    .transaction()
    .execute(async (tx) => {
      await recordPost(ctx, tx, inside);
      assert.deepEqual((await pagedAuthorKeys(tx, dialect, authors, true, window, 5, undefined, kept)).map((k) => k.id), [inside.id, ...first.slice(0, 4)]);
      throw new Error('rolled back');
    })
    .catch((err: Error) => assert.equal(err.message, 'rolled back'));
  assert.deepEqual(await page(), first);
});

test('a home timeline\'s authors are kept only while follows, mutes and blocks are unchanged, and read afresh inside a transaction', async () => {
  const { ctx } = plaza;
  const { db } = ctx.store;
  const homes = new HomeAuthors(ctx.store);
  // Each read as a new response makes it, with its own generation on PostgreSQL.
  const kept = { of: async (on: typeof db, userId: string, read: typeof homeAuthors) => homes.of(on, userId, read, await settledGeneration()) };
  const users = plaza.creds.users.map((u) => u.id);
  const me = users[0];
  const other = users.find((id) => id !== me && !authors.includes(id)) ?? users[users.length - 1];
  await db.deleteFrom('follows').where('source_user_id', '=', me).where('target_user_id', '=', other).execute();
  const before = await kept.of(db, me, homeAuthors);
  assert.deepEqual(await kept.of(db, me, homeAuthors), before);
  assert.ok(!before.includes(other));
  const now = new Date().toISOString();
  await db.insertInto('follows').values({ source_user_id: me, target_user_id: other, created_at: now }).execute();
  assert.ok((await kept.of(db, me, homeAuthors)).includes(other), 'a follow adds the author at once');
  await db.insertInto('mutes').values({ id: ctx.ids.next(), source_user_id: me, target_user_id: other, created_at: now }).execute();
  assert.ok(!(await kept.of(db, me, homeAuthors)).includes(other), 'a mute removes the author at once');
  await db.deleteFrom('mutes').where('source_user_id', '=', me).where('target_user_id', '=', other).execute();
  assert.ok((await kept.of(db, me, homeAuthors)).includes(other), 'an unmute brings the author back');
  await db.insertInto('blocks').values({ id: ctx.ids.next(), source_user_id: me, target_user_id: other, created_at: now }).execute();
  assert.ok(!(await kept.of(db, me, homeAuthors)).includes(other), 'a block removes the author at once');
  await db.deleteFrom('blocks').where('source_user_id', '=', me).where('target_user_id', '=', other).execute();
  await db
    .transaction()
    .execute(async (tx) => {
      await tx.deleteFrom('follows').where('source_user_id', '=', me).where('target_user_id', '=', other).execute();
      assert.ok(!(await kept.of(tx, me, homeAuthors)).includes(other), 'a transaction reads its own writes');
      throw new Error('rolled back');
    })
    .catch((err: Error) => assert.equal(err.message, 'rolled back'));
  assert.ok((await kept.of(db, me, homeAuthors)).includes(other));
  await db.deleteFrom('follows').where('source_user_id', '=', me).where('target_user_id', '=', other).execute();
});
