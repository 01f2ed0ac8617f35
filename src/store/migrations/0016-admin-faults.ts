import type { Kysely } from 'kysely';

/**
 * The faults of the admin interface (src/admin/faults.ts): each waits in the store, so every
 * process sharing it sees the same ones, and a counted fault (the next request, the next N
 * deliveries) is spent by one atomic update whichever process meets it first.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('admin_faults')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('app_id', 'text')
    .addColumn('webhook_id', 'text')
    .addColumn('endpoint', 'text')
    /** JSON: the rest of what was asked (period and scope, status, disconnect_type). */
    .addColumn('detail', 'text', (c) => c.notNull())
    /** How many more times it strikes; null while it holds until cleared. */
    .addColumn('remaining', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}
