/** The tables of migration 0023: encrypted chat (the public description's Chats tag). */
export interface ChatTables {
  chat_public_keys: ChatPublicKeyTable;
  chat_conversations: ChatConversationTable;
  chat_members: ChatMemberTable;
  chat_conversation_keys: ChatConversationKeyTable;
  chat_events: ChatEventTable;
  chat_media: ChatMediaTable;
}

/** One registered version of a user's chat identity key; the key material is the client's, stored as sent. */
export interface ChatPublicKeyTable {
  user_id: string;
  /** A decimal string; versions of a user only grow. */
  version: string;
  /** The same version as a number, so "newest" is a numeric order on both engines. */
  version_number: number;
  public_key: string;
  signing_public_key: string | null;
  identity_public_key_signature: string | null;
  signing_public_key_signature: string | null;
  public_key_fingerprint: string | null;
  registration_method: string | null;
  created_at: string;
}

export type ChatConversationType = 'one_to_one' | 'group';

/**
 * A conversation: a one-to-one one is named `<smaller id>-<larger id>`, a group `g<id>`. A group
 * is 'initialized' (its id handed out) until its creator creates it.
 */
export interface ChatConversationTable {
  id: string;
  type: ChatConversationType;
  state: 'initialized' | 'active';
  creator_id: string;
  group_name: string | null;
  group_description: string | null;
  group_avatar_url: string | null;
  message_ttl_ms: number | null;
  /** The current conversation key version (decimal string), null before the first keys. */
  key_version: string | null;
  created_at: string;
  updated_at: string;
}

export interface ChatMemberTable {
  conversation_id: string;
  user_id: string;
  is_admin: number;
  is_muted: number;
  /** The first event this member may read (null: from the start). */
  from_sequence_id: string | null;
  last_read_sequence_id: string | null;
  joined_at: string;
}

/** A conversation key version, encrypted by the client for one participant. */
export interface ChatConversationKeyTable {
  conversation_id: string;
  key_version: string;
  user_id: string;
  public_key_version: string | null;
  encrypted_conversation_key: string;
  sequence_id: string;
}

export type ChatEventKind = 'message' | 'key_change';

/** Messages and key changes of a conversation; `id` is the sequence id, time-ordered. */
export interface ChatEventTable {
  id: string;
  conversation_id: string;
  kind: ChatEventKind;
  sender_id: string;
  /** The client's message id (messages only); unique within a conversation. */
  message_id: string | null;
  encoded_event: string | null;
  encoded_signature: string | null;
  conversation_token: string | null;
  key_version: string | null;
  key_rotation: string | null;
  /** JSON array of the action signatures sent with a key change. */
  action_signatures: string | null;
  previous_id: string | null;
  created_at: string;
}

/** A chunked chat media upload and, once finalized, its stored (encrypted) bytes. */
export interface ChatMediaTable {
  id: string;
  media_hash_key: string;
  conversation_id: string;
  owner_user_id: string;
  total_bytes: number;
  /** `expired`: its time ran out while open, and its segments went (src/platform/media/sweeper.ts). */
  state: 'uploading' | 'finalizing' | 'finalized' | 'expired';
  message_id: string | null;
  file_path: string | null;
  size: number | null;
  /** When the stored media stops being served (finalize's ttl_msec), if ever. */
  media_expires_at: string | null;
  created_at: string;
  /** When the upload session closes unless finalized. */
  expires_at: string;
}
