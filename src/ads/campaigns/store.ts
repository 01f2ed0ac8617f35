import type { AdsCampaignTable } from '../../store/schema-ads.js';
import type { DbOrTx } from '../../store/store.js';
import { entitiesOf, type AccountEntityFilters } from '../account-entity.js';

export type CampaignRow = AdsCampaignTable;

export interface CampaignFilters extends AccountEntityFilters {
  fundingInstrumentIds?: string[];
  withDraft: boolean;
}

export function campaignsOf(db: DbOrTx, accountId: string, f: CampaignFilters) {
  let query = entitiesOf(db, 'ads_campaigns', accountId, f);
  if (f.fundingInstrumentIds) query = query.where('funding_instrument_id', 'in', f.fundingInstrumentIds);
  return query;
}

export async function insertCampaign(db: DbOrTx, row: CampaignRow): Promise<void> {
  await db.insertInto('ads_campaigns').values(row).execute();
}

export async function countActiveCampaigns(db: DbOrTx, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('ads_campaigns')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('deleted', '=', 0)
    .where('entity_status', '=', 'ACTIVE')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** How many live, active line items each campaign has. */
export async function activeLineItemCounts(db: DbOrTx, campaignIds: string[]): Promise<Map<string, number>> {
  if (campaignIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('ads_line_items')
    .select(['campaign_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('campaign_id', 'in', campaignIds)
    .where('deleted', '=', 0)
    .where('entity_status', '=', 'ACTIVE')
    .groupBy('campaign_id')
    .execute();
  return new Map(rows.map((r) => [r.campaign_id, Number(r.n)]));
}
