import type { AdsTargetingCriterionTable } from '../../store/schema-ads.js';
import type { DbOrTx } from '../../store/store.js';
import { entitiesOf } from '../account-entity.js';

export type TargetingCriterionRow = AdsTargetingCriterionTable;

export function targetingCriteriaOf(db: DbOrTx, accountId: string, f: { lineItemIds: string[]; ids?: string[]; withDeleted: boolean }) {
  return entitiesOf(db, 'ads_targeting_criteria', accountId, f).where('line_item_id', 'in', f.lineItemIds);
}

/** Live criteria of a line item, of the given types. */
export async function liveCriteriaOfTypes(db: DbOrTx, lineItemId: string, types: string[]): Promise<TargetingCriterionRow[]> {
  return db
    .selectFrom('ads_targeting_criteria')
    .selectAll()
    .where('line_item_id', '=', lineItemId)
    .where('deleted', '=', 0)
    .where('targeting_type', 'in', types)
    .execute();
}

export async function insertTargetingCriterion(db: DbOrTx, row: TargetingCriterionRow): Promise<void> {
  await db.insertInto('ads_targeting_criteria').values(row).execute();
}
