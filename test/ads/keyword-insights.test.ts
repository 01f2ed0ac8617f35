import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { call } from '../support/server.js';
import { startAdsPlaza, type AdsKit } from './support.js';

/** Keyword insights over the platform's real posts (spec 001 "Keyword insights", "Limits"). */
let k: AdsKit;
const HOUR = 3_600_000;
let start: number;
const posted: Array<{ at: number; text: string }> = [];

async function post(username: string, text: string): Promise<void> {
  const res = await call(k.plaza.urls.base_url, '/2/posts', { method: 'POST', auth: { bearer: k.user(username).oauth2_access_token }, body: { text } });
  assert.equal(res.status, 201, res.text);
  posted.push({ at: k.clock.now().getTime(), text });
}

before(async () => {
  k = await startAdsPlaza();
  start = k.clock.now().getTime() - 60_000;
  await post('ada', 'Zebrafish reef survey with divers');
  await post('chen', 'zebrafish lagoon aquarium tour with divers');
  await post('dana', 'Nothing about fish here, just divers');
  await post('bruno', 'zebrafish secret notes'); // bruno is protected
  k.clock.offsetMs += HOUR;
  await post('ada', 'More ZEBRAFISH at the reef with divers');
  await post('plazanews', 'Coral spawning report with divers');
});

const search = (query: Record<string, string | number>) => k.ads.get('/12/insights/keywords/search', { query });
const iso = (t: number) => new Date(t).toISOString();
/** Expected volumes: bucket i holds the hour floor(start/HOUR)+i. */
function volumes(match: (text: string) => boolean, from: number, to: number, ms = HOUR): number[] {
  const first = Math.floor(from / ms);
  const out = Array.from({ length: Math.ceil(to / ms) - first }, () => 0);
  for (const p of posted) if (p.at >= from && p.at < to && match(p.text)) out[Math.floor(p.at / ms) - first] += 1;
  return out;
}

test('"data.post_volume counts real posts of the platform store matching the input keywords (and not the negative ones) per bucket"', async () => {
  const end = k.clock.now().getTime() + 60_000;
  const res = await search({ granularity: 'HOUR', keywords: 'zebrafish', start_time: iso(start), end_time: iso(end) });
  assert.equal(res.status, 200, res.text);
  const expected = volumes((t) => /zebrafish/i.test(t) && !t.includes('secret'), start, end);
  assert.deepEqual(res.body.data.post_volume, expected, 'the protected author\'s post is not counted');
  assert.equal(expected.reduce((a, b) => a + b, 0), 3);

  const negative = await search({ granularity: 'HOUR', keywords: 'zebrafish', negative_keywords: 'aquarium', start_time: iso(start), end_time: iso(end) });
  assert.deepEqual(negative.body.data.post_volume, volumes((t) => /zebrafish/i.test(t) && !t.includes('secret') && !t.includes('aquarium'), start, end));

  const ored = await search({ granularity: 'HOUR', keywords: 'lagoon,coral spawning', start_time: iso(start), end_time: iso(end) });
  assert.deepEqual(ored.body.data.post_volume, volumes((t) => t.includes('lagoon') || t.includes('Coral spawning'), start, end), 'keywords are OR-ed; several words are a phrase');

  const day = await search({ granularity: 'DAY', keywords: 'divers', start_time: iso(start), end_time: iso(end) });
  assert.deepEqual(day.body.data.post_volume, volumes((t) => t.includes('divers'), start, end, 24 * HOUR));

  const located = await search({ granularity: 'HOUR', keywords: 'zebrafish', location: 'FR', start_time: iso(start), end_time: iso(end) });
  assert.equal(located.body.data.post_volume.reduce((a: number, b: number) => a + b, 0), 0, 'no post of the window carries a place in FR');
});

test('"end_time default now"; "start_time required"; "granularity DAY|HOUR"', async () => {
  const res = await search({ granularity: 'HOUR', keywords: 'zebrafish', start_time: iso(start) });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.data.post_volume, volumes((t) => /zebrafish/i.test(t) && !t.includes('secret'), start, k.clock.now().getTime()));
  assert.equal((await search({ granularity: 'HOUR', keywords: 'zebrafish' })).body.errors[0].parameter, 'start_time');
  assert.equal((await search({ granularity: 'MINUTE', keywords: 'x', start_time: iso(start) })).body.errors[0].parameter, 'granularity');
  assert.equal((await search({ keywords: 'x', start_time: iso(start) })).body.errors[0].code, 'MISSING_PARAMETER');
  assert.equal((await search({ granularity: 'DAY', start_time: iso(start) })).body.errors[0].parameter, 'keywords');
});

test('"at most 10 keywords and negative keywords together"', async () => {
  const words = (n: number, p: string) => Array.from({ length: n }, (_, i) => `${p}${i}`).join(',');
  const over = await search({ granularity: 'DAY', keywords: words(6, 'k'), negative_keywords: words(5, 'n'), start_time: iso(start) });
  assert.equal(over.status, 400);
  assert.equal(over.body.errors[0].parameter, 'keywords');
  assert.equal((await search({ granularity: 'DAY', keywords: words(5, 'k'), negative_keywords: words(5, 'n'), start_time: iso(start) })).status, 200);
  assert.equal((await search({ granularity: 'DAY', keywords: words(11, 'k'), start_time: iso(start) })).status, 400);
});

test('"a range of at most 7 days"', async () => {
  const end = k.clock.now().getTime();
  const over = await search({ granularity: 'DAY', keywords: 'zebrafish', start_time: iso(end - 7 * 24 * HOUR - 60_000), end_time: iso(end) });
  assert.equal(over.status, 400);
  assert.equal(over.body.errors[0].parameter, 'end_time');
  const week = await search({ granularity: 'HOUR', keywords: 'zebrafish', start_time: iso(end - 7 * 24 * HOUR), end_time: iso(end) });
  assert.equal(week.status, 200);
  assert.ok(week.body.data.post_volume.length >= 168 && week.body.data.post_volume.length <= 169);
  assert.equal((await search({ granularity: 'DAY', keywords: 'zebrafish', start_time: iso(end), end_time: iso(end - HOUR) })).status, 400, 'end_time after start_time');
});

test('"data.related_keywords are the 30 terms that co-occur most with the keywords in that window (fewer when the store has fewer)"', async () => {
  const res = await search({ granularity: 'HOUR', keywords: 'zebrafish', start_time: iso(start) });
  const related: string[] = res.body.data.related_keywords;
  assert.equal(related[0], 'divers', 'divers co-occurs in all three matching posts');
  assert.equal(related[1], 'reef', 'reef in two');
  assert.ok(!related.includes('zebrafish'), 'the keywords themselves are not related keywords');
  assert.ok(!related.includes('secret'), 'nothing of a protected author\'s post');
  assert.ok(!related.includes('with') && !related.includes('the'), 'common words are left out');
  assert.ok(related.length < 30, 'fewer when the store has fewer');
  const many = Array.from({ length: 40 }, (_, i) => `term${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`).join(' ');
  // Over 280 characters: dana has no subscription, ada has one.
  await post('ada', `zebrafish ${many}`);
  const full = await search({ granularity: 'HOUR', keywords: 'zebrafish', start_time: iso(start), end_time: iso(k.clock.now().getTime() + 1000) });
  assert.equal(full.body.data.related_keywords.length, 30);
});
