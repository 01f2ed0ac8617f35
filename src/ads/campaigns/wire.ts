import { Type, type Static } from '@sinclair/typebox';
import { AdsId, AdsTime, Entity, Micros, Nullable } from '../http/entity-schema.js';
import { wireTime } from '../http/time.js';
import type { CampaignRow } from './store.js';

export const CampaignSchema = Entity('Campaign', 'A campaign: budget and funding for its line items (shared/reference/ads.md §3)', {
  name: Type.String(),
  budget_optimization: Type.String(),
  reasons_not_servable: Type.Array(Type.String()),
  servable: Nullable(Type.Boolean()),
  purchase_order_number: Nullable(Type.String()),
  effective_status: Type.String(),
  daily_budget_amount_local_micro: Nullable(Micros),
  funding_instrument_id: AdsId,
  duration_in_days: Nullable(Type.Integer()),
  standard_delivery: Nullable(Type.Boolean()),
  total_budget_amount_local_micro: Nullable(Micros),
  id: AdsId,
  entity_status: Type.String(),
  frequency_cap: Nullable(Type.Integer()),
  currency: Type.String(),
  created_at: AdsTime,
  updated_at: AdsTime,
  deleted: Type.Boolean(),
});

const bool = (n: number | null) => (n === null ? null : n === 1);

/** The campaign object (shared/reference/ads.md §3). `activeLineItems` decides whether it can serve. */
export function campaignWire(c: CampaignRow, activeLineItems: number): Static<typeof CampaignSchema> {
  const reasons: string[] = [];
  if (c.entity_status === 'PAUSED') reasons.push('PAUSED_BY_ADVERTISER');
  if (c.entity_status === 'DRAFT' || activeLineItems === 0) reasons.push('INCOMPLETE');
  const deleted = c.deleted === 1;
  const servable = deleted ? null : reasons.length === 0;
  return {
    name: c.name,
    budget_optimization: c.budget_optimization,
    reasons_not_servable: deleted ? [] : reasons,
    servable,
    purchase_order_number: c.purchase_order_number,
    effective_status: servable ? 'RUNNING' : 'UNKNOWN',
    daily_budget_amount_local_micro: c.daily_budget_amount_local_micro,
    funding_instrument_id: c.funding_instrument_id,
    duration_in_days: c.duration_in_days,
    standard_delivery: bool(c.standard_delivery),
    total_budget_amount_local_micro: c.total_budget_amount_local_micro,
    id: c.id,
    entity_status: c.entity_status,
    frequency_cap: c.frequency_cap,
    currency: c.currency,
    created_at: wireTime(c.created_at),
    updated_at: wireTime(c.updated_at),
    deleted,
  };
}

export const CampaignHistoryDataSchema = Entity(
  'CampaignHistoryData',
  'A campaign as the account history keeps it: "For a campaign, entity_data holds: name, start_time, purchase_order_number, daily_budget_amount_local_micro, end_time, duration_in_days, standard_delivery, total_budget_amount_local_micro, entity_status, frequency_cap, created_at, updated_at, deleted" (spec 001 "Account history record")',
  {
    name: Type.String(),
    start_time: Type.Null({ description: 'Campaigns have no start and end times since version 11' }),
    purchase_order_number: Nullable(Type.String()),
    daily_budget_amount_local_micro: Nullable(Micros),
    end_time: Type.Null(),
    duration_in_days: Nullable(Type.Integer()),
    standard_delivery: Nullable(Type.Boolean()),
    total_budget_amount_local_micro: Nullable(Micros),
    entity_status: Type.String(),
    frequency_cap: Nullable(Type.Integer()),
    created_at: AdsTime,
    updated_at: AdsTime,
    deleted: Type.Boolean(),
  },
);

/** A campaign as the account history keeps it (spec 001 "Account history record"). */
export function campaignHistoryData(c: CampaignRow): Static<typeof CampaignHistoryDataSchema> {
  return {
    name: c.name,
    start_time: null,
    purchase_order_number: c.purchase_order_number,
    daily_budget_amount_local_micro: c.daily_budget_amount_local_micro,
    end_time: null,
    duration_in_days: c.duration_in_days,
    standard_delivery: bool(c.standard_delivery),
    total_budget_amount_local_micro: c.total_budget_amount_local_micro,
    entity_status: c.entity_status,
    frequency_cap: c.frequency_cap,
    created_at: wireTime(c.created_at),
    updated_at: wireTime(c.updated_at),
    deleted: c.deleted === 1,
  };
}
