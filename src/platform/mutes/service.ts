import type { UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { appendEvent } from '../../events/log.js';
import { page } from '../../http/pagination.js';
import { invalidParameter } from '../../http/params.js';
import type { DbOrTx } from '../../store/store.js';
import { pairPayload } from '../blocks/service.js';
import { requireUser } from '../follows/service.js';
import { requireSelf, requireWriteAccess } from '../graph/access.js';
import type { ListRequest } from '../graph/query.js';
import { renderUsers, type PageResult } from '../graph/render.js';
import type { View } from '../view.js';
import { deleteMute, insertMute, listMuted } from './store.js';

/** Records a mute with its mute.mute event; false when it already existed. */
export async function recordMute(ctx: PlatformContext, db: DbOrTx, sourceId: string, targetId: string): Promise<boolean> {
  if (!(await insertMute(db, ctx.ids.next(), sourceId, targetId, ctx.clock.now().toISOString()))) return false;
  await appendEvent(ctx, db, { type: 'mute.mute', subject: targetId, payload: await pairPayload(ctx, db, sourceId, targetId) });
  return true;
}

/** POST /2/users/{id}/muting: the muted account's posts leave the muter's home timeline. */
export async function muteUser(ctx: PlatformContext, caller: UserCaller, sourceId: string, targetId: string): Promise<{ muting: boolean }> {
  requireSelf(caller, sourceId, 'id', 'mute accounts on behalf');
  requireWriteAccess(caller);
  if (targetId === sourceId) throw invalidParameter('target_user_id', [targetId], 'You cannot mute yourself.');
  await ctx.store.db.transaction().execute(async (tx) => {
    await requireUser(tx, targetId, 'target_user_id');
    await recordMute(ctx, tx, sourceId, targetId);
  });
  return { muting: true };
}

/** DELETE /2/users/{source_user_id}/muting/{target_user_id}. */
export async function unmuteUser(ctx: PlatformContext, caller: UserCaller, sourceId: string, targetId: string): Promise<{ muting: boolean }> {
  requireSelf(caller, sourceId, 'source_user_id', 'unmute accounts on behalf');
  requireWriteAccess(caller);
  await ctx.store.db.transaction().execute(async (tx) => {
    if (!(await deleteMute(tx, sourceId, targetId))) return;
    await appendEvent(ctx, tx, { type: 'mute.unmute', subject: targetId, payload: await pairPayload(ctx, tx, sourceId, targetId) });
  });
  return { muting: false };
}

/** GET /2/users/{id}/muting: the authenticated user's muted accounts, newest first. */
export async function mutedBy(ctx: PlatformContext, caller: UserCaller, view: View, userId: string, { selection, page: request }: ListRequest): Promise<PageResult> {
  requireSelf(caller, userId, 'id', 'list the muted accounts');
  const rows = await listMuted(ctx.store.db, userId, request.maxResults + 1, request.after);
  const { items, meta } = page(rows, request.maxResults, (r) => r.relation_id);
  return renderUsers(ctx, view, selection, items, meta);
}
