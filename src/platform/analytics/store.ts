import { sql } from 'kysely';
import type { DbOrTx } from '../../store/store.js';

const UPSERT_ROWS = 2_000;

/** Adds impressions to the hour's bucket of each post: one statement for a whole batch of answers. */
export async function addHourlyImpressions(db: DbOrTx, hour: string, counts: ReadonlyMap<string, number>): Promise<void> {
  const rows = [...counts].map(([post_id, impressions]) => ({ post_id, hour, impressions }));
  // Within both engines' limits on bound parameters.
  for (let i = 0; i < rows.length; i += UPSERT_ROWS) {
    await db
      .insertInto('post_impressions_hourly')
      .values(rows.slice(i, i + UPSERT_ROWS))
      .onConflict((oc) => oc.columns(['post_id', 'hour']).doUpdateSet({ impressions: sql`post_impressions_hourly.impressions + excluded.impressions` }))
      .execute();
  }
}

/** The hourly buckets of these posts whose hour starts in [start, end). */
export async function hourlyImpressions(db: DbOrTx, postIds: readonly string[], start: string, end: string) {
  if (postIds.length === 0) return [];
  return db
    .selectFrom('post_impressions_hourly')
    .select(['post_id', 'hour', 'impressions'])
    .where('post_id', 'in', postIds)
    .where('hour', '>=', start)
    .where('hour', '<', end)
    .execute();
}

export interface Stamped {
  post_id: string;
  created_at: string;
}

/** When each like and bookmark of these posts was made, within [start, end). */
export async function stampsOf(db: DbOrTx, table: 'likes' | 'bookmarks', postIds: readonly string[], start: string, end: string): Promise<Stamped[]> {
  if (postIds.length === 0) return [];
  return db.selectFrom(table).select(['post_id', 'created_at']).where('post_id', 'in', postIds).where('created_at', '>=', start).where('created_at', '<', end).execute();
}

/** When each live repost, reply or quote of these posts was made, within [start, end); `post_id` is the post it refers to. */
export async function referenceStampsOf(
  db: DbOrTx,
  column: 'reposted_post_id' | 'in_reply_to_post_id' | 'quoted_post_id',
  postIds: readonly string[],
  start: string,
  end: string,
): Promise<Stamped[]> {
  if (postIds.length === 0) return [];
  const rows = await db
    .selectFrom('posts')
    .select([column, 'created_at'])
    .where(column, 'in', postIds)
    .where('deleted_at', 'is', null)
    // A later version of an edited reply or quote is the same engagement, counted once.
    .where((eb) => eb('edit_history_post_ids', 'like', sql<string>`'["' || ${eb.ref('posts.id')} || '"%'`))
    .where('created_at', '>=', start)
    .where('created_at', '<', end)
    .execute();
  return rows.map((r) => ({ post_id: (r as Record<string, string>)[column], created_at: r.created_at }));
}


/** Live posts with these ids: id and author. */
export async function livePostAuthors(db: DbOrTx, postIds: readonly string[]) {
  if (postIds.length === 0) return [];
  return db.selectFrom('posts').select(['id', 'author_id']).where('id', 'in', postIds).where('deleted_at', 'is', null).execute();
}
