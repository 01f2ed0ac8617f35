import { CompiledQuery, sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { SqlDialect } from '../../query/sql.js';
import type { Database, PostTable as PostRow } from '../../store/schema.js';
import type { DbOrTx, StoreDialect } from '../../store/store.js';
import { readJsonRows, rowsAsJsonArray } from '../../store/json-rows.js';
import { preparedOnPostgres } from '../../store/prepared-statements.js';
import { findPostsByIds, mentionsUsername } from '../posts/store.js';

type PostsEb = ExpressionBuilder<Database, 'posts'>;
export type PostCondition = (eb: PostsEb) => Expression<SqlBool>;

/** since_id / until_id / start_time / end_time / exclude of the post timelines (shared/reference §9 semantics). */
export interface TimeWindow {
  sinceId?: string;
  untilId?: string;
  /** Inclusive. */
  startTime?: string;
  /** Exclusive. */
  endTime?: string;
  excludeReplies: boolean;
  excludeReposts: boolean;
}

/** No time limits, nothing excluded. */
export const ALL_TIME: TimeWindow = { excludeReplies: false, excludeReposts: false };

/** A LIKE pattern matching `text` literally, with `!` as the escape character. */
export function likeLiteral(text: string): string {
  return text.replace(/[!%_]/g, (c) => `!${c}`);
}


/** A post a page found: its id and time (the page's order). */
export type PostKey = { id: string; created_at: string };
export type PageAfter = { createdAt: string; id: string };

/**
 * Live posts matching `where` within the window, newest first by (created_at, id), continuing
 * after `after` (a composite key), `limit` rows. An edited post shows as its latest version.
 */
export async function pagedPosts(db: DbOrTx, where: PostCondition, window: TimeWindow, limit: number, after?: PageAfter): Promise<PostRow[]> {
  const keys = await pagedPostKeys(db, where, window, limit, after);
  const rows = new Map((await findPostsByIds(db, keys.map((k) => k.id))).map((p) => [p.id, p]));
  return keys.flatMap((k) => rows.get(k.id) ?? []);
}

/** What pagedPosts finds, as keys only: the rows themselves are read with the response's other reads (ResponseReads). */
export async function pagedPostKeys(db: DbOrTx, where: PostCondition, window: TimeWindow, limit: number, after?: PageAfter): Promise<PostKey[]> {
  return pageOf(db, where, window, limit, after).execute();
}

/** The page query: live latest versions matching `where` in the window, after the cursor, newest first. */
function pageOf(db: DbOrTx, where: PostCondition, window: TimeWindow, limit: number, after?: PageAfter) {
  // A promoted-only (nullcast) post of the advertising interface is on no timeline.
  let q = db
    .selectFrom('posts')
    .select(['posts.id', 'posts.created_at'])
    // Written literally, as the index of migration 0030 states them (see there).
    .where(sql<SqlBool>`posts.deleted_at is null and posts.superseded_by_id is null and posts.nullcast = 0`)
    .where(where);
  if (window.sinceId) q = q.where('posts.id', '>', window.sinceId);
  if (window.untilId) q = q.where('posts.id', '<', window.untilId);
  if (window.startTime) q = q.where('posts.created_at', '>=', window.startTime);
  if (window.endTime) q = q.where('posts.created_at', '<', window.endTime);
  if (window.excludeReplies) q = q.where('posts.in_reply_to_user_id', 'is', null);
  if (window.excludeReposts) q = q.where('posts.reposted_post_id', 'is', null);
  // A row value, which both engines read as a range of an index on (…, created_at, id).
  if (after) q = q.where((eb) => eb(eb.refTuple('posts.created_at', 'posts.id'), '<', eb.tuple(after.createdAt, after.id)));
  return q.orderBy('posts.created_at', 'desc').orderBy('posts.id', 'desc').limit(limit);
}

/**
 * Up to this many authors, a page on SQLite is an arm per author (each reads at most `limit` of the
 * author's index entries), above it one query over all their posts (SQLite's compound SELECT holds
 * at most 500 arms). On 200,000 posts a page of 201 authors took 10 ms as arms, 30 ms as one query.
 */
const MERGE_AUTHORS_MAX = 400;
const ARMS_STEP = 32;

/**
 * Live posts of a set of authors (a user's posts, a home timeline), newest first by (created_at,
 * id), within the window and after the cursor, `limit` rows, read through the
 * `posts_live_by_author` index (migration 0030) as authorsPageShape says. For a home timeline
 * (`home`), the first author is its owner, and the others' community posts show only when shared
 * with followers (homeCondition).
 */
export async function pagedAuthorKeys(
  db: DbOrTx,
  dialect: StoreDialect,
  authors: readonly string[],
  home: boolean,
  window: TimeWindow,
  limit: number,
  after?: PageAfter,
): Promise<PostKey[]> {
  if (authors.length === 0) return [];
  if (dialect === 'postgres') {
    const text = authorsPageShape('postgres', { authors: 'list', home }, window, after !== undefined);
    return readJsonRows<PostKey>(db, text, [authors, ...(home ? [authors[0]] : []), ...windowParameters(window, after), limit]);
  }
  if (authors.length > MERGE_AUTHORS_MAX) {
    const where: PostCondition = home ? homeCondition(authors[0]).where : () => sql<SqlBool>`true`;
    return pagedPostKeys(db, (eb) => eb.and([eb('posts.author_id', 'in', authors), where(eb)]), window, limit, after);
  }
  // Past 32 arms, their number is rounded up to a multiple of 32 (the extra arms name no author), so
  // that the texts kept, and the statements prepared from them, are few whatever the follow counts.
  const arms = authors.length <= ARMS_STEP ? authors.length : Math.ceil(authors.length / ARMS_STEP) * ARMS_STEP;
  const text = authorsPageShape('sqlite', { authors: arms, home }, window, after !== undefined);
  const each = windowParameters(window, after);
  const padded = arms === authors.length ? authors : [...authors, ...Array<string>(arms - authors.length).fill('')];
  return (await db.executeQuery<PostKey>(CompiledQuery.raw(text, [...padded.flatMap((author) => [author, ...each]), limit]))).rows;
}

/**
 * A page of a user's home timeline on PostgreSQL in one query (pagedAuthorKeys' page, its authors
 * read by the same query): the user and the accounts they follow, minus those they mute or block.
 * SQLite answers the same with homeAuthors and pagedAuthorKeys (its round trips cost nothing).
 */
export async function pagedHomeKeysPostgres(db: DbOrTx, userId: string, window: TimeWindow, limit: number, after?: PageAfter): Promise<PostKey[]> {
  // A user who follows a large share of the store's authors finds a page among everyone's newest
  // posts sooner than through each author's own: 200 of 2,000 authors, 3 ms against 34 (bench:reads).
  const recent = await readJsonRows<PostKey>(db, recentHomeShape(window, after !== undefined), [userId, ...windowParameters(window, after), limit]);
  if (recent.length >= limit) return recent;
  const text = authorsPageShape('postgres', { authors: 'home', home: true }, window, after !== undefined);
  return readJsonRows<PostKey>(db, text, [userId, userId, ...windowParameters(window, after), limit]);
}

/** How many of everyone's newest posts (in the window, after the cursor) a home page on PostgreSQL looks through first. */
const RECENT_SCAN = 2_000;

/**
 * The SQL of a home page among everyone's RECENT_SCAN newest live posts in the window: those by
 * the user, and those by the accounts they follow and neither mute nor block (community posts only
 * when shared with followers). When it finds a whole page, that page is the home timeline's: any
 * home post it did not look at is older than all it looked at. Parameters: $1 the user,
 * windowParameters, the limit.
 */
function recentHomeShape(window: TimeWindow, after: boolean): string {
  return keptShape(`recent|${windowShape(window, after)}`, () => {
    let n = 1;
    const param = () => `$${++n}`;
    const conditions = windowConditions(window, after, param);
    const newest = `select posts.id, posts.created_at, posts.author_id, posts.community_id, posts.share_with_followers from posts where ${LIVE}${conditions} order by posts.created_at desc, posts.id desc limit ${RECENT_SCAN}`;
    const page =
      `select k.id, k.created_at from (${newest}) k where k.author_id = $1 or (k.author_id in (${FOLLOWED_BY_$1}) and (k.community_id is null or k.share_with_followers = 1)) ` +
      `order by k.created_at desc, k.id desc limit ${param()}`;
    return preparedOnPostgres(rowsAsJsonArray(page, 'r.created_at desc, r.id desc'));
  });
}

/** PostgreSQL: the accounts the user $1 follows and neither mutes nor blocks (homeAuthors' rule, as SQL). */
const FOLLOWED_BY_$1 =
  'select f.target_user_id from follows f where f.source_user_id = $1 and f.target_user_id <> $1 ' +
  'and f.target_user_id not in (select m.target_user_id from mutes m where m.source_user_id = $1) ' +
  'and f.target_user_id not in (select b.target_user_id from blocks b where b.source_user_id = $1)';

/** What of a window and cursor changes a page's SQL text (their values are parameters). */
const windowShape = (window: TimeWindow, after: boolean) =>
  `${window.sinceId !== undefined}|${window.untilId !== undefined}|${window.startTime !== undefined}|${window.endTime !== undefined}|${window.excludeReplies}|${window.excludeReposts}|${after}`;

const pageShapes = new Map<string, string>();

/** The SQL text of a page's shape, made once (at most 1,000 are kept). */
function keptShape(key: string, make: () => string): string {
  let text = pageShapes.get(key);
  if (text === undefined) {
    if (pageShapes.size >= 1_000) pageShapes.clear();
    pageShapes.set(key, (text = make()));
  }
  return text;
}

/** The parameters of windowConditions, in its order. */
function windowParameters(window: TimeWindow, after?: PageAfter): unknown[] {
  const out: unknown[] = [];
  if (window.sinceId) out.push(window.sinceId);
  if (window.untilId) out.push(window.untilId);
  if (window.startTime) out.push(window.startTime);
  if (window.endTime) out.push(window.endTime);
  if (after) out.push(after.createdAt, after.id);
  return out;
}

/** The conditions of the window and the cursor on posts, their parameters named by `param` in windowParameters' order. */
function windowConditions(window: TimeWindow, after: boolean, param: () => string): string {
  let where = '';
  if (window.sinceId) where += ` and posts.id > ${param()}`;
  if (window.untilId) where += ` and posts.id < ${param()}`;
  if (window.startTime) where += ` and posts.created_at >= ${param()}`;
  if (window.endTime) where += ` and posts.created_at < ${param()}`;
  if (window.excludeReplies) where += ' and posts.in_reply_to_user_id is null';
  if (window.excludeReposts) where += ' and posts.reposted_post_id is null';
  if (after) where += ` and (posts.created_at, posts.id) < (${param()}, ${param()})`;
  return where;
}

/** The live conditions as migration 0030's index states them, literally. */
export const LIVE = 'posts.deleted_at is null and posts.superseded_by_id is null and posts.nullcast = 0';
/** A followed author's community post shows on a home timeline only when shared with followers (homeCondition). */
export const SHARED = '(posts.community_id is null or posts.share_with_followers = 1)';

/**
 * The SQL of a page of authors' posts, kept by its shape. SQLite: one arm per author (the first
 * a home timeline's owner), the order and limit on the whole, so that SQLite walks each arm's
 * index range in order and merges them (MERGE (UNION ALL)), stopping at the limit: a page reads
 * about `limit` index entries in all. Parameters: each author followed by windowParameters, then
 * the limit. PostgreSQL: each author's newest `limit` posts through the index (a lateral join
 * over the authors: a list, $1 as an array, or the home timeline's of the user $1), merged and
 * ordered, as one JSON array (rowsAsJsonArray). Parameters: $1, the owner (home only), windowParameters, the limit.
 */
function authorsPageShape(dialect: StoreDialect, source: { authors: number | 'list' | 'home'; home: boolean }, window: TimeWindow, after: boolean): string {
  return keptShape(`${dialect}|${source.authors}|${source.home}|${windowShape(window, after)}`, () => {
    if (dialect === 'sqlite') {
      const count = source.authors as number;
      const arm = (i: number) => `select posts.id, posts.created_at from posts where posts.author_id = ? and ${LIVE}${source.home && i > 0 ? ` and ${SHARED}` : ''}${windowConditions(window, after, () => '?')}`;
      return `${Array.from({ length: count }, (_, i) => arm(i)).join(' union all ')} order by created_at desc, id desc limit ?`;
    }
    let n = 1;
    const param = () => `$${++n}`;
    const authors = source.authors === 'home' ? `(select $1::text as author union all ${FOLLOWED_BY_$1}) a` : 'unnest($1::text[]) as a(author)';
    const shared = source.home ? ` and (posts.author_id = ${param()} or ${SHARED})` : '';
    const conditions = windowConditions(window, after, param);
    const limit = param();
    // Each arm reads only the index's columns (an index-only scan).
    const each = `select posts.id, posts.created_at from posts where posts.author_id = a.author and ${LIVE}${shared}${conditions} order by posts.created_at desc, posts.id desc limit ${limit}`;
    const page = `select k.* from ${authors} cross join lateral (${each}) k order by k.created_at desc, k.id desc limit ${limit}`;
    return preparedOnPostgres(rowsAsJsonArray(page, 'r.created_at desc, r.id desc'));
  });
}

/** Posts by the user. */
export const authoredBy = (userId: string): PostCondition => (eb) => eb('posts.author_id', '=', userId);

/** Posts of others that mention @username, or reply to the user. */
export const mentioning = (userId: string, username: string, dialect: SqlDialect): PostCondition => (eb) =>
  eb.and([eb('posts.author_id', '!=', userId), eb.or([eb('posts.in_reply_to_user_id', '=', userId), mentionsUsername(username, dialect)])]);

/**
 * The authors of a user's home timeline: the user first, then the accounts they follow, minus
 * those they mute or block. A followed author's community post shows only when it was shared
 * with followers (the contract with posts: community_id IS NULL OR share_with_followers = 1;
 * pagedAuthorKeys and homeCondition apply it).
 */
export async function homeAuthors(db: DbOrTx, userId: string): Promise<string[]> {
  const followed = await db
    .selectFrom('follows')
    .select('follows.target_user_id')
    .where('follows.source_user_id', '=', userId)
    .where('follows.target_user_id', 'not in', (eb) => eb.selectFrom('mutes').select('mutes.target_user_id').where('mutes.source_user_id', '=', userId))
    .where('follows.target_user_id', 'not in', (eb) => eb.selectFrom('blocks').select('blocks.target_user_id').where('blocks.source_user_id', '=', userId))
    .execute();
  return [userId, ...followed.map((f) => f.target_user_id).filter((id) => id !== userId)];
}

/** What a home timeline's posts must meet besides their authors: the community-sharing contract above. */
function homeCondition(userId: string): { where: PostCondition } {
  return { where: (eb) => eb.or([eb('posts.author_id', '=', userId), eb('posts.community_id', 'is', null), eb('posts.share_with_followers', '=', 1)]) };
}

/** Posts by the members of a list. */
export const byMembersOf = (listId: string): PostCondition => (eb) =>
  eb('posts.author_id', 'in', eb.selectFrom('list_members').select('list_members.user_id').where('list_members.list_id', '=', listId));

/** Posts joined through a relation table (likes, bookmarks), newest relation first, keyed by the relation id. */
export async function postsThrough(db: DbOrTx, table: 'likes' | 'bookmarks', userId: string, limit: number, after?: string): Promise<Array<PostRow & { relation_id: string }>> {
  let q = db
    .selectFrom(`${table} as r` as 'likes as r')
    .innerJoin('posts', 'posts.id', 'r.post_id')
    .selectAll('posts')
    .select('r.id as relation_id')
    .where('r.user_id', '=', userId)
    .where('posts.deleted_at', 'is', null);
  if (after) q = q.where('r.id', '<', after);
  return q.orderBy('r.id', 'desc').limit(limit).execute();
}
