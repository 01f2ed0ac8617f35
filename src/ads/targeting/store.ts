import type { AdsTargetingCriterionTable } from '../../store/schema-ads.js';
import type { DbOrTx } from '../../store/store.js';

export type TargetingCriterionRow = AdsTargetingCriterionTable;

export function targetingCriteriaOf(db: DbOrTx, accountId: string, f: { lineItemIds: string[]; ids?: string[]; withDeleted: boolean }) {
  let query = db.selectFrom('ads_targeting_criteria').selectAll().where('account_id', '=', accountId).where('line_item_id', 'in', f.lineItemIds);
  if (f.ids) query = query.where('id', 'in', f.ids);
  if (!f.withDeleted) query = query.where('deleted', '=', 0);
  return query;
}

export async function findTargetingCriterion(db: DbOrTx, accountId: string, id: string): Promise<TargetingCriterionRow | undefined> {
  return db.selectFrom('ads_targeting_criteria').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
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

export async function updateTargetingCriterionRow(db: DbOrTx, id: string, changes: Partial<TargetingCriterionRow>): Promise<TargetingCriterionRow> {
  return db.updateTable('ads_targeting_criteria').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}
