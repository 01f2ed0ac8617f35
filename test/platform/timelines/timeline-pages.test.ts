import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { mulberry32 } from '../../../scripts/prng.js';
import type { TimeWindow } from '../../../src/platform/timelines/store.js';
import { newPostRow, recordPost } from '../../../src/platform/posts/build.js';
import type { PostRow } from '../../../src/platform/posts/wire.js';
import { sql, type SqlBool } from 'kysely';
import { homeAuthors, pagedAuthorKeys, pagedHomeKeysPostgres, pagedPostKeys, type PageAfter } from '../../../src/platform/timelines/store.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';

/**
 * Timelines of a set of authors (home, a user's posts) are asked of the store through the
 * posts_live_by_author index (pagedAuthorKeys' SQL, written per engine). It applies the same rules
 * as the query builder's timeline query (pagedPostKeys): these tests hold it to that query's
 * answers over posts of every kind a timeline filters, for windows, cursors and limits drawn at
 * random.
 */

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

test('a timeline page of authors is the timeline query\'s page, for every window, cursor and limit', async () => {
  const { db, dialect } = plaza.ctx.store;
  const random = mulberry32(21);
  const pickTime = () => times[Math.floor(random() * times.length)];
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
  }
});

test('on PostgreSQL a home page, found among everyone\'s newest posts or through each author\'s, is the page of the owner and whom they follow, for every window, cursor and limit', { skip: !process.env.DATABASE_URL && 'PostgreSQL only' }, async () => {
  const { db } = plaza.ctx.store;
  const [owner, ...others] = authors;
  const now = new Date().toISOString();
  for (const other of others) await db.insertInto('follows').values({ source_user_id: owner, target_user_id: other, created_at: now }).onConflict((oc) => oc.doNothing()).execute();
  const home = await homeAuthors(db, owner);
  const random = mulberry32(34);
  const pickTime = () => times[Math.floor(random() * times.length)];
  const all = await pagedAuthorKeys(db, 'postgres', home, true, { excludeReplies: false, excludeReposts: false }, 1_000);
  for (let round = 0; round < 200; round++) {
    const window: TimeWindow = { excludeReplies: random() < 0.3, excludeReposts: random() < 0.3 };
    if (random() < 0.2) window.startTime = pickTime();
    if (random() < 0.2) window.endTime = pickTime();
    if (random() < 0.15) window.sinceId = all[Math.floor(random() * all.length)].id;
    if (random() < 0.15) window.untilId = all[Math.floor(random() * all.length)].id;
    const limit = 1 + Math.floor(random() * 40);
    const cursorRow = random() < 0.5 ? all[Math.floor(random() * all.length)] : undefined;
    const after: PageAfter | undefined = cursorRow && { createdAt: cursorRow.created_at, id: cursorRow.id };
    const expected = (await pagedAuthorKeys(db, 'postgres', home, true, window, limit, after)).map((k) => k.id);
    assert.deepEqual((await pagedHomeKeysPostgres(db, owner, window, limit, after)).map((k) => k.id), expected, JSON.stringify({ window, limit, after }));
  }
});

test('a home timeline\'s authors are the owner and whom they follow, minus those they mute or block, as of the last write, and inside a transaction its own writes', async () => {
  const { ctx } = plaza;
  const { db } = ctx.store;
  const users = plaza.creds.users.map((u) => u.id);
  const me = users[0];
  const other = users.find((id) => id !== me && !authors.includes(id)) ?? users[users.length - 1];
  await db.deleteFrom('follows').where('source_user_id', '=', me).where('target_user_id', '=', other).execute();
  const before = await homeAuthors(db, me);
  assert.ok(!before.includes(other));
  const now = new Date().toISOString();
  await db.insertInto('follows').values({ source_user_id: me, target_user_id: other, created_at: now }).execute();
  assert.ok((await homeAuthors(db, me)).includes(other), 'a follow adds the author at once');
  await db.insertInto('mutes').values({ id: ctx.ids.next(), source_user_id: me, target_user_id: other, created_at: now }).execute();
  assert.ok(!(await homeAuthors(db, me)).includes(other), 'a mute removes the author at once');
  await db.deleteFrom('mutes').where('source_user_id', '=', me).where('target_user_id', '=', other).execute();
  assert.ok((await homeAuthors(db, me)).includes(other), 'an unmute brings the author back');
  await db.insertInto('blocks').values({ id: ctx.ids.next(), source_user_id: me, target_user_id: other, created_at: now }).execute();
  assert.ok(!(await homeAuthors(db, me)).includes(other), 'a block removes the author at once');
  await db.deleteFrom('blocks').where('source_user_id', '=', me).where('target_user_id', '=', other).execute();
  await db
    .transaction()
    .execute(async (tx) => {
      await tx.deleteFrom('follows').where('source_user_id', '=', me).where('target_user_id', '=', other).execute();
      assert.ok(!(await homeAuthors(tx, me)).includes(other), 'a transaction reads its own writes');
      throw new Error('rolled back');
    })
    .catch((err: Error) => assert.equal(err.message, 'rolled back'));
  assert.ok((await homeAuthors(db, me)).includes(other));
  await db.deleteFrom('follows').where('source_user_id', '=', me).where('target_user_id', '=', other).execute();
});
