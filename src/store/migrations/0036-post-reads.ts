import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * The posts each app read, for every tier (issue 34): GET /2/usage/posts and the monthly post cap
 * count them. A post read several times in a UTC day counts once: usage_posts_seen keeps the day's
 * distinct ids (earlier days are removed as the next is written), usage_post_days the counts per
 * day. The ledger's `posts` column counted reads and creations of pay-per-use apps only; its reads
 * become the first days' counts and the column goes.
 */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  await db.schema
    .createTable('usage_post_days')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('posts', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_post_days_pk', ['app_id', 'day'])
    .execute();
  await db.schema
    .createTable('usage_posts_seen')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('post_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_posts_seen_pk', ['app_id', 'day', 'post_id'])
    .execute();
  await sql`
    insert into usage_post_days (app_id, day, posts)
    select app_id, substr(created_at, 1, 10), sum(posts) from usage_ledger
    where kind in ('post_read', 'owned_read') and posts > 0
    group by app_id, substr(created_at, 1, 10)`.execute(db);
  await db.schema.alterTable('usage_ledger').dropColumn('posts').execute();
}
