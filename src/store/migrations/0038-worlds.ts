import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * Worlds (issue 36), kept in the default world's store so every process on it sees the same ones:
 * each world's store, seed and credentials (the credentials file's shape, as POST /admin/worlds
 * answered it), and the snapshots recorded of it (a whole-store dump, src/worlds/dump.ts).
 */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  await db.schema
    .createTable('worlds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seed', 'text', (c) => c.notNull())
    .addColumn('store', 'text', (c) => c.notNull())
    .addColumn('credentials', 'text', (c) => c.notNull())
    .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('world_snapshots')
    .addColumn('world_id', 'text', (c) => c.notNull().references('worlds.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('dump', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('world_snapshots_pk', ['world_id', 'name'])
    .execute();
}
