/**
 * Tables of scheduled broadcasts and their chat, and of space ticket purchases (migration
 * 0024-broadcasts-trends). Conventions as in schema.ts. Trends keep no table: they are counted
 * from the posts' entities when asked.
 */
export interface BroadcastTables {
  scheduled_broadcasts: ScheduledBroadcastTable;
  broadcast_chats: BroadcastChatTable;
  space_tickets: SpaceTicketTable;
}

/** One occurrence of a broadcast schedule (a one-off, or one of a recurring series). */
export interface ScheduledBroadcastTable {
  /** The alphanumeric broadcast id (1 to 13 letters and digits): the path id of every operation. */
  broadcast_id: string;
  /** The numeric scheduler id the update body must repeat. */
  scheduled_broadcast_id: string;
  owner_id: string;
  /** Shared by the occurrences of one recurring series; null for a one-off. */
  recurring_schedule_id: string | null;
  /** Daily or Weekly, with recurring_schedule_id. */
  recurrence_frequency: string | null;
  source_id: string;
  title: string | null;
  description: string | null;
  locale: string | null;
  chat_option: string | null;
  telecast_id: string | null;
  thumbnail_media_id: string | null;
  available_for_replay: number;
  is_locked: number;
  manual_publish: number;
  scheduled_start: string;
  scheduled_end: string;
  /** When POST .../live published a manual_publish broadcast. */
  live_at: string | null;
  /** When broadcast.start was written (by POST .../live, or by the coordinator at the scheduled start); null before. */
  start_announced_at: string | null;
  /** When broadcast.end was written by the coordinator at the scheduled end of a started broadcast; null before. */
  end_announced_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface BroadcastChatTable {
  id: string;
  broadcast_id: string;
  user_id: string;
  text: string;
  created_at: string;
}

/** A ticket to a ticketed space, bought by a user (GET /2/spaces/{id}/buyers lists them). */
export interface SpaceTicketTable {
  /** Time-ordered: the paging key of the buyers list. */
  id: string;
  space_id: string;
  user_id: string;
  created_at: string;
}
