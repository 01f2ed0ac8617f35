import type { CreateTableBuilder, Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * The advertising interface's tables, the same on SQLite and PostgreSQL. Every entity table has
 * the common columns (id, account_id, created_at, updated_at, deleted) and an index that serves
 * its account-scoped lists; curated and advertiser business categories are reference data kept
 * in code (src/ads/categories/reference-data.ts), not tables.
 */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  const entity = (name: string) =>
    db.schema
      .createTable(name)
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('ads_accounts.id').onDelete('cascade'));
  const finish = (t: CreateTableBuilder<any, any>) =>
    t
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0));
  const accountIndex = (table: string) =>
    db.schema.createIndex(`${table}_account_created`).on(table).columns(['account_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('ads_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('business_name', 'text')
    .addColumn('business_id', 'text')
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('timezone_switch_at', 'text')
    .addColumn('industry_type', 'text')
    .addColumn('approval_status', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('ads_account_users')
    .addColumn('account_id', 'text', (c) => c.notNull().references('ads_accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ads_account_users_pk', ['account_id', 'user_id'])
    .execute();
  await db.schema.createIndex('ads_account_users_user').on('ads_account_users').columns(['user_id', 'account_id']).execute();

  await db.schema
    .createTable('ads_account_features')
    .addColumn('account_id', 'text', (c) => c.notNull().references('ads_accounts.id').onDelete('cascade'))
    .addColumn('feature', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ads_account_features_pk', ['account_id', 'feature'])
    .execute();

  await finish(
    entity('ads_account_apps')
      .addColumn('app_store_identifier', 'text', (c) => c.notNull())
      .addColumn('os_type', 'text', (c) => c.notNull())
      .addColumn('conversion_tracking_enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('deep_link_pattern', 'text'),
  ).execute();
  await accountIndex('ads_account_apps');

  await finish(
    entity('ads_funding_instruments')
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('start_time', 'text', (c) => c.notNull())
      .addColumn('end_time', 'text')
      .addColumn('credit_limit_local_micro', 'bigint')
      .addColumn('funded_amount_local_micro', 'bigint')
      .addColumn('entity_status', 'text', (c) => c.notNull())
      .addColumn('io_header', 'text'),
  ).execute();
  await accountIndex('ads_funding_instruments');

  await finish(
    entity('ads_campaigns')
      .addColumn('funding_instrument_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('budget_optimization', 'text', (c) => c.notNull())
      .addColumn('daily_budget_amount_local_micro', 'bigint')
      .addColumn('total_budget_amount_local_micro', 'bigint')
      .addColumn('entity_status', 'text', (c) => c.notNull())
      .addColumn('purchase_order_number', 'text')
      .addColumn('standard_delivery', 'integer')
      .addColumn('duration_in_days', 'integer')
      .addColumn('frequency_cap', 'integer')
      .addColumn('currency', 'text', (c) => c.notNull()),
  ).execute();
  await accountIndex('ads_campaigns');

  await finish(
    entity('ads_line_items')
      .addColumn('campaign_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text')
      .addColumn('objective', 'text', (c) => c.notNull())
      .addColumn('product_type', 'text', (c) => c.notNull())
      .addColumn('placements', 'text', (c) => c.notNull())
      .addColumn('start_time', 'text')
      .addColumn('end_time', 'text')
      .addColumn('bid_strategy', 'text', (c) => c.notNull())
      .addColumn('bid_amount_local_micro', 'bigint')
      .addColumn('goal', 'text', (c) => c.notNull())
      .addColumn('pay_by', 'text', (c) => c.notNull())
      .addColumn('entity_status', 'text', (c) => c.notNull())
      .addColumn('frequency_cap', 'integer')
      .addColumn('duration_in_days', 'integer')
      .addColumn('audience_expansion', 'text')
      .addColumn('advertiser_domain', 'text')
      .addColumn('categories', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('android_app_store_identifier', 'text')
      .addColumn('ios_app_store_identifier', 'text')
      .addColumn('primary_web_event_tag', 'text')
      .addColumn('standard_delivery', 'integer')
      .addColumn('daily_budget_amount_local_micro', 'bigint')
      .addColumn('total_budget_amount_local_micro', 'bigint')
      .addColumn('advertiser_user_id', 'text')
      .addColumn('target_cpa_local_micro', 'bigint')
      .addColumn('automatic_post_promotion', 'integer')
      .addColumn('creative_source', 'text', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull()),
  ).execute();
  await accountIndex('ads_line_items');
  await db.schema.createIndex('ads_line_items_campaign').on('ads_line_items').columns(['campaign_id', 'id']).execute();

  await finish(
    entity('ads_targeting_criteria')
      .addColumn('line_item_id', 'text', (c) => c.notNull())
      .addColumn('targeting_type', 'text', (c) => c.notNull())
      .addColumn('targeting_value', 'text', (c) => c.notNull())
      .addColumn('operator_type', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('location_type', 'text'),
  ).execute();
  await accountIndex('ads_targeting_criteria');
  await db.schema.createIndex('ads_targeting_criteria_line_item').on('ads_targeting_criteria').columns(['line_item_id', 'id']).execute();

  await finish(
    entity('ads_promoted_posts')
      .addColumn('line_item_id', 'text', (c) => c.notNull())
      .addColumn('post_id', 'text', (c) => c.notNull())
      .addColumn('entity_status', 'text', (c) => c.notNull())
      .addColumn('approval_status', 'text', (c) => c.notNull()),
  ).execute();
  await accountIndex('ads_promoted_posts');
  await db.schema.createIndex('ads_promoted_posts_line_item').on('ads_promoted_posts').columns(['line_item_id', 'post_id']).execute();

  await finish(
    entity('ads_promoted_accounts')
      .addColumn('line_item_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('entity_status', 'text', (c) => c.notNull())
      .addColumn('approval_status', 'text', (c) => c.notNull()),
  ).execute();
  await accountIndex('ads_promoted_accounts');
  await db.schema.createIndex('ads_promoted_accounts_line_item').on('ads_promoted_accounts').columns(['line_item_id', 'user_id']).execute();

  await finish(
    entity('ads_line_item_curated_categories')
      .addColumn('line_item_id', 'text', (c) => c.notNull())
      .addColumn('curated_category_id', 'text', (c) => c.notNull()),
  ).execute();
  await accountIndex('ads_line_item_curated_categories');

  await db.schema
    .createTable('ads_account_history')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('ads_accounts.id').onDelete('cascade'))
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('change_type', 'text', (c) => c.notNull())
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('entity_data', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('change_time', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ads_account_history_entity')
    .on('ads_account_history')
    .columns(['account_id', 'entity_type', 'entity_id', 'change_time'])
    .execute();
}
