import type { AdsDoNotReachListTable } from '../../store/schema-ads-audiences.js';
import type { DbOrTx } from '../../store/store.js';

export type DoNotReachRow = AdsDoNotReachListTable;

export function listsOf(db: DbOrTx, accountId: string, withDeleted: boolean) {
  let query = db.selectFrom('ads_do_not_reach_lists').selectAll().where('account_id', '=', accountId);
  if (!withDeleted) query = query.where('deleted', '=', 0);
  return query;
}

export async function findList(db: DbOrTx, accountId: string, id: string): Promise<DoNotReachRow | undefined> {
  return db.selectFrom('ads_do_not_reach_lists').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

export async function liveListOf(db: DbOrTx, accountId: string): Promise<DoNotReachRow | undefined> {
  return listsOf(db, accountId, false).executeTakeFirst();
}

export async function insertList(db: DbOrTx, row: DoNotReachRow): Promise<void> {
  await db.insertInto('ads_do_not_reach_lists').values(row).execute();
}

export async function updateListRow(db: DbOrTx, id: string, changes: Partial<DoNotReachRow>): Promise<DoNotReachRow> {
  return db.updateTable('ads_do_not_reach_lists').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}
