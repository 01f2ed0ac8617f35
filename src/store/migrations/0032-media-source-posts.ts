import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * Where attached media came from (attachments.media_source_post_id, expansion
 * attachments.media_source_post): each media row keeps the first post that showed it, and a post
 * that attaches media first shown by another post (not a version of itself) keeps those posts' ids.
 * Posts and media stored before this migration keep none: media can be attached within 24 hours
 * of upload, so at most the media of the day before the upgrade goes without its first post.
 */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  await db.schema.alterTable('media').addColumn('source_post_id', 'text').execute();
  await db.schema.alterTable('posts').addColumn('media_source_post_ids', 'text').execute();
}
