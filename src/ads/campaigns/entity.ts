import { entitySorting, flag, q, standardList } from '../http/list.js';
import { adsId, bool, idList, micros, oneOf, text, type Input, type Parsed } from '../http/params.js';

/**
 * The campaign's parameters, declared once (shared/reference/ads.md §3; spec 001 "Versioning",
 * Jun 28, 2026: only LINE_ITEM budget optimization, standard_delivery deprecated on campaigns).
 * The routes take them and the service's inputs are typed from them.
 */
export const BUDGET_OPTIMIZATIONS = ['LINE_ITEM', 'CAMPAIGN'] as const;
export const CAMPAIGN_STATUSES_ON_CREATE = ['ACTIVE', 'DRAFT', 'PAUSED'] as const;
export const CAMPAIGN_STATUSES_ON_UPDATE = ['ACTIVE', 'PAUSED'] as const;
export const CAMPAIGN_SORTING = entitySorting(undefined, { name: { column: 'name' }, entity_status: { column: 'entity_status' } });

export const LIST_PARAMS = {
  campaign_ids: idList(),
  funding_instrument_ids: idList(),
  q: q(),
  with_draft: flag(),
  ...standardList(Object.keys(CAMPAIGN_SORTING.fields)),
};

/** POST accounts/:account_id/campaigns: funding_instrument_id and name are required unless the campaign is a copy, which takes the source's (copy.ts). */
export const CREATE_PARAMS = {
  copy_from_campaign_id: adsId(),
  funding_instrument_id: adsId(),
  name: text({ max: 255 }),
  budget_optimization: oneOf(BUDGET_OPTIMIZATIONS),
  daily_budget_amount_local_micro: micros(),
  total_budget_amount_local_micro: micros(),
  entity_status: oneOf(CAMPAIGN_STATUSES_ON_CREATE),
  purchase_order_number: text({ max: 50 }),
  standard_delivery: bool(),
};

/** PUT accounts/:account_id/campaigns/:campaign_id: an empty budget or purchase order number unsets it. */
export const UPDATE_PARAMS = {
  name: CREATE_PARAMS.name,
  budget_optimization: CREATE_PARAMS.budget_optimization,
  daily_budget_amount_local_micro: micros().nullable(),
  total_budget_amount_local_micro: micros().nullable(),
  entity_status: oneOf(CAMPAIGN_STATUSES_ON_UPDATE),
  purchase_order_number: text({ max: 50 }).nullable(),
  standard_delivery: CREATE_PARAMS.standard_delivery,
};

export type CampaignListParams = Parsed<typeof LIST_PARAMS>;
/** A new campaign that is not a copy: funding instrument and name given. */
export type NewCampaign = Omit<Input<typeof CREATE_PARAMS>, 'copy_from_campaign_id' | 'funding_instrument_id' | 'name'> & { funding_instrument_id: string; name: string };
/** A copy: the source, and whatever the request sets besides. */
export type CampaignCopy = Input<typeof CREATE_PARAMS> & { copy_from_campaign_id: string };
export type CampaignChanges = Input<typeof UPDATE_PARAMS>;
