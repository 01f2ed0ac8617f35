import { recordPromotedEngagement } from '../../ads/delivery/service.js';
import type { Caller, UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { appendEvent } from '../../events/log.js';
import { page } from '../../http/pagination.js';
import { invalidParameter } from '../../http/params.js';
import { ProblemError, problems } from '../../http/problems.js';
import type { DbOrTx } from '../../store/store.js';
import { isBlocking } from '../blocks/store.js';
import { requireSelf, requireWriteAccess } from '../graph/access.js';
import { compositeKey, type ListRequest, type TimePageRequest } from '../graph/query.js';
import { errorsOnly, eventUser, renderUsers, type PageResult } from '../graph/render.js';
import { checkTier } from '../graph/tiers.js';
import { subjectUser } from '../graph/visibility.js';
import { findUsersByIds } from '../users/store.js';
import type { UserRow } from '../users/wire.js';
import type { View } from '../view.js';
import {
  deleteFollow,
  deleteFollowRequest,
  insertFollow,
  insertFollowRequest,
  isFollowing,
  listFollowRequests,
  listFollows,
  moveFollowCounters,
} from './store.js';

/** max_results of the followers and following lists (1 to 1000, default 100). */

/** A user a write names, or 404 resource-not-found naming the parameter. */
export async function requireUser(db: DbOrTx, id: string, parameter: string): Promise<UserRow> {
  const [user] = await findUsersByIds(db, [id]);
  if (!user) throw new ProblemError(404, problems.resourceNotFound({ parameter, value: id, resource_id: id, resource_type: 'user' }));
  return user;
}

/** The follow.* payload (shared/reference/platform.md §7): both users as they are after the change. */
async function followPayload(ctx: PlatformContext, db: DbOrTx, sourceId: string, targetId: string) {
  const users = await findUsersByIds(db, [sourceId, targetId]);
  const byId = new Map(users.map((u) => [u.id, u]));
  return { source: { data: eventUser(ctx, byId.get(sourceId)!) }, target: { data: eventUser(ctx, byId.get(targetId)!) } };
}

/** Records a follow with its counters and its follow.follow event; false when it already existed. */
export async function recordFollow(ctx: PlatformContext, db: DbOrTx, sourceId: string, targetId: string): Promise<boolean> {
  if (!(await insertFollow(db, sourceId, targetId, ctx.clock.now().toISOString()))) return false;
  await deleteFollowRequest(db, sourceId, targetId);
  await moveFollowCounters(db, sourceId, targetId, 1);
  await recordPromotedEngagement(ctx, db, sourceId, { authorId: targetId }, 'follow');
  await appendEvent(ctx, db, { type: 'follow.follow', subject: targetId, payload: await followPayload(ctx, db, sourceId, targetId) });
  return true;
}

/** Removes a follow with its counters and its follow.unfollow event; false when there was none. */
export async function removeFollow(ctx: PlatformContext, db: DbOrTx, sourceId: string, targetId: string): Promise<boolean> {
  if (!(await deleteFollow(db, sourceId, targetId))) return false;
  await moveFollowCounters(db, sourceId, targetId, -1);
  await appendEvent(ctx, db, { type: 'follow.unfollow', subject: targetId, payload: await followPayload(ctx, db, sourceId, targetId) });
  return true;
}

/**
 * POST /2/users/{id}/following. Refused on every self-serve tier (spec 000 release history);
 * a blocked user cannot follow; following a protected account asks it (pending_follow).
 */
export async function followUser(ctx: PlatformContext, caller: UserCaller, sourceId: string, targetId: string): Promise<{ following: boolean; pending_follow: boolean }> {
  requireSelf(caller, sourceId, 'id', 'follow accounts on behalf');
  requireWriteAccess(caller);
  checkTier(ctx, caller, 'manageFollows', 'follows');
  if (targetId === sourceId) throw invalidParameter('target_user_id', [targetId], 'You cannot follow yourself.');
  return ctx.store.db.transaction().execute(async (tx) => {
    const target = await requireUser(tx, targetId, 'target_user_id');
    if (await isBlocking(tx, targetId, sourceId)) {
      throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', 'You have been blocked from following this account at the request of the user.'));
    }
    if (await isBlocking(tx, sourceId, targetId)) {
      throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', 'You are blocking this account: unblock it before following it.'));
    }
    if (await isFollowing(tx, sourceId, targetId)) return { following: true, pending_follow: false };
    if (target.protected === 1) {
      await insertFollowRequest(tx, ctx.ids.next(), sourceId, targetId, ctx.clock.now().toISOString());
      return { following: false, pending_follow: true };
    }
    await recordFollow(ctx, tx, sourceId, targetId);
    return { following: true, pending_follow: false };
  });
}

/** DELETE /2/users/{source_user_id}/following/{target_user_id}: unfollows, or withdraws a pending request. */
export async function unfollowUser(ctx: PlatformContext, caller: UserCaller, sourceId: string, targetId: string): Promise<{ following: boolean }> {
  requireSelf(caller, sourceId, 'source_user_id', 'unfollow accounts on behalf');
  requireWriteAccess(caller);
  checkTier(ctx, caller, 'follows');
  await ctx.store.db.transaction().execute(async (tx) => {
    await deleteFollowRequest(tx, sourceId, targetId);
    await removeFollow(ctx, tx, sourceId, targetId);
  });
  return { following: false };
}

/** Accepting (or declining) a pending follow of a protected account: Plaza's choice of path, see routes. */
export async function answerFollowRequest(ctx: PlatformContext, caller: UserCaller, userId: string, requesterId: string, accept: boolean): Promise<{ accepted: boolean }> {
  requireSelf(caller, userId, 'id', 'answer follow requests');
  requireWriteAccess(caller);
  return ctx.store.db.transaction().execute(async (tx) => {
    if (!(await deleteFollowRequest(tx, requesterId, userId))) {
      throw new ProblemError(
        404,
        problems.resourceNotFound({
          parameter: 'requester_id',
          value: requesterId,
          resource_id: requesterId,
          resource_type: 'user',
          detail: `Could not find a pending follow request from user with requester_id: [${requesterId}].`,
        }),
      );
    }
    if (accept) await recordFollow(ctx, tx, requesterId, userId);
    return { accepted: accept };
  });
}

/** GET /2/users/{id}/followers and /following: newest follow first; a protected account's only for approved followers. */
export async function followsOf(
  ctx: PlatformContext,
  caller: Caller,
  view: View,
  userId: string,
  direction: 'followers' | 'following',
  { selection, page: request }: ListRequest<TimePageRequest>,
): Promise<PageResult> {
  checkTier(ctx, caller, 'follows');
  const subject = await subjectUser(ctx, view, userId, { protectedContent: true });
  if (subject.problem) return errorsOnly(subject.problem);
  const rows = await listFollows(ctx.store.db, userId, direction, request.maxResults + 1, request.after);
  const { items, meta } = page(rows, request.maxResults, (r) => compositeKey(r.relation_at, r.id));
  return renderUsers(ctx, view, selection, items, meta);
}

/** GET /2/users/{id}/follow_requests: who asked to follow the authenticated (protected) user. */
export async function followRequestsOf(ctx: PlatformContext, caller: UserCaller, view: View, userId: string, { selection, page: request }: ListRequest): Promise<PageResult> {
  requireSelf(caller, userId, 'id', 'list the follow requests');
  const rows = await listFollowRequests(ctx.store.db, userId, request.maxResults + 1, request.after);
  const { items, meta } = page(rows, request.maxResults, (r) => r.relation_id);
  return renderUsers(ctx, view, selection, items, meta);
}
