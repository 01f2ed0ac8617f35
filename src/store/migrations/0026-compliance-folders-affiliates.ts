import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * Batch compliance jobs and bookmark folders (a bookmark sits in at most one folder, as in the
 * platform's own apps); the same on SQLite and PostgreSQL.
 * Affiliations need no table: users.affiliation.user_id already names each user's organisations.
 */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  await db.schema
    .createTable('compliance_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('resumable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('upload_token', 'text', (c) => c.notNull().unique())
    .addColumn('download_token', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('upload_expires_at', 'text', (c) => c.notNull())
    .addColumn('download_expires_at', 'text', (c) => c.notNull())
    .addColumn('uploaded_at', 'text')
    .addColumn('completed_at', 'text')
    .addColumn('uploaded_ids', 'text')
    .addColumn('result', 'text')
    .execute();
  await db.schema.createIndex('compliance_jobs_app_type').on('compliance_jobs').columns(['app_id', 'type', 'id']).execute();

  await db.schema
    .createTable('bookmark_folders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bookmark_folders_user_id').on('bookmark_folders').columns(['user_id', 'id']).execute();
  await db.schema
    .createTable('bookmark_folder_posts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('folder_id', 'text', (c) => c.notNull().references('bookmark_folders.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('post_id', 'text', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    // One folder per bookmark: filing it again moves it.
    .addUniqueConstraint('bookmark_folder_posts_pair', ['user_id', 'post_id'])
    .execute();
  await db.schema.createIndex('bookmark_folder_posts_folder_id').on('bookmark_folder_posts').columns(['folder_id', 'id']).execute();
}
