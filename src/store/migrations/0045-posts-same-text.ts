import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * The duplicate-content rule's index (checkNotDuplicate, src/platform/posts/rules.ts): an
 * author's comparable posts by the start of their text, then time. Without it the check read
 * every post its author made in the last 24 hours and compared each text, so a bot posting all
 * day paid for each post in proportion to its day's posts (648 posts: 1.3 ms of PostgreSQL, and
 * growing); with it the check reads the posts that begin with the same 64 characters. The start,
 * not the whole text: a post's text runs to 25,000 characters, over what a PostgreSQL b-tree entry
 * holds. The query states the expression as the index does (the same 64), so both planners match
 * it.
 */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  await sql`create index posts_same_text on posts (author_id, substr(text, 1, 64), created_at) where deleted_at is null and reposted_post_id is null`.execute(db);
}
