/**
 * Articles and the impression ledger (migration 0025-articles-analytics). The migration also
 * adds `article` to `posts`: the published article as its wire object, so a post read shows it
 * from the row it already reads.
 */
export interface ArticlesAnalyticsTables {
  articles: ArticleTable;
  post_impressions_hourly: PostImpressionHourlyTable;
}

declare module './schema.js' {
  interface PostTable {
    /** JSON of the `article` post field, on the post a published article created; null on other posts. */
    article?: string | null;
  }
}

/** A draft article, and once published the post it created. */
export interface ArticleTable {
  id: string;
  author_id: string;
  title: string;
  /** JSON: the DraftJS content state as sent. */
  content_state: string;
  /** The cover's media key, or null. */
  cover_media_key: string | null;
  /** JSON array of the media keys of the body's image entities. */
  media_keys: string;
  created_at: string;
  published_at: string | null;
  post_id: string | null;
}

/** Impressions of a post served to users other than its author, per UTC hour. */
export interface PostImpressionHourlyTable {
  post_id: string;
  /** The hour's start, ISO 8601 UTC with milliseconds. */
  hour: string;
  impressions: number;
}
