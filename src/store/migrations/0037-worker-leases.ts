import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * Worker numbers leased from the store (issue 37): the 10 bits of a post id that tell processes
 * apart, unique among the live processes of a store, renewed while a process lives and taken over
 * once its lease has expired.
 */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  await db.schema
    .createTable('worker_leases')
    .addColumn('worker', 'integer', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}
