import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { AdsPromotedAccountTable, AdsPromotedPostTable } from '../../store/schema-ads.js';
import type { DbOrTx } from '../../store/store.js';
import { entitiesOf } from '../account-entity.js';
import type { Sorting } from '../http/list.js';

export type PromotedPostRow = AdsPromotedPostTable;
export type PromotedAccountRow = AdsPromotedAccountTable;

/**
 * Promoted posts of an account. Without with_deleted, deleted ones and those whose line item is
 * deleted are left out (spec 001: a deleted line item's promoted posts are not deleted; they show
 * only with with_deleted=true).
 */
export function promotedPostsOf(db: DbOrTx, accountId: string, f: { ids?: string[]; lineItemIds?: string[]; withDeleted: boolean }) {
  let query = db
    .selectFrom('ads_promoted_posts as pp')
    .innerJoin('ads_line_items as li', 'li.id', 'pp.line_item_id')
    .selectAll('pp')
    .where('pp.account_id', '=', accountId);
  if (f.ids) query = query.where('pp.id', 'in', f.ids);
  if (f.lineItemIds) query = query.where('pp.line_item_id', 'in', f.lineItemIds);
  if (!f.withDeleted) query = query.where('pp.deleted', '=', 0).where('li.deleted', '=', 0);
  return query;
}

export async function findPromotedPost(db: DbOrTx, accountId: string, id: string): Promise<(PromotedPostRow & { line_item_deleted: number }) | undefined> {
  return db
    .selectFrom('ads_promoted_posts as pp')
    .innerJoin('ads_line_items as li', 'li.id', 'pp.line_item_id')
    .selectAll('pp')
    .select('li.deleted as line_item_deleted')
    .where('pp.account_id', '=', accountId)
    .where('pp.id', '=', id)
    .executeTakeFirst();
}

export async function livePromotedPostsOfLineItem(db: DbOrTx, lineItemId: string, postIds: string[]): Promise<PromotedPostRow[]> {
  if (postIds.length === 0) return [];
  return db.selectFrom('ads_promoted_posts').selectAll().where('line_item_id', '=', lineItemId).where('post_id', 'in', postIds).where('deleted', '=', 0).execute();
}

export function promotedAccountsOf(db: DbOrTx, accountId: string, f: { ids?: string[]; lineItemIds?: string[]; withDeleted: boolean }) {
  let query = entitiesOf(db, 'ads_promoted_accounts', accountId, f);
  if (f.lineItemIds) query = query.where('line_item_id', 'in', f.lineItemIds);
  return query;
}

export async function livePromotedAccount(db: DbOrTx, lineItemId: string, userId: string): Promise<PromotedAccountRow | undefined> {
  return db.selectFrom('ads_promoted_accounts').selectAll().where('line_item_id', '=', lineItemId).where('user_id', '=', userId).where('deleted', '=', 0).executeTakeFirst();
}

/** The account's promotable users, oldest first: its own user, then those who joined it (keyed by user id). */
export const PROMOTABLE_USER_SORTING: Sorting = {
  fields: { created_at: { column: 'created_at' } },
  id: 'user_id',
  default: { field: 'created_at', dir: 'asc' },
};

/**
 * A promotable user's id. The public platform gives each its own id; Plaza's promotable users are
 * the account's users (ads_account_users), so the id is derived from the account and the user:
 * stable, and unique within the account, without a row of its own.
 */
export function promotableUserId(accountId: string, userId: string): string {
  return BigInt(`0x${createHash('sha256').update(`${accountId}:${userId}`).digest('hex').slice(0, 13)}`).toString(36);
}

export function promotableUsersOf(db: DbOrTx, accountId: string, userIds?: string[]) {
  let query = db.selectFrom('ads_account_users').selectAll().where('account_id', '=', accountId);
  // An empty list (ids that name no promotable user) matches nothing; SQL has no empty IN list.
  if (userIds) query = userIds.length > 0 ? query.where('user_id', 'in', userIds) : query.where(sql<boolean>`false`);
  return query;
}

/** Users associated with an account: whose posts it may promote. */
export async function accountUserIds(db: DbOrTx, accountId: string): Promise<string[]> {
  const rows = await db.selectFrom('ads_account_users').select('user_id').where('account_id', '=', accountId).execute();
  return rows.map((r) => r.user_id);
}

/** A user's most recent live post, if any. */
export async function latestPostOf(db: DbOrTx, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('posts')
    .select('id')
    .where('author_id', '=', userId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row?.id;
}
