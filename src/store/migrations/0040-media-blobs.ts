import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * Media bytes kept in the store (issue 37 item 1): on PostgreSQL every process behind a balancer
 * reaches them (src/platform/media/blobs.ts); a file, or a chunked upload's segment, in parts of at
 * most a mebibyte. SQLite keeps media in the data directory and leaves this table empty.
 */
export async function up(db: Kysely<any>, dialect: StoreDialect): Promise<void> {
  await db.schema
    .createTable('media_blobs')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('part', 'integer', (c) => c.notNull())
    .addColumn('bytes', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('media_blobs_pk', ['name', 'part'])
    .execute();
}
