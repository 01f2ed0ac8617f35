import { sql, type SqlBool } from 'kysely';
import type { DbOrTx } from '../../store/store.js';
import type { SpaceRow } from './wire.js';
import { likeLiteral } from '../timelines/store.js';

export async function insertSpace(db: DbOrTx, row: SpaceRow): Promise<void> {
  await db.insertInto('spaces').values(row).execute();
}

export async function findSpacesByIds(db: DbOrTx, ids: readonly string[]): Promise<SpaceRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('spaces').selectAll().where('id', 'in', ids).execute();
}

export async function updateSpace(db: DbOrTx, id: string, changes: Partial<SpaceRow>): Promise<void> {
  await db.updateTable('spaces').set(changes).where('id', '=', id).execute();
}

/** Live and scheduled spaces created by these users, newest first. */
export async function spacesByCreators(db: DbOrTx, creatorIds: readonly string[]): Promise<SpaceRow[]> {
  if (creatorIds.length === 0) return [];
  return db.selectFrom('spaces').selectAll().where('creator_id', 'in', creatorIds).where('state', 'in', ['live', 'scheduled']).orderBy('created_at', 'desc').execute();
}

/** Spaces whose title holds every word of the query (case-insensitive), newest first. */
export async function searchSpaces(db: DbOrTx, words: readonly string[], states: readonly SpaceRow['state'][], limit: number): Promise<SpaceRow[]> {
  let q = db.selectFrom('spaces').selectAll().where('state', 'in', states);
  for (const word of words) q = q.where(sql<SqlBool>`lower(${sql.ref('title')}) like ${`%${likeLiteral(word.toLowerCase())}%`} escape '!'`);
  return q.orderBy('created_at', 'desc').limit(limit).execute();
}
