import type { CreateTableBuilder, Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * The advertising interface's creatives (src/store/schema-ads-media.ts), the same on SQLite and
 * PostgreSQL, and `posts.nullcast` (promoted-only posts).
 */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  await db.schema.alterTable('posts').addColumn('nullcast', 'integer', (c) => c.notNull().defaultTo(0)).execute();

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
  const accountIndex = (table: string) => db.schema.createIndex(`${table}_account_created`).on(table).columns(['account_id', 'created_at', 'id']).execute();

  await finish(
    entity('ads_media_library')
      .addColumn('media_key', 'text', (c) => c.notNull())
      .addColumn('media_type', 'text', (c) => c.notNull())
      .addColumn('media_category', 'text', (c) => c.notNull())
      .addColumn('name', 'text')
      .addColumn('file_name', 'text')
      .addColumn('title', 'text')
      .addColumn('description', 'text')
      .addColumn('poster_media_key', 'text')
      .addColumn('posted', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_by', 'text', (c) => c.notNull()),
  ).execute();
  await accountIndex('ads_media_library');
  await db.schema.createIndex('ads_media_library_key').on('ads_media_library').columns(['account_id', 'media_key']).execute();

  await finish(
    entity('ads_account_media')
      .addColumn('media_key', 'text', (c) => c.notNull())
      .addColumn('creative_type', 'text', (c) => c.notNull()),
  ).execute();
  await accountIndex('ads_account_media');

  await finish(
    entity('ads_media_creatives')
      .addColumn('line_item_id', 'text', (c) => c.notNull().references('ads_line_items.id').onDelete('cascade'))
      .addColumn('account_media_id', 'text', (c) => c.notNull().references('ads_account_media.id').onDelete('cascade'))
      .addColumn('landing_url', 'text')
      .addColumn('creative_type', 'text', (c) => c.notNull())
      .addColumn('entity_status', 'text', (c) => c.notNull())
      .addColumn('approval_status', 'text', (c) => c.notNull()),
  ).execute();
  await accountIndex('ads_media_creatives');

  await finish(
    entity('ads_cards')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('card_type', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull()),
  ).execute();
  await db.schema.createIndex('ads_cards_account_kind').on('ads_cards').columns(['account_id', 'kind', 'created_at', 'id']).execute();

  await db.schema
    .createTable('ads_posts')
    .addColumn('post_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('ads_accounts.id').onDelete('cascade'))
    .addColumn('name', 'text')
    .addColumn('card_uri', 'text')
    .addColumn('video_cta', 'text')
    .addColumn('video_cta_value', 'text')
    .addColumn('video_title', 'text')
    .addColumn('video_description', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ads_posts_account').on('ads_posts').columns(['account_id', 'created_at', 'post_id']).execute();

  await db.schema
    .createTable('ads_scheduled_posts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('ads_accounts.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('text', 'text')
    .addColumn('name', 'text')
    .addColumn('card_uri', 'text')
    .addColumn('media_keys', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('nullcast', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('scheduled_at', 'text')
    .addColumn('scheduled_status', 'text')
    .addColumn('completed_at', 'text')
    .addColumn('post_id', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ads_scheduled_posts_account').on('ads_scheduled_posts').columns(['account_id', 'kind', 'created_at', 'id']).execute();
  await db.schema.createIndex('ads_scheduled_posts_due').on('ads_scheduled_posts').columns(['scheduled_status', 'scheduled_at']).execute();
}
