import type { UserCaller } from '../../auth/authenticate.js';
import type { AppContext } from '../../context.js';
import { page } from '../../http/pagination.js';
import type { DbOrTx } from '../../store/store.js';
import { requireSelf, requireWriteAccess } from '../graph/access.js';
import type { ListRequest } from '../graph/query.js';
import { renderPosts, type PageResult } from '../graph/render.js';
import { latestOf, latestVersions, requireVisiblePost, versionIds } from '../graph/visibility.js';
import { findPostsByIds } from '../posts/store.js';
import type { PostRow } from '../posts/wire.js';
import { postsThrough } from '../timelines/store.js';
import type { View } from '../view.js';
import { deleteBookmark, hasBookmarked, insertBookmark, moveBookmarkCount } from './store.js';

/** Records a bookmark of `post` (its latest version) and moves its bookmark_count; false when a version of it is bookmarked already. */
export async function recordBookmark(ctx: AppContext, db: DbOrTx, userId: string, post: PostRow): Promise<boolean> {
  if (await hasBookmarked(db, userId, versionIds(post))) return false;
  if (!(await insertBookmark(db, ctx.ids.next(), userId, post.id, ctx.clock.now().toISOString()))) return false;
  await moveBookmarkCount(db, post.id, 1);
  return true;
}

/** POST /2/users/{id}/bookmarks: bookmarks are private to their owner; the post's bookmark_count moves. */
export async function bookmarkPost(ctx: AppContext, caller: UserCaller, view: View, userId: string, postId: string): Promise<{ bookmarked: boolean }> {
  requireSelf(ctx, caller, userId, 'id', 'bookmark posts on behalf');
  requireWriteAccess(ctx, caller);
  await ctx.store.db.transaction().execute(async (tx) => {
    await recordBookmark(ctx, tx, userId, await requireVisiblePost(ctx, tx, view, postId, 'post_id'));
  });
  return { bookmarked: true };
}

/** DELETE /2/users/{id}/bookmarks/{post_id}: idempotent. */
export async function removeBookmark(ctx: AppContext, caller: UserCaller, userId: string, postId: string): Promise<{ bookmarked: boolean }> {
  requireSelf(ctx, caller, userId, 'id', 'remove bookmarks on behalf');
  requireWriteAccess(ctx, caller);
  await ctx.store.db.transaction().execute(async (tx) => {
    const [named] = await findPostsByIds(tx, [postId]);
    const latest = named && (await latestOf(tx, named));
    if (await deleteBookmark(tx, userId, latest ? versionIds(latest) : [postId])) await moveBookmarkCount(tx, latest?.id ?? postId, -1);
  });
  return { bookmarked: false };
}

/** GET /2/users/{id}/bookmarks: the authenticated user's bookmarks, newest first. */
export async function bookmarksOf(ctx: AppContext, caller: UserCaller, view: View, userId: string, { selection, page: request }: ListRequest): Promise<PageResult> {
  requireSelf(ctx, caller, userId, 'id', 'read the bookmarks');
  const rows = await postsThrough(ctx.store.db, 'bookmarks', userId, request.maxResults + 1, request.after);
  const { items, meta } = page(rows, request.maxResults, (r) => r.relation_id);
  return renderPosts(ctx, view, selection, await latestVersions(ctx.store.db, items), meta);
}
