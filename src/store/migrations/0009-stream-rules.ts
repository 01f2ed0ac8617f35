import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/** The filtered stream's rules, their per-app version, and the webhooks linked to the stream; the same on both engines. */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  await db.schema
    .createTable('stream_rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('value_hash', 'text', (c) => c.notNull())
    .addColumn('tag', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('stream_rules_app_value', ['app_id', 'value_hash'])
    .execute();
  // Listing and loading page an app's rules by id (ids are fixed-width-free decimals: ordered by length, then text).
  await db.schema.createIndex('stream_rules_app_id').on('stream_rules').columns(['app_id', 'id']).execute();
  await db.schema
    .createTable('stream_rule_versions')
    .addColumn('app_id', 'text', (c) => c.primaryKey().references('apps.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('stream_webhooks')
    .addColumn('webhook_id', 'text', (c) => c.primaryKey().references('webhooks.id').onDelete('cascade'))
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stream_webhooks_app_id').on('stream_webhooks').columns(['app_id']).execute();
}
