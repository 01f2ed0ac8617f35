/**
 * Tables of the Activity API (migration 0007-activity): an app's subscriptions to activity
 * event types, each with its filter, optional tag and optional webhook.
 */
export interface ActivityTables {
  activity_subscriptions: ActivitySubscriptionTable;
}

export interface ActivitySubscriptionTable {
  id: string;
  app_id: string;
  /** The event type as the subscriber named it (a PascalCase name accepted before Mar 18, 2026 stays as given). */
  event_type: string;
  /** The dot-separated name it stands for: what matching reads. */
  canonical_type: string;
  user_id: string | null;
  keyword: string | null;
  /** JSON: "sent", "received" or ["sent","received"], as given; null when absent. */
  direction: string | null;
  /** One text per (type, filter), so the same subscription is not made twice. */
  filter_key: string;
  tag: string | null;
  webhook_id: string | null;
  /** The user whose token made a subscription to a private event (their scopes allowed it). */
  owner_user_id: string | null;
  created_at: string;
  updated_at: string;
}
