import { wireTime } from '../http/time.js';
import { decodeFlag, decodeList } from './entity.js';
import type { LineItemRow } from './store.js';

/** The line item object (spec 001 "Line item"). */
export function lineItemWire(l: LineItemRow) {
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
