import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { SqlDialect } from '../../query/sql.js';
import type { Database } from '../../store/schema.js';
import type { DbOrTx, StoreDialect } from '../../store/store.js';
import type { TimeWindow } from '../graph/query.js';
import { findPostsByIds, mentionsUsername } from '../posts/store.js';
import type { PostRow } from '../posts/wire.js';

type PostsEb = ExpressionBuilder<Database, 'posts'>;
export type PostCondition = (eb: PostsEb) => Expression<SqlBool>;

/** A LIKE pattern matching `text` literally, with `!` as the escape character. */
export function likeLiteral(text: string): string {
  return text.replace(/[!%_]/g, (c) => `!${c}`);
}


/**
 * A post a page found. On PostgreSQL it carries the row versions (xmin) of the post and of its
 * author, read by the same query, so the entity cache can use the rows it keeps with no further
 * round trip (ResponseReads.knowVersions).
 */
export type PostKey = { id: string; created_at: string; version?: string; author_id?: string; author_version?: string | null };
type PageAfter = { createdAt: string; id: string };

/**
 * Live posts matching `where` within the window, newest first by (created_at, id), continuing
 * after `after` (a composite key), `limit` rows. An edited post shows as its latest version.
 */
export async function pagedPosts(db: DbOrTx, where: PostCondition, window: TimeWindow, limit: number, after?: PageAfter): Promise<PostRow[]> {
  const keys = await pagedPostKeys(db, where, window, limit, after);
  const rows = new Map((await findPostsByIds(db, keys.map((k) => k.id))).map((p) => [p.id, p]));
  return keys.flatMap((k) => rows.get(k.id) ?? []);
}

/** What pagedPosts finds, as keys only: the rows themselves are read where they may be cached. */
export async function pagedPostKeys(db: DbOrTx, where: PostCondition, window: TimeWindow, limit: number, after?: PageAfter, dialect: StoreDialect = 'sqlite'): Promise<PostKey[]> {
  return pageOf(db, where, window, limit, after, dialect).execute();
}

/** The page query: live latest versions matching `where` in the window, after the cursor, newest first. */
function pageOf(db: DbOrTx, where: PostCondition, window: TimeWindow, limit: number, after?: PageAfter, dialect: StoreDialect = 'sqlite') {
  // A promoted-only (nullcast) post of the advertising interface is on no timeline.
  let q = db
    .selectFrom('posts')
    .select(['posts.id', 'posts.created_at'])
    .$if(dialect === 'postgres', (qb) =>
      qb.select([
        'posts.author_id',
        sql<string>`posts.xmin::text`.as('version'),
        sql<string | null>`(select u.xmin::text from users u where u.id = posts.author_id)`.as('author_version'),
      ]),
    )
    .where('posts.deleted_at', 'is', null)
    .where('posts.superseded_by_id', 'is', null)
    .where('posts.nullcast', '=', 0)
    .where(where);
  if (window.sinceId) q = q.where('posts.id', '>', window.sinceId);
  if (window.untilId) q = q.where('posts.id', '<', window.untilId);
  if (window.startTime) q = q.where('posts.created_at', '>=', window.startTime);
  if (window.endTime) q = q.where('posts.created_at', '<', window.endTime);
  if (window.excludeReplies) q = q.where('posts.in_reply_to_user_id', 'is', null);
  if (window.excludeReposts) q = q.where('posts.reposted_post_id', 'is', null);
  if (after) {
    q = q.where((eb) =>
      eb.or([eb('posts.created_at', '<', after.createdAt), eb.and([eb('posts.created_at', '=', after.createdAt), eb('posts.id', '<', after.id)])]),
    );
  }
  return q.orderBy('posts.created_at', 'desc').orderBy('posts.id', 'desc').limit(limit);
}

/** Above this many authors, a page is one query over all their posts rather than one per author. */
const MERGE_AUTHORS_MAX = 64;

/**
 * pagedPostKeys over the posts of a set of authors (a home timeline): each author's newest
 * `limit` posts are read through the (author, created_at) index, and only those are merged and
 * ordered, rather than every post of every author.
 */
