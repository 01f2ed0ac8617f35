import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * What POST /2/posts takes besides the spec's members (issue 34), kept with the post: the
 * made-with-AI disclosure and the direct-message deep link. (Its place is `geo`, its
 * promoted-only flag `nullcast`, its card an ads_posts row: columns that were there.)
 */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  await db.schema.alterTable('posts').addColumn('made_with_ai', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('posts').addColumn('dm_deep_link', 'text').execute();
}
