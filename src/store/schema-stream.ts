/**
 * Tables of the filtered stream's rules and its webhooks (migration 0009-stream-rules).
 * Conventions as in schema.ts.
 */
export interface StreamTables {
  stream_rules: StreamRuleTable;
  stream_rule_versions: StreamRuleVersionTable;
  stream_webhooks: StreamWebhookTable;
}

/** One rule of an app's filtered stream (rules belong to the app, the project of the public platform). */
export interface StreamRuleTable {
  id: string;
  app_id: string;
  value: string;
  /** SHA-256 of the value: one rule per value and app (a duplicate is refused), whatever its length. */
  value_hash: string;
  tag: string | null;
  created_at: string;
}

/** Bumped in the transaction of every change of an app's rule set, so every process's rule book sees it. */
export interface StreamRuleVersionTable {
  app_id: string;
  version: number;
  updated_at: string;
}

/** A webhook linked to its app's filtered stream (filtered-stream webhooks), with the fields it asked for. */
export interface StreamWebhookTable {
  webhook_id: string;
  app_id: string;
  /** JSON object: the field selection and expansions of the link, as query parameters (post.fields, expansions...). */
  fields: string;
  created_at: string;
}
