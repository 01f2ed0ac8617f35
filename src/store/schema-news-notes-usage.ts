/**
 * Tables of news stories, community notes and usage pricing (migration 0017-news-notes-usage).
 * Conventions as in schema.ts. Credits are kept as integer micro-credits (0.001 = 1000) so sums
 * are exact on both engines.
 */
export interface NewsNotesUsageTables {
  news_stories: NewsStoryTable;
  note_writers: NoteWriterTable;
  community_notes: CommunityNoteTable;
  usage_ledger: UsageLedgerTable;
  usage_caps: UsageCapTable;
  usage_post_days: UsagePostDayTable;
  usage_posts_seen: UsagePostSeenTable;
}

/** A news story (GET /2/news/*): written by the demo seed or the admin interface (createNewsStory). */
export interface NewsStoryTable {
  id: string;
  name: string;
  category: string;
  hook: string;
  summary: string;
  disclaimer: string | null;
  /** JSON array of strings: each a term of the query language; the posts matching any form the story's cluster. */
  keywords: string;
  /** JSON object: {topics, entities{events,organizations,people,places,products}, finance{tickers}, sports{teams}}. */
  contexts: string;
  created_at: string;
  updated_at: string;
}

/** The users who may write community notes (the public platform enrols AI Note Writers). */
export interface NoteWriterTable {
  user_id: string;
  created_at: string;
}

export interface CommunityNoteTable {
  id: string;
  author_id: string;
  app_id: string;
  post_id: string;
  text: string;
  classification: string;
  /** JSON array of strings. */
  misleading_tags: string;
  trustworthy_sources: number;
  is_media_note: number;
  test_mode: number;
  created_at: string;
}

/** One charge to an app (its project: Plaza's project is the app) and its developer account. */
export interface UsageLedgerTable {
  id: string;
  app_id: string;
  project_id: string;
  /** The developer account: the app's owner, or the app itself when it has none. */
  account_id: string;
  /** What was charged: post_read, user_read, owned_read, post_create, post_create_url, summoned_reply, ... */
  kind: string;
  units: number;
  unit_price_micro: number;
  amount_micro: number;
  created_at: string;
}

/** A spending cap on an app, in micro-credits per period; Account caps count every app of its account. */
export interface UsageCapTable {
  app_id: string;
  period: 'Daily' | 'Monthly';
  scope: 'Account' | 'Product';
  limit_micro: number;
  created_at: string;
}

/** The distinct posts an app read in a UTC day (yyyy-mm-dd): GET /2/usage/posts and the post cap count them. */
export interface UsagePostDayTable {
  app_id: string;
  day: string;
  posts: number;
}

/** A post an app read on a day: a post read again that day is not counted again. Only the latest days are kept. */
export interface UsagePostSeenTable {
  app_id: string;
  day: string;
  post_id: string;
}
