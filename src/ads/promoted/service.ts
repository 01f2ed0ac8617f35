import { findUserById } from '../../auth/store.js';
import { findPostsByIds } from '../../platform/posts/store.js';
import type { DbOrTx } from '../../store/store.js';
import { AccountEntity } from '../account-entity.js';
import type { AccountRow, AdsActor } from '../actor.js';
import { AdsError } from '../http/errors.js';
import { entitySorting, runList, type ListRequest } from '../http/list.js';
import { getLineItem } from '../line-items/service.js';
import { findLineItems } from '../line-items/store.js';
import {
  PROMOTABLE_USER_SORTING,
  accountUserIds,
  findPromotedPost,
  livePromotedAccount,
  livePromotedPostsOfLineItem,
  promotableUserId,
  promotableUsersOf,
  promotedAccountsOf,
  promotedPostsOf,
  type PromotedAccountRow,
  type PromotedPostRow,
} from './store.js';
import { promotedAccountWire, promotedPostWire } from './wire.js';

/**
 * Promoted posts attach posts (rows of `posts`) to line items; promoted accounts attach users to
 * PROMOTED_ACCOUNT line items. A line item's deletion does not delete them (spec 001 "States and
 * transitions"); a promoted post of a deleted line item shows only with with_deleted=true.
 */
export const PROMOTED_POST_SORTING = entitySorting('pp');
export const PROMOTED_ACCOUNT_SORTING = entitySorting();
/** post_ids per request (shared/reference/ads.md §3: tweet_ids, up to 50). */
export const MAX_POSTS_PER_REQUEST = 50;
const POST_PRODUCT_TYPES = ['PROMOTED_POSTS', 'PROMOTED_ACCOUNT'];
/** Promoted posts are read with their line item (see getPromotedPost); the rest is shared. */
const PROMOTED_POSTS = new AccountEntity({ table: 'ads_promoted_posts', label: 'Promoted Post', parameter: 'promoted_post_id', history: { entity: 'PROMOTED_POST', data: promotedPostWire } });
const PROMOTED_ACCOUNTS = new AccountEntity({ table: 'ads_promoted_accounts', label: 'Promoted Account', parameter: 'promoted_account_id', history: { entity: 'PROMOTED_ACCOUNT', data: promotedAccountWire } });

export function listPromotedPosts(db: DbOrTx, account: AccountRow, p: ListRequest & { line_item_ids?: string[]; promoted_post_ids?: string[]; with_deleted: boolean }) {
  const base = promotedPostsOf(db, account.id, { ids: p.promoted_post_ids, lineItemIds: p.line_item_ids, withDeleted: p.with_deleted });
  return runList(db, base, PROMOTED_POST_SORTING, p);
}

/** One promoted post of the account; one that is deleted, or whose line item is, only with with_deleted=true. */
export async function getPromotedPost(db: DbOrTx, account: AccountRow, id: string | undefined, withDeleted = false): Promise<PromotedPostRow> {
  const found = id === undefined ? undefined : await findPromotedPost(db, account.id, id);
  if (!found || ((found.deleted === 1 || found.line_item_deleted === 1) && !withDeleted)) throw PROMOTED_POSTS.notFound(id ?? '', account);
  const { line_item_deleted: _, ...row } = found;
  return row;
}

/** POST promoted_posts: one record per post (an already promoted post keeps its record). */
export async function promotePosts(actor: AdsActor, db: DbOrTx, account: AccountRow, p: { line_item_id: string; post_ids: string[] }): Promise<PromotedPostRow[]> {
  const lineItem = await getLineItem(db, account, p.line_item_id);
  if (!POST_PRODUCT_TYPES.includes(lineItem.product_type)) {
    throw AdsError.invalidParameter('line_item_id', `Line item ${lineItem.id} has product_type ${lineItem.product_type}; posts can be promoted only by ${POST_PRODUCT_TYPES.join(' or ')} line items`);
  }
  const posts = new Map((await findPostsByIds(db, p.post_ids)).map((post) => [post.id, post]));
  const missing = p.post_ids.find((id) => !posts.has(id));
  if (missing !== undefined) throw AdsError.notFound(`Post ${missing} was not found`, 'post_ids');
  const promotable = new Set(await accountUserIds(db, account.id));
  const foreign = p.post_ids.find((id) => !promotable.has(posts.get(id)!.author_id));
  if (foreign !== undefined) {
    throw AdsError.invalidParameter('post_ids', `Post ${foreign} cannot be promoted by account ${account.id}: only posts of the account's users can be`);
  }
  const existing = new Map((await livePromotedPostsOfLineItem(db, lineItem.id, p.post_ids)).map((r) => [r.post_id, r]));
  const out: PromotedPostRow[] = [];
  for (const postId of p.post_ids) {
    const already = existing.get(postId);
    if (already) {
      out.push(already);
      continue;
    }
    const row = await PROMOTED_POSTS.create(actor, db, account, {
      line_item_id: lineItem.id,
      post_id: postId,
      entity_status: 'ACTIVE',
      approval_status: 'ACCEPTED',
    });
    out.push(row);
  }
  return out;
}

