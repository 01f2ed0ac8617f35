import { Type, type Static } from '@sinclair/typebox';
import { CompiledQuery, sql } from 'kysely';
import { compileSql, tokenize, type QueryNode } from '../../query/index.js';
import type { StoreDialect } from '../../store/store.js';
import type { DbOrTx } from '../../store/store.js';
import { countByBucket } from '../../platform/search/store.js';
import { singleWord } from '../../platform/search/term-hours.js';
import { Entity } from '../http/entity-schema.js';
import { AdsError } from '../http/errors.js';
import { READABLE } from '../../platform/visibility/rule.js';
import { visibilitySql } from '../../platform/visibility/sql.js';

/**
 * GET insights/keywords/search (spec 001 "Keyword insights"): how many of the platform's posts
 * match the keywords (OR-ed) and none of the negative keywords, per DAY or HOUR of the window,
 * and the terms that co-occur most with them there. Posts are matched by the query language's
 * SQL compiler over the full-text index of migration 0008 (FTS5 or tsvector), as search is;
 * deleted posts, superseded edit versions, reposts and protected authors' posts are left out.
 */
export const MAX_KEYWORDS = 10;
export const MAX_RANGE_MS = 7 * 24 * 60 * 60 * 1000;
export const RELATED_KEYWORDS = 30;
/** Related keywords are counted over the window's most recent matching posts, at most this many. */
export const RELATED_SAMPLE = 2000;

const BUCKETS = { HOUR: { ms: 3_600_000, prefix: 13 }, DAY: { ms: 86_400_000, prefix: 10 } } as const;
export type Granularity = keyof typeof BUCKETS;

/** Words too common to say anything about a keyword. */
export const STOP_WORDS = new Set(
  ('a an and are as at be but by for from has have he her his i if in is it its me my no not of on or our she so that the their them ' +
    'they this to too us was we were what when which who will with you your rt just than then there these those been do does did can ' +
    'could would should about into over out up down all any some more most very also how why where am http https www com')
    .split(' '),
);

export interface InsightQuery {
  granularity: Granularity;
  keywords: string[];
  negative_keywords?: string[];
  start_time: string;
  end_time?: string;
  location?: string;
}

/** One keyword as the query language's node: a word, a phrase of several, or a symbol. */
function keywordNode(keyword: string): QueryNode {
  const tokens = tokenize(keyword);
  if (tokens.length === 0) return { kind: 'symbol', value: keyword, raw: keyword };
  return { kind: 'text', tokens, phrase: tokens.length > 1, raw: keyword };
}

/** The posts an insight counts, in the query language. */
function matchNode(q: InsightQuery): QueryNode {
  const any: QueryNode = { kind: 'or', children: q.keywords.map(keywordNode) };
  const parts: QueryNode[] = [q.keywords.length === 1 ? any.children[0] : any];
  if (q.negative_keywords?.length) parts.push({ kind: 'not', child: { kind: 'or', children: q.negative_keywords.map(keywordNode) } });
  if (q.location) parts.push({ kind: 'place_country', value: q.location, raw: `place_country:${q.location}` });
  return parts.length === 1 ? parts[0] : { kind: 'and', children: parts };
}

function window(q: InsightQuery, now: Date): { start: number; end: number } {
  const start = Date.parse(q.start_time);
  const end = q.end_time !== undefined ? Date.parse(q.end_time) : now.getTime();
  if (end <= start) throw AdsError.invalidParameter(q.end_time !== undefined ? 'end_time' : 'start_time', 'end_time (default now) must be after start_time');
  if (end - start > MAX_RANGE_MS) throw AdsError.invalidParameter('end_time', 'The time range of keyword insights is at most 7 days');
  return { start, end };
}

export function checkKeywords(q: Pick<InsightQuery, 'keywords' | 'negative_keywords'>): void {
  const total = q.keywords.length + (q.negative_keywords?.length ?? 0);
  if (total > MAX_KEYWORDS) {
    throw AdsError.invalidParameter('keywords', `At most ${MAX_KEYWORDS} keywords and negative_keywords together, got ${total}`);
  }
}

type Scoped = () => ReturnType<typeof postsIn>;

function postsIn(db: DbOrTx, q: InsightQuery, dialect: StoreDialect, start: number, end: number) {
  return db
    .selectFrom('posts')
    .where('posts.deleted_at', 'is', null)
    .where('posts.superseded_by_id', 'is', null)
    .where('posts.reposted_post_id', 'is', null)
    .where('posts.nullcast', '=', 0)
    .where('posts.created_at', '>=', new Date(start).toISOString())
    .where('posts.created_at', '<', new Date(end).toISOString())
    .where(visibilitySql(READABLE, sql.ref('posts.author_id'), undefined))
    .where(compileSql(matchNode(q), dialect));
}

