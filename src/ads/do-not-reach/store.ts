import type { AdsDoNotReachListTable } from '../../store/schema-ads-audiences.js';
import type { DbOrTx } from '../../store/store.js';
import { entitiesOf } from '../account-entity.js';

export type DoNotReachRow = AdsDoNotReachListTable;

export async function liveListOf(db: DbOrTx, accountId: string): Promise<DoNotReachRow | undefined> {
  return entitiesOf(db, 'ads_do_not_reach_lists', accountId, { withDeleted: false }).executeTakeFirst();
}

export async function updateListRow(db: DbOrTx, id: string, changes: Partial<DoNotReachRow>): Promise<DoNotReachRow> {
  return db.updateTable('ads_do_not_reach_lists').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}
