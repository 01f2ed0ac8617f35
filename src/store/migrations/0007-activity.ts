import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/** Activity API subscriptions (shared/reference/platform.md §7), the same on SQLite and PostgreSQL. */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  await db.schema
    .createTable('activity_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('canonical_type', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('keyword', 'text')
    .addColumn('direction', 'text')
    .addColumn('filter_key', 'text', (c) => c.notNull())
    .addColumn('tag', 'text')
    .addColumn('webhook_id', 'text')
    .addColumn('owner_user_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('activity_subscriptions_unique', ['app_id', 'canonical_type', 'filter_key'])
    .execute();
  // Listing pages an app's subscriptions by id; fan-out finds the subscriptions of an event's types.
  await db.schema.createIndex('activity_subscriptions_app_id').on('activity_subscriptions').columns(['app_id', 'id']).execute();
  await db.schema.createIndex('activity_subscriptions_type').on('activity_subscriptions').columns(['canonical_type', 'app_id']).execute();
}
