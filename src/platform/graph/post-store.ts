import type { DbOrTx } from '../../store/store.js';
import type { UserRow } from '../users/wire.js';

/**
 * Queries shared by the user-to-post relation tables with a time-ordered id (likes, bookmarks):
 * a unique (user, post) pair, listed newest first.
 */
export type UserPostTable = 'likes' | 'bookmarks';

export async function insertUserPost(db: DbOrTx, table: UserPostTable, id: string, userId: string, postId: string, at: string): Promise<boolean> {
  const result = await db
    .insertInto(table)
    .values({ id, user_id: userId, post_id: postId, created_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'post_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Removes the relation to any of `postIds` (the versions of one post); true when there was one. */
export async function deleteUserPost(db: DbOrTx, table: UserPostTable, userId: string, postIds: readonly string[]): Promise<boolean> {
  const result = await db.deleteFrom(table).where('user_id', '=', userId).where('post_id', 'in', postIds).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Whether the user already has the relation to one of `postIds` (the versions of one post). */
export async function hasUserPost(db: DbOrTx, table: UserPostTable, userId: string, postIds: readonly string[]): Promise<boolean> {
  const row = await db.selectFrom(table).select('id').where('user_id', '=', userId).where('post_id', 'in', postIds).executeTakeFirst();
  return row !== undefined;
}

/** Users related to a post (any of its versions) through `table`, newest relation first. */
export async function usersOfPost(db: DbOrTx, table: UserPostTable, postIds: readonly string[], limit: number, after?: string): Promise<Array<UserRow & { relation_id: string }>> {
  let q = db
    .selectFrom(`${table} as r` as 'likes as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .selectAll('u')
    .select('r.id as relation_id')
    .where('r.post_id', 'in', postIds);
  if (after) q = q.where('r.id', '<', after);
  return q.orderBy('r.id', 'desc').limit(limit).execute();
}
