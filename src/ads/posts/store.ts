import type { AdsPostTable, AdsScheduledPostTable } from '../../store/schema-ads-media.js';
import type { DbOrTx } from '../../store/store.js';
import { namePrefix, type Sorting } from '../http/list.js';

export type AdsPostRow = AdsPostTable;
export type ScheduledPostRow = AdsScheduledPostTable;

/** Posts made through the advertising interface, newest first; keyed by post id. */
export const ADS_POST_SORTING: Sorting = {
  fields: { created_at: { column: 'created_at' }, updated_at: { column: 'updated_at' } },
  id: 'post_id',
  default: { field: 'created_at', dir: 'desc' },
};

/** Which of a timeline's posts: promoted-only (nullcast), organic, or both. */
export type TimelineType = 'ALL' | 'NULLCAST' | 'ORGANIC';

export interface AdsPostFilter {
  ids?: string[];
  timelineType?: TimelineType;
  /** The author (a promotable user of the account). */
  userId?: string;
  /** A name prefix, matched case-insensitively. */
  name?: string;
}

export function adsPostsOf(db: DbOrTx, accountId: string, f: AdsPostFilter = {}) {
  let query = db.selectFrom('ads_posts').selectAll().where('account_id', '=', accountId);
  if (f.ids) query = query.where('post_id', 'in', f.ids);
  if (f.name) query = query.where(namePrefix('name', f.name));
  if ((f.timelineType && f.timelineType !== 'ALL') || f.userId) {
    query = query.where('post_id', 'in', (eb) => {
      let posts = eb.selectFrom('posts').select('id');
      if (f.timelineType && f.timelineType !== 'ALL') posts = posts.where('nullcast', '=', f.timelineType === 'NULLCAST' ? 1 : 0);
      if (f.userId) posts = posts.where('author_id', '=', f.userId);
      return posts;
    });
  }
  return query;
}

export async function findAdsPost(db: DbOrTx, accountId: string, postId: string): Promise<AdsPostRow | undefined> {
  return db.selectFrom('ads_posts').selectAll().where('account_id', '=', accountId).where('post_id', '=', postId).executeTakeFirst();
}

export async function insertAdsPost(db: DbOrTx, row: AdsPostRow): Promise<void> {
  await db.insertInto('ads_posts').values(row).execute();
}

export async function updateAdsPost(db: DbOrTx, postId: string, changes: Partial<AdsPostRow>): Promise<AdsPostRow> {
  return db.updateTable('ads_posts').set(changes).where('post_id', '=', postId).returningAll().executeTakeFirstOrThrow();
}

export function scheduledOf(db: DbOrTx, accountId: string, kind: string, f: { ids?: string[]; userId?: string }) {
  let query = db.selectFrom('ads_scheduled_posts').selectAll().where('account_id', '=', accountId).where('kind', '=', kind);
  if (f.ids) query = query.where('id', 'in', f.ids);
  if (f.userId) query = query.where('user_id', '=', f.userId);
  return query;
}

export async function findScheduled(db: DbOrTx, accountId: string, kind: string, id: string): Promise<ScheduledPostRow | undefined> {
  return scheduledOf(db, accountId, kind, { ids: [id] }).executeTakeFirst();
}

export async function insertScheduled(db: DbOrTx, row: ScheduledPostRow): Promise<void> {
  await db.insertInto('ads_scheduled_posts').values(row).execute();
}

export async function updateScheduled(db: DbOrTx, id: string, changes: Partial<ScheduledPostRow>): Promise<ScheduledPostRow> {
  return db.updateTable('ads_scheduled_posts').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function removeScheduled(db: DbOrTx, id: string): Promise<void> {
  await db.deleteFrom('ads_scheduled_posts').where('id', '=', id).execute();
}

/** Scheduled posts due at `now`, oldest due first. */
export async function dueScheduled(db: DbOrTx, now: string, limit: number): Promise<ScheduledPostRow[]> {
  return db
    .selectFrom('ads_scheduled_posts')
    .selectAll()
    .where('scheduled_status', '=', 'SCHEDULED')
    .where('scheduled_at', '<=', now)
    .orderBy('scheduled_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Moves a scheduled post from one status to the next; false when another worker got there first. */
export async function claimScheduled(db: DbOrTx, id: string, from: string, to: string): Promise<boolean> {
  const result = await db.updateTable('ads_scheduled_posts').set({ scheduled_status: to }).where('id', '=', id).where('scheduled_status', '=', from).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
