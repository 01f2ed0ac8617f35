import type { DbOrTx } from '../../store/store.js';
import type { AccountRow, AdsActor } from '../actor.js';
import { checkCampaignCopyable } from '../audiences/service.js';
import { checkBudgets } from '../budgets.js';
import { getFundingInstrument } from '../funding-instruments/service.js';
import { reasonsNotAbleToFund } from '../funding-instruments/wire.js';
import { recordChange } from '../history/record.js';
import { AdsError } from '../http/errors.js';
import { newAdsId } from '../ids.js';
import { insertLineItem, type LineItemRow } from '../line-items/store.js';
import { lineItemWire } from '../line-items/wire.js';
import { insertTargetingCriterion, type TargetingCriterionRow } from '../targeting/store.js';
import { targetingCriterionWire } from '../targeting/wire.js';
import type { CampaignCopy } from './entity.js';
import { checkBudgetOptimization, getCampaign, MAX_ACTIVE_CAMPAIGNS, STANDARD_DELIVERY_DEPRECATED } from './service.js';
import { countActiveCampaigns, insertCampaign, type CampaignRow } from './store.js';
import { campaignHistoryData } from './wire.js';

/**
 * Campaign copy: POST accounts/:account_id/campaigns with `copy_from_campaign_id` (issue #14; spec
 * 001 names the refusal, "the campaign cannot be copied afterwards", not the call). The copy is a
 * new campaign of the same account with the source's settings, each overridden by the parameter of
 * the same name when given; its live line items and their live targeting criteria are copied with
 * it, under new ids. Nothing else is: promoted posts, promoted accounts, media creatives and
 * curated categories stay with the source.
 *
 * Refused (400, nothing written) when a copied line item would target a custom audience the account
 * may no longer use: one whose permission was deleted (`checkCampaignCopyable`) or that is gone.
 * The copy is PAUSED unless entity_status says otherwise, and so are its copied ACTIVE line items:
 * a copy does not start spending on its own.
 */
export const COPY_PARAMETER = 'copy_from_campaign_id';

type Warn = (message: string) => void;

export async function copyCampaign(actor: AdsActor, db: DbOrTx, account: AccountRow, p: CampaignCopy, warn: Warn = () => {}): Promise<CampaignRow> {
  checkBudgetOptimization(p.budget_optimization);
  if (p.standard_delivery !== undefined) warn(STANDARD_DELIVERY_DEPRECATED);
  const source = await getCampaign(db, account, p.copy_from_campaign_id, false, COPY_PARAMETER);
  await checkCampaignCopyable(db, account, source.id, COPY_PARAMETER);

  const fiId = p.funding_instrument_id ?? source.funding_instrument_id;
  const fi = await getFundingInstrument(db, account, fiId, false);
  const reasons = reasonsNotAbleToFund(fi, actor.ctx.clock.now());
  if (reasons.length > 0) {
    throw AdsError.invalidParameter('funding_instrument_id', `Funding Instrument ${fi.id} cannot fund campaigns: ${reasons.join(', ')}`, 'INVALID_FUNDING_INSTRUMENT');
  }
  const daily = p.daily_budget_amount_local_micro ?? source.daily_budget_amount_local_micro;
  const total = p.total_budget_amount_local_micro ?? source.total_budget_amount_local_micro;
  checkBudgets({ daily, total }, { daily: p.daily_budget_amount_local_micro !== undefined, total: p.total_budget_amount_local_micro !== undefined });
  const status = p.entity_status ?? 'PAUSED';
  if (status === 'ACTIVE' && (await countActiveCampaigns(db, account.id)) >= MAX_ACTIVE_CAMPAIGNS) {
    throw new AdsError(400, [{ code: 'TOO_MANY_CAMPAIGNS', message: `Account ${account.id} already has ${MAX_ACTIVE_CAMPAIGNS} active campaigns`, parameter: 'entity_status' }]);
  }

  const now = actor.ctx.clock.now().toISOString();
  const campaign: CampaignRow = {
    ...source,
    id: newAdsId(actor.ctx),
    funding_instrument_id: fi.id,
    name: p.name ?? source.name,
    budget_optimization: 'LINE_ITEM',
    daily_budget_amount_local_micro: daily,
    total_budget_amount_local_micro: total,
    entity_status: status,
    purchase_order_number: p.purchase_order_number ?? source.purchase_order_number,
    currency: fi.currency,
    created_at: now,
    updated_at: now,
    deleted: 0,
  };
  await insertCampaign(db, campaign);
  await recordChange(actor, db, { accountId: account.id, entity: 'CAMPAIGN', entityId: campaign.id, type: 'CREATE', entityData: campaignHistoryData(campaign) });

  const lineItems = await db
    .selectFrom('ads_line_items')
    .selectAll()
    .where('account_id', '=', account.id)
    .where('campaign_id', '=', source.id)
    .where('deleted', '=', 0)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const criteria = lineItems.length === 0 ? [] : await db
    .selectFrom('ads_targeting_criteria')
    .selectAll()
    .where('account_id', '=', account.id)
    .where('line_item_id', 'in', lineItems.map((l) => l.id))
    .where('deleted', '=', 0)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const l of lineItems) {
    const row: LineItemRow = {
      ...l,
      id: newAdsId(actor.ctx),
      campaign_id: campaign.id,
      entity_status: l.entity_status === 'ACTIVE' ? 'PAUSED' : l.entity_status,
      currency: campaign.currency,
      created_at: now,
      updated_at: now,
    };
    await insertLineItem(db, row);
    await recordChange(actor, db, { accountId: account.id, entity: 'LINE_ITEM', entityId: row.id, type: 'CREATE', entityData: lineItemWire(row) });
    for (const c of criteria) {
      if (c.line_item_id !== l.id) continue;
      const copy: TargetingCriterionRow = { ...c, id: newAdsId(actor.ctx), line_item_id: row.id, created_at: now, updated_at: now };
      await insertTargetingCriterion(db, copy);
      await recordChange(actor, db, { accountId: account.id, entity: 'TARGETING_CRITERIA', entityId: copy.id, type: 'CREATE', entityData: targetingCriterionWire(copy) });
    }
  }
  return campaign;
}
