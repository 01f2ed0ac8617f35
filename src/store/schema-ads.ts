/**
 * Tables of the advertising interface (migration 0002-ads). Every advertising entity hangs off
 * an account, and an account belongs to one environment (production or sandbox), so the two
 * listeners never see each other's data. Soft deletes keep `deleted` = 1; money is integer
 * micros (bigint, read back as a JS number); times are ISO 8601 UTC text with milliseconds.
 */
export interface AdsTables {
  ads_accounts: AdsAccountTable;
  ads_account_users: AdsAccountUserTable;
  ads_account_features: AdsAccountFeatureTable;
  ads_account_apps: AdsAccountAppTable;
  ads_funding_instruments: AdsFundingInstrumentTable;
  ads_campaigns: AdsCampaignTable;
  ads_line_items: AdsLineItemTable;
  ads_targeting_criteria: AdsTargetingCriterionTable;
  ads_promoted_posts: AdsPromotedPostTable;
  ads_promoted_accounts: AdsPromotedAccountTable;
  ads_line_item_curated_categories: AdsLineItemCuratedCategoryTable;
  ads_account_history: AdsAccountHistoryTable;
  ads_delivery_events: AdsDeliveryEventTable;
  ads_stats_jobs: AdsStatsJobTable;
}

export type AdsEnvironmentName = 'production' | 'sandbox';

/** Columns every advertising entity has. */
export interface AdsEntityColumns {
  id: string;
  created_at: string;
  updated_at: string;
  deleted: number;
}

export interface AdsAccountTable extends AdsEntityColumns {
  environment: AdsEnvironmentName;
  name: string;
  business_name: string | null;
  business_id: string | null;
  timezone: string;
  timezone_switch_at: string | null;
  industry_type: string | null;
  approval_status: string;
  currency: string;
}

/** Which users may use an account, with their permissions (JSON array of strings). */
export interface AdsAccountUserTable {
  account_id: string;
  user_id: string;
  permissions: string;
  created_at: string;
}

export interface AdsAccountFeatureTable {
  account_id: string;
  feature: string;
  created_at: string;
}

export interface AdsAccountAppTable extends AdsEntityColumns {
  account_id: string;
  app_store_identifier: string;
  os_type: string;
  conversion_tracking_enabled: number;
  deep_link_pattern: string | null;
}

export interface AdsFundingInstrumentTable extends AdsEntityColumns {
  account_id: string;
  type: string;
  description: string;
  currency: string;
  start_time: string;
  end_time: string | null;
  credit_limit_local_micro: number | null;
  funded_amount_local_micro: number | null;
  entity_status: string;
  io_header: string | null;
}

export interface AdsCampaignTable extends AdsEntityColumns {
  account_id: string;
  funding_instrument_id: string;
  name: string;
  budget_optimization: string;
  daily_budget_amount_local_micro: number | null;
  total_budget_amount_local_micro: number | null;
  entity_status: string;
  purchase_order_number: string | null;
  /** Deprecated on campaigns (spec 001 versioning, Jun 28, 2026): kept for campaigns made before. */
  standard_delivery: number | null;
  duration_in_days: number | null;
  frequency_cap: number | null;
  currency: string;
}

export interface AdsLineItemTable extends AdsEntityColumns {
  account_id: string;
  campaign_id: string;
  name: string | null;
  objective: string;
  product_type: string;
  /** JSON array of placement names. */
  placements: string;
  start_time: string | null;
  end_time: string | null;
  bid_strategy: string;
  bid_amount_local_micro: number | null;
  goal: string;
  pay_by: string;
  entity_status: string;
  frequency_cap: number | null;
  duration_in_days: number | null;
  audience_expansion: string | null;
  advertiser_domain: string | null;
  /** JSON array of IAB category codes. */
  categories: string;
  android_app_store_identifier: string | null;
  ios_app_store_identifier: string | null;
  primary_web_event_tag: string | null;
  standard_delivery: number | null;
  daily_budget_amount_local_micro: number | null;
  total_budget_amount_local_micro: number | null;
  advertiser_user_id: string | null;
  target_cpa_local_micro: number | null;
  automatic_post_promotion: number | null;
  creative_source: string;
  currency: string;
}

export interface AdsTargetingCriterionTable extends AdsEntityColumns {
  account_id: string;
  line_item_id: string;
  targeting_type: string;
  targeting_value: string;
  operator_type: string;
  name: string;
  location_type: string | null;
}

export interface AdsPromotedPostTable extends AdsEntityColumns {
  account_id: string;
  line_item_id: string;
  post_id: string;
  entity_status: string;
  approval_status: string;
}

export interface AdsPromotedAccountTable extends AdsEntityColumns {
  account_id: string;
  line_item_id: string;
  user_id: string;
  entity_status: string;
  approval_status: string;
}

export interface AdsLineItemCuratedCategoryTable extends AdsEntityColumns {
  account_id: string;
  line_item_id: string;
  curated_category_id: string;
}

/** One create, update or delete of a campaign, line item, promoted post, criterion or promoted account. */
export interface AdsAccountHistoryTable {
  id: string;
  account_id: string;
  entity_type: string;
  entity_id: string;
  change_type: string;
  /** JSON object: {field: {old, new}}. */
  changes: string;
  /** JSON object: the entity after the change. */
  entity_data: string;
  user_id: string;
  platform: string;
  change_time: string;
}

/** What a promoted post's delivery did (src/ads/delivery/): an impression, or an engagement after one. */
export type AdsDeliveryKind = 'impression' | 'like' | 'reply' | 'repost' | 'follow' | 'click' | 'url_click';

/** One impression of a promoted post in a home timeline, or one engagement that followed it. */
export interface AdsDeliveryEventTable {
  id: string;
  account_id: string;
  funding_instrument_id: string;
  campaign_id: string;
  line_item_id: string;
  promoted_post_id: string;
  post_id: string;
  author_id: string;
  viewer_id: string;
  kind: AdsDeliveryKind;
  /** 1 when the event is the line item's billing unit (its pay_by). */
  billed: number;
  charge_local_micro: number;
  at: string;
}

/** An asynchronous analytics job: its parameters (JSON), its gzipped result, when it is ready. */
export interface AdsStatsJobTable {
  id: string;
  account_id: string;
  params: string;
  result: Uint8Array;
  created_at: string;
  ready_at: string;
  expires_at: string;
  cancelled_at: string | null;
}
