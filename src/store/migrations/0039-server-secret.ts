import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * The server secret kept in the store (issue 37): every process on a store derives the same app
 * bearer tokens, cookie keys and admin token from it, with no file to share. One row; a configured
 * secret file (PLAZA_SECRET_FILE) is used instead when one is set.
 */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  await db.schema
    .createTable('server_secret')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}