export async function deletePromotedPost(actor: AdsActor, db: DbOrTx, account: AccountRow, id: string | undefined): Promise<PromotedPostRow> {
  return PROMOTED_POSTS.markDeleted(actor, db, account, await getPromotedPost(db, account, id, false));
}

const incompatible = (parameter: string, message: string) => new AdsError(400, [{ code: 'INCOMPATIBLE_LINE_ITEM', message, parameter }]);

/** GET promoted_accounts: 400 when none of the given line items is configured for promoted accounts. */
export async function listPromotedAccounts(
  db: DbOrTx,
  account: AccountRow,
  p: ListRequest & { line_item_ids?: string[]; promoted_account_ids?: string[]; with_deleted: boolean },
) {
  if (p.line_item_ids) {
    const lineItems = await findLineItems(db, account.id, p.line_item_ids);
    if (!lineItems.some((l) => l.product_type === 'PROMOTED_ACCOUNT')) {
      throw incompatible('line_item_ids', `None of the line items ${p.line_item_ids.join(', ')} is configured for promoted accounts (product_type PROMOTED_ACCOUNT)`);
    }
  }
  return runList(db, promotedAccountsOf(db, account.id, { ids: p.promoted_account_ids, lineItemIds: p.line_item_ids, withDeleted: p.with_deleted }), PROMOTED_ACCOUNT_SORTING, p);
}

export function getPromotedAccount(db: DbOrTx, account: AccountRow, id: string | undefined, withDeleted = false): Promise<PromotedAccountRow> {
  return PROMOTED_ACCOUNTS.get(db, account, id, withDeleted);
}

/** POST promoted_accounts: a user already promoted by the line item is left as it is. */
export async function promoteAccount(actor: AdsActor, db: DbOrTx, account: AccountRow, p: { line_item_id: string; user_id: string }): Promise<PromotedAccountRow> {
  const lineItem = await getLineItem(db, account, p.line_item_id);
  if (lineItem.product_type !== 'PROMOTED_ACCOUNT') {
    throw incompatible('line_item_id', `Line item ${lineItem.id} is not configured for promoted accounts (product_type ${lineItem.product_type})`);
  }
  if (!(await findUserById(db, p.user_id))) throw AdsError.invalidParameter('user_id', `User ${p.user_id} was not found`, 'INVALID_USER_ID');
  const already = await livePromotedAccount(db, lineItem.id, p.user_id);
  if (already) return already;
  return PROMOTED_ACCOUNTS.create(actor, db, account, {
    line_item_id: lineItem.id,
    user_id: p.user_id,
    entity_status: 'ACTIVE',
    approval_status: 'ACCEPTED',
  });
}

export function deletePromotedAccount(actor: AdsActor, db: DbOrTx, account: AccountRow, id: string | undefined): Promise<PromotedAccountRow> {
  return PROMOTED_ACCOUNTS.delete(actor, db, account, id);
}

export async function listPromotableUsers(db: DbOrTx, account: AccountRow, p: ListRequest & { promotable_user_ids?: string[] }) {
  let userIds: string[] | undefined;
  if (p.promotable_user_ids) {
    const wanted = new Set(p.promotable_user_ids);
    userIds = (await accountUserIds(db, account.id)).filter((u) => wanted.has(promotableUserId(account.id, u)));
  }
  return runList(db, promotableUsersOf(db, account.id, userIds), PROMOTABLE_USER_SORTING, p);
}

export async function getPromotableUser(db: DbOrTx, account: AccountRow, id: string | undefined) {
  // The id is derived, not stored: the account's few users are read once and the one it names found.
  const row = (await promotableUsersOf(db, account.id).execute()).find((u) => promotableUserId(account.id, u.user_id) === id);
  if (!row) throw AdsError.notFound(`Promotable user ${id ?? ''} was not found for account ${account.id}`);
  return row;
}
