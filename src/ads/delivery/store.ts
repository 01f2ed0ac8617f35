import { sql } from 'kysely';
import type { AdsDeliveryEventTable, AdsDeliveryKind } from '../../store/schema-ads.js';
import type { DbOrTx } from '../../store/store.js';

/** A promoted post that may be delivered now, with what its line item and campaign decide. */
export interface Candidate {
  promoted_post_id: string;
  post_id: string;
  author_id: string;
  line_item_id: string;
  campaign_id: string;
  account_id: string;
  funding_instrument_id: string;
  timezone: string;
  placements: string;
  pay_by: string;
  bid_amount_local_micro: number | null;
  line_item_daily_budget: number | null;
  line_item_total_budget: number | null;
  campaign_daily_budget: number | null;
  campaign_total_budget: number | null;
}

/** What a line item bills by and may spend: read with each candidate, and again for an engagement. */
const BILLING_COLUMNS = [
  'li.id as line_item_id',
  'c.id as campaign_id',
  'a.timezone',
  'li.pay_by',
  'li.bid_amount_local_micro',
  'li.daily_budget_amount_local_micro as line_item_daily_budget',
  'li.total_budget_amount_local_micro as line_item_total_budget',
  'c.daily_budget_amount_local_micro as campaign_daily_budget',
  'c.total_budget_amount_local_micro as campaign_total_budget',
] as const;

/**
 * The promoted posts that can be delivered at `now`: the promoted post, its line item, campaign,
 * funding instrument and account all live and ACTIVE, the line item and the funding instrument
 * within their dates, the post not deleted. Only production accounts deliver: the sandbox's
 * campaigns never reach anyone, as on the public platform.
 */
export async function liveCandidates(db: DbOrTx, now: string): Promise<Candidate[]> {
  return db
    .selectFrom('ads_promoted_posts as pp')
    .innerJoin('ads_line_items as li', 'li.id', 'pp.line_item_id')
    .innerJoin('ads_campaigns as c', 'c.id', 'li.campaign_id')
    .innerJoin('ads_funding_instruments as fi', 'fi.id', 'c.funding_instrument_id')
    .innerJoin('ads_accounts as a', 'a.id', 'li.account_id')
    .innerJoin('posts as p', 'p.id', 'pp.post_id')
    .select(['pp.id as promoted_post_id', 'pp.post_id', 'p.author_id', 'a.id as account_id', 'fi.id as funding_instrument_id', 'li.placements', ...BILLING_COLUMNS])
    .where('pp.deleted', '=', 0)
    .where('pp.entity_status', '=', 'ACTIVE')
    .where('li.deleted', '=', 0)
    .where('li.entity_status', '=', 'ACTIVE')
    .where('c.deleted', '=', 0)
    .where('c.entity_status', '=', 'ACTIVE')
    .where('fi.deleted', '=', 0)
    .where('fi.entity_status', '=', 'ACTIVE')
    .where('fi.start_time', '<=', now)
    .where((eb) => eb.or([eb('fi.end_time', 'is', null), eb('fi.end_time', '>', now)]))
    .where('a.deleted', '=', 0)
    .where('a.environment', '=', 'production')
    .where((eb) => eb.or([eb('li.start_time', 'is', null), eb('li.start_time', '<=', now)]))
    .where((eb) => eb.or([eb('li.end_time', 'is', null), eb('li.end_time', '>', now)]))
    .where('p.deleted_at', 'is', null)
    .orderBy('li.id')
    .orderBy('pp.id')
    .execute();
}

