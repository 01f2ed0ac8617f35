import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * Media metadata besides alt text, hourly media view and playback
 * counts (GET /2/media/analytics), and DM blocks (POST /2/users/{id}/dm/block); the same on
 * SQLite and PostgreSQL.
 */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  await db.schema.alterTable('media').addColumn('metadata', 'text').execute();

  await db.schema
    .createTable('media_metric_hours')
    .addColumn('media_key', 'text', (c) => c.notNull())
    /** The hour the counts fall in, as an ISO date-time at its start. */
    .addColumn('hour', 'text', (c) => c.notNull())
    .addColumn('video_views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('playback_start', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('playback25', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('playback50', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('playback75', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('playback_complete', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('watch_time_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('media_metric_hours_pk', ['media_key', 'hour'])
    .execute();

  await db.schema
    .createTable('dm_blocks')
    .addColumn('source_user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('target_user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('dm_blocks_pk', ['source_user_id', 'target_user_id'])
    .execute();
}
