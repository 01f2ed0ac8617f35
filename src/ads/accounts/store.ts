import { sql } from 'kysely';
import type { AdsAccountAppTable, AdsAccountTable, AdsEnvironmentName } from '../../store/schema-ads.js';
import type { DbOrTx } from '../../store/store.js';
import type { AccountAccess } from '../actor.js';
import { namePrefix } from '../http/list.js';

/** The account, in this environment, if the user is associated with it (deleted ones included). */
export async function findAccountAccess(db: DbOrTx, env: AdsEnvironmentName, userId: string, accountId: string): Promise<AccountAccess | undefined> {
  const row = await db
    .selectFrom('ads_accounts as a')
    .innerJoin('ads_account_users as u', 'u.account_id', 'a.id')
    .selectAll('a')
    .select('u.permissions as permissions')
    .where('a.id', '=', accountId)
    .where('a.environment', '=', env)
    .where('u.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { permissions, ...account } = row;
  return { account: account as AdsAccountTable, permissions: JSON.parse(permissions) as string[] };
}

export interface AccountFilters {
  accountIds?: string[];
  q?: string;
  withDeleted: boolean;
}

/** The user's accounts in this environment, filtered; ordered and paged by the caller. */
export function accountsOfUser(db: DbOrTx, env: AdsEnvironmentName, userId: string, f: AccountFilters) {
  let query = db
    .selectFrom('ads_accounts as a')
    .innerJoin('ads_account_users as u', 'u.account_id', 'a.id')
    .selectAll('a')
    .where('a.environment', '=', env)
    .where('u.user_id', '=', userId);
  if (f.accountIds) query = query.where('a.id', 'in', f.accountIds);
  if (f.q !== undefined) query = query.where(namePrefix('a.name', f.q));
  if (!f.withDeleted) query = query.where('a.deleted', '=', 0);
  return query;
}

export async function insertAccount(db: DbOrTx, row: AdsAccountTable): Promise<void> {
  await db.insertInto('ads_accounts').values(row).execute();
}

export async function linkAccountUser(db: DbOrTx, accountId: string, userId: string, permissions: string[], now: string): Promise<void> {
  await db.insertInto('ads_account_users').values({ account_id: accountId, user_id: userId, permissions: JSON.stringify(permissions), created_at: now }).execute();
}

export async function updateAccount(db: DbOrTx, id: string, changes: Partial<AdsAccountTable>): Promise<AdsAccountTable> {
  return db.updateTable('ads_accounts').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/**
 * Production account ids of a user (the credentials file's `ads_account_ids`): those the user
 * administers first, then those shared with them, oldest first.
 */
export async function adsAccountIdsOf(db: DbOrTx, userId: string, env: AdsEnvironmentName = 'production'): Promise<string[]> {
  const rows = await db
    .selectFrom('ads_accounts as a')
    .innerJoin('ads_account_users as u', 'u.account_id', 'a.id')
    .select('a.id')
    .where('u.user_id', '=', userId)
    .where('a.environment', '=', env)
    .where('a.deleted', '=', 0)
    .orderBy(sql`case when u.permissions like '%ACCOUNT_ADMIN%' then 0 else 1 end`)
    .orderBy('a.created_at')
    .orderBy('a.id')
    .execute();
  return rows.map((r) => r.id);
}

export async function featuresOf(db: DbOrTx, accountId: string): Promise<string[]> {
  const rows = await db.selectFrom('ads_account_features').select('feature').where('account_id', '=', accountId).orderBy('feature').execute();
  return rows.map((r) => r.feature);
}

export async function addFeatures(db: DbOrTx, accountId: string, features: string[], now: string): Promise<void> {
  const have = new Set(await featuresOf(db, accountId));
  const rows = features.filter((f) => !have.has(f)).map((feature) => ({ account_id: accountId, feature, created_at: now }));
  if (rows.length > 0) await db.insertInto('ads_account_features').values(rows).execute();
}

export async function removeFeatures(db: DbOrTx, accountId: string, features: string[]): Promise<void> {
  if (features.length === 0) return;
  await db.deleteFrom('ads_account_features').where('account_id', '=', accountId).where('feature', 'in', features).execute();
}

export async function insertAccountApp(db: DbOrTx, row: AdsAccountAppTable): Promise<void> {
  await db.insertInto('ads_account_apps').values(row).execute();
}