/**
 * The text of the latest RELATED_SAMPLE matching posts created in [from, end), of the `matches`
 * the window holds. SQLite's planner reads such a query from the full-text index, looking every
 * match of the keywords up in posts (for a common word, hundreds of thousands) before sorting by
 * time; when [from, end) holds fewer posts than that, reading those posts by time through
 * posts_created (migration 0008) and keeping the ones the full-text index lists is cheaper, so the
 * query names that index then.
 */
async function recentTexts(db: DbOrTx, dialect: StoreDialect, scoped: Scoped, from: number, end: number, matches: number): Promise<Array<{ text: string }>> {
  const query = scoped()
    .where('posts.created_at', '>=', new Date(from).toISOString())
    .select('posts.text')
    .orderBy('posts.created_at', 'desc')
    .limit(RELATED_SAMPLE);
  if (dialect !== 'sqlite') return query.execute();
  const inRange = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('posts')
        .select(sql<number>`1`.as('one'))
        .where('posts.created_at', '>=', new Date(from).toISOString())
        .where('posts.created_at', '<', new Date(end).toISOString())
        .limit(matches)
        .as('r'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const compiled = query.compile();
  const FROM = 'from "posts" where';
  if (Number(inRange.n) >= matches || compiled.sql.indexOf(FROM) !== compiled.sql.lastIndexOf(FROM) || !compiled.sql.startsWith(`select "posts"."text" ${FROM}`)) return query.execute();
  const text = compiled.sql.replace(FROM, 'from "posts" indexed by posts_created where');
  return (await db.executeQuery<{ text: string }>(CompiledQuery.raw(text, [...compiled.parameters]))).rows;
}

export const KeywordInsightsSchema = Entity('KeywordInsights', 'How often posts matched the keywords, and the words seen most with them', {
  related_keywords: Type.Array(Type.String(), { maxItems: RELATED_KEYWORDS }),
  post_volume: Type.Array(Type.Integer({ minimum: 0 }), { description: 'Matching posts per DAY or HOUR of the window, oldest first' }),
});

export async function keywordInsights(db: DbOrTx, dialect: StoreDialect, q: InsightQuery, now: Date): Promise<Static<typeof KeywordInsightsSchema>> {
  checkKeywords(q);
  const { start, end } = window(q, now);
  const bucket = BUCKETS[q.granularity];
  const scoped: Scoped = () => postsIn(db, q, dialect, start, end);

  // Counted as search counts are (the same rows: no reposts, no protected authors' posts).
  const node = matchNode(q);
  const scope = { startTime: new Date(start).toISOString(), endTime: new Date(end).toISOString(), excludeReposts: true };
  const counts = await countByBucket(db, dialect, compileSql(node, dialect), scope, bucket.prefix, singleWord(node));
  const post_volume: number[] = [];
  for (let at = Math.floor(start / bucket.ms) * bucket.ms; at < end; at += bucket.ms) {
    post_volume.push(counts.get(new Date(at).toISOString().slice(0, bucket.prefix)) ?? 0);
  }

  // The sample is the window's latest matching posts: only the last buckets that hold them
  // (their counts are known now) are read again, not the whole window.
  let sampleStart = start;
  let sampled = 0;
  for (let i = post_volume.length - 1; i >= 0 && sampled < RELATED_SAMPLE; i--) {
    sampled += post_volume[i];
    if (sampled >= RELATED_SAMPLE) sampleStart = Math.max(start, Math.floor(start / bucket.ms) * bucket.ms + i * bucket.ms);
  }
  const texts = sampled === 0 ? [] : await recentTexts(db, dialect, scoped, sampleStart, end, post_volume.reduce((a, b) => a + b, 0));
  const own = new Set([...q.keywords, ...(q.negative_keywords ?? [])].flatMap(tokenize));
  const seen = new Map<string, number>();
  for (const { text } of texts) {
    for (const word of new Set(tokenize(text))) {
      if (own.has(word) || STOP_WORDS.has(word) || word.length < 2 || /^[0-9]+$/.test(word)) continue;
      seen.set(word, (seen.get(word) ?? 0) + 1);
    }
  }
  const related_keywords = [...seen.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, RELATED_KEYWORDS)
    .map(([word]) => word);
  return { related_keywords, post_volume };
}
