import { sql, type SqlBool } from 'kysely';
import type { SpaceTicketTable } from '../../store/schema-broadcasts.js';
import type { DbOrTx, StoreDialect } from '../../store/store.js';
import type { PostCondition } from '../timelines/store.js';
import type { UserRow } from '../users/wire.js';
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

/**
 * Posts shared in a space: those with a link to it (`…/i/spaces/{id}`, on any host, the id ending
 * the path or followed by `/` or `?`), compared case-sensitively as space ids are.
 */
export const linkingSpace = (spaceId: string, dialect: StoreDialect): PostCondition => {
  const needle = `/i/spaces/${spaceId}`;
  if (dialect === 'sqlite') {
    const url = sql`cast(json_extract(u.value, '$.expanded_url') as text)`;
    return () =>
      sql<SqlBool>`exists (select 1 from json_each(posts.entities, '$.urls') as u where substr(${url}, -${needle.length}) = ${needle} or instr(${url}, ${`${needle}/`}) > 0 or instr(${url}, ${`${needle}?`}) > 0)`;
  }
  const url = sql`(u.v ->> 'expanded_url')`;
  return () =>
    sql<SqlBool>`exists (select 1 from jsonb_array_elements(coalesce(posts.entities::jsonb -> 'urls', '[]'::jsonb)) as u(v) where right(${url}, ${needle.length}) = ${needle} or strpos(${url}, ${`${needle}/`}) > 0 or strpos(${url}, ${`${needle}?`}) > 0)`;
};

/** Records a ticket; false when the user already holds one. */
export async function insertSpaceTicket(db: DbOrTx, row: SpaceTicketTable): Promise<boolean> {
  const result = await db.insertInto('space_tickets').values(row).onConflict((oc) => oc.columns(['space_id', 'user_id']).doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** The buyers of a space's tickets, newest purchase first, keyed by the ticket id. */
export async function spaceBuyers(db: DbOrTx, spaceId: string, limit: number, after?: string): Promise<Array<UserRow & { ticket_id: string }>> {
  let q = db.selectFrom('space_tickets as t').innerJoin('users as u', 'u.id', 't.user_id').selectAll('u').select('t.id as ticket_id').where('t.space_id', '=', spaceId);
  if (after) q = q.where('t.id', '<', after);
  return q.orderBy('t.id', 'desc').limit(limit).execute();
}
