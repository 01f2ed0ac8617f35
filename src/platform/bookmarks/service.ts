import type { UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { page } from '../../http/pagination.js';
import { hiddenPosts, ResponseReads } from '../expansions.js';
import { invalidParameter } from '../../http/params.js';
import { ProblemError, problems } from '../../http/problems.js';
import type { DbOrTx } from '../../store/store.js';
import { requireSelf, requireWriteAccess } from '../graph/access.js';
import type { ListRequest, PageRequest } from '../graph/query.js';
import { renderPosts, type PageResult } from '../graph/render.js';
import { latestOf, latestVersions, requireVisiblePost, versionIds } from '../graph/visibility.js';
import { findPostsByIds } from '../posts/store.js';
import type { PostRow } from '../posts/wire.js';
import { postsThrough } from '../timelines/store.js';
import type { View } from '../view.js';
import {
  deleteBookmark,
  fileBookmark,
  findBookmarkFolder,
  hasBookmarked,
  insertBookmark,
  insertBookmarkFolder,
  listBookmarkFolders,
  moveBookmarkCount,
  postsInFolder,
  unfileBookmark,
} from './store.js';

/** Records a bookmark of `post` (its latest version) and moves its bookmark_count; false when a version of it is bookmarked already. */
export async function recordBookmark(ctx: PlatformContext, db: DbOrTx, userId: string, post: PostRow): Promise<boolean> {
  if (await hasBookmarked(db, userId, versionIds(post))) return false;
  if (!(await insertBookmark(db, ctx.ids.next(), userId, post.id, ctx.clock.now().toISOString()))) return false;
  await moveBookmarkCount(db, post.id, 1);
  return true;
}

/** POST /2/users/{id}/bookmarks: bookmarks are private to their owner; the post's bookmark_count moves. */
export async function bookmarkPost(ctx: PlatformContext, caller: UserCaller, view: View, userId: string, postId: string, folderId?: string): Promise<{ bookmarked: boolean }> {
  requireSelf(caller, userId, 'id', 'bookmark posts on behalf');
  requireWriteAccess(caller);
  await ctx.store.db.transaction().execute(async (tx) => {
    // Plaza's extension (the public platform files bookmarks only in its own apps): `folder_id`
    // files the bookmark in one of the user's folders, moving it out of any other.
    if (folderId !== undefined && !(await findBookmarkFolder(tx, userId, folderId))) {
      throw invalidParameter('folder_id', [folderId], `The \`folder_id\` body field value [${folderId}] is not one of your bookmark folders`);
    }
    const post = await requireVisiblePost(ctx, tx, view, postId, 'post_id');
    await recordBookmark(ctx, tx, userId, post);
    if (folderId !== undefined) {
      await fileBookmark(tx, { id: ctx.ids.next(), folderId, userId, postIds: versionIds(post), postId: post.id, at: ctx.clock.now().toISOString() });
    }
  });
  return { bookmarked: true };
}

/** DELETE /2/users/{id}/bookmarks/{post_id}: idempotent. */
export async function removeBookmark(ctx: PlatformContext, caller: UserCaller, userId: string, postId: string): Promise<{ bookmarked: boolean }> {
  requireSelf(caller, userId, 'id', 'remove bookmarks on behalf');
  requireWriteAccess(caller);
  await ctx.store.db.transaction().execute(async (tx) => {
    const [named] = await findPostsByIds(tx, [postId]);
    const latest = named && (await latestOf(tx, named));
    const versions = latest ? versionIds(latest) : [postId];
    await unfileBookmark(tx, userId, versions);
    if (await deleteBookmark(tx, userId, versions)) await moveBookmarkCount(tx, latest?.id ?? postId, -1);
  });
  return { bookmarked: false };
}

/** GET /2/users/{id}/bookmarks: the authenticated user's bookmarks, newest first. */
export async function bookmarksOf(ctx: PlatformContext, caller: UserCaller, view: View, userId: string, { selection, page: request }: ListRequest): Promise<PageResult> {
  requireSelf(caller, userId, 'id', 'read the bookmarks');
  const rows = await postsThrough(ctx.store.db, 'bookmarks', userId, request.maxResults + 1, request.after);
  const { items, meta } = page(rows, request.maxResults, (r) => r.relation_id);
  return renderPosts(ctx, view, selection, await latestVersions(ctx.store.db, items), meta);
}

/** POST /2/users/{id}/bookmarks/folders: a new, empty folder of the user's (names 1 to 25 characters, as the description says). */
export async function createBookmarkFolder(ctx: PlatformContext, caller: UserCaller, userId: string, name: string): Promise<{ id: string; name: string }> {
  requireSelf(caller, userId, 'id', 'create bookmark folders on behalf');
  requireWriteAccess(caller);
  const trimmed = name.trim();
  if (trimmed.length === 0) throw invalidParameter('name', [name], 'The `name` body field must hold 1 to 25 characters besides spaces');
  const folder = { id: ctx.ids.next(), user_id: userId, name: trimmed, created_at: ctx.clock.now().toISOString() };
  await insertBookmarkFolder(ctx.store.db, folder);
  return { id: folder.id, name: folder.name };
}

/** GET /2/users/{id}/bookmarks/folders: the user's folders, newest first. */
export async function bookmarkFoldersOf(ctx: PlatformContext, caller: UserCaller, userId: string, request: PageRequest): Promise<PageResult> {
  requireSelf(caller, userId, 'id', 'read the bookmark folders');
  const rows = await listBookmarkFolders(ctx.store.db, userId, request.maxResults + 1, request.after);
  const { items, meta } = page(rows, request.maxResults, (f) => f.id);
  return { data: items.map((f) => ({ id: f.id, name: f.name })), errors: [], meta };
}

/**
 * GET /2/users/{id}/bookmarks/folders/{folder_id}: the ids of the posts filed there, newest filing
 * first; an edited post shows as its latest version, and a post the user may no longer see (its
 * author became protected) as a partial error, as on the bookmarks list.
 */
export async function bookmarkFolderPosts(ctx: PlatformContext, caller: UserCaller, view: View, userId: string, folderId: string, request: PageRequest): Promise<PageResult> {
  requireSelf(caller, userId, 'id', 'read the bookmark folders');
  if (!(await findBookmarkFolder(ctx.store.db, userId, folderId))) {
    throw new ProblemError(404, problems.aboutBlank(404, 'Not Found', `Could not find bookmark folder with folder_id: [${folderId}].`));
  }
  const rows = await postsInFolder(ctx.store.db, folderId, request.maxResults + 1, request.after);
  const { items, meta } = page(rows, request.maxResults, (r) => r.relation_id);
  const posts = await latestVersions(ctx.store.db, items);
  const reads = new ResponseReads(ctx);
  reads.holdPosts(posts);
  const hidden = await hiddenPosts(ctx, view, posts, reads);
  const visible = posts.filter((p) => !hidden.has(p.id));
  return {
    data: visible.map((p) => ({ id: p.id })),
    errors: [...hidden].map((id) => problems.notAuthorizedForResource({ value: id, resource_id: id, resource_type: 'post', section: 'data', parameter: 'id' })),
    meta: { ...meta, result_count: visible.length },
  };
}
