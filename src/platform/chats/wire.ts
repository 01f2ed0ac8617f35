import type { ResourceDeclaration } from '../../http/fields.js';
import type { ResourceType } from '../../http/problems.js';
import type { ChatConversationTable, ChatEventTable, ChatMemberTable, ChatPublicKeyTable } from '../../store/schema-chats.js';
import { expansionsOf, type ExpansionDeclarations } from '../expansions.js';

/** A conversation as one member sees it: the row, its members, and that member's own settings. */
export interface ConversationRow {
  conversation: ChatConversationTable;
  members: ChatMemberTable[];
  viewer: ChatMemberTable;
}

const memberIds = (r: ConversationRow) => r.members.map((m) => m.user_id);
const adminIds = (r: ConversationRow) => (r.conversation.type === 'group' ? r.members.filter((m) => m.is_admin === 1).map((m) => m.user_id) : []);

/**
 * The ChatConversation of the public description. admin_ids, member_ids and participant_ids are
 * not among chat_conversation.fields there: they appear when expanded, with their users in
 * includes. Participants are every member (of a one-to-one conversation, its two users).
 */
export const chatConversationDeclaration: ResourceDeclaration<ConversationRow, { expansions: ReadonlySet<string> }> = {
  // The spec's resource_type enumeration has no chat value; problems about chats name their parameter.
  resource: 'chat_conversation' as ResourceType,
  fieldsParam: 'chat_conversation.fields',
  defaults: ['id', 'type'],
  fields: {
    created_at: (r) => r.conversation.created_at,
    group_avatar_url: (r) => r.conversation.group_avatar_url ?? undefined,
    group_name: (r) => r.conversation.group_name ?? undefined,
    id: (r) => r.conversation.id,
    is_muted: (r) => r.viewer.is_muted === 1,
    message_ttl_ms: (r) => r.conversation.message_ttl_ms ?? undefined,
    screen_capture_blocking_enabled: () => false,
    screen_capture_detection_enabled: () => false,
    type: (r) => r.conversation.type,
    updated_at: (r) => r.conversation.updated_at,
  },
};

/** The id lists an expansion adds to each conversation, beside its users in includes. */
export const CONVERSATION_ID_LISTS: Readonly<Record<string, (r: ConversationRow) => string[]>> = {
  admin_ids: adminIds,
  member_ids: memberIds,
  participant_ids: memberIds,
};

export const chatConversationExpansions: ExpansionDeclarations<ConversationRow> = expansionsOf(chatConversationDeclaration, {
  admin_ids: { target: 'users', keys: adminIds },
  member_ids: { target: 'users', keys: memberIds },
  participant_ids: { target: 'users', keys: memberIds },
});

/** A message event as one member reads it: is_trusted depends on who reads. */
export interface MessageEventRow {
  event: ChatEventTable;
  trusted: boolean;
}

/**
 * The ChatMessageEvent: encoded_event is the client's encoded_message_create_event as sent (Plaza
 * stores ciphertext, it does not read it); message_event_signature carries the client's
 * encoded_message_event_signature.
 */
export const chatMessageEventDeclaration: ResourceDeclaration<MessageEventRow, unknown> = {
  resource: 'chat_message_event' as ResourceType,
  fieldsParam: 'chat_message_event.fields',
  defaults: ['id', 'sender_id', 'encoded_event'],
  fields: {
    conversation_id: (r) => r.event.conversation_id,
    conversation_token: (r) => r.event.conversation_token ?? undefined,
    created_at: (r) => r.event.created_at,
    encoded_event: (r) => r.event.encoded_event ?? undefined,
    id: (r) => r.event.id,
    is_trusted: (r) => r.trusted,
    message_event_signature: (r) => (r.event.encoded_signature ? { encoded_message_event_signature: r.event.encoded_signature } : undefined),
    previous_id: (r) => r.event.previous_id ?? undefined,
    sender_id: (r) => r.event.sender_id,
  },
};

/** The PublicKey: the key material a user registered, as they sent it. */
export const publicKeyDeclaration: ResourceDeclaration<ChatPublicKeyTable, unknown> = {
  resource: 'public_key' as ResourceType,
  fieldsParam: 'public_key.fields',
  defaults: ['public_key', 'public_key_version'],
  fields: {
    identity_public_key_signature: (k) => k.identity_public_key_signature ?? undefined,
    // Plaza runs no Juicebox key-recovery realm: there is no configuration to give.
    juicebox_config: () => undefined,
    public_key: (k) => k.public_key,
    public_key_version: (k) => k.version,
    signing_public_key: (k) => k.signing_public_key ?? undefined,
  },
};

/** Conversation ids of the Chats paths: a user id (the other side of a one-to-one), a pair, or a group. */
export const CHAT_CONVERSATION_ID_TEXT = '^([0-9]{1,19}|[0-9]{1,19}-[0-9]{1,19}|g[0-9]{1,19})$';
