import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { ManualClock } from '../../../src/clock.js';
import { newPostRow, recordPost, type NewPost } from '../../../src/platform/posts/build.js';
import { countAllDueHours } from '../../../src/platform/search/term-hours.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { eventually } from '../../support/wait.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';

/**
 * Counts of one word on PostgreSQL read the kept hourly counts of migration 0028 for the window's
 * whole, unchanged hours (src/platform/search/term-hours.ts). Whichever way a count is made, it
 * answers what counting the posts answers: these tests count the same posts before the counting
 * job ran, after it, and after changes it has not seen yet, on both stores (SQLite always counts
 * posts, so it checks the expectations themselves).
 */

let plaza: TestPlaza;
let g: Fixtures;
// Not on an hour: the window's first and last hours are partial.
const clock = new ManualClock(new Date('2026-06-01T12:34:56.789Z'));
const MINUTE = 60_000;

before(async () => {
  plaza = await startTestPlaza({}, { clock });
  g = fixtures(plaza);
});

async function storePost(username: string, text: string, minutesAgo: number, extra: Partial<NewPost> = {}) {
  const ctx = plaza.ctx;
  const row = newPostRow(ctx.ids.next(), { authorId: g.user(username).id, text, createdAt: new Date(clock.now().getTime() - minutesAgo * MINUTE), ...extra });
  await ctx.store.db.transaction().execute((tx) => recordPost(ctx, tx, row));
  return row;
}

/**
 * The counting job, run until no past hour is left to count (PostgreSQL only: SQLite keeps no
 * counts). The server's own job may be counting at the same time (then this run counts nothing
 * and waits for that one's commit).
 */
async function countHours(): Promise<void> {
  if (plaza.ctx.store.dialect !== 'postgres') return;
  const db = plaza.ctx.store.db;
  const current = clock.now().toISOString().slice(0, 13);
  await eventually(async () => {
    await countAllDueHours(db, clock.now());
    return (await db.selectFrom('post_term_hours_dirty').select('hour').where('hour', '<', current).executeTakeFirst()) === undefined;
  }, 'every past hour counted');
}

