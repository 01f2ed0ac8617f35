import type { BookmarkFolderTable } from '../../store/schema-compliance-misc.js';
import type { DbOrTx } from '../../store/store.js';
import type { PostRow } from '../posts/wire.js';
import { deleteUserPost, hasUserPost, insertUserPost } from '../graph/post-store.js';

export const insertBookmark = (db: DbOrTx, id: string, userId: string, postId: string, at: string) => insertUserPost(db, 'bookmarks', id, userId, postId, at);
export const deleteBookmark = (db: DbOrTx, userId: string, postIds: readonly string[]) => deleteUserPost(db, 'bookmarks', userId, postIds);
export const hasBookmarked = (db: DbOrTx, userId: string, postIds: readonly string[]) => hasUserPost(db, 'bookmarks', userId, postIds);

export async function moveBookmarkCount(db: DbOrTx, postId: string, delta: 1 | -1): Promise<void> {
  await db.updateTable('posts').set((eb) => ({ bookmark_count: eb('bookmark_count', '+', delta) })).where('id', '=', postId).execute();
}

export async function insertBookmarkFolder(db: DbOrTx, row: BookmarkFolderTable): Promise<void> {
  await db.insertInto('bookmark_folders').values(row).execute();
}

export async function findBookmarkFolder(db: DbOrTx, userId: string, folderId: string): Promise<BookmarkFolderTable | undefined> {
  return db.selectFrom('bookmark_folders').selectAll().where('user_id', '=', userId).where('id', '=', folderId).executeTakeFirst();
}

/** A user's folders, newest first, after `after`. */
export async function listBookmarkFolders(db: DbOrTx, userId: string, limit: number, after?: string): Promise<BookmarkFolderTable[]> {
  let q = db.selectFrom('bookmark_folders').selectAll().where('user_id', '=', userId);
  if (after) q = q.where('id', '<', after);
  return q.orderBy('id', 'desc').limit(limit).execute();
}

/** Files the user's bookmark of `postId` in the folder, moving it out of any other. */
export async function fileBookmark(db: DbOrTx, p: { id: string; folderId: string; userId: string; postIds: readonly string[]; postId: string; at: string }): Promise<void> {
  await db.deleteFrom('bookmark_folder_posts').where('user_id', '=', p.userId).where('post_id', 'in', p.postIds).execute();
  await db.insertInto('bookmark_folder_posts').values({ id: p.id, folder_id: p.folderId, user_id: p.userId, post_id: p.postId, created_at: p.at }).execute();
}

export async function unfileBookmark(db: DbOrTx, userId: string, postIds: readonly string[]): Promise<void> {
  await db.deleteFrom('bookmark_folder_posts').where('user_id', '=', userId).where('post_id', 'in', postIds).execute();
}

/** The posts filed in a folder that are still bookmarked and not deleted, newest filing first. */
export async function postsInFolder(db: DbOrTx, folderId: string, limit: number, after?: string): Promise<Array<PostRow & { relation_id: string }>> {
  let q = db
    .selectFrom('bookmark_folder_posts as f')
    .innerJoin('bookmarks as b', (join) => join.onRef('b.user_id', '=', 'f.user_id').onRef('b.post_id', '=', 'f.post_id'))
    .innerJoin('posts', 'posts.id', 'f.post_id')
    .selectAll('posts')
    .select('f.id as relation_id')
    .where('f.folder_id', '=', folderId)
    .where('posts.deleted_at', 'is', null);
  if (after) q = q.where('f.id', '<', after);
  return q.orderBy('f.id', 'desc').limit(limit).execute();
}
