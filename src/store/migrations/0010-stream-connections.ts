import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/** Streaming connections (GET /2/connections), the same on SQLite and PostgreSQL. */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  await db.schema
    .createTable('stream_connections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('endpoint_name', 'text', (c) => c.notNull())
    .addColumn('partition', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('client_ip', 'text', (c) => c.notNull())
    .addColumn('connected_at', 'text', (c) => c.notNull())
    .addColumn('disconnected_at', 'text')
    .addColumn('disconnect_reason', 'text')
    .addColumn('seen_at', 'text', (c) => c.notNull())
    .execute();
  // The list pages an app's connections newest first; the allowance counts the open ones of an endpoint.
  await db.schema.createIndex('stream_connections_app').on('stream_connections').columns(['app_id', 'connected_at', 'id']).execute();
  await db.schema.createIndex('stream_connections_open').on('stream_connections').columns(['app_id', 'endpoint_name', 'disconnected_at']).execute();
}
