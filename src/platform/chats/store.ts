import type { ChatConversationKeyTable, ChatConversationTable, ChatEventTable, ChatMediaTable, ChatMemberTable, ChatPublicKeyTable } from '../../store/schema-chats.js';
import type { DbOrTx } from '../../store/store.js';

// Public keys

export async function insertPublicKey(db: DbOrTx, row: ChatPublicKeyTable): Promise<boolean> {
  const result = await db.insertInto('chat_public_keys').values(row).onConflict((oc) => oc.columns(['user_id', 'version']).doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** A user's keys, newest version first. */
export async function publicKeysOf(db: DbOrTx, userId: string): Promise<ChatPublicKeyTable[]> {
  return db.selectFrom('chat_public_keys').selectAll().where('user_id', '=', userId).orderBy('version_number', 'desc').execute();
}

/** Every key of these users, newest version first within each. */
export async function publicKeysOfUsers(db: DbOrTx, userIds: readonly string[]): Promise<ChatPublicKeyTable[]> {
  if (userIds.length === 0) return [];
  return db.selectFrom('chat_public_keys').selectAll().where('user_id', 'in', userIds).orderBy('version_number', 'desc').execute();
}

// Conversations and members

export async function findConversation(db: DbOrTx, id: string): Promise<ChatConversationTable | undefined> {
  return db.selectFrom('chat_conversations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Creates the conversation unless it exists (two first key exchanges may race); true when new. */
export async function insertConversation(db: DbOrTx, row: ChatConversationTable): Promise<boolean> {
  const result = await db.insertInto('chat_conversations').values(row).onConflict((oc) => oc.column('id').doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function updateConversation(db: DbOrTx, id: string, set: Partial<Omit<ChatConversationTable, 'id'>>): Promise<void> {
  await db.updateTable('chat_conversations').set(set).where('id', '=', id).execute();
}

export async function membersOf(db: DbOrTx, conversationIds: readonly string[]): Promise<ChatMemberTable[]> {
  if (conversationIds.length === 0) return [];
  return db.selectFrom('chat_members').selectAll().where('conversation_id', 'in', conversationIds).orderBy('joined_at').orderBy('user_id').execute();
}

export async function findMember(db: DbOrTx, conversationId: string, userId: string): Promise<ChatMemberTable | undefined> {
  return db.selectFrom('chat_members').selectAll().where('conversation_id', '=', conversationId).where('user_id', '=', userId).executeTakeFirst();
}

export async function insertMember(db: DbOrTx, row: ChatMemberTable): Promise<void> {
  await db.insertInto('chat_members').values(row).onConflict((oc) => oc.columns(['conversation_id', 'user_id']).doNothing()).execute();
}

export async function setLastRead(db: DbOrTx, conversationId: string, userId: string, sequenceId: string): Promise<void> {
  await db.updateTable('chat_members').set({ last_read_sequence_id: sequenceId }).where('conversation_id', '=', conversationId).where('user_id', '=', userId).execute();
}

/**
 * The active conversations of a user, by last activity, newest first, continuing after
 * (updated_at, id) of the previous page.
 */
export async function conversationsOf(db: DbOrTx, userId: string, opts: { limit: number; after?: { createdAt: string; id: string } }): Promise<ChatConversationTable[]> {
  let q = db
    .selectFrom('chat_conversations as c')
    .innerJoin('chat_members as m', 'm.conversation_id', 'c.id')
    .selectAll('c')
    .where('m.user_id', '=', userId)
    .where('c.state', '=', 'active');
  const after = opts.after;
  if (after) q = q.where((eb) => eb.or([eb('c.updated_at', '<', after.createdAt), eb.and([eb('c.updated_at', '=', after.createdAt), eb('c.id', '<', after.id)])]));
  return q.orderBy('c.updated_at', 'desc').orderBy('c.id', 'desc').limit(opts.limit).execute();
}

/**
 * Whether the user has a message request: a one-to-one conversation where the other user wrote,
 * the user never did, and does not follow them.
 */
export async function hasMessageRequests(db: DbOrTx, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('chat_conversations as c')
    .innerJoin('chat_members as me', (j) => j.onRef('me.conversation_id', '=', 'c.id').on('me.user_id', '=', userId))
    .innerJoin('chat_members as other', (j) => j.onRef('other.conversation_id', '=', 'c.id').on('other.user_id', '!=', userId))
    .select('c.id')
    .where('c.type', '=', 'one_to_one')
    .where((eb) => eb.exists(eb.selectFrom('chat_events as e').select('e.id').whereRef('e.conversation_id', '=', 'c.id').where('e.kind', '=', 'message').whereRef('e.sender_id', '=', 'other.user_id')))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('chat_events as e').select('e.id').whereRef('e.conversation_id', '=', 'c.id').where('e.kind', '=', 'message').where('e.sender_id', '=', userId))))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('follows as f').select('f.target_user_id').where('f.source_user_id', '=', userId).whereRef('f.target_user_id', '=', 'other.user_id'))))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Of `others`, whom `userId` follows. */
export async function followedAmong(db: DbOrTx, userId: string, others: readonly string[]): Promise<Set<string>> {
  if (others.length === 0) return new Set();
  const rows = await db.selectFrom('follows').select('target_user_id').where('source_user_id', '=', userId).where('target_user_id', 'in', others).execute();
  return new Set(rows.map((r) => r.target_user_id));
}

// Keys and events

export async function insertConversationKeys(db: DbOrTx, rows: ChatConversationKeyTable[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('chat_conversation_keys').values(rows).execute();
}

/** The conversation keys encrypted for one user, newest version first. */
export async function conversationKeysFor(db: DbOrTx, conversationId: string, userId: string): Promise<ChatConversationKeyTable[]> {
  return db.selectFrom('chat_conversation_keys').selectAll().where('conversation_id', '=', conversationId).where('user_id', '=', userId).orderBy('sequence_id', 'desc').execute();
}

export async function insertEvent(db: DbOrTx, row: ChatEventTable): Promise<void> {
  await db.insertInto('chat_events').values(row).execute();
}

export async function findEvent(db: DbOrTx, conversationId: string, id: string): Promise<ChatEventTable | undefined> {
  return db.selectFrom('chat_events').selectAll().where('conversation_id', '=', conversationId).where('id', '=', id).executeTakeFirst();
}

export async function findMessageByClientId(db: DbOrTx, conversationId: string, messageId: string): Promise<ChatEventTable | undefined> {
  return db.selectFrom('chat_events').selectAll().where('conversation_id', '=', conversationId).where('message_id', '=', messageId).executeTakeFirst();
}

/** The newest message of a conversation (what the next one follows). */
export async function lastMessage(db: DbOrTx, conversationId: string): Promise<ChatEventTable | undefined> {
  return db.selectFrom('chat_events').selectAll().where('conversation_id', '=', conversationId).where('kind', '=', 'message').orderBy('id', 'desc').limit(1).executeTakeFirst();
}

/** Messages of a conversation, newest first, from `from` on, created after `notBefore`, continuing before `after`. */
export async function messagesOf(
  db: DbOrTx,
  conversationId: string,
  opts: { limit: number; after?: string; from?: string | null; notBefore?: string },
): Promise<ChatEventTable[]> {
  let q = db.selectFrom('chat_events').selectAll().where('conversation_id', '=', conversationId).where('kind', '=', 'message');
  if (opts.from) q = q.where('id', '>=', opts.from);
  if (opts.after) q = q.where('id', '<', opts.after);
  if (opts.notBefore) q = q.where('created_at', '>', opts.notBefore);
  return q.orderBy('id', 'desc').limit(opts.limit).execute();
}

// Media

export async function insertChatMedia(db: DbOrTx, row: ChatMediaTable): Promise<void> {
  await db.insertInto('chat_media').values(row).execute();
}

export async function findChatMedia(db: DbOrTx, id: string): Promise<ChatMediaTable | undefined> {
  return db.selectFrom('chat_media').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findChatMediaByHashKey(db: DbOrTx, hashKey: string): Promise<ChatMediaTable | undefined> {
  return db.selectFrom('chat_media').selectAll().where('media_hash_key', '=', hashKey).executeTakeFirst();
}

/** Open chat media uploads whose time ran out by `now`, the oldest first. */
export async function expiredOpenChatMedia(db: DbOrTx, now: string, limit: number): Promise<Array<{ id: string }>> {
  return db.selectFrom('chat_media').select('id').where('state', '=', 'uploading').where('expires_at', '<=', now).orderBy('expires_at').limit(limit).execute();
}

/** Moves an upload from one state to another; false when it was not in `from` (someone else moved it). */
export async function moveChatMedia(db: DbOrTx, id: string, from: ChatMediaTable['state'], set: Partial<ChatMediaTable> & { state: ChatMediaTable['state'] }): Promise<boolean> {
  const result = await db.updateTable('chat_media').set(set).where('id', '=', id).where('state', '=', from).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