/** What a line item and its campaign have spent: in all, and since the start of the account's day. */
export async function spent(db: DbOrTx, c: Pick<Candidate, 'line_item_id' | 'campaign_id'>, dayStart: string) {
  const sums = (column: 'line_item_id' | 'campaign_id', id: string) =>
    db
      .selectFrom('ads_delivery_events')
      .select([
        sql<number>`coalesce(sum(charge_local_micro), 0)`.as('total'),
        sql<number>`coalesce(sum(case when at >= ${dayStart} then charge_local_micro else 0 end), 0)`.as('today'),
      ])
      .where(column, '=', id)
      .where('charge_local_micro', '>', 0)
      .executeTakeFirstOrThrow();
  const [lineItem, campaign] = [await sums('line_item_id', c.line_item_id), await sums('campaign_id', c.campaign_id)];
  return { lineItem: { total: Number(lineItem.total), today: Number(lineItem.today) }, campaign: { total: Number(campaign.total), today: Number(campaign.today) } };
}

export async function insertDeliveryEvent(db: DbOrTx, row: AdsDeliveryEventTable): Promise<void> {
  await db.insertInto('ads_delivery_events').values(row).execute();
}

/**
 * The latest impression served to the viewer since `since`: of that post, or (for a follow) of a
 * post by that author.
 */
export async function latestImpression(db: DbOrTx, viewerId: string, of: { postId: string } | { authorId: string }, since: string) {
  let q = db.selectFrom('ads_delivery_events').selectAll().where('viewer_id', '=', viewerId).where('kind', '=', 'impression').where('at', '>=', since);
  q = 'postId' in of ? q.where('post_id', '=', of.postId) : q.where('author_id', '=', of.authorId);
  return q.orderBy('at', 'desc').orderBy('id', 'desc').executeTakeFirst();
}

/** The line item's billing of an engagement: its pay_by and bid (read again: they may have changed since the impression). */
export async function lineItemBilling(db: DbOrTx, lineItemId: string) {
  return db
    .selectFrom('ads_line_items as li')
    .innerJoin('ads_campaigns as c', 'c.id', 'li.campaign_id')
    .innerJoin('ads_accounts as a', 'a.id', 'li.account_id')
    .select([...BILLING_COLUMNS])
    .where('li.id', '=', lineItemId)
    .executeTakeFirst();
}

/** The live targeting criteria of line items. */
export async function criteriaOf(db: DbOrTx, lineItemIds: string[]) {
  if (lineItemIds.length === 0) return [];
  return db
    .selectFrom('ads_targeting_criteria')
    .select(['line_item_id', 'targeting_type', 'targeting_value', 'operator_type'])
    .where('line_item_id', 'in', lineItemIds)
    .where('deleted', '=', 0)
    .execute();
}

/** What promotion brought each of these posts: impressions, likes, replies, reposts and link clicks. */
export async function promotedCounts(db: DbOrTx, postIds: readonly string[]): Promise<Map<string, Partial<Record<AdsDeliveryKind, number>>>> {
  const out = new Map<string, Partial<Record<AdsDeliveryKind, number>>>();
  if (postIds.length === 0) return out;
  const rows = await db
    .selectFrom('ads_delivery_events')
    .select(['post_id', 'kind', sql<number>`count(*)`.as('n')])
    .where('post_id', 'in', postIds)
    .groupBy(['post_id', 'kind'])
    .execute();
  for (const r of rows) {
    const counts = out.get(r.post_id) ?? {};
    counts[r.kind] = Number(r.n);
    out.set(r.post_id, counts);
  }
  return out;
}

/** The authors among `authorIds` the viewer mutes or blocks, or who block the viewer: their promotions are not shown to them. */
export async function authorsHiddenFrom(db: DbOrTx, viewerId: string, authorIds: readonly string[]): Promise<Set<string>> {
  if (authorIds.length === 0) return new Set();
  const mine = (table: 'mutes' | 'blocks') =>
    db.selectFrom(table).select('target_user_id as id').where('source_user_id', '=', viewerId).where('target_user_id', 'in', authorIds);
  const theirs = db.selectFrom('blocks').select('source_user_id as id').where('target_user_id', '=', viewerId).where('source_user_id', 'in', authorIds);
  const rows = await mine('mutes').union(mine('blocks')).union(theirs).execute();
  return new Set(rows.map((r) => r.id));
}
