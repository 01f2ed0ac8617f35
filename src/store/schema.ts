import type { Generated } from 'kysely';

/**
 * Storage rows. Times are ISO 8601 UTC strings with milliseconds (they sort as text on both
 * engines), booleans are 0/1 integers, nested values are JSON text. Wire objects are built
 * from these by one converter per resource.
 */
import type { ActivityTables } from './schema-activity.js';
import type { AdsTables } from './schema-ads.js';
import type { AdsMediaTables } from './schema-ads-media.js';
import type { AdsAudienceTables } from './schema-ads-audiences.js';
import type { EventsTables } from './schema-events.js';
import type { GraphTables } from './schema-graph.js';
import type { MediaDmTables } from './schema-media-dm.js';
import type { ChatTables } from './schema-chats.js';
import type { OAuthFlowTables } from './schema-oauth.js';
import type { PostsTables } from './schema-posts.js';
import type { StreamTables } from './schema-stream.js';
import type { StreamConnectionTables } from './schema-stream-connections.js';
import type { NewsNotesUsageTables } from './schema-news-notes-usage.js';
import type { ComplianceMiscTables } from './schema-compliance-misc.js';
import type { ArticlesAnalyticsTables } from './schema-articles-analytics.js';
import type { BroadcastTables } from './schema-broadcasts.js';
import type { MediaSubtitleTables } from './schema-media-subtitles.js';
import type { TermHourTables } from './schema-term-hours.js';
import type { ServerSecretTables } from './schema-server-secret.js';
import type { MediaBlobTables } from './schema-media-blobs.js';
import type { WorkerLeaseTables } from './schema-worker-leases.js';
import type { WorldTables } from './schema-worlds.js';

/** Every table: the foundation's here, each later area's in its own schema file. */
export interface Database extends FoundationTables, AdsTables, OAuthFlowTables, PostsTables, GraphTables, ActivityTables, EventsTables, AdsMediaTables, AdsAudienceTables, StreamTables, StreamConnectionTables, MediaDmTables, ChatTables, NewsNotesUsageTables, ComplianceMiscTables, ArticlesAnalyticsTables, BroadcastTables, MediaSubtitleTables, TermHourTables, WorkerLeaseTables, WorldTables, ServerSecretTables, MediaBlobTables {}

export interface FoundationTables {
  apps: AppTable;
  app_bearer_tokens: AppBearerTokenTable;
  users: UserTable;
  oauth1_tokens: OAuth1TokenTable;
  oauth2_tokens: OAuth2TokenTable;
  oauth_nonces: OAuthNonceTable;
  posts: PostTable;
  media: MediaTable;
  follows: FollowTable;
  webhooks: WebhookTable;
  events: EventTable;
  settings: SettingTable;
}

export type Tier = 'free' | 'basic' | 'pro' | 'enterprise' | 'pay-per-use';
export type AccessLevel = 'read' | 'read-write' | 'read-write-directmessages';

export interface AppTable {
  id: string;
  name: string;
  tier: Tier;
  owner_user_id: string | null;
  consumer_key: string;
  consumer_secret: string;
  client_id: string;
  client_secret: string;
  /** JSON array of strings. */
  callback_urls: string;
  /** The "sign in with" setting that lets oauth/authenticate skip re-approval. */
  sign_in_enabled: number;
  /** The names the app is answered and delivered in (src/http/dialect): 'post' unless set. */
  dialect: AppDialect;
  created_at: string;
}

/** 'post': Plaza's names, and the public platform's to a request that uses them; 'tweet': the public platform's names always. */
export type AppDialect = 'post' | 'tweet';

export interface AppBearerTokenTable {
  token_hash: string;
  app_id: string;
  created_at: string;
  invalidated_at: string | null;
}

