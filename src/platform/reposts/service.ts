import type { UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { page } from '../../http/pagination.js';
import { ProblemError, problems } from '../../http/problems.js';
import { isUniqueViolation, type DbOrTx } from '../../store/store.js';
import { isBlocking } from '../blocks/store.js';
import { hiddenPosts } from '../expansions.js';
import { requireSelf, requireWriteAccess } from '../graph/access.js';
import type { ListRequest } from '../graph/query.js';
import { errorsOnly, renderPosts, renderUsers, type PageResult } from '../graph/render.js';
import { requireVisiblePost } from '../graph/visibility.js';
import { newPostRow, recordPost, repostText } from '../posts/build.js';
import { removePost } from '../posts/delete.js';
import { findLiveRepost, findPostsByIds } from '../posts/store.js';
import type { PostRow } from '../posts/wire.js';
import { findUsersByIds } from '../users/store.js';
import type { View } from '../view.js';
import { listReposters, listReposts, listRepostedPostsOf } from './store.js';

/**
 * Reposts: a repost is a post of the reposter (text `RT @author: ...`, referenced_posts
 * [{type: reposted}]) that moves the source's retweet_count and its author's post count, with a
 * post.create event like every post. One live repost per person and post.
 */
async function recordRepost(ctx: PlatformContext, tx: DbOrTx, caller: UserCaller, view: View, postId: string): Promise<PostRow> {
  let source = await requireVisiblePost(ctx, tx, view, postId, 'post_id');
  if (source.reposted_post_id) source = await requireVisiblePost(ctx, tx, view, source.reposted_post_id, 'post_id');
  const existing = await findLiveRepost(tx, caller.user.id, source.id);
  if (existing) return existing;
  const [author] = await findUsersByIds(tx, [source.author_id]);
  if (author.protected === 1 && author.id !== caller.user.id) {
    throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', `Posts of protected accounts cannot be reposted; @${author.username} is protected.`));
  }
  if (await isBlocking(tx, author.id, caller.user.id)) {
    throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', 'The author of this post has blocked you.'));
  }
  const row = newPostRow(ctx.ids.next(), {
    authorId: caller.user.id,
    text: repostText(author.username, source),
    createdAt: ctx.clock.now(),
    repostOf: source,
    source: caller.app.name,
  });
  await recordPost(ctx, tx, row);
  return row;
}

/** POST /2/users/{id}/reposts: repeating it changes nothing and answers the same. */
export async function repostPost(ctx: PlatformContext, caller: UserCaller, view: View, userId: string, postId: string): Promise<{ reposted: boolean; rest_id: string }> {
  requireSelf(caller, userId, 'id', 'repost on behalf');
  requireWriteAccess(caller);
  try {
    const row = await ctx.store.db.transaction().execute((tx) => recordRepost(ctx, tx, caller, view, postId));
    return { reposted: true, rest_id: row.id };
  } catch (err) {
    // The same repost twice at once: the store's unique index let one in; answer with it.
    if (!isUniqueViolation(err)) throw err;
    const [source] = await findPostsByIds(ctx.store.db, [postId]);
    const existing = await findLiveRepost(ctx.store.db, caller.user.id, source?.reposted_post_id ?? postId);
    if (!existing) throw err;
    return { reposted: true, rest_id: existing.id };
  }
}

/** DELETE /2/users/{id}/reposts/{source_post_id}: idempotent, like the public platform. */
export async function unrepostPost(ctx: PlatformContext, caller: UserCaller, userId: string, sourceId: string): Promise<{ reposted: boolean }> {
  requireSelf(caller, userId, 'id', 'undo reposts on behalf');
  requireWriteAccess(caller);
  await ctx.store.db.transaction().execute(async (tx) => {
    const repost = await findLiveRepost(tx, caller.user.id, sourceId);
    if (repost) await removePost(ctx, tx, repost);
  });
  return { reposted: false };
}

async function visibleSubject(ctx: PlatformContext, view: View, postId: string): Promise<PageResult | undefined> {
  const [post] = await findPostsByIds(ctx.store.db, [postId]);
  if (!post) return errorsOnly(problems.resourceNotFound({ parameter: 'id', value: postId, resource_id: postId, resource_type: 'post' }));
  if ((await hiddenPosts(ctx, view, [post])).has(post.id)) {
    return errorsOnly(problems.notAuthorizedForResource({ value: postId, resource_id: postId, resource_type: 'post', section: 'data', parameter: 'id' }));
  }
  return undefined;
}


/** GET /2/posts/{id}/reposted_by: the reposters, newest repost first. */
export async function repostedBy(ctx: PlatformContext, view: View, postId: string, { selection, page: request }: ListRequest): Promise<PageResult> {
  const refused = await visibleSubject(ctx, view, postId);
  if (refused) return refused;
  const rows = await listReposters(ctx.store.db, postId, request.maxResults + 1, request.after);
  const { items, meta } = page(rows, request.maxResults, (r) => r.relation_id);
  return renderUsers(ctx, view, selection, items, meta);
}

/** GET /2/posts/{id}/reposts: the reposts themselves, newest first. */
export async function repostsOf(ctx: PlatformContext, view: View, postId: string, { selection, page: request }: ListRequest): Promise<PageResult> {
  const refused = await visibleSubject(ctx, view, postId);
  if (refused) return refused;
  const rows = await listReposts(ctx.store.db, postId, request.maxResults + 1, request.after);
  const { items, meta } = page(rows, request.maxResults, (p) => p.id);
  return renderPosts(ctx, view, selection, items, meta);
}

/** GET /2/users/reposts_of_me: the caller's posts that others reposted, newest post first. */
export async function repostsOfMe(ctx: PlatformContext, caller: UserCaller, view: View, { selection, page: request }: ListRequest): Promise<PageResult> {
  const rows = await listRepostedPostsOf(ctx.store.db, caller.user.id, request.maxResults + 1, request.after);
  const { items, meta } = page(rows, request.maxResults, (p) => p.id);
  return renderPosts(ctx, view, selection, items, meta);
}