export async function pagedPostKeysOfAuthors(db: DbOrTx, authors: readonly string[], where: PostCondition, window: TimeWindow, limit: number, after?: PageAfter): Promise<PostKey[]> {
  if (authors.length === 0) return [];
  if (authors.length > MERGE_AUTHORS_MAX) return pagedPostKeys(db, (eb) => eb.and([eb('posts.author_id', 'in', authors), where(eb)]), window, limit, after);
  const each = authors.map((author, i) =>
    db.selectFrom(pageOf(db, (eb) => eb.and([eb('posts.author_id', '=', author), where(eb)]), window, limit, after).as(`a${i}`)).select(['id', 'created_at']),
  );
  const merged = each.slice(1).reduce((union, part) => union.unionAll(part), each[0]);
  return db.selectFrom(merged.as('merged')).select(['id', 'created_at']).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/**
 * A page of a user's home timeline on PostgreSQL in one query: the authors (the user and the
 * accounts they follow, minus those they mute or block), each one's newest `limit` posts through
 * the (author, created_at) index (a lateral join), merged and ordered; with row versions (PostKey).
 * SQLite answers the same with homeOf and pagedPostKeysOfAuthors: its round trips cost nothing.
 */
export async function pagedHomeKeysPostgres(db: DbOrTx, userId: string, window: TimeWindow, limit: number, after?: PageAfter): Promise<PostKey[]> {
  const authors = db
    .selectNoFrom(sql<string>`${userId}::text`.as('author'))
    .unionAll(
      db
        .selectFrom('follows')
        .select('follows.target_user_id as author')
        .where('follows.source_user_id', '=', userId)
        .where('follows.target_user_id', '!=', userId)
        .where('follows.target_user_id', 'not in', (eb) => eb.selectFrom('mutes').select('mutes.target_user_id').where('mutes.source_user_id', '=', userId))
        .where('follows.target_user_id', 'not in', (eb) => eb.selectFrom('blocks').select('blocks.target_user_id').where('blocks.source_user_id', '=', userId)),
    );
  const { where } = homeCondition(userId);
  return db
    .selectFrom(authors.as('a'))
    .innerJoinLateral(
      () => pageOf(db, (eb) => eb.and([eb('posts.author_id', '=', sql.ref<string>('a.author')), where(eb)]), window, limit, after, 'postgres').as('p'),
      (join) => join.onTrue(),
    )
    .select(['p.id', 'p.created_at', 'p.version', 'p.author_id', 'p.author_version'])
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id', 'desc')
    .limit(limit)
    .execute();
}

/** Posts by the user. */
export const authoredBy = (userId: string): PostCondition => (eb) => eb('posts.author_id', '=', userId);

/** Posts of others that mention @username, or reply to the user. */
export const mentioning = (userId: string, username: string, dialect: SqlDialect): PostCondition => (eb) =>
  eb.and([eb('posts.author_id', '!=', userId), eb.or([eb('posts.in_reply_to_user_id', '=', userId), mentionsUsername(username, dialect)])]);

/**
 * The home timeline of a user: their own posts and those of the accounts they follow, minus
 * the accounts they mute or block. A followed author's community post shows only when it was
 * shared with followers (the contract with posts: community_id IS NULL OR share_with_followers = 1).
 * Answers the authors, and the condition their posts must meet.
 */
export async function homeOf(db: DbOrTx, userId: string): Promise<{ authors: string[]; where: PostCondition }> {
  const followed = await db
    .selectFrom('follows')
    .select('follows.target_user_id')
    .where('follows.source_user_id', '=', userId)
    .where('follows.target_user_id', 'not in', (eb) => eb.selectFrom('mutes').select('mutes.target_user_id').where('mutes.source_user_id', '=', userId))
    .where('follows.target_user_id', 'not in', (eb) => eb.selectFrom('blocks').select('blocks.target_user_id').where('blocks.source_user_id', '=', userId))
    .execute();
  return { authors: [userId, ...followed.map((f) => f.target_user_id).filter((id) => id !== userId)], ...homeCondition(userId) };
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
