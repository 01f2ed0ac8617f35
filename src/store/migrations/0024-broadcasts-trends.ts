import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/** Scheduled broadcasts and their chat, and space ticket purchases; the same on SQLite and PostgreSQL. */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  await db.schema
    .createTable('scheduled_broadcasts')
    .addColumn('broadcast_id', 'text', (c) => c.primaryKey())
    .addColumn('scheduled_broadcast_id', 'text', (c) => c.notNull().unique())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('recurring_schedule_id', 'text')
    .addColumn('recurrence_frequency', 'text')
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('description', 'text')
    .addColumn('locale', 'text')
    .addColumn('chat_option', 'text')
    .addColumn('telecast_id', 'text')
    .addColumn('thumbnail_media_id', 'text')
    .addColumn('available_for_replay', 'integer', (c) => c.notNull())
    .addColumn('is_locked', 'integer', (c) => c.notNull())
    .addColumn('manual_publish', 'integer', (c) => c.notNull())
    .addColumn('scheduled_start', 'text', (c) => c.notNull())
    .addColumn('scheduled_end', 'text', (c) => c.notNull())
    .addColumn('live_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // The owner's list is ordered by start time; a series is read as a whole on update and delete.
  await db.schema.createIndex('scheduled_broadcasts_owner').on('scheduled_broadcasts').columns(['owner_id', 'scheduled_start', 'broadcast_id']).execute();
  await db.schema.createIndex('scheduled_broadcasts_series').on('scheduled_broadcasts').columns(['recurring_schedule_id', 'scheduled_start']).execute();

  await db.schema
    .createTable('broadcast_chats')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('broadcast_id', 'text', (c) => c.notNull().references('scheduled_broadcasts.broadcast_id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('broadcast_chats_broadcast').on('broadcast_chats').columns(['broadcast_id', 'id']).execute();

  await db.schema
    .createTable('space_tickets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    // One ticket per buyer and space.
    .addUniqueConstraint('space_tickets_space_user', ['space_id', 'user_id'])
    .execute();
  await db.schema.createIndex('space_tickets_space').on('space_tickets').columns(['space_id', 'id']).execute();
}
