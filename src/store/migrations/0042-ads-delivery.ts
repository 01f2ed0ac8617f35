import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * Promoted posts delivered (issue 38 §3): each impression a home timeline served and each
 * engagement that followed one, with what it cost (src/ads/delivery/); the analytics operations
 * add them up (src/ads/stats/). Asynchronous analytics jobs keep their gzipped result.
 */
export async function up(db: Kysely<any>, dialect: StoreDialect): Promise<void> {
  await db.schema
    .createTable('ads_delivery_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('funding_instrument_id', 'text', (c) => c.notNull())
    .addColumn('campaign_id', 'text', (c) => c.notNull())
    .addColumn('line_item_id', 'text', (c) => c.notNull())
    .addColumn('promoted_post_id', 'text', (c) => c.notNull())
    .addColumn('post_id', 'text', (c) => c.notNull())
    .addColumn('author_id', 'text', (c) => c.notNull())
    .addColumn('viewer_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('billed', 'integer', (c) => c.notNull())
    .addColumn('charge_local_micro', 'bigint', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  // Budgets and stats read by line item or campaign over a time range; engagements find the
  // impression they follow by viewer and post (or author, for a follow).
  await db.schema.createIndex('ads_delivery_events_line_item').on('ads_delivery_events').columns(['line_item_id', 'at']).execute();
  await db.schema.createIndex('ads_delivery_events_campaign').on('ads_delivery_events').columns(['campaign_id', 'at']).execute();
  await db.schema.createIndex('ads_delivery_events_account').on('ads_delivery_events').columns(['account_id', 'at']).execute();
  await db.schema.createIndex('ads_delivery_events_viewer').on('ads_delivery_events').columns(['viewer_id', 'post_id']).execute();
  await db.schema.createIndex('ads_delivery_events_viewer_author').on('ads_delivery_events').columns(['viewer_id', 'author_id']).execute();

  await db.schema
    .createTable('ads_stats_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('result', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('ready_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('cancelled_at', 'text')
    .execute();
  await db.schema.createIndex('ads_stats_jobs_account').on('ads_stats_jobs').columns(['account_id', 'created_at']).execute();
}
