import type { DbOrTx } from '../../store/store.js';
import { deleteUserPost, hasUserPost, insertUserPost } from '../graph/post-store.js';

export const insertBookmark = (db: DbOrTx, id: string, userId: string, postId: string, at: string) => insertUserPost(db, 'bookmarks', id, userId, postId, at);
export const deleteBookmark = (db: DbOrTx, userId: string, postIds: readonly string[]) => deleteUserPost(db, 'bookmarks', userId, postIds);
export const hasBookmarked = (db: DbOrTx, userId: string, postIds: readonly string[]) => hasUserPost(db, 'bookmarks', userId, postIds);

export async function moveBookmarkCount(db: DbOrTx, postId: string, delta: 1 | -1): Promise<void> {
  await db.updateTable('posts').set((eb) => ({ bookmark_count: eb('bookmark_count', '+', delta) })).where('id', '=', postId).execute();
}
