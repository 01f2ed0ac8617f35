import type { DbOrTx } from '../../store/store.js';
import { deletePair, hasPair, insertPair, listPairTargets, targetsAmong } from '../graph/pair-store.js';

export const insertBlock = (db: DbOrTx, id: string, sourceId: string, targetId: string, at: string) => insertPair(db, 'blocks', id, sourceId, targetId, at);
export const deleteBlock = (db: DbOrTx, sourceId: string, targetId: string) => deletePair(db, 'blocks', sourceId, targetId);
export const isBlocking = (db: DbOrTx, sourceId: string, targetId: string) => hasPair(db, 'blocks', sourceId, targetId);
/** Of `targets`, those the viewer blocks. */
export const blockedAmong = (db: DbOrTx, viewerId: string, targets: readonly string[]) => targetsAmong(db, 'blocks', viewerId, targets);
export const listBlocked = (db: DbOrTx, sourceId: string, limit: number, after?: string) => listPairTargets(db, 'blocks', sourceId, limit, after);

/** Whether either user blocks the other. */
export async function blockedEitherWay(db: DbOrTx, a: string, b: string): Promise<boolean> {
  return (await isBlocking(db, a, b)) || (await isBlocking(db, b, a));
}
