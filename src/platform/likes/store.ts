import type { DbOrTx } from '../../store/store.js';
import { deleteUserPost, hasUserPost, insertUserPost, usersOfPost } from '../graph/post-store.js';

export const insertLike = (db: DbOrTx, id: string, userId: string, postId: string, at: string) => insertUserPost(db, 'likes', id, userId, postId, at);
export const deleteLike = (db: DbOrTx, userId: string, postIds: readonly string[]) => deleteUserPost(db, 'likes', userId, postIds);
/** The user's likes of these post versions (their ids), read before an unlike removes them. */
export const likesOf = (db: DbOrTx, userId: string, postIds: readonly string[]) =>
  db.selectFrom('likes').select(['id', 'post_id']).where('user_id', '=', userId).where('post_id', 'in', [...postIds]).execute();
export const hasLiked = (db: DbOrTx, userId: string, postIds: readonly string[]) => hasUserPost(db, 'likes', userId, postIds);
export const listLikingUsers = (db: DbOrTx, postIds: readonly string[], limit: number, after?: string) => usersOfPost(db, 'likes', postIds, limit, after);

/** The liker's like_count and the post's like_count move together. */
export async function moveLikeCounters(db: DbOrTx, userId: string, postId: string, delta: 1 | -1): Promise<void> {
  await db.updateTable('users').set((eb) => ({ like_count: eb('like_count', '+', delta) })).where('id', '=', userId).execute();
  await db.updateTable('posts').set((eb) => ({ like_count: eb('like_count', '+', delta) })).where('id', '=', postId).execute();
}
