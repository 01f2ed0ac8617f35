import type { AdsCampaignTable } from '../../store/schema-ads.js';
import type { DbOrTx } from '../../store/store.js';
import { namePrefix } from '../http/list.js';

export type CampaignRow = AdsCampaignTable;

export interface CampaignFilters {
  ids?: string[];
  fundingInstrumentIds?: string[];
  q?: string;
  withDeleted: boolean;
  withDraft: boolean;
}

export function campaignsOf(db: DbOrTx, accountId: string, f: CampaignFilters) {
  let query = db.selectFrom('ads_campaigns').selectAll().where('account_id', '=', accountId);
  if (f.ids) query = query.where('id', 'in', f.ids);
  if (f.fundingInstrumentIds) query = query.where('funding_instrument_id', 'in', f.fundingInstrumentIds);
  if (f.q !== undefined) query = query.where(namePrefix('name', f.q));
  if (!f.withDeleted) query = query.where('deleted', '=', 0);
  if (!f.withDraft) query = query.where('entity_status', '!=', 'DRAFT');
  return query;
}

export async function findCampaign(db: DbOrTx, accountId: string, id: string): Promise<CampaignRow | undefined> {
  return db.selectFrom('ads_campaigns').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

export async function insertCampaign(db: DbOrTx, row: CampaignRow): Promise<void> {
  await db.insertInto('ads_campaigns').values(row).execute();
}

export async function updateCampaignRow(db: DbOrTx, id: string, changes: Partial<CampaignRow>): Promise<CampaignRow> {
  return db.updateTable('ads_campaigns').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
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
