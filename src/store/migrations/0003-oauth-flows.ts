import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/** The OAuth flows and the pages: request tokens, bearer derivations, codes, grants, sessions. */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  await db.schema
    .createTable('oauth1_request_tokens')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('callback', 'text', (c) => c.notNull())
    .addColumn('access_level', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('verifier_hash', 'text')
    .addColumn('authorized_at', 'text')
    .addColumn('denied_at', 'text')
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('oauth1_request_tokens_expires').on('oauth1_request_tokens').column('expires_at').execute();

  await db.schema
    .createTable('app_bearer_derivations')
    .addColumn('token_hash', 'text', (c) => c.primaryKey().references('app_bearer_tokens.token_hash').onDelete('cascade'))
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('salt', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('app_bearer_derivations_app').on('app_bearer_derivations').column('app_id').execute();
  await db.schema.createIndex('app_bearer_tokens_app').on('app_bearer_tokens').column('app_id').execute();

  await db.schema
    .createTable('oauth2_grants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('scope_dialect', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();

  await db.schema
    .createTable('oauth2_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('grant_id', 'text', (c) => c.notNull().references('oauth2_grants.id').onDelete('cascade'))
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text', (c) => c.notNull())
    .addColumn('code_challenge_method', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();

  await db.schema
    .createTable('oauth2_grant_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey().references('oauth2_tokens.token_hash').onDelete('cascade'))
    .addColumn('grant_id', 'text', (c) => c.notNull().references('oauth2_grants.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('oauth2_grant_tokens_grant').on('oauth2_grant_tokens').column('grant_id').execute();

  await db.schema
    .createTable('web_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('web_sessions_user').on('web_sessions').column('user_id').execute();
}
