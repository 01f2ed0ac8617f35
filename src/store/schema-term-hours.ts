/**
 * Per-word hourly post counts, PostgreSQL only (migration 0028-post-term-hours). Conventions as in
 * schema.ts.
 */
export interface TermHourTables {
  post_term_hours: PostTermHourTable;
  post_term_hours_dirty: PostTermHourDirtyTable;
}

/** How many live posts created in one UTC hour hold one word. */
export interface PostTermHourTable {
  /** A lexeme of posts.search_tsv: a word as src/query's tokenize() cuts it. */
  term: string;
  /** created_at's first 13 characters, `YYYY-MM-DDTHH`. */
  hour: string;
  /** 1 for reposts, 0 for the rest. */
  repost: number;
  n: number;
}

/** An hour whose posts changed since it was counted (appended by triggers on posts). */
export interface PostTermHourDirtyTable {
  hour: string;
}
