import type { DbOrTx } from '../../store/store.js';
import type { UserRow } from '../users/wire.js';

/**
 * Queries shared by the user-to-user relation tables with a time-ordered id (blocks, mutes):
 * a unique (source, target) pair, listed newest first.
 */
export type UserPairTable = 'blocks' | 'mutes';

export async function insertPair(db: DbOrTx, table: UserPairTable, id: string, sourceId: string, targetId: string, at: string): Promise<boolean> {
  const result = await db
    .insertInto(table)
    .values({ id, source_user_id: sourceId, target_user_id: targetId, created_at: at })
    .onConflict((oc) => oc.columns(['source_user_id', 'target_user_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deletePair(db: DbOrTx, table: UserPairTable, sourceId: string, targetId: string): Promise<boolean> {
  const result = await db.deleteFrom(table).where('source_user_id', '=', sourceId).where('target_user_id', '=', targetId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function hasPair(db: DbOrTx, table: UserPairTable, sourceId: string, targetId: string): Promise<boolean> {
  const row = await db.selectFrom(table).select('id').where('source_user_id', '=', sourceId).where('target_user_id', '=', targetId).executeTakeFirst();
  return row !== undefined;
}

/** Of `targets`, those the viewer has a `table` relation to. */
export async function targetsAmong(db: DbOrTx, table: UserPairTable, viewerId: string, targets: readonly string[]): Promise<Set<string>> {
  if (targets.length === 0) return new Set();
  const rows = await db.selectFrom(table).select('target_user_id').where('source_user_id', '=', viewerId).where('target_user_id', 'in', targets).execute();
  return new Set(rows.map((r) => r.target_user_id));
}

/** The users `sourceId` has a `table` relation to, newest first by relation id. */
export async function listPairTargets(db: DbOrTx, table: UserPairTable, sourceId: string, limit: number, after?: string): Promise<Array<UserRow & { relation_id: string }>> {
  let q = db
    .selectFrom(`${table} as r` as 'blocks as r')
    .innerJoin('users as u', 'u.id', 'r.target_user_id')
    .selectAll('u')
    .select('r.id as relation_id')
    .where('r.source_user_id', '=', sourceId);
  if (after) q = q.where('r.id', '<', after);
  return q.orderBy('r.id', 'desc').limit(limit).execute();
}
