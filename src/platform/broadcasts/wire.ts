import type { ScheduledBroadcastTable } from '../../store/schema-broadcasts.js';

export type BroadcastRow = ScheduledBroadcastTable;

/** Scheduler states, as the description names them (Created, Scheduled, Running, …). */
export type BroadcastState = 'Scheduled' | 'Running' | 'Ended';

/**
 * The state at `now`: a broadcast ends at its scheduled end; before that, one with manual_publish
 * runs once POST .../live published it, any other runs from its scheduled start (the coordinator
 * auto-publishes it). The state follows the clock as it reads; the events of a start and an end
 * are written by the coordinator's next tick (announceDueBroadcasts).
 */
export function stateOf(row: BroadcastRow, now: Date): BroadcastState {
  const at = now.toISOString();
  if (at >= row.scheduled_end) return 'Ended';
  if (row.manual_publish === 1) return row.live_at ? 'Running' : 'Scheduled';
  return at >= row.scheduled_start ? 'Running' : 'Scheduled';
}

export const msOf = (iso: string): string => String(new Date(iso).getTime());

/** The scheduled broadcast object of every broadcast response; absent optional values are left out. */
export function broadcastObject(row: BroadcastRow, now: Date) {
  const optional = (value: string | null) => value ?? undefined;
  return {
    broadcast_id: row.broadcast_id,
    scheduled_broadcast_id: row.scheduled_broadcast_id,
    state: stateOf(row, now),
    source_id: row.source_id,
    title: optional(row.title),
    description: optional(row.description),
    locale: optional(row.locale),
    chat_option: optional(row.chat_option),
    telecast_id: optional(row.telecast_id),
    thumbnail_media_id: optional(row.thumbnail_media_id),
    recurring_schedule_id: optional(row.recurring_schedule_id),
    available_for_replay: row.available_for_replay === 1,
    manual_publish: row.manual_publish === 1,
    scheduled_start_ms: msOf(row.scheduled_start),
    scheduled_end_ms: msOf(row.scheduled_end),
  };
}

export type BroadcastWire = ReturnType<typeof broadcastObject>;
