import type { AdsLineItemCuratedCategoryTable } from '../../store/schema-ads.js';
import type { DbOrTx } from '../../store/store.js';

export type LineItemCuratedCategoryRow = AdsLineItemCuratedCategoryTable;

export function lineItemCuratedCategoriesOf(db: DbOrTx, accountId: string, withDeleted: boolean) {
  let query = db.selectFrom('ads_line_item_curated_categories').selectAll().where('account_id', '=', accountId);
  if (!withDeleted) query = query.where('deleted', '=', 0);
  return query;
}

export async function findLineItemCuratedCategory(db: DbOrTx, accountId: string, id: string): Promise<LineItemCuratedCategoryRow | undefined> {
  return db.selectFrom('ads_line_item_curated_categories').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

export async function insertLineItemCuratedCategory(db: DbOrTx, row: LineItemCuratedCategoryRow): Promise<void> {
  await db.insertInto('ads_line_item_curated_categories').values(row).execute();
}

export async function updateLineItemCuratedCategoryRow(db: DbOrTx, id: string, changes: Partial<LineItemCuratedCategoryRow>): Promise<LineItemCuratedCategoryRow> {
  return db.updateTable('ads_line_item_curated_categories').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}
