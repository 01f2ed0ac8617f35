import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * Encrypted chat (the public description's Chats tag): users' public keys, conversations, their
 * members and key versions, message and key-change events, and chunked media uploads; the same
 * on SQLite and PostgreSQL.
 */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  await db.schema
    .createTable('chat_public_keys')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('version_number', 'bigint', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('signing_public_key', 'text')
    .addColumn('identity_public_key_signature', 'text')
    .addColumn('signing_public_key_signature', 'text')
    .addColumn('public_key_fingerprint', 'text')
    .addColumn('registration_method', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('chat_public_keys_pk', ['user_id', 'version'])
    .execute();

  await db.schema
    .createTable('chat_conversations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('creator_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('group_name', 'text')
    .addColumn('group_description', 'text')
    .addColumn('group_avatar_url', 'text')
    .addColumn('message_ttl_ms', 'bigint')
    .addColumn('key_version', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('chat_members')
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('chat_conversations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_muted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('from_sequence_id', 'text')
    .addColumn('last_read_sequence_id', 'text')
    .addColumn('joined_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('chat_members_pk', ['conversation_id', 'user_id'])
    .execute();
  await db.schema.createIndex('chat_members_user').on('chat_members').columns(['user_id']).execute();

  await db.schema
    .createTable('chat_conversation_keys')
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('chat_conversations.id').onDelete('cascade'))
    .addColumn('key_version', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('public_key_version', 'text')
    .addColumn('encrypted_conversation_key', 'text', (c) => c.notNull())
    .addColumn('sequence_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('chat_conversation_keys_pk', ['conversation_id', 'key_version', 'user_id'])
    .execute();

  await db.schema
    .createTable('chat_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('chat_conversations.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('sender_id', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text')
    .addColumn('encoded_event', 'text')
    .addColumn('encoded_signature', 'text')
    .addColumn('conversation_token', 'text')
    .addColumn('key_version', 'text')
    .addColumn('key_rotation', 'text')
    .addColumn('action_signatures', 'text')
    .addColumn('previous_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('chat_events_conversation').on('chat_events').columns(['conversation_id', 'id']).execute();
  // A client's message id names one message of a conversation (retries find it again).
  await db.schema.createIndex('chat_events_message').on('chat_events').columns(['conversation_id', 'message_id']).unique().execute();

  await db.schema
    .createTable('chat_media')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('media_hash_key', 'text', (c) => c.notNull().unique())
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('chat_conversations.id').onDelete('cascade'))
    .addColumn('owner_user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('total_bytes', 'bigint', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text')
    .addColumn('file_path', 'text')
    .addColumn('size', 'bigint')
    .addColumn('media_expires_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}
