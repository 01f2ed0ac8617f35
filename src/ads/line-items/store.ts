import type { AdsLineItemTable } from '../../store/schema-ads.js';
import type { DbOrTx } from '../../store/store.js';
import { entitiesOf, type AccountEntityFilters } from '../account-entity.js';

export type LineItemRow = AdsLineItemTable;

export interface LineItemFilters extends AccountEntityFilters {
  campaignIds?: string[];
  fundingInstrumentIds?: string[];
  withDraft: boolean;
}

export function lineItemsOf(db: DbOrTx, accountId: string, f: LineItemFilters) {
  let query = entitiesOf(db, 'ads_line_items', accountId, f);
  if (f.campaignIds) query = query.where('campaign_id', 'in', f.campaignIds);
  if (f.fundingInstrumentIds) {
    const fis = f.fundingInstrumentIds;
    query = query.where('campaign_id', 'in', (eb) =>
      eb.selectFrom('ads_campaigns').select('id').where('account_id', '=', accountId).where('funding_instrument_id', 'in', fis),
    );
  }
  return query;
}

export async function findLineItems(db: DbOrTx, accountId: string, ids: string[]): Promise<LineItemRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('ads_line_items').selectAll().where('account_id', '=', accountId).where('id', 'in', ids).execute();
}

export async function insertLineItem(db: DbOrTx, row: LineItemRow): Promise<void> {
  await db.insertInto('ads_line_items').values(row).execute();
}

/** Live line items of a campaign: their count and one of them (all share product type and objective). */
export async function campaignLineItems(db: DbOrTx, campaignId: string): Promise<{ count: number; sample?: Pick<LineItemRow, 'product_type' | 'objective'> }> {
  const row = await db
    .selectFrom('ads_line_items')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('product_type').as('product_type'), eb.fn.min('objective').as('objective')])
    .where('campaign_id', '=', campaignId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  const count = Number(row?.n ?? 0);
  return { count, sample: count > 0 && row?.product_type && row.objective ? { product_type: row.product_type, objective: row.objective } : undefined };
}

export async function countActiveLineItems(db: DbOrTx, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('ads_line_items')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('deleted', '=', 0)
    .where('entity_status', '=', 'ACTIVE')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
