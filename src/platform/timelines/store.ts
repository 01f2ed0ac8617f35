import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { DbOrTx } from '../../store/store.js';
import type { TimeWindow } from '../graph/query.js';
import { findPostsByIds } from '../posts/store.js';
import type { PostRow } from '../posts/wire.js';

type PostsEb = ExpressionBuilder<Database, 'posts'>;
export type PostCondition = (eb: PostsEb) => Expression<SqlBool>;

/** A LIKE pattern matching `text` literally, with `!` as the escape character. */
export function likeLiteral(text: string): string {
  return text.replace(/[!%_]/g, (c) => `!${c}`);
}


/**
 * Live posts matching `where` within the window, newest first by (created_at, id), continuing
 * after `after` (a composite key), `limit` rows. An edited post shows as its latest version.
 */
export async function pagedPosts(db: DbOrTx, where: PostCondition, window: TimeWindow, limit: number, after?: { createdAt: string; id: string }): Promise<PostRow[]> {
  const keys = await pagedPostKeys(db, where, window, limit, after);
  const rows = new Map((await findPostsByIds(db, keys.map((k) => k.id))).map((p) => [p.id, p]));
  return keys.flatMap((k) => rows.get(k.id) ?? []);
}

/** What pagedPosts finds, as keys only: the rows themselves are read where they may be cached. */
export async function pagedPostKeys(db: DbOrTx, where: PostCondition, window: TimeWindow, limit: number, after?: { createdAt: string; id: string }): Promise<Array<{ id: string; created_at: string }>> {
  let q = db.selectFrom('posts').select(['posts.id', 'posts.created_at']).where('posts.deleted_at', 'is', null).where('posts.superseded_by_id', 'is', null).where(where);
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
  return q.orderBy('posts.created_at', 'desc').orderBy('posts.id', 'desc').limit(limit).execute();
}

/** Posts by the user. */
export const authoredBy = (userId: string): PostCondition => (eb) => eb('posts.author_id', '=', userId);

/** Posts of others that mention @username, or reply to the user. */
export const mentioning = (userId: string, username: string): PostCondition => (eb) =>
  eb.and([
    eb('posts.author_id', '!=', userId),
    eb.or([
      eb('posts.in_reply_to_user_id', '=', userId),
      sql<SqlBool>`lower(${sql.ref('posts.entities')}) like ${`%"username":"${likeLiteral(username.toLowerCase())}"%`} escape '!'`,
    ]),
  ]);

/**
 * The home timeline of a user: their own posts and those of the accounts they follow, minus
 * the accounts they mute or block. A followed author's community post shows only when it was
 * shared with followers (the contract with posts: community_id IS NULL OR share_with_followers = 1).
 */
export const homeOf = (userId: string): PostCondition => (eb) =>
  eb.or([
    eb('posts.author_id', '=', userId),
    eb.and([
      eb('posts.author_id', 'in', eb.selectFrom('follows').select('follows.target_user_id').where('follows.source_user_id', '=', userId)),
      eb('posts.author_id', 'not in', eb.selectFrom('mutes').select('mutes.target_user_id').where('mutes.source_user_id', '=', userId)),
      eb('posts.author_id', 'not in', eb.selectFrom('blocks').select('blocks.target_user_id').where('blocks.source_user_id', '=', userId)),
      eb.or([eb('posts.community_id', 'is', null), eb('posts.share_with_followers', '=', 1)]),
    ]),
  ]);

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
