import type { DbOrTx } from '../../store/store.js';
import type { UserRow } from '../users/wire.js';
import type { ListRow } from './wire.js';

export async function insertList(db: DbOrTx, row: ListRow): Promise<void> {
  await db.insertInto('lists').values(row).execute();
}

export async function findListsByIds(db: DbOrTx, ids: readonly string[]): Promise<ListRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('lists').selectAll().where('id', 'in', ids).execute();
}

export async function updateListRow(db: DbOrTx, id: string, changes: Partial<Pick<ListRow, 'name' | 'description' | 'private' | 'updated_at'>>): Promise<void> {
  await db.updateTable('lists').set(changes).where('id', '=', id).execute();
}

/** Deletes a list; its members' listed_count drops; memberships, follows and pins go with it. */
export async function deleteListRow(db: DbOrTx, id: string): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ listed_count: eb('listed_count', '-', 1) }))
    .where('id', 'in', db.selectFrom('list_members').select('user_id').where('list_id', '=', id))
    .execute();
  await db.deleteFrom('list_members').where('list_id', '=', id).execute();
  await db.deleteFrom('list_followers').where('list_id', '=', id).execute();
  await db.deleteFrom('pinned_lists').where('list_id', '=', id).execute();
  await db.deleteFrom('lists').where('id', '=', id).execute();
}

export async function countOwnedLists(db: DbOrTx, ownerId: string): Promise<number> {
  const row = await db.selectFrom('lists').select((eb) => eb.fn.countAll<number>().as('n')).where('owner_id', '=', ownerId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countPinnedLists(db: DbOrTx, userId: string): Promise<number> {
  const row = await db.selectFrom('pinned_lists').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.n);
}

type ListUserTable = 'list_members' | 'list_followers';

export async function insertListUser(db: DbOrTx, table: ListUserTable, id: string, listId: string, userId: string, at: string): Promise<boolean> {
  const result = await db
    .insertInto(table)
    .values({ id, list_id: listId, user_id: userId, created_at: at })
    .onConflict((oc) => oc.columns(['list_id', 'user_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteListUser(db: DbOrTx, table: ListUserTable, listId: string, userId: string): Promise<boolean> {
  const result = await db.deleteFrom(table).where('list_id', '=', listId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** member_count (with the member's listed_count) or follower_count moves with a membership or a follow. */
export async function moveListCounters(db: DbOrTx, table: ListUserTable, listId: string, userId: string, delta: 1 | -1): Promise<void> {
  if (table === 'list_members') {
    await db.updateTable('lists').set((eb) => ({ member_count: eb('member_count', '+', delta) })).where('id', '=', listId).execute();
    await db.updateTable('users').set((eb) => ({ listed_count: eb('listed_count', '+', delta) })).where('id', '=', userId).execute();
  } else {
    await db.updateTable('lists').set((eb) => ({ follower_count: eb('follower_count', '+', delta) })).where('id', '=', listId).execute();
  }
}

/** Members or followers of a list, newest first. */
export async function usersOfList(db: DbOrTx, table: ListUserTable, listId: string, limit: number, after?: string): Promise<Array<UserRow & { relation_id: string }>> {
  let q = db
    .selectFrom(`${table} as r` as 'list_members as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .selectAll('u')
    .select('r.id as relation_id')
    .where('r.list_id', '=', listId);
  if (after) q = q.where('r.id', '<', after);
  return q.orderBy('r.id', 'desc').limit(limit).execute();
}

/** Lists owned by a user, newest first; private ones only for their owner. */
export async function listsOwnedBy(db: DbOrTx, ownerId: string, viewerId: string | undefined, limit: number, after?: string): Promise<Array<ListRow & { relation_id: string }>> {
  let q = db.selectFrom('lists').selectAll().select('lists.id as relation_id').where('owner_id', '=', ownerId);
  if (viewerId !== ownerId) q = q.where('private', '=', 0);
  if (after) q = q.where('id', '<', after);
  return q.orderBy('id', 'desc').limit(limit).execute();
}

/**
 * Lists related to a user through a relation table (followed, member of, pinned), newest relation
 * first; private lists only for their owner.
 */
export async function listsThrough(
  db: DbOrTx,
  table: 'list_members' | 'list_followers' | 'pinned_lists',
  userId: string,
  viewerId: string | undefined,
  limit: number,
  after?: string,
): Promise<Array<ListRow & { relation_id: string }>> {
  let q = db
    .selectFrom(`${table} as r` as 'list_members as r')
    .innerJoin('lists as l', 'l.id', 'r.list_id')
    .selectAll('l')
    .select('r.id as relation_id')
    .where('r.user_id', '=', userId);
  q = viewerId ? q.where((eb) => eb.or([eb('l.private', '=', 0), eb('l.owner_id', '=', viewerId)])) : q.where('l.private', '=', 0);
  if (after) q = q.where('r.id', '<', after);
  return q.orderBy('r.id', 'desc').limit(limit).execute();
}

export async function insertPin(db: DbOrTx, id: string, userId: string, listId: string, at: string): Promise<boolean> {
  const result = await db
    .insertInto('pinned_lists')
    .values({ id, user_id: userId, list_id: listId, created_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'list_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deletePin(db: DbOrTx, userId: string, listId: string): Promise<boolean> {
  const result = await db.deleteFrom('pinned_lists').where('user_id', '=', userId).where('list_id', '=', listId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
