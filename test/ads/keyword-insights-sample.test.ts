import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { RELATED_KEYWORDS, RELATED_SAMPLE, STOP_WORDS } from '../../src/ads/keyword-insights/service.js';
import { tokenize } from '../../src/query/index.js';
import { seedPosts } from '../../scripts/seed-posts.js';
import { startAdsPlaza, type AdsKit } from './support.js';

/**
 * Keyword insights over more matching posts than the related-keyword sample holds: the sample is
 * the window's latest RELATED_SAMPLE matching posts, read from the last buckets only (and on
 * SQLite through the time index when that is cheaper; src/ads/keyword-insights/service.ts).
 */
let k: AdsKit;
let words: string[];

before(async () => {
  k = await startAdsPlaza();
  const seeded = await seedPosts(k.plaza.ctx.store.db, { dialect: k.plaza.ctx.store.dialect, count: 12000, users: 20, days: 1, now: k.clock.now(), seed: 7 });
  words = seeded.words;
});


test('"data.related_keywords are the 30 terms that co-occur most with the keywords in that window", counted over its latest matching posts', async () => {
  const end = k.clock.now().getTime();
  const start = end - 24 * 3_600_000;
  const db = k.plaza.ctx.store.db;
  const rows = await db
    .selectFrom('posts')
    .innerJoin('users', 'users.id', 'posts.author_id')
    .select(['posts.text', 'posts.created_at'])
    .where('posts.deleted_at', 'is', null)
    .where('posts.superseded_by_id', 'is', null)
    .where('posts.reposted_post_id', 'is', null)
    .where('posts.nullcast', '=', 0)
    .where('users.protected', '=', 0)
    .where('posts.created_at', '>=', new Date(start).toISOString())
    .where('posts.created_at', '<', new Date(end).toISOString())
    .execute();
  // The most common seeded word: its matches fill the sample from the last few hours alone.
  const keyword = words.slice(0, 5).map((w) => [w, rows.filter((r) => tokenize(r.text).includes(w)).length] as const).sort((a, b) => b[1] - a[1])[0][0];
  const matching = rows.filter((r) => tokenize(r.text).includes(keyword)).sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
  assert.ok(matching.length > 2 * RELATED_SAMPLE, `${matching.length} matching posts`);
  assert.notEqual(matching[RELATED_SAMPLE - 1].created_at, matching[RELATED_SAMPLE].created_at, 'the sample has one clear edge');
  const seen = new Map<string, number>();
  for (const { text } of matching.slice(0, RELATED_SAMPLE)) {
    for (const word of new Set(tokenize(text))) {
      if (word === keyword || STOP_WORDS.has(word) || word.length < 2 || /^[0-9]+$/.test(word)) continue;
      seen.set(word, (seen.get(word) ?? 0) + 1);
    }
  }
  const expected = [...seen.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, RELATED_KEYWORDS).map(([w]) => w);

  const res = await k.ads.get('/12/insights/keywords/search', { query: { granularity: 'HOUR', keywords: keyword, start_time: new Date(start).toISOString(), end_time: new Date(end).toISOString() } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.post_volume.reduce((a: number, b: number) => a + b, 0), matching.length);
  assert.deepEqual(res.body.data.related_keywords, expected);
});
