import { sql } from 'kysely';
import type { AdsDeliveryKind, AdsStatsJobTable } from '../../store/schema-ads.js';
import type { DbOrTx } from '../../store/store.js';

/** The column of a delivery event that names each promoted entity. */
export const ENTITY_COLUMNS = {
  ACCOUNT: 'account_id',
  FUNDING_INSTRUMENT: 'funding_instrument_id',
  CAMPAIGN: 'campaign_id',
  LINE_ITEM: 'line_item_id',
  PROMOTED_POST: 'promoted_post_id',
} as const;
export type PromotedEntity = keyof typeof ENTITY_COLUMNS;

/** Events of one entity, one hour and one kind: how many, how many billed, what they cost. */
export interface HourRow {
  id: string;
  hour: string;
  kind: AdsDeliveryKind;
  n: number;
  billed: number;
  charge: number;
}

const HOUR = sql<string>`substr(at, 1, 13)`;

/** The delivery events of these entities in [start, end), added up by hour (`YYYY-MM-DDTHH`) and kind. */
export async function deliveryHours(db: DbOrTx, column: (typeof ENTITY_COLUMNS)[PromotedEntity] | 'post_id', ids: readonly string[], start: string, end: string): Promise<HourRow[]> {
  const rows = await db
    .selectFrom('ads_delivery_events')
    .select([
      sql<string>`${sql.ref(column)}`.as('id'),
      HOUR.as('hour'),
      'kind',
      sql<number>`count(*)`.as('n'),
      sql<number>`sum(billed)`.as('billed'),
      sql<number>`sum(charge_local_micro)`.as('charge'),
    ])
    .where(column, 'in', ids)
    .where('at', '>=', start)
    .where('at', '<', end)
    .groupBy([sql.ref(column), HOUR, 'kind'])
    .execute();
  return rows.map((r) => ({ ...r, n: Number(r.n), billed: Number(r.billed), charge: Number(r.charge) }));
}

/** Organic activity on these posts in [start, end) by hour: likes, replies and reposts. */
export async function organicHours(db: DbOrTx, postIds: readonly string[], start: string, end: string): Promise<HourRow[]> {
  const created = sql<string>`substr(created_at, 1, 13)`;
  const likes = await db
    .selectFrom('likes')
    .select(['post_id as id', created.as('hour'), sql<number>`count(*)`.as('n')])
    .where('post_id', 'in', postIds)
    .where('created_at', '>=', start)
    .where('created_at', '<', end)
    .groupBy(['post_id', created])
    .execute();
  const referring = (column: 'in_reply_to_post_id' | 'reposted_post_id') =>
    db
      .selectFrom('posts')
      .select([sql<string>`${sql.ref(column)}`.as('id'), created.as('hour'), sql<number>`count(*)`.as('n')])
      .where(column, 'in', postIds)
      .where('created_at', '>=', start)
      .where('created_at', '<', end)
      .groupBy([sql.ref(column), created])
      .execute();
  const as = (kind: AdsDeliveryKind) => (r: { id: string; hour: string; n: number }) => ({ id: r.id, hour: r.hour, kind, n: Number(r.n), billed: 0, charge: 0 });
  return [...likes.map(as('like')), ...(await referring('in_reply_to_post_id')).map(as('reply')), ...(await referring('reposted_post_id')).map(as('repost'))];
}

/** The ids among `ids` of an entity of the account (live or deleted: their history still reports). */
export async function entitiesOfAccount(db: DbOrTx, table: 'ads_funding_instruments' | 'ads_campaigns' | 'ads_line_items' | 'ads_promoted_posts' | 'ads_media_creatives', accountId: string, ids: readonly string[]): Promise<string[]> {
  const rows = await db.selectFrom(table).select('id').where('account_id', '=', accountId).where('id', 'in', ids).execute();
  return rows.map((r) => r.id);
}

/** The ids among `ids` of posts by these authors. */
export async function postsByAuthors(db: DbOrTx, authorIds: readonly string[], ids: readonly string[]): Promise<string[]> {
  if (authorIds.length === 0) return [];
  return (await db.selectFrom('posts').select('id').where('author_id', 'in', authorIds).where('id', 'in', ids).execute()).map((r) => r.id);
}

/**
 * The entities of the account that delivered in [start, end): their first and last event, and
 * the placements they delivered in (Plaza delivers into home timelines only: ALL_ON_PLATFORM).
 */
export async function activeEntities(db: DbOrTx, column: (typeof ENTITY_COLUMNS)[PromotedEntity], accountId: string, start: string, end: string, filters: { column: 'funding_instrument_id' | 'campaign_id' | 'line_item_id'; ids: string[] }[]) {
  let q = db
    .selectFrom('ads_delivery_events')
    .select([sql<string>`${sql.ref(column)}`.as('entity_id'), sql<string>`min(at)`.as('first'), sql<string>`max(at)`.as('last')])
    .where('account_id', '=', accountId)
    .where('at', '>=', start)
    .where('at', '<', end);
  for (const f of filters) q = q.where(f.column, 'in', f.ids);
  return q.groupBy(sql.ref(column)).orderBy(sql.ref(column)).execute();
}

export async function insertStatsJob(db: DbOrTx, row: AdsStatsJobTable): Promise<void> {
  await db.insertInto('ads_stats_jobs').values(row).execute();
}

export type StatsJobRow = Omit<AdsStatsJobTable, 'result'>;

/** The account's jobs (not cancelled), newest first; with ids, only those. */
export function statsJobsOf(db: DbOrTx, accountId: string, ids?: readonly string[]) {
  let q = db
    .selectFrom('ads_stats_jobs')
    .select(['id', 'account_id', 'params', 'created_at', 'ready_at', 'expires_at', 'cancelled_at'])
    .where('account_id', '=', accountId)
    .where('cancelled_at', 'is', null);
  if (ids) q = q.where('id', 'in', ids);
  return q;
}

export async function cancelStatsJob(db: DbOrTx, accountId: string, id: string, at: string): Promise<StatsJobRow | undefined> {
  const job = await statsJobsOf(db, accountId, [id]).executeTakeFirst();
  if (!job) return undefined;
  await db.updateTable('ads_stats_jobs').set({ cancelled_at: at }).where('id', '=', id).execute();
  return { ...job, cancelled_at: at };
}

/** A job's result file, while it is ready and not expired or cancelled. */
export async function statsJobResult(db: DbOrTx, id: string, now: string): Promise<Uint8Array | undefined> {
  const row = await db
    .selectFrom('ads_stats_jobs')
    .select('result')
    .where('id', '=', id)
    .where('cancelled_at', 'is', null)
    .where('ready_at', '<=', now)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row?.result;
}
