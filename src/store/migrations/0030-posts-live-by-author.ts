import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * The timelines' index: every live post (not deleted, not an edited-away version, not nullcast)
 * by author, newest first by (created_at, id), carrying the columns a timeline's conditions read
 * (the community-sharing contract of home timelines and `exclude`). A page of an author's posts
 * is then a range of this index alone, with no visit to the wide rows of `posts` (issue #8: on
 * SQLite the per-author page queries of a home timeline were a third of its CPU time). Queries
 * that want it state the three live conditions literally, as the index does: a bound parameter
 * would not let the planner see that the index holds the rows they ask for.
 */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  await sql
    .raw(
      `create index posts_live_by_author on posts (author_id, created_at, id, community_id, share_with_followers, in_reply_to_user_id, reposted_post_id) ` +
        `where deleted_at is null and superseded_by_id is null and nullcast = 0`,
    )
    .execute(db);
}