export interface UserTable {
  id: string;
  username: string;
  username_lower: string;
  name: string;
  password_hash: string | null;
  email: string | null;
  email_confirmed: number;
  created_at: string;
  description: string;
  location: string | null;
  url: string | null;
  profile_image_url: string;
  profile_banner_url: string | null;
  protected: number;
  verified: number;
  verified_type: string;
  subscription_type: string;
  parody: number;
  is_identity_verified: number;
  pinned_post_id: string | null;
  most_recent_post_id: string | null;
  /** JSON object: {badge_url?, description?, url?, user_id?: string[]}, or null. */
  affiliation: string | null;
  /** JSON object: user entities (url.urls, description.*). */
  entities: string;
  /** JSON object or null. */
  withheld: string | null;
  followers_count: number;
  following_count: number;
  post_count: number;
  listed_count: number;
  like_count: number;
  media_count: number;
}

export interface OAuth1TokenTable {
  token: string;
  secret: string;
  app_id: string;
  user_id: string;
  access_level: AccessLevel;
  created_at: string;
  invalidated_at: string | null;
}

export interface OAuth2TokenTable {
  token_hash: string;
  kind: 'access' | 'refresh';
  app_id: string;
  user_id: string;
  /** Space-separated scopes. */
  scopes: string;
  expires_at: string | null;
  created_at: string;
  revoked_at: string | null;
}

export interface OAuthNonceTable {
  consumer_key: string;
  nonce: string;
  timestamp: number;
  created_at: string;
}

export interface PostTable {
  id: string;
  author_id: string;
  text: string;
  created_at: string;
  conversation_id: string;
  in_reply_to_user_id: string | null;
  /** JSON array of {type, id}. */
  referenced_posts: string;
  /** JSON array of media keys. */
  media_keys: string;
  /** JSON array of poll ids. */
  poll_ids: string;
  /**
   * JSON array of the posts that first showed media this post attaches (none of them a version of
   * this post), in the order of its media keys; null when there are none.
   */
  media_source_post_ids: string | null;
  lang: string;
  source: string;
  possibly_sensitive: number;
  reply_settings: string;
  /** JSON object: urls, mentions, hashtags, cashtags, annotations. */
  entities: string;
  /** JSON array. */
  context_annotations: string;
  paid_partnership: number;
  community_id: string | null;
  /** JSON array of post ids, oldest first, this one last. */
  edit_history_post_ids: string;
  /** JSON object: {edits_remaining, is_edit_eligible, editable_until}. */
  edit_controls: string;
  /** JSON object or null. */
  geo: string | null;
  /** JSON object or null. */
  withheld: string | null;
  /** JSON object or null: {followers: boolean}. */
  scopes: string | null;
  retweet_count: number;
  reply_count: number;
  like_count: number;
  quote_count: number;
  bookmark_count: number;
  impression_count: number;
  deleted_at: string | null;
}

export interface MediaTable {
  media_key: string;
  id: string;
  owner_user_id: string;
  type: 'photo' | 'video' | 'animated_gif' | 'subtitles';
  url: string | null;
  preview_image_url: string | null;
  width: number | null;
  height: number | null;
  duration_ms: number | null;
  alt_text: string | null;
  /** JSON object of the metadata set through POST /2/media/metadata besides alt_text; null when none. */
  metadata: string | null;
  view_count: number;
  /** JSON array of {bit_rate?, content_type, url}. */
  variants: string;
  mime_type: string;
  size_bytes: number;
  file_path: string | null;
  /** The first post that attached this media; null until one does. */
  source_post_id: string | null;
  created_at: string;
}

export interface FollowTable {
  source_user_id: string;
  target_user_id: string;
  created_at: string;
}

export interface WebhookTable {
  id: string;
  app_id: string;
  url: string;
  valid: number;
  created_at: string;
  last_crc_at: string | null;
  /** When the current run of transient delivery or CRC failures began (null: none). */
  failing_since: string | null;
  /** Why the webhook became invalid, when it is. */
  invalid_reason: string | null;
  /** The last CRC sent, passed or not: the periodic re-check is timed from it. */
  last_crc_attempt_at: string | null;
}

export interface EventTable {
  seq: Generated<number>;
  id: string;
  type: string;
  /** The id of what the event is about (a post, a user, a webhook...). */
  subject: string;
  /** JSON: what a subscriber receives. */
  payload: string;
  created_at: string;
}

/** Small named records of the installation (e.g. which apps and users form the demo workspace). */
export interface SettingTable {
  key: string;
  /** JSON. */
  value: string;
}
