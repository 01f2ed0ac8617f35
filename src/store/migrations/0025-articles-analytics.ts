import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/** Articles, `posts.article` and the hourly impression ledger (src/store/schema-articles-analytics.ts); the same on SQLite and PostgreSQL. */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  await db.schema.alterTable('posts').addColumn('article', 'text').execute();

  await db.schema
    .createTable('articles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('author_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content_state', 'text', (c) => c.notNull())
    .addColumn('cover_media_key', 'text')
    .addColumn('media_keys', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('published_at', 'text')
    .addColumn('post_id', 'text')
    .execute();
  await db.schema.createIndex('articles_author').on('articles').columns(['author_id', 'id']).execute();

  await db.schema
    .createTable('post_impressions_hourly')
    .addColumn('post_id', 'text', (c) => c.notNull())
    .addColumn('hour', 'text', (c) => c.notNull())
    .addColumn('impressions', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('post_impressions_hourly_pk', ['post_id', 'hour'])
    .execute();
}
