import type { DbOrTx } from '../../store/store.js';
import { deletePair, insertPair, listPairTargets, targetsAmong } from '../graph/pair-store.js';

export const insertMute = (db: DbOrTx, id: string, sourceId: string, targetId: string, at: string) => insertPair(db, 'mutes', id, sourceId, targetId, at);
export const deleteMute = (db: DbOrTx, sourceId: string, targetId: string) => deletePair(db, 'mutes', sourceId, targetId);
/** Of `targets`, those the viewer mutes. */
export const mutedAmong = (db: DbOrTx, viewerId: string, targets: readonly string[]) => targetsAmong(db, 'mutes', viewerId, targets);
export const listMuted = (db: DbOrTx, sourceId: string, limit: number, after?: string) => listPairTargets(db, 'mutes', sourceId, limit, after);
