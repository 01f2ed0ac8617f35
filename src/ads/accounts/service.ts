import type { AdsAccountTable, AdsEnvironmentName } from '../../store/schema-ads.js';
import type { DbOrTx } from '../../store/store.js';
import { entitiesOf } from '../account-entity.js';
import type { AccountAccess, AccountRow, AdsActor } from '../actor.js';
import { AdsError } from '../http/errors.js';
import { entitySorting, runList, type ListRequest, type Page } from '../http/list.js';
import { newAdsId } from '../ids.js';
import {
  accountsOfUser,
  addFeatures,
  featuresOf,
  insertAccount,
  linkAccountUser,
  removeFeatures,
  updateAccount as storeUpdateAccount,
} from './store.js';

/** industry_type values (spec 001 "Account"). */
export const INDUSTRY_TYPES = [
  'AGENCY', 'BUSINESS_TO_BUSINESS', 'ONLINE_SERVICES', 'EDUCATION', 'FINANCIAL', 'HEALTH', 'GOVERNMENT',
  'MEDIA', 'MOBILE', 'RESTAURANT', 'RETAIL', 'TECHNOLOGY', 'TRAVEL', 'OTHER',
] as const;

/**
 * Account features a sandbox account may be given (the public platform's list), plus Plaza's
 * ACCOUNT_HISTORY: the allowlisting that GET account_history needs (spec 001 "beta,
 * allowlisting required").
 */
export const ACCOUNT_FEATURES = [
  'ACCOUNT_HISTORY', 'AGE_TARGETING', 'ALLOW_SKIPPABLE_VIDEOS_FOR_PREROLL_VIEWS_OBJECTIVE', 'AWARENESS_OBJECTIVE', 'BRAND_TPN',
  'CHARGE_FOR_GOOD_CLICK', 'CONVERSATION_CARD', 'CONVERSATION_CARD_FOUR_OPTIONS', 'CONVERSATION_CARD_UNLOCK', 'CPI_CHARGING',
  'DIRECT_MESSAGE_CARD', 'DR_TAP', 'ENGAGER_RETARGETING', 'EVENT_TARGETING', 'INSTALLED_APP_CATEGORY_TARGETING',
  'MOBILE_CONVERSION_TRANSACTION_VALUE', 'OPTIMIZED_ACTION_BIDDING', 'REACH_AND_FREQUENCY_ANALYTICS', 'REACH_FREQUENCY_CAP',
  'VALIDATED_AGE_TARGETING', 'VIDEO_VIEWS_MIDROLL_OBJECTIVE', 'PREROLL_VIEWS_OBJECTIVE', 'VIDEO_APP_DOWNLOAD_CARD',
  // Lets an account share its custom audiences outside its business (spec 001 "Tailored audience permissions").
  'SHARE_AUDIENCE_OUTSIDE_BUSINESS',
] as const;

export const ACCOUNT_SORTING = entitySorting('a', { name: { column: 'a.name' } });
export const ACCOUNT_APP_SORTING = entitySorting(undefined, { app_store_identifier: { column: 'app_store_identifier' }, os_type: { column: 'os_type' } });

/** What a new account's creator may do: everything, posts included. */
export const OWNER_PERMISSIONS = ['ACCOUNT_ADMIN', 'TWEET_COMPOSER'];

export interface NewAccount {
  name: string;
  env: AdsEnvironmentName;
  industryType?: string | null;
  /** The users who may use it, with their permissions; the first is the owner. */
  users: Array<{ id: string; permissions: string[] }>;
  features?: string[];
}

/** Creates an account and its user associations. */
export async function createAccount(actor: AdsActor, db: DbOrTx, a: NewAccount): Promise<AccountRow> {
  const now = actor.ctx.clock.now().toISOString();
  const row: AdsAccountTable = {
    id: newAdsId(actor.ctx),
    environment: a.env,
    name: a.name,
    business_name: null,
    business_id: null,
    timezone: 'America/Los_Angeles',
    timezone_switch_at: null,
    industry_type: a.industryType ?? null,
    approval_status: 'ACCEPTED',
    currency: 'USD',
    created_at: now,
    updated_at: now,
    deleted: 0,
  };
  await insertAccount(db, row);
  for (const u of a.users) await linkAccountUser(db, row.id, u.id, u.permissions, now);
  if (a.features?.length) await addFeatures(db, row.id, a.features, now);
  return row;
}

/** POST accounts (sandbox only): a "Sandbox account" owned by the caller. */
export async function createSandboxAccount(actor: AdsActor, db: DbOrTx): Promise<AccountRow> {
  return createAccount(actor, db, { name: 'Sandbox account', env: actor.env, users: [{ id: actor.userId, permissions: OWNER_PERMISSIONS }] });
}

export interface AccountListParams extends ListRequest {
  account_ids?: string[];
  q?: string;
  with_deleted: boolean;
}

export function listAccounts(actor: AdsActor, db: DbOrTx, p: AccountListParams): Promise<Page<AccountRow>> {
  const base = accountsOfUser(db, actor.env, actor.userId, { accountIds: p.account_ids, q: p.q, withDeleted: p.with_deleted });
  return runList(db, base, ACCOUNT_SORTING, p);
}

/** GET accounts/:account_id: a deleted account is found only with with_deleted=true. */
export function accountToShow(access: AccountAccess, withDeleted: boolean): AccountRow {
  if (access.account.deleted === 1 && !withDeleted) throw AdsError.notFound(`Account ${access.account.id} was not found`, 'account_id');
  return access.account;
}

export async function updateAccount(actor: AdsActor, db: DbOrTx, account: AccountRow, p: { name?: string; industry_type?: string }): Promise<AccountRow> {
  const changes: Partial<AdsAccountTable> = {};
  if (p.name !== undefined) changes.name = p.name;
  if (p.industry_type !== undefined) changes.industry_type = p.industry_type;
  if (Object.keys(changes).length === 0) return account;
  return storeUpdateAccount(db, account.id, { ...changes, updated_at: actor.ctx.clock.now().toISOString() });
}

/** DELETE accounts/:account_id (sandbox only): soft, once; a second DELETE is 404. */
export async function deleteAccount(actor: AdsActor, db: DbOrTx, account: AccountRow): Promise<AccountRow> {
  if (account.deleted === 1) throw AdsError.notFound(`Account ${account.id} was not found`, 'account_id');
  return storeUpdateAccount(db, account.id, { deleted: 1, updated_at: actor.ctx.clock.now().toISOString() });
}

export function listAccountApps(db: DbOrTx, account: AccountRow, p: ListRequest & { with_deleted: boolean }) {
  return runList(db, entitiesOf(db, 'ads_account_apps', account.id, { withDeleted: p.with_deleted }), ACCOUNT_APP_SORTING, p);
}

/** GET accounts/:account_id/features: only the features the account has, optionally only those asked. */
export async function accountFeatures(db: DbOrTx, account: AccountRow, only?: string[]): Promise<string[]> {
  const all = await featuresOf(db, account.id);
  return only ? all.filter((f) => only.includes(f)) : all;
}

export async function changeFeatures(actor: AdsActor, db: DbOrTx, account: AccountRow, keys: string[], add: boolean): Promise<string[]> {
  if (add) await addFeatures(db, account.id, keys, actor.ctx.clock.now().toISOString());
  else await removeFeatures(db, account.id, keys);
  return featuresOf(db, account.id);
}

export async function hasFeature(db: DbOrTx, account: AccountRow, feature: string): Promise<boolean> {
  return (await featuresOf(db, account.id)).includes(feature);
}
