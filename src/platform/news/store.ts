import type { Selectable } from 'kysely';
import type { NewsStoryTable } from '../../store/schema-news-notes-usage.js';
import type { DbOrTx } from '../../store/store.js';

export type NewsStoryRow = Selectable<NewsStoryTable>;

export async function insertNewsStory(db: DbOrTx, row: NewsStoryRow): Promise<void> {
  await db.insertInto('news_stories').values(row).execute();
}

export async function findNewsStory(db: DbOrTx, id: string): Promise<NewsStoryRow | undefined> {
  return db.selectFrom('news_stories').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Stories updated in [since, until], newest update first. */
export async function newsStoriesUpdatedBetween(db: DbOrTx, since: string, until: string): Promise<NewsStoryRow[]> {
  return db
    .selectFrom('news_stories')
    .selectAll()
    .where('updated_at', '>=', since)
    .where('updated_at', '<=', until)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}
