import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/** News stories, note writers and community notes, the usage ledger and caps; the same on SQLite and PostgreSQL. */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  await db.schema
    .createTable('news_stories')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('hook', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('disclaimer', 'text')
    .addColumn('keywords', 'text', (c) => c.notNull())
    .addColumn('contexts', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Search reads the stories updated within max_age_hours, newest first.
  await db.schema.createIndex('news_stories_updated').on('news_stories').columns(['updated_at', 'id']).execute();

  await db.schema
    .createTable('note_writers')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('community_notes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('author_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('post_id', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('classification', 'text', (c) => c.notNull())
    .addColumn('misleading_tags', 'text', (c) => c.notNull())
    .addColumn('trustworthy_sources', 'integer', (c) => c.notNull())
    .addColumn('is_media_note', 'integer', (c) => c.notNull())
    .addColumn('test_mode', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    // One note per post and writer (the public platform refuses a second).
    .addUniqueConstraint('community_notes_author_post', ['author_id', 'post_id'])
    .execute();
  await db.schema.createIndex('community_notes_author').on('community_notes').columns(['author_id', 'id']).execute();

  await db.schema
    .createTable('usage_ledger')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('units', 'integer', (c) => c.notNull())
    .addColumn('unit_price_micro', 'bigint', (c) => c.notNull())
    .addColumn('amount_micro', 'bigint', (c) => c.notNull())
    .addColumn('posts', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // Caps sum a period of an app's (Product) or an account's (Account) charges; usage reads days of a project.
  await db.schema.createIndex('usage_ledger_app').on('usage_ledger').columns(['app_id', 'created_at']).execute();
  await db.schema.createIndex('usage_ledger_account').on('usage_ledger').columns(['account_id', 'created_at']).execute();
  await db.schema.createIndex('usage_ledger_project').on('usage_ledger').columns(['project_id', 'created_at']).execute();

  await db.schema
    .createTable('usage_caps')
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('limit_micro', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_caps_pk', ['app_id', 'period', 'scope'])
    .execute();
}
