import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * Audiences, do-not-reach lists, audience permissions, product catalogs (issue #14), and the one
 * contact point the platform's users lacked: a phone number, so that hashed phone uploads can
 * match Plaza's own users as hashed emails, handles and user ids do.
 */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  await db.schema
    .createTable('user_phone_numbers')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    // E.164: '+' and digits.
    .addColumn('phone_number', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  const listColumns = (name: string) =>
    db.schema
      .createTable(name)
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('ads_accounts.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('processing_until', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0));
  await listColumns('ads_custom_audiences').addColumn('audience_type', 'text', (c) => c.notNull()).execute();
  await db.schema.createIndex('ads_custom_audiences_account_created').on('ads_custom_audiences').columns(['account_id', 'created_at', 'id']).execute();
  await listColumns('ads_do_not_reach_lists').execute();
  await db.schema.createIndex('ads_do_not_reach_lists_account').on('ads_do_not_reach_lists').columns(['account_id', 'created_at', 'id']).execute();

  // The hashed identifiers uploaded to an audience or a do-not-reach list, and the user each matched.
  await db.schema
    .createTable('ads_audience_users')
    .addColumn('list_id', 'text', (c) => c.notNull())
    .addColumn('key_type', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ads_audience_users_pk', ['list_id', 'key_type', 'key_hash'])
    .execute();
  // Sizes count matched users only; most uploaded identifiers match nobody, so they stay out of it.
  await db.schema.createIndex('ads_audience_users_matched').on('ads_audience_users').columns(['list_id', 'user_id', 'expires_at']).where(sql.ref('user_id'), 'is not', null).execute();

  await db.schema
    .createTable('ads_audience_permissions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('audience_id', 'text', (c) => c.notNull().references('ads_custom_audiences.id').onDelete('cascade'))
    .addColumn('granted_account_id', 'text', (c) => c.notNull().references('ads_accounts.id').onDelete('cascade'))
    .addColumn('permission_level', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('ads_audience_permissions_audience').on('ads_audience_permissions').columns(['audience_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('ads_audience_permissions_granted').on('ads_audience_permissions').columns(['granted_account_id', 'audience_id']).execute();

  await db.schema
    .createTable('ads_product_catalogs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // One catalog per user (spec 001 "Product catalog"), in each environment.
  await db.schema.createIndex('ads_product_catalogs_user').on('ads_product_catalogs').columns(['environment', 'user_id']).unique().execute();

  await db.schema
    .createTable('ads_products')
    .addColumn('product_key', 'text', (c) => c.primaryKey())
    .addColumn('catalog_id', 'text', (c) => c.notNull().references('ads_product_catalogs.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('item_group_id', 'text')
    .addColumn('item_group_key', 'text')
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ads_products_catalog_id').on('ads_products').columns(['catalog_id', 'id']).unique().execute();
  await db.schema.createIndex('ads_products_catalog_created').on('ads_products').columns(['catalog_id', 'created_at', 'product_key']).execute();
  await db.schema.createIndex('ads_products_group').on('ads_products').columns(['catalog_id', 'item_group_key', 'created_at']).execute();

  await db.schema
    .createTable('ads_product_sets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('catalog_id', 'text', (c) => c.notNull().references('ads_product_catalogs.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('filters', 'text', (c) => c.notNull())
    .addColumn('product_keys', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ads_product_sets_catalog').on('ads_product_sets').columns(['catalog_id', 'id']).execute();
}
