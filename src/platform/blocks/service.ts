import type { UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { appendEvent } from '../../events/log.js';
import { page } from '../../http/pagination.js';
import { invalidParameter } from '../../http/params.js';
import type { DbOrTx } from '../../store/store.js';
import { deleteFollowRequest } from '../follows/store.js';
import { removeFollow, requireUser } from '../follows/service.js';
import { requireSelf, requireWriteAccess } from '../graph/access.js';
import type { ListRequest } from '../graph/query.js';
import { eventUser, renderUsers, type PageResult } from '../graph/render.js';
import { checkTier } from '../graph/tiers.js';
import { findUsersByIds } from '../users/store.js';
import type { View } from '../view.js';
import { deleteBlock, insertBlock, listBlocked } from './store.js';

/** The payload of block.* and mute.* events: both users, as follow.* carries them. */
export async function pairPayload(ctx: PlatformContext, db: DbOrTx, sourceId: string, targetId: string) {
  const users = await findUsersByIds(db, [sourceId, targetId]);
  const byId = new Map(users.map((u) => [u.id, u]));
  return { source: { data: eventUser(ctx, byId.get(sourceId)!) }, target: { data: eventUser(ctx, byId.get(targetId)!) } };
}

/**
 * POST /2/users/{id}/blocking. The manage-blocks endpoint left the self-serve tiers in 2023
 * (spec 000 release history); enterprise keeps it. Blocking ends follows and follow requests
 * both ways, as on the public platform.
 */
export async function blockUser(ctx: PlatformContext, caller: UserCaller, sourceId: string, targetId: string): Promise<{ blocking: boolean }> {
  requireSelf(caller, sourceId, 'id', 'block accounts on behalf');
  requireWriteAccess(caller);
  checkTier(ctx, caller, 'manageBlocks');
  if (targetId === sourceId) throw invalidParameter('target_user_id', [targetId], 'You cannot block yourself.');
  await ctx.store.db.transaction().execute(async (tx) => {
    await requireUser(tx, targetId, 'target_user_id');
    if (!(await insertBlock(tx, ctx.ids.next(), sourceId, targetId, ctx.clock.now().toISOString()))) return;
    for (const [a, b] of [[sourceId, targetId], [targetId, sourceId]]) {
      await removeFollow(ctx, tx, a, b);
      await deleteFollowRequest(tx, a, b);
    }
    await appendEvent(ctx, tx, { type: 'block.block', subject: targetId, payload: await pairPayload(ctx, tx, sourceId, targetId) });
  });
  return { blocking: true };
}

/** DELETE /2/users/{source_user_id}/blocking/{target_user_id}. */
export async function unblockUser(ctx: PlatformContext, caller: UserCaller, sourceId: string, targetId: string): Promise<{ blocking: boolean }> {
  requireSelf(caller, sourceId, 'source_user_id', 'unblock accounts on behalf');
  requireWriteAccess(caller);
  checkTier(ctx, caller, 'manageBlocks');
  await ctx.store.db.transaction().execute(async (tx) => {
    if (!(await deleteBlock(tx, sourceId, targetId))) return;
    await appendEvent(ctx, tx, { type: 'block.unblock', subject: targetId, payload: await pairPayload(ctx, tx, sourceId, targetId) });
  });
  return { blocking: false };
}

/** GET /2/users/{id}/blocking: the authenticated user's blocked accounts, newest first. */
export async function blockedBy(ctx: PlatformContext, caller: UserCaller, view: View, userId: string, { selection, page: request }: ListRequest): Promise<PageResult> {
  requireSelf(caller, userId, 'id', 'list the blocked accounts');
  const rows = await listBlocked(ctx.store.db, userId, request.maxResults + 1, request.after);
  const { items, meta } = page(rows, request.maxResults, (r) => r.relation_id);
  return renderUsers(ctx, view, selection, items, meta);
}
