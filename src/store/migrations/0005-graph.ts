import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * The social graph (follow requests, likes, bookmarks, blocks, mutes), lists, spaces and direct
 * messages, the same on SQLite and PostgreSQL. Relation tables have a time-ordered `id` (the
 * paging key, newest first) and a unique pair so a repeated write changes nothing.
 */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  const userRef = (c: any) => c.notNull().references('users.id').onDelete('cascade');
  const counter = (c: any) => c.notNull().defaultTo(0);

  const pairTable = async (name: string, left: string, leftRef: string, right: string, rightRef: string) => {
    await db.schema
      .createTable(name)
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn(left, 'text', (c) => c.notNull().references(leftRef).onDelete('cascade'))
      .addColumn(right, 'text', (c) => c.notNull().references(rightRef).onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint(`${name}_pair`, [left, right])
      .execute();
    await db.schema.createIndex(`${name}_${left}_id`).on(name).columns([left, 'id']).execute();
    await db.schema.createIndex(`${name}_${right}_id`).on(name).columns([right, 'id']).execute();
  };

  await pairTable('follow_requests', 'source_user_id', 'users.id', 'target_user_id', 'users.id');
  await pairTable('likes', 'user_id', 'users.id', 'post_id', 'posts.id');
  await pairTable('bookmarks', 'user_id', 'users.id', 'post_id', 'posts.id');
  await pairTable('blocks', 'source_user_id', 'users.id', 'target_user_id', 'users.id');
  await pairTable('mutes', 'source_user_id', 'users.id', 'target_user_id', 'users.id');

  await db.schema
    .createTable('lists')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', userRef)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('private', 'integer', counter)
    .addColumn('member_count', 'integer', counter)
    .addColumn('follower_count', 'integer', counter)
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('lists_owner_id').on('lists').columns(['owner_id', 'id']).execute();

  await pairTable('list_members', 'list_id', 'lists.id', 'user_id', 'users.id');
  await pairTable('list_followers', 'list_id', 'lists.id', 'user_id', 'users.id');
  await pairTable('pinned_lists', 'user_id', 'users.id', 'list_id', 'lists.id');

  await db.schema
    .createTable('spaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('creator_id', 'text', userRef)
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('lang', 'text', (c) => c.notNull().defaultTo('en'))
    .addColumn('is_ticketed', 'integer', counter)
    .addColumn('host_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('speaker_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('invited_user_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('topic_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('participant_count', 'integer', counter)
    .addColumn('subscriber_count', 'integer', counter)
    .addColumn('scheduled_start', 'text')
    .addColumn('started_at', 'text')
    .addColumn('ended_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('spaces_creator').on('spaces').columns(['creator_id', 'created_at']).execute();
  await db.schema.createIndex('spaces_state').on('spaces').columns(['state', 'created_at']).execute();

  await db.schema
    .createTable('dm_conversations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('creator_id', 'text', userRef)
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('dm_participants')
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('dm_conversations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', userRef)
    .addColumn('from_event_id', 'text')
    .addColumn('until_event_id', 'text')
    .addColumn('last_read_event_id', 'text')
    .addPrimaryKeyConstraint('dm_participants_pk', ['conversation_id', 'user_id'])
    .execute();
  await db.schema.createIndex('dm_participants_user').on('dm_participants').columns(['user_id', 'conversation_id']).execute();

  await db.schema
    .createTable('dm_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('dm_conversations.id').onDelete('cascade'))
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('sender_id', 'text', userRef)
    .addColumn('text', 'text')
    .addColumn('entities', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('media_keys', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('referenced_posts', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('participant_ids', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema.createIndex('dm_events_conversation').on('dm_events').columns(['conversation_id', 'id']).execute();
}
