import type { UserCaller } from '../../auth/authenticate.js';
import { sql } from 'kysely';
import type { PlatformContext } from '../context.js';
import { appendEvent } from '../../events/log.js';
import { invalidParameter } from '../../http/params.js';
import { ProblemError, problems } from '../../http/problems.js';
import type { DbOrTx } from '../../store/store.js';
import { requireWriteAccess } from '../graph/access.js';
import { mediaCountOf, REFERENCE_COUNTERS } from './build.js';
import { decrementCounter, findPostsAnyState, findPostsByIds, liveRepostsOf, markDeleted, setReplyHidden, settleAuthorAfterDelete } from './store.js';
import { editHistoryOf, type PostRow } from './wire.js';

function notFound(id: string): ProblemError {
  return new ProblemError(404, problems.resourceNotFound({ parameter: 'id', value: id, resource_id: id, resource_type: 'post' }));
}

/**
 * Removes a post with every version of its edit chain (soft delete: deleted_at), moving back the
 * counters it moved once (the author's post and media counts, the parent's reply, quote or repost count),
 * and a post.delete event per removed version ({id, author_id}, shared/reference §7).
 * Returns the posts removed.
 */
export async function removePost(ctx: PlatformContext, db: DbOrTx, post: PostRow): Promise<PostRow[]> {
  const removed = await markDeleted(db, [...new Set([...editHistoryOf(post), post.id])], ctx.clock.now().toISOString());
  if (removed.length === 0) return [];
  for (const ref of JSON.parse(post.referenced_posts) as Array<{ type: keyof typeof REFERENCE_COUNTERS; id: string }>) {
    const column = REFERENCE_COUNTERS[ref.type];
    if (column) await decrementCounter(db, ref.id, column);
  }
  await settleAuthorAfterDelete(db, post.author_id, removed.map((p) => p.id));
  const media = mediaCountOf(post);
  if (media > 0) {
    await db
      .updateTable('users')
      .set({ media_count: sql`case when ${sql.ref('media_count')} > ${media} then ${sql.ref('media_count')} - ${media} else 0 end` })
      .where('id', '=', post.author_id)
      .execute();
  }
  for (const version of removed) {
    await appendEvent(ctx, db, { type: 'post.delete', subject: version.id, payload: { id: version.id, author_id: version.author_id } });
  }
  return removed;
}

/**
 * DELETE /2/posts/{id}: the caller's own post. Reposts of it go with it, as on the public
 * platform (each is a post of its reposter, and is deleted the same way).
 */
export async function deletePost(ctx: PlatformContext, caller: UserCaller, id: string): Promise<{ deleted: boolean }> {
  requireWriteAccess(caller);
  await ctx.store.db.transaction().execute(async (tx) => {
    const [post] = await findPostsByIds(tx, [id]);
    if (!post) throw notFound(id);
    if (post.author_id !== caller.user.id) {
      const problem = problems.notAuthorizedForResource({ value: id, resource_id: id, resource_type: 'post', section: 'data', parameter: 'id' });
      throw new ProblemError(403, { ...problem, detail: `You can only delete your own posts; post ${id} belongs to another account.` });
    }
    const removed = await removePost(ctx, tx, post);
    if (removed.length === 0) throw notFound(id);
    for (const repost of await liveRepostsOf(tx, removed.map((p) => p.id))) await removePost(ctx, tx, repost);
  });
  return { deleted: true };
}

/**
 * PUT /2/posts/{id}/hidden: the author of a conversation hides (or shows again) a reply in it.
 * Only replies by others, in conversations the caller started; every version of the reply follows.
 */
export async function hideReply(ctx: PlatformContext, caller: UserCaller, id: string, hidden: boolean): Promise<{ hidden: boolean }> {
  requireWriteAccess(caller);
  await ctx.store.db.transaction().execute(async (tx) => {
    const [reply] = await findPostsByIds(tx, [id]);
    if (!reply) throw notFound(id);
    if (!reply.in_reply_to_post_id) throw invalidParameter('id', [id], `The post [${id}] is not a reply; only replies can be hidden`);
    if (reply.author_id === caller.user.id) throw invalidParameter('id', [id], `The post [${id}] is your own reply; you can hide only others' replies`);
    const [root] = await findPostsAnyState(tx, [reply.conversation_id]);
    if (root?.author_id !== caller.user.id) {
      const problem = problems.notAuthorizedForResource({ value: id, resource_id: id, resource_type: 'post', section: 'data', parameter: 'id' });
      throw new ProblemError(403, { ...problem, detail: `You can only hide replies in conversations you started; post ${id} replies in a conversation started by another account.` });
    }
    await setReplyHidden(tx, editHistoryOf(reply), hidden);
  });
  return { hidden };
}
