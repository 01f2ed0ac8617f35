import type { AdsLineItemCuratedCategoryTable } from '../../store/schema-ads.js';
import type { DbOrTx } from '../../store/store.js';

export type LineItemCuratedCategoryRow = AdsLineItemCuratedCategoryTable;

export async function updateLineItemCuratedCategoryRow(db: DbOrTx, id: string, changes: Partial<LineItemCuratedCategoryRow>): Promise<LineItemCuratedCategoryRow> {
  return db.updateTable('ads_line_item_curated_categories').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}