/** How many posts the kept counts hold for `word` (PostgreSQL). */
async function keptTotal(word: string): Promise<number> {
  const row = await plaza.ctx.store.db.selectFrom('post_term_hours').select((eb) => eb.fn.sum<number | string>('n').as('n')).where('term', '=', word).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The non-empty buckets of a count, by start, and the total. */
async function counted(word: string, more = '', auth: { bearer: string } = g.appAuth) {
  const res = await g.get(`/2/posts/counts/recent?query=${word}${more}`, { auth });
  assert.equal(res.status, 200, res.text);
  const buckets = Object.fromEntries((res.body.data as Array<{ start: string; post_count: number }>).filter((b) => b.post_count > 0).map((b) => [b.start, b.post_count]));
  assert.equal(res.body.meta.total_post_count, Object.values(buckets).reduce((a, b) => a + b, 0));
  return buckets;
}

/** The start of the hour bucket `minutesAgo` falls in, as counts name it (the first bucket starts at start_time). */
function hourOf(minutesAgo: number, windowStart?: number): string {
  const at = clock.now().getTime() - minutesAgo * MINUTE;
  const hour = Math.floor(at / 3_600_000) * 3_600_000;
  return new Date(windowStart !== undefined && windowStart > hour ? windowStart : hour).toISOString();
}

test('a count of one word by hour and by day is the same before the counting job, after it, and after changes it has not counted yet; the edges of the window and the current hour are counted from posts', async () => {
  const word = 'keptprobe';
  const windowStart = clock.now().getTime() - 7 * 24 * 60 * MINUTE;
  // Inside the window's partial first hour, two in one whole hour, one a day before, and one in the current hour.
  const edge = await storePost('ada', `${word} at the start of the window`, 7 * 24 * 60 - 5);
  await storePost('ada', `two ${word} posts`, 180);
  const sameHour = await storePost('chen', `Keptprobe, with a capital`, 181);
  await storePost('dana', `${word} yesterday`, 30 * 60);
  await storePost('chen', `${word} just now`, 2);
  await storePost('dana', 'another word entirely', 180);
  const expected = {
    [hourOf(7 * 24 * 60 - 5, windowStart)]: 1,
    [hourOf(180)]: 2,
    [hourOf(30 * 60)]: 1,
    [hourOf(2)]: 1,
  };
  assert.equal(hourOf(180), hourOf(181));
  assert.deepEqual(await counted(word), expected, 'every hour counted from posts');
  await countHours();
  // Every post but the current hour's is counted (the one at the window's start too, outside the counts' edge reading).
  if (plaza.ctx.store.dialect === 'postgres') assert.equal(await keptTotal(word), 4);
  assert.deepEqual(await counted(word), expected, 'whole hours from the kept counts');
  assert.equal(Object.values(await counted(word, '&granularity=day')).reduce((a, b) => a + b, 0), 5);

  // Changes the job has not seen: a deleted post, an edited-away version, a new post in a past hour.
  await plaza.ctx.store.db.updateTable('posts').set({ deleted_at: clock.now().toISOString() }).where('id', '=', sameHour.id).execute();
  await plaza.ctx.store.db.updateTable('posts').set({ superseded_by_id: edge.id }).where('id', '=', edge.id).execute();
  await storePost('ada', `a late ${word}`, 30 * 60 + 1);
  const changed = { [hourOf(180)]: 1, [hourOf(30 * 60)]: 2, [hourOf(2)]: 1 };
  assert.deepEqual(await counted(word), changed, 'changed hours are counted from posts until the job counts them again');
  await countHours();
  assert.deepEqual(await counted(word), changed);
});

test('kept counts leave out what the viewer may not see: a protected author\'s posts count for an approved follower only; reposts only before May 4, 2026', async () => {
  const word = 'privateprobe';
  await storePost('bruno', `${word} for followers`, 20 * 60); // bruno is protected; ada follows him
  await storePost('dana', `${word} in public`, 20 * 60);
  const source = await storePost('ada', `${word} to repost`, 10 * 60);
  await storePost('chen', `RT @ada: ${source.text}`, 10 * 60 - 1, { repostOf: source });
  await countHours();
  const total = async (auth: { bearer: string }, more = '') => Object.values(await counted(word, more, auth)).reduce((a, b) => a + b, 0);
  assert.equal(await total(g.appAuth), 2, 'app-only: no protected post, no repost');
  assert.equal(await total(await g.enterpriseAs('ada')), 3, 'an approved follower sees the protected post');
  assert.equal(await total(await g.enterpriseAs('bruno')), 3, 'and so does its author');
  assert.equal(await total(await g.enterpriseAs('chen')), 2, 'a reader who does not follow him does not');
  // Before May 4, 2026 reposts were still found (release history).
  const before = new Date('2026-05-01T00:00:00.000Z').toISOString();
  const start = new Date(clock.now().getTime() - 20 * 60 * MINUTE - 3_600_000).toISOString();
  const end = new Date(clock.now().getTime() - 60 * MINUTE).toISOString();
  assert.ok(before < start);
  clock.set(new Date('2026-05-03T12:00:00.000Z'));
  try {
    await storePost('ada', `${word} of early May`, 5 * 60);
    await storePost('dana', `RT @ada: ${word} of early May`, 5 * 60 - 1, { repostOf: source });
    await countHours();
    assert.equal(await total(g.appAuth, `&start_time=${new Date(clock.now().getTime() - 6 * 3_600_000).toISOString()}`), 2, 'before May 4 the repost counts');
  } finally {
    clock.set(new Date('2026-06-01T12:34:56.789Z'));
  }
  assert.equal(await total(g.appAuth, `&start_time=${start}&end_time=${end}`), 2);
});

test('keyword insights of one keyword read the same kept counts: the hourly volumes match the posts', async () => {
  const word = 'insightprobe';
  await storePost('ada', `${word} one`, 4 * 60);
  await storePost('chen', `${word} two`, 4 * 60);
  await storePost('bruno', `${word} protected`, 4 * 60);
  await storePost('dana', `${word} three`, 2 * 60);
  await countHours();
  const { keywordInsights } = await import('../../../src/ads/keyword-insights/service.js');
  const end = clock.now();
  const start = new Date(end.getTime() - 24 * 60 * MINUTE - 17 * MINUTE);
  const res = await keywordInsights(plaza.ctx.store.db, plaza.ctx.store.dialect, { granularity: 'HOUR', keywords: [word], start_time: start.toISOString(), end_time: end.toISOString() }, end);
  const nonZero = res.post_volume.map((n, i) => [i, n]).filter(([, n]) => n > 0);
  const index = (minutesAgo: number) => Math.floor((end.getTime() - minutesAgo * MINUTE) / 3_600_000) - Math.floor(start.getTime() / 3_600_000);
  assert.deepEqual(nonZero, [
    [index(4 * 60), 2],
    [index(2 * 60), 1],
  ]);
});
