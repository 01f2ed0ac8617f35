import type { DbOrTx } from '../../store/store.js';
import { AccountEntity } from '../account-entity.js';
import type { AccountRow, AdsActor } from '../actor.js';
import { checkBudgets } from '../budgets.js';
import { reasonsNotAbleToFund } from '../funding-instruments/wire.js';
import { getFundingInstrument } from '../funding-instruments/service.js';
import { AdsError } from '../http/errors.js';
import { runList, type Page } from '../http/list.js';
import { CAMPAIGN_SORTING, type CampaignChanges, type CampaignListParams, type NewCampaign } from './entity.js';
import { activeLineItemCounts, campaignsOf, countActiveCampaigns, type CampaignRow } from './store.js';
import { campaignHistoryData, campaignWire } from './wire.js';

/**
 * Campaign rules: shared/reference/ads.md §3, and spec 001 "Versioning" (Jun 28, 2026): only
 * LINE_ITEM budget optimization, now the default; standard_delivery is deprecated on campaigns
 * and set on line items.
 */
export const MAX_ACTIVE_CAMPAIGNS = 200;
const CAMPAIGNS = new AccountEntity({ table: 'ads_campaigns', label: 'Campaign', parameter: 'campaign_id', history: { entity: 'CAMPAIGN', data: campaignHistoryData } });

export const STANDARD_DELIVERY_DEPRECATED =
  'standard_delivery is deprecated on campaigns (version 12, Jun 28, 2026) and was ignored; set it on the line item';

type Warn = (message: string) => void;

/** Spec 001 "Versioning": campaigns take only LINE_ITEM budget optimization (new, copied or changed). */
export function checkBudgetOptimization(value: string | undefined): void {
  if (value !== undefined && value !== 'LINE_ITEM') {
    throw AdsError.invalidParameter(
      'budget_optimization',
      `budget_optimization ${value} is no longer supported; campaigns support only LINE_ITEM (version 12, Jun 28, 2026)`,
    );
  }
}

/** Converts campaigns with what decides whether they can serve. */
export async function campaignsWire(db: DbOrTx, rows: CampaignRow[]) {
  const counts = await activeLineItemCounts(db, rows.map((c) => c.id));
  return rows.map((c) => campaignWire(c, counts.get(c.id) ?? 0));
}

export async function campaignWireOf(db: DbOrTx, row: CampaignRow) {
  return (await campaignsWire(db, [row]))[0];
}

export function listCampaigns(db: DbOrTx, account: AccountRow, p: CampaignListParams): Promise<Page<CampaignRow>> {
  const base = campaignsOf(db, account.id, {
    ids: p.campaign_ids,
    fundingInstrumentIds: p.funding_instrument_ids,
    q: p.q,
    withDeleted: p.with_deleted,
    withDraft: p.with_draft,
  });
  return runList(db, base, CAMPAIGN_SORTING, p);
}

/** One campaign of the account; a deleted one only with with_deleted=true. */
export function getCampaign(db: DbOrTx, account: AccountRow, id: string | undefined, withDeleted = false, parameter?: string): Promise<CampaignRow> {
  return CAMPAIGNS.get(db, account, id, withDeleted, parameter);
}

async function checkActiveLimit(db: DbOrTx, account: AccountRow): Promise<void> {
  if ((await countActiveCampaigns(db, account.id)) >= MAX_ACTIVE_CAMPAIGNS) {
    throw new AdsError(400, [{ code: 'TOO_MANY_CAMPAIGNS', message: `Account ${account.id} already has ${MAX_ACTIVE_CAMPAIGNS} active campaigns`, parameter: 'entity_status' }]);
  }
}

export async function createCampaign(actor: AdsActor, db: DbOrTx, account: AccountRow, p: NewCampaign, warn: Warn = () => {}): Promise<CampaignRow> {
  checkBudgetOptimization(p.budget_optimization);
  if (p.standard_delivery !== undefined) warn(STANDARD_DELIVERY_DEPRECATED);
  const fi = await getFundingInstrument(db, account, p.funding_instrument_id, false);
  const reasons = reasonsNotAbleToFund(fi, actor.ctx.clock.now());
  if (reasons.length > 0) {
    throw AdsError.invalidParameter('funding_instrument_id', `Funding Instrument ${fi.id} cannot fund campaigns: ${reasons.join(', ')}`, 'INVALID_FUNDING_INSTRUMENT');
  }
  const daily = p.daily_budget_amount_local_micro ?? null;
  const total = p.total_budget_amount_local_micro ?? null;
  checkBudgets({ daily, total }, { daily: daily !== null, total: total !== null });
  const status = p.entity_status ?? 'ACTIVE';
  if (status === 'ACTIVE') await checkActiveLimit(db, account);
  return CAMPAIGNS.create(actor, db, account, {
    funding_instrument_id: fi.id,
    name: p.name,
    budget_optimization: 'LINE_ITEM',
    daily_budget_amount_local_micro: daily,
    total_budget_amount_local_micro: total,
    entity_status: status,
    purchase_order_number: p.purchase_order_number ?? null,
    standard_delivery: null,
    duration_in_days: null,
    frequency_cap: null,
    currency: fi.currency,
  });
}

/** PUT campaigns/:campaign_id: changes only what is given; an empty value unsets. */
export async function updateCampaign(actor: AdsActor, db: DbOrTx, account: AccountRow, id: string | undefined, p: CampaignChanges, warn: Warn = () => {}): Promise<CampaignRow> {
  const before = await getCampaign(db, account, id);
  checkBudgetOptimization(p.budget_optimization);
  if (p.standard_delivery !== undefined) warn(STANDARD_DELIVERY_DEPRECATED);
  const changes: Partial<CampaignRow> = {};
  if (p.name !== undefined) changes.name = p.name;
  if (p.purchase_order_number !== undefined) changes.purchase_order_number = p.purchase_order_number;
  if (p.daily_budget_amount_local_micro !== undefined) changes.daily_budget_amount_local_micro = p.daily_budget_amount_local_micro;
  if (p.total_budget_amount_local_micro !== undefined) changes.total_budget_amount_local_micro = p.total_budget_amount_local_micro;
  checkBudgets(
    {
      daily: changes.daily_budget_amount_local_micro !== undefined ? changes.daily_budget_amount_local_micro : before.daily_budget_amount_local_micro,
      total: changes.total_budget_amount_local_micro !== undefined ? changes.total_budget_amount_local_micro : before.total_budget_amount_local_micro,
    },
    { daily: p.daily_budget_amount_local_micro !== undefined, total: p.total_budget_amount_local_micro !== undefined },
  );
  if (p.entity_status !== undefined && p.entity_status !== before.entity_status) {
    if (p.entity_status === 'ACTIVE') await checkActiveLimit(db, account);
    changes.entity_status = p.entity_status;
  }
  return CAMPAIGNS.update(actor, db, account, before, changes);
}

/** DELETE campaigns/:campaign_id: not reversible; a second DELETE is 404. */
export function deleteCampaign(actor: AdsActor, db: DbOrTx, account: AccountRow, id: string | undefined): Promise<CampaignRow> {
  return CAMPAIGNS.delete(actor, db, account, id);
}
