import type { PlatformContext } from '../context.js';
import { ProblemError, type Problem, problems } from '../../http/problems.js';
import type { DbOrTx } from '../../store/store.js';
import { findPostsByIds } from '../posts/store.js';
import { editHistoryOf, type PostRow } from '../posts/wire.js';
import type { ResponseReads } from '../expansions.js';
import { findUsersByIds } from '../users/store.js';
import type { UserRow } from '../users/wire.js';
import type { View } from '../view.js';
import { hiddenAuthors } from '../visibility/memory.js';
import { READABLE } from '../visibility/rule.js';

/** A protected account's posts and likes: only for the account itself and its approved followers. */
export async function canSeeContentOf(ctx: PlatformContext, view: View, user: UserRow, db: DbOrTx = ctx.store.db): Promise<boolean> {
  return (await hiddenAuthors(db, READABLE, view.viewerId, [user])).size === 0;
}

/** The user a list endpoint is about, or the problem to answer instead (200 with `errors`, as lookups do). */
export async function subjectUser(
  ctx: PlatformContext,
  view: View,
  userId: string,
  opts: { parameter?: string; protectedContent?: boolean; reads?: ResponseReads } = {},
): Promise<{ user: UserRow; problem?: undefined } | { user?: undefined; problem: Problem }> {
  const parameter = opts.parameter ?? 'id';
  // Through the response's reads, where it has them: read once, and as what it already knows.
  const [user] = opts.reads ? await opts.reads.usersByIds([userId]) : await ctx.entities.users.read(ctx.store.db, [userId]);
  if (!user) return { problem: problems.resourceNotFound({ parameter, value: userId, resource_id: userId, resource_type: 'user' }) };
  if (opts.protectedContent && !(await canSeeContentOf(ctx, view, user))) {
    return { problem: problems.notAuthorizedForResource({ value: userId, resource_id: userId, resource_type: 'user', section: 'data', parameter }) };
  }
  return { user };
}

/**
 * An edited post lives on as its latest version (the posts area keeps each version, linked by
 * superseded_by_id): likes, bookmarks and the lists of them follow the chain to it. Undefined when
 * the latest version was deleted.
 */
export async function latestOf(db: DbOrTx, post: PostRow): Promise<PostRow | undefined> {
  let current: PostRow | undefined = post;
  for (let hops = 0; current?.superseded_by_id && hops < 50; hops++) [current] = await findPostsByIds(db, [current.superseded_by_id]);
  return current;
}

/** `rows` with every superseded version replaced by its latest one, order kept; deleted chains dropped. */
export async function latestVersions<T extends PostRow>(db: DbOrTx, rows: readonly T[]): Promise<PostRow[]> {
  const out: PostRow[] = [];
  for (const row of rows) {
    const latest = row.superseded_by_id ? await latestOf(db, row) : row;
    if (latest) out.push(latest);
  }
  return out;
}

/** The ids of every version of a post (its edit history), which likes and bookmarks may name. */
export const versionIds = (post: PostRow): string[] => editHistoryOf(post);

/**
 * The post a write names (like, bookmark): 404 resource-not-found when it does not exist or was
 * deleted, 403 not-authorized-for-resource when its protected author has not approved the caller.
 */
export async function requireVisiblePost(ctx: PlatformContext, db: DbOrTx, view: View, postId: string, parameter: string): Promise<PostRow> {
  const [named] = await findPostsByIds(db, [postId]);
  const post = named && (await latestOf(db, named));
  if (!post) throw new ProblemError(404, problems.resourceNotFound({ parameter, value: postId, resource_id: postId, resource_type: 'post' }));
  const [author] = await findUsersByIds(db, [post.author_id]);
  if (!(await canSeeContentOf(ctx, view, author, db))) {
    throw new ProblemError(403, problems.notAuthorizedForResource({ value: postId, resource_id: postId, resource_type: 'post', section: 'data', parameter }));
  }
  return post;
}
