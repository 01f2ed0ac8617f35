import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/** The foundation tables, the same on SQLite and PostgreSQL. */
export async function up(db: Kysely<any>, dialect: StoreDialect): Promise<void> {
  const bool = (name: string) => (t: any) => t.addColumn(name, 'integer', (c: any) => c.notNull().defaultTo(0));

  await db.schema
    .createTable('apps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('tier', 'text', (c) => c.notNull())
    .addColumn('owner_user_id', 'text')
    .addColumn('consumer_key', 'text', (c) => c.notNull().unique())
    .addColumn('consumer_secret', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull().unique())
    .addColumn('client_secret', 'text', (c) => c.notNull())
    .addColumn('callback_urls', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('sign_in_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('app_bearer_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('invalidated_at', 'text')
    .execute();

  let users = db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_lower', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('email', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('location', 'text')
    .addColumn('url', 'text')
    .addColumn('profile_image_url', 'text', (c) => c.notNull())
    .addColumn('profile_banner_url', 'text')
    .addColumn('verified_type', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('subscription_type', 'text', (c) => c.notNull().defaultTo('None'))
    .addColumn('pinned_post_id', 'text')
    .addColumn('most_recent_post_id', 'text')
    .addColumn('affiliation', 'text')
    .addColumn('entities', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('withheld', 'text');
  for (const flag of ['email_confirmed', 'protected', 'verified', 'parody', 'is_identity_verified']) users = bool(flag)(users);
  for (const counter of ['followers_count', 'following_count', 'post_count', 'listed_count', 'like_count', 'media_count']) {
    users = users.addColumn(counter, 'integer', (c) => c.notNull().defaultTo(0));
  }
  await users.execute();

  await db.schema
    .createTable('oauth1_tokens')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('access_level', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('invalidated_at', 'text')
    .execute();
  await db.schema.createIndex('oauth1_tokens_app_user').on('oauth1_tokens').columns(['app_id', 'user_id']).execute();

  await db.schema
    .createTable('oauth2_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();

  await db.schema
    .createTable('oauth_nonces')
    .addColumn('consumer_key', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('oauth_nonces_pk', ['consumer_key', 'nonce'])
    .execute();
  await db.schema.createIndex('oauth_nonces_created').on('oauth_nonces').column('created_at').execute();

  let posts = db.schema
    .createTable('posts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('author_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    .addColumn('in_reply_to_user_id', 'text')
    .addColumn('referenced_posts', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('media_keys', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('poll_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('lang', 'text', (c) => c.notNull().defaultTo('und'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('reply_settings', 'text', (c) => c.notNull().defaultTo('everyone'))
    .addColumn('entities', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('context_annotations', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('community_id', 'text')
    .addColumn('edit_history_post_ids', 'text', (c) => c.notNull())
    .addColumn('edit_controls', 'text', (c) => c.notNull())
    .addColumn('geo', 'text')
    .addColumn('withheld', 'text')
    .addColumn('scopes', 'text')
    .addColumn('deleted_at', 'text');
  for (const flag of ['possibly_sensitive', 'paid_partnership']) posts = bool(flag)(posts);
  for (const counter of ['retweet_count', 'reply_count', 'like_count', 'quote_count', 'bookmark_count', 'impression_count']) {
    posts = posts.addColumn(counter, 'integer', (c) => c.notNull().defaultTo(0));
  }
  await posts.execute();
  await db.schema.createIndex('posts_author_created').on('posts').columns(['author_id', 'created_at']).execute();
  await db.schema.createIndex('posts_conversation').on('posts').column('conversation_id').execute();

  await db.schema
    .createTable('media')
    .addColumn('media_key', 'text', (c) => c.primaryKey())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('owner_user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('preview_image_url', 'text')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('duration_ms', 'integer')
    .addColumn('alt_text', 'text')
    .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('variants', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('file_path', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('follows')
    .addColumn('source_user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('target_user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('follows_pk', ['source_user_id', 'target_user_id'])
    .execute();
  await db.schema.createIndex('follows_target').on('follows').columns(['target_user_id', 'source_user_id']).execute();

  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('valid', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_crc_at', 'text')
    .execute();
  await db.schema.createIndex('webhooks_app').on('webhooks').column('app_id').execute();

  // The event log is append-only and read in `seq` order by fan-out, so `seq` is the engine's
  // own auto-increment: one increasing order across every writer.
  await db.schema
    .createTable('events')
    .addColumn('seq', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
      dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_type_created').on('events').columns(['type', 'created_at']).execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}
