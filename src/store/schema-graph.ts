/**
 * Tables of the social graph, lists, spaces and direct messages (migration 0005-graph).
 * Relation rows carry a time-ordered `id` so lists page newest first by one sortable key.
 */
export interface GraphTables {
  follow_requests: FollowRequestTable;
  likes: LikeTable;
  bookmarks: BookmarkTable;
  blocks: BlockTable;
  mutes: MuteTable;
  lists: ListTable;
  list_members: ListMemberTable;
  list_followers: ListFollowerTable;
  pinned_lists: PinnedListTable;
  spaces: SpaceTable;
  dm_conversations: DmConversationTable;
  dm_participants: DmParticipantTable;
  dm_events: DmEventTable;
}

/** A pending follow of a protected account, until the target accepts or declines it. */
export interface FollowRequestTable {
  id: string;
  source_user_id: string;
  target_user_id: string;
  created_at: string;
}

export interface LikeTable {
  id: string;
  user_id: string;
  post_id: string;
  created_at: string;
}

export interface BookmarkTable {
  id: string;
  user_id: string;
  post_id: string;
  created_at: string;
}

export interface BlockTable {
  id: string;
  source_user_id: string;
  target_user_id: string;
  created_at: string;
}

export interface MuteTable {
  id: string;
  source_user_id: string;
  target_user_id: string;
  created_at: string;
}

export interface ListTable {
  id: string;
  owner_id: string;
  name: string;
  description: string;
  private: number;
  member_count: number;
  follower_count: number;
  created_at: string;
  updated_at: string;
}

export interface ListMemberTable {
  id: string;
  list_id: string;
  user_id: string;
  created_at: string;
}

export interface ListFollowerTable {
  id: string;
  list_id: string;
  user_id: string;
  created_at: string;
}

export interface PinnedListTable {
  id: string;
  user_id: string;
  list_id: string;
  created_at: string;
}

export type SpaceState = 'scheduled' | 'live' | 'ended';

export interface SpaceTable {
  /** 1 to 13 letters and digits, as on the public platform. */
  id: string;
  creator_id: string;
  title: string;
  state: SpaceState;
  lang: string;
  is_ticketed: number;
  /** JSON arrays of user ids (topic ids for topic_ids). */
  host_ids: string;
  speaker_ids: string;
  invited_user_ids: string;
  topic_ids: string;
  participant_count: number;
  subscriber_count: number;
  scheduled_start: string | null;
  started_at: string | null;
  ended_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface DmConversationTable {
  /** `<smaller user id>-<larger user id>` for one-to-one conversations; a plain id for groups. */
  id: string;
  kind: 'one_to_one' | 'group';
  creator_id: string;
  created_at: string;
}

export interface DmParticipantTable {
  conversation_id: string;
  user_id: string;
  /** The first event this participant may see (their join event); null: from the start. */
  from_event_id: string | null;
  /** The last event this participant may see (their leave event); null while they take part. */
  until_event_id: string | null;
  last_read_event_id: string | null;
}

export type DmEventType = 'MessageCreate' | 'ParticipantsJoin' | 'ParticipantsLeave';

export interface DmEventTable {
  id: string;
  conversation_id: string;
  event_type: DmEventType;
  sender_id: string;
  text: string | null;
  /** JSON object: urls, mentions, hashtags, cashtags. */
  entities: string;
  /** JSON array of media keys. */
  media_keys: string;
  /** JSON array of {id}. */
  referenced_posts: string;
  /** JSON array of user ids: only on join and leave events (spec 000 "Events"). */
  participant_ids: string | null;
  created_at: string;
  deleted_at: string | null;
}
