/** Tables of event delivery (migration 0006-events). Conventions as in schema.ts. */
export interface EventsTables {
  event_cursors: EventCursorTable;
  webhook_deliveries: WebhookDeliveryTable;
  account_activity_subscriptions: AccountActivitySubscriptionTable;
  webhook_replay_jobs: WebhookReplayJobTable;
}

export interface EventCursorTable {
  name: string;
  seq: number;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookDeliveryTable {
  /** The delivery id: sent as a header so receivers can dedupe at-least-once deliveries. */
  id: string;
  webhook_id: string;
  event_id: string;
  event_seq: number;
  /** Which registered router produced it (its index), so two routers may reach one webhook. */
  route: number;
  /** Which of the router's bodies for this webhook (one event may concern two subscribed users). */
  part: number;
  /** '' for the live delivery; the job's id for a replayed copy. */
  replay_job_id: string;
  /** The exact JSON body, signed as sent. */
  body: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string;
  /** Set while one process delivers it; another may take it only after this passes. */
  claimed_until: string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

export interface AccountActivitySubscriptionTable {
  webhook_id: string;
  user_id: string;
  app_id: string;
  /** 1 when the subscribing token could read direct messages; DM events go only to those. */
  direct_messages: number;
  created_at: string;
}

export interface WebhookReplayJobTable {
  id: string;
  webhook_id: string;
  from_time: string;
  to_time: string;
  state: 'running' | 'complete' | 'incomplete';
  created_at: string;
  finished_at: string | null;
}
