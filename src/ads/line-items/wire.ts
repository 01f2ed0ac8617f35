import { Type, type Static } from '@sinclair/typebox';
import { AdsId, AdsTime, Entity, Micros, Nullable, PlatformIdText } from '../http/entity-schema.js';
import { wireTime } from '../http/time.js';
import { decodeFlag, decodeList } from './entity.js';
import type { LineItemRow } from './store.js';

const text = Type.String();
export const LineItemSchema = Entity('LineItem', 'A line item: what a campaign buys, where and at what bid (spec 001 "Line item")', {
  advertiser_user_id: Nullable(PlatformIdText),
  name: Nullable(text),
  placements: Type.Array(text),
  start_time: Nullable(AdsTime),
  end_time: Nullable(AdsTime),
  bid_amount_local_micro: Nullable(Micros),
  advertiser_domain: Nullable(text),
  target_cpa_local_micro: Nullable(Micros),
  primary_web_event_tag: Nullable(text),
  goal: text,
  daily_budget_amount_local_micro: Nullable(Micros),
  total_budget_amount_local_micro: Nullable(Micros),
  product_type: text,
  bid_strategy: text,
  duration_in_days: Nullable(Type.Integer()),
  standard_delivery: Nullable(Type.Boolean()),
  objective: text,
  id: AdsId,
  entity_status: text,
  automatic_post_promotion: Nullable(Type.Boolean()),
  frequency_cap: Nullable(Type.Integer()),
  audience_expansion: Nullable(text),
  android_app_store_identifier: Nullable(text),
  ios_app_store_identifier: Nullable(text),
  categories: Type.Array(text),
  currency: text,
  pay_by: text,
  created_at: AdsTime,
  updated_at: AdsTime,
  campaign_id: AdsId,
  creative_source: text,
  deleted: Type.Boolean(),
});

/** The line item object (spec 001 "Line item"). */
export function lineItemWire(l: LineItemRow): Static<typeof LineItemSchema> {
  return {
    advertiser_user_id: l.advertiser_user_id,
    name: l.name,
    placements: decodeList(l.placements),
    start_time: wireTime(l.start_time),
    end_time: wireTime(l.end_time),
    bid_amount_local_micro: l.bid_amount_local_micro,
    advertiser_domain: l.advertiser_domain,
    target_cpa_local_micro: l.target_cpa_local_micro,
    primary_web_event_tag: l.primary_web_event_tag,
    goal: l.goal,
    daily_budget_amount_local_micro: l.daily_budget_amount_local_micro,
    total_budget_amount_local_micro: l.total_budget_amount_local_micro,
    product_type: l.product_type,
    bid_strategy: l.bid_strategy,
    duration_in_days: l.duration_in_days,
    standard_delivery: decodeFlag(l.standard_delivery),
    objective: l.objective,
    id: l.id,
    entity_status: l.entity_status,
    automatic_post_promotion: decodeFlag(l.automatic_post_promotion),
    frequency_cap: l.frequency_cap,
    audience_expansion: l.audience_expansion,
    android_app_store_identifier: l.android_app_store_identifier,
    ios_app_store_identifier: l.ios_app_store_identifier,
    categories: decodeList(l.categories),
    currency: l.currency,
    pay_by: l.pay_by,
    created_at: wireTime(l.created_at),
    updated_at: wireTime(l.updated_at),
    campaign_id: l.campaign_id,
    creative_source: l.creative_source,
    deleted: l.deleted === 1,
  };
}
