import type { AdsEntityColumns } from './schema-ads.js';

/**
 * Tables of the advertising interface's creatives (migration 0011-ads-media): the media library
 * (media of the platform's `media` table added to an account), account media, media creatives,
 * cards (cards, poll cards and video conversation cards), posts made through the advertising
 * interface (rows of the platform's `posts` table, with what only the ads side knows), and
 * scheduled and draft posts. The migration also adds `nullcast` to `posts`.
 */
export interface AdsMediaTables {
  ads_media_library: AdsMediaLibraryTable;
  ads_account_media: AdsAccountMediaTable;
  ads_media_creatives: AdsMediaCreativeTable;
  ads_cards: AdsCardTable;
  ads_posts: AdsPostTable;
  ads_scheduled_posts: AdsScheduledPostTable;
}

declare module './schema.js' {
  interface PostTable {
    /** A promoted-only post (ads interface, nullcast=true): readable by id, absent from timelines and search. */
    nullcast?: number;
  }
}

/** One media of the `media` table (or an upload still processing) in an account's media library. */
export interface AdsMediaLibraryTable extends AdsEntityColumns {
  account_id: string;
  media_key: string;
  /** IMAGE, GIF or VIDEO. */
  media_type: string;
  /** POST_IMAGE, POST_GIF, POST_VIDEO or PROMO_VIDEO. */
  media_category: string;
  name: string | null;
  file_name: string | null;
  title: string | null;
  description: string | null;
  poster_media_key: string | null;
  /** Used by a post made through the advertising interface. */
  posted: number;
  created_by: string;
}

export interface AdsAccountMediaTable extends AdsEntityColumns {
  account_id: string;
  media_key: string;
  creative_type: string;
}

export interface AdsMediaCreativeTable extends AdsEntityColumns {
  account_id: string;
  line_item_id: string;
  account_media_id: string;
  landing_url: string | null;
  creative_type: string;
  entity_status: string;
  approval_status: string;
}

/** kind: `card` (POST cards), `poll` or `video_conversation`; content: JSON of the kind's own fields. */
export interface AdsCardTable extends AdsEntityColumns {
  account_id: string;
  kind: string;
  name: string;
  card_type: string;
  content: string;
}

/** A post made through the advertising interface: the post row lives in `posts`. */
export interface AdsPostTable {
  post_id: string;
  account_id: string;
  name: string | null;
  card_uri: string | null;
  video_cta: string | null;
  video_cta_value: string | null;
  video_title: string | null;
  video_description: string | null;
  created_at: string;
  updated_at: string;
}

/** kind: `scheduled` or `draft`; hard-deleted (shared/reference/ads.md §3). */
export interface AdsScheduledPostTable {
  id: string;
  account_id: string;
  kind: string;
  user_id: string;
  text: string | null;
  name: string | null;
  card_uri: string | null;
  /** JSON array of media keys. */
  media_keys: string;
  nullcast: number;
  scheduled_at: string | null;
  scheduled_status: string | null;
  completed_at: string | null;
  post_id: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}
