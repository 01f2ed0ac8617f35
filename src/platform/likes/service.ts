import { recordPromotedEngagement } from '../../ads/delivery/service.js';
import type { UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { appendEvent } from '../../events/log.js';
import { page } from '../../http/pagination.js';
import { ProblemError, problems } from '../../http/problems.js';
import type { DbOrTx } from '../../store/store.js';
import { isBlocking } from '../blocks/store.js';
import { hiddenPosts } from '../expansions.js';
import { requireSelf, requireWriteAccess } from '../graph/access.js';
import type { ListRequest } from '../graph/query.js';
import { errorsOnly, renderPosts, renderUsers, type PageResult } from '../graph/render.js';
import { checkTier } from '../graph/tiers.js';
import { latestOf, latestVersions, requireVisiblePost, subjectUser, versionIds } from '../graph/visibility.js';
import { findPostsByIds } from '../posts/store.js';
import type { PostRow } from '../posts/wire.js';
import { postsThrough } from '../timelines/store.js';
import type { View } from '../view.js';
import { deleteLike, hasLiked, insertLike, likesOf, listLikingUsers, moveLikeCounters } from './store.js';

/**
 * Records a like of `post` (its latest version) with its counters and its like.create event;
 * false when the user already likes a version of it.
 */
export async function recordLike(ctx: PlatformContext, db: DbOrTx, userId: string, post: PostRow): Promise<boolean> {
  if (await hasLiked(db, userId, versionIds(post))) return false;
  const likeId = ctx.ids.next();
  const now = ctx.clock.now();
  if (!(await insertLike(db, likeId, userId, post.id, now.toISOString()))) return false;
  await moveLikeCounters(db, userId, post.id, 1);
  await recordPromotedEngagement(ctx, db, userId, { postId: post.id }, 'like');
  // The like.create payload (LikeWithPostAuthor of shared/reference, 'tweet' renamed 'post'),
  // with the liker, which a direction filter needs.
  await appendEvent(ctx, db, {
    type: 'like.create',
    subject: post.id,
    payload: { id: likeId, created_at: now.toISOString(), timestamp_ms: now.getTime(), liked_post_id: post.id, post_author_id: post.author_id, liking_user_id: userId },
  });
  return true;
}

/**
 * POST /2/users/{id}/likes. Removed from the free tier on Aug 22, 2025 and from every self-serve
 * tier on Apr 20, 2026 (spec 000 release history); enterprise keeps it.
 */
export async function likePost(ctx: PlatformContext, caller: UserCaller, view: View, userId: string, postId: string): Promise<{ liked: boolean }> {
  requireSelf(caller, userId, 'id', 'like posts on behalf');
  requireWriteAccess(caller);
  checkTier(ctx, caller, 'manageLikes');
  await ctx.store.db.transaction().execute(async (tx) => {
    const post = await requireVisiblePost(ctx, tx, view, postId, 'post_id');
    if (await isBlocking(tx, post.author_id, userId)) {
      throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', 'The author of this post has blocked you.'));
    }
    await recordLike(ctx, tx, userId, post);
  });
  return { liked: true };
}

/** DELETE /2/users/{id}/likes/{post_id}: idempotent, like the public platform; any version of an edited post names it. */
export async function unlikePost(ctx: PlatformContext, caller: UserCaller, userId: string, postId: string): Promise<{ liked: boolean }> {
  requireSelf(caller, userId, 'id', 'unlike posts on behalf');
  requireWriteAccess(caller);
  await ctx.store.db.transaction().execute(async (tx) => {
    const [named] = await findPostsByIds(tx, [postId]);
    const latest = named && (await latestOf(tx, named));
    const versions = latest ? versionIds(latest) : [postId];
    const likes = await likesOf(tx, userId, versions);
    if (await deleteLike(tx, userId, versions)) {
      await moveLikeCounters(tx, userId, latest?.id ?? postId, -1);
      // Read by the likes compliance stream (delete.favorite); not an Activity API type.
      for (const like of likes) {
        await appendEvent(ctx, tx, { type: 'like.delete', subject: like.post_id, payload: { id: like.id, user_id: userId, liked_post_id: like.post_id } });
      }
    }
  });
  return { liked: false };
}

/** GET /2/posts/{id}/liking_users: newest like first. */
export async function likingUsers(ctx: PlatformContext, view: View, postId: string, { selection, page: request }: ListRequest): Promise<PageResult> {
  const [named] = await findPostsByIds(ctx.store.db, [postId]);
  const post = named && (await latestOf(ctx.store.db, named));
  if (!post) return errorsOnly(problems.resourceNotFound({ parameter: 'id', value: postId, resource_id: postId, resource_type: 'post' }));
  if ((await hiddenPosts(ctx, view, [post])).has(post.id)) {
    return errorsOnly(problems.notAuthorizedForResource({ value: postId, resource_id: postId, resource_type: 'post', section: 'data', parameter: 'id' }));
  }
  const rows = await listLikingUsers(ctx.store.db, versionIds(post), request.maxResults + 1, request.after);
  const { items, meta } = page(rows, request.maxResults, (r) => r.relation_id);
  return renderUsers(ctx, view, selection, items, meta);
}

/** GET /2/users/{id}/liked_posts: newest like first; a protected user's likes only for approved followers. */
export async function likedPosts(ctx: PlatformContext, view: View, userId: string, { selection, page: request }: ListRequest): Promise<PageResult> {
  const subject = await subjectUser(ctx, view, userId, { protectedContent: true });
  if (subject.problem) return errorsOnly(subject.problem);
  const rows = await postsThrough(ctx.store.db, 'likes', userId, request.maxResults + 1, request.after);
  const { items, meta } = page(rows, request.maxResults, (r) => r.relation_id);
  return renderPosts(ctx, view, selection, await latestVersions(ctx.store.db, items), meta);
}
