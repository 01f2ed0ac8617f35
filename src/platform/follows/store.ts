import type { DbOrTx } from '../../store/store.js';
import type { UserRow } from '../users/wire.js';

/** Inserts the follow unless it exists; true when it was new. */
export async function insertFollow(db: DbOrTx, sourceId: string, targetId: string, at: string): Promise<boolean> {
  const result = await db
    .insertInto('follows')
    .values({ source_user_id: sourceId, target_user_id: targetId, created_at: at })
    .onConflict((oc) => oc.columns(['source_user_id', 'target_user_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteFollow(db: DbOrTx, sourceId: string, targetId: string): Promise<boolean> {
  const result = await db.deleteFrom('follows').where('source_user_id', '=', sourceId).where('target_user_id', '=', targetId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Moves following_count of the source and followers_count of the target by `delta`. */
export async function moveFollowCounters(db: DbOrTx, sourceId: string, targetId: string, delta: 1 | -1): Promise<void> {
  await db.updateTable('users').set((eb) => ({ following_count: eb('following_count', '+', delta) })).where('id', '=', sourceId).execute();
  await db.updateTable('users').set((eb) => ({ followers_count: eb('followers_count', '+', delta) })).where('id', '=', targetId).execute();
}

export async function isFollowing(db: DbOrTx, sourceId: string, targetId: string): Promise<boolean> {
  const row = await db.selectFrom('follows').select('source_user_id').where('source_user_id', '=', sourceId).where('target_user_id', '=', targetId).executeTakeFirst();
  return row !== undefined;
}

export async function insertFollowRequest(db: DbOrTx, id: string, sourceId: string, targetId: string, at: string): Promise<boolean> {
  const result = await db
    .insertInto('follow_requests')
    .values({ id, source_user_id: sourceId, target_user_id: targetId, created_at: at })
    .onConflict((oc) => oc.columns(['source_user_id', 'target_user_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteFollowRequest(db: DbOrTx, sourceId: string, targetId: string): Promise<boolean> {
  const result = await db.deleteFrom('follow_requests').where('source_user_id', '=', sourceId).where('target_user_id', '=', targetId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Of `targets`, those the viewer asked to follow (pending). */
export async function requestedAmong(db: DbOrTx, viewerId: string, targets: readonly string[]): Promise<Set<string>> {
  if (targets.length === 0) return new Set();
  const rows = await db.selectFrom('follow_requests').select('target_user_id').where('source_user_id', '=', viewerId).where('target_user_id', 'in', targets).execute();
  return new Set(rows.map((r) => r.target_user_id));
}

/** Of `others`, those who asked to follow the viewer (pending). */
export async function requestersAmong(db: DbOrTx, viewerId: string, others: readonly string[]): Promise<Set<string>> {
  if (others.length === 0) return new Set();
  const rows = await db.selectFrom('follow_requests').select('source_user_id').where('target_user_id', '=', viewerId).where('source_user_id', 'in', others).execute();
  return new Set(rows.map((r) => r.source_user_id));
}

export type FollowListRow = UserRow & { relation_at: string };

/**
 * Followers (`direction` followers) or followed accounts (`following`) of a user, newest follow
 * first by (follow time, user id).
 */
export async function listFollows(
  db: DbOrTx,
  userId: string,
  direction: 'followers' | 'following',
  limit: number,
  after?: { createdAt: string; id: string },
): Promise<FollowListRow[]> {
  const [mine, theirs] = direction === 'followers' ? (['target_user_id', 'source_user_id'] as const) : (['source_user_id', 'target_user_id'] as const);
  let q = db
    .selectFrom('follows as f')
    .innerJoin('users as u', 'u.id', `f.${theirs}`)
    .selectAll('u')
    .select('f.created_at as relation_at')
    .where(`f.${mine}`, '=', userId);
  if (after) {
    q = q.where((eb) => eb.or([eb('f.created_at', '<', after.createdAt), eb.and([eb('f.created_at', '=', after.createdAt), eb('u.id', '<', after.id)])]));
  }
  return q.orderBy('f.created_at', 'desc').orderBy('u.id', 'desc').limit(limit).execute();
}

/** Pending requests to follow `userId`, newest first by request id. */
export async function listFollowRequests(db: DbOrTx, userId: string, limit: number, after?: string): Promise<Array<UserRow & { relation_id: string }>> {
  let q = db
    .selectFrom('follow_requests as r')
    .innerJoin('users as u', 'u.id', 'r.source_user_id')
    .selectAll('u')
    .select('r.id as relation_id')
    .where('r.target_user_id', '=', userId);
  if (after) q = q.where('r.id', '<', after);
  return q.orderBy('r.id', 'desc').limit(limit).execute();
}

/** Everyone waiting for `targetId` to answer their follow request, oldest request first. */
export async function pendingRequesters(db: DbOrTx, targetId: string): Promise<string[]> {
  const rows = await db.selectFrom('follow_requests').select('source_user_id').where('target_user_id', '=', targetId).orderBy('id').execute();
  return rows.map((r) => r.source_user_id);
}
