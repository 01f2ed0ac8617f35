import type { Selectable } from 'kysely';
import type { ArticleTable } from '../../store/schema-articles-analytics.js';
import type { DbOrTx } from '../../store/store.js';

export type ArticleRow = Selectable<ArticleTable>;

export async function insertArticle(db: DbOrTx, row: ArticleRow): Promise<void> {
  await db.insertInto('articles').values(row).execute();
}

export async function findArticle(db: DbOrTx, id: string): Promise<ArticleRow | undefined> {
  return db.selectFrom('articles').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Links a draft to the post that published it; false when another publish got there first. */
export async function markPublished(db: DbOrTx, id: string, postId: string, at: string): Promise<boolean> {
  const result = await db.updateTable('articles').set({ post_id: postId, published_at: at }).where('id', '=', id).where('post_id', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
