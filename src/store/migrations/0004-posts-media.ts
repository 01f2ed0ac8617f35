import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * Post writing, media upload, polls and communities, the same on SQLite and PostgreSQL. Adds
 * columns to the foundation's posts and media tables; no foreign key on posts.community_id, so a
 * post row written straight to the store (tests, other areas) never depends on a community row.
 */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  const flag = (c: any) => c.notNull().defaultTo(0);

  for (const column of ['in_reply_to_post_id', 'quoted_post_id', 'reposted_post_id', 'superseded_by_id']) {
    await db.schema.alterTable('posts').addColumn(column, 'text').execute();
  }
  await db.schema.alterTable('posts').addColumn('share_with_followers', 'integer', flag).execute();
  await db.schema.alterTable('posts').addColumn('reply_hidden', 'integer', flag).execute();
  await db.schema.createIndex('posts_in_reply_to').on('posts').columns(['in_reply_to_post_id', 'id']).execute();
  await db.schema.createIndex('posts_quoted').on('posts').columns(['quoted_post_id', 'id']).execute();
  await db.schema.createIndex('posts_reposted').on('posts').columns(['reposted_post_id', 'id']).execute();
  await db.schema.createIndex('posts_community').on('posts').columns(['community_id', 'id']).execute();
  // One live repost of a post per person: a second repost, even a concurrent one, changes nothing.
  await db.schema
    .createIndex('posts_one_live_repost')
    .on('posts')
    .columns(['author_id', 'reposted_post_id'])
    .unique()
    .where(sql.ref('reposted_post_id'), 'is not', null)
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();

  await db.schema.alterTable('media').addColumn('media_category', 'text').execute();
  await db.schema.alterTable('media').addColumn('additional_owners', 'text').execute();

  await db.schema
    .createTable('polls')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('post_id', 'text', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('duration_minutes', 'integer', (c) => c.notNull())
    .addColumn('end_datetime', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('polls_post').on('polls').column('post_id').execute();

  await db.schema
    .createTable('communities')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('access', 'text', (c) => c.notNull().defaultTo('Public'))
    .addColumn('join_policy', 'text', (c) => c.notNull().defaultTo('Open'))
    .addColumn('creator_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('member_count', 'integer', flag)
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('community_members')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('community_id', 'text', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('member'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('community_members_pair', ['community_id', 'user_id'])
    .execute();
  await db.schema.createIndex('community_members_user').on('community_members').columns(['user_id', 'community_id']).execute();

  await db.schema
    .createTable('media_uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('media_key', 'text', (c) => c.notNull())
    .addColumn('owner_user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('media_category', 'text', (c) => c.notNull())
    .addColumn('total_bytes', 'bigint', (c) => c.notNull())
    .addColumn('additional_owners', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}
