import type { UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { invalidParameter } from '../../http/params.js';
import { ProblemError, problems } from '../../http/problems.js';
import type { DbOrTx } from '../../store/store.js';
import { requireDmAccess, requireWriteAccess } from '../graph/access.js';
import { findUsersByIds } from '../users/store.js';
import { deleteDmBlock, dmBlocksBetween, insertDmBlock } from './store.js';

/**
 * DM blocking (spec 000 release history, "DM blocking and unblocking"): the authenticated user
 * blocks direct messages to and from the user of the path, without blocking the account. Neither
 * can then message the other, start a group with the other, or add the other to a group.
 */
async function requireTarget(ctx: PlatformContext, caller: UserCaller, targetId: string): Promise<void> {
  requireDmAccess(caller);
  requireWriteAccess(caller);
  if (targetId === caller.user.id) throw invalidParameter('id', [targetId], 'The `id` path parameter must name another user: you cannot DM-block yourself.');
  if ((await findUsersByIds(ctx.store.db, [targetId])).length === 0) {
    throw new ProblemError(404, problems.resourceNotFound({ parameter: 'id', value: targetId, resource_id: targetId, resource_type: 'user' }));
  }
}

/** POST /2/users/{id}/dm/block; blocking again changes nothing. */
export async function blockDms(ctx: PlatformContext, caller: UserCaller, targetId: string): Promise<{ blocked: boolean }> {
  await requireTarget(ctx, caller, targetId);
  await insertDmBlock(ctx.store.db, caller.user.id, targetId, ctx.clock.now().toISOString());
  return { blocked: true };
}

/** POST /2/users/{id}/dm/unblock; unblocking a user not blocked changes nothing. */
export async function unblockDms(ctx: PlatformContext, caller: UserCaller, targetId: string): Promise<{ blocked: boolean }> {
  await requireTarget(ctx, caller, targetId);
  await deleteDmBlock(ctx.store.db, caller.user.id, targetId);
  return { blocked: false };
}

/** Refuses a message or membership between `senderId` and any of `others` that a DM block stands between. */
export async function requireNoDmBlock(db: DbOrTx, senderId: string, others: readonly string[]): Promise<void> {
  const [block] = await dmBlocksBetween(db, senderId, others);
  if (!block) return;
  const detail =
    block.source_user_id === senderId
      ? `You have blocked direct messages with user ${block.target_user_id}: unblock them (POST /2/users/${block.target_user_id}/dm/unblock) to send messages.`
      : `User ${block.source_user_id} does not accept direct messages from you.`;
  throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', detail));
}
