import type { ActivitySubscriptionTable } from '../../store/schema-activity.js';
import type { DbOrTx, StoreDialect } from '../../store/store.js';

export type ActivitySubscriptionRow = ActivitySubscriptionTable;

export async function countSubscriptionsOfApp(db: DbOrTx, appId: string): Promise<number> {
  const row = await db.selectFrom('activity_subscriptions').select((eb) => eb.fn.countAll<string | number>().as('n')).where('app_id', '=', appId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Serialises subscription writes of one app for the rest of the transaction, so the cap check
 * cannot race another create. PostgreSQL locks the app's row; a SQLite transaction runs alone.
 */
export async function lockAppSubscriptions(tx: DbOrTx, dialect: StoreDialect, appId: string): Promise<void> {
  if (dialect !== 'postgres') return;
  await tx.selectFrom('apps').select('id').where('id', '=', appId).forNoKeyUpdate().execute();
}

export async function findDuplicateSubscription(db: DbOrTx, appId: string, canonicalType: string, filterKey: string): Promise<ActivitySubscriptionRow | undefined> {
  return db
    .selectFrom('activity_subscriptions')
    .selectAll()
    .where('app_id', '=', appId)
    .where('canonical_type', '=', canonicalType)
    .where('filter_key', '=', filterKey)
    .executeTakeFirst();
}

export async function insertSubscription(db: DbOrTx, row: ActivitySubscriptionRow): Promise<void> {
  await db.insertInto('activity_subscriptions').values(row).execute();
}

/** A subscription of this app; another app's is never found. */
export async function findSubscriptionOfApp(db: DbOrTx, appId: string, id: string): Promise<ActivitySubscriptionRow | undefined> {
  return db.selectFrom('activity_subscriptions').selectAll().where('app_id', '=', appId).where('id', '=', id).executeTakeFirst();
}

/** The app's subscriptions in id order, after `afterId` when paging. */
export async function listSubscriptionsOfApp(db: DbOrTx, appId: string, limit: number, afterId?: string): Promise<ActivitySubscriptionRow[]> {
  let q = db.selectFrom('activity_subscriptions').selectAll().where('app_id', '=', appId);
  if (afterId !== undefined) q = q.where('id', '>', afterId);
  return q.orderBy('id').limit(limit).execute();
}

export async function updateSubscription(db: DbOrTx, id: string, set: Partial<Pick<ActivitySubscriptionRow, 'tag' | 'webhook_id' | 'updated_at'>>): Promise<boolean> {
  const result = await db.updateTable('activity_subscriptions').set(set).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The ids of those subscriptions of the app that were deleted. */
export async function deleteSubscriptionsOfApp(db: DbOrTx, appId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.deleteFrom('activity_subscriptions').where('app_id', '=', appId).where('id', 'in', ids).returning('id').execute();
  return rows.map((r) => r.id);
}

/**
 * The subscriptions that may want an entry: those of the given activity types, of the given apps
 * (the apps with open streams) or, with `withWebhook`, of any app that named a webhook.
 */
export async function subscriptionsOfTypes(
  db: DbOrTx,
  types: readonly string[],
  scope: { appIds: readonly string[] } | { withWebhook: true },
): Promise<ActivitySubscriptionRow[]> {
  if (types.length === 0) return [];
  let q = db.selectFrom('activity_subscriptions').selectAll().where('canonical_type', 'in', types);
  if ('appIds' in scope) {
    if (scope.appIds.length === 0) return [];
    q = q.where('app_id', 'in', scope.appIds);
  } else {
    q = q.where('webhook_id', 'is not', null);
  }
  return q.orderBy('id').execute();
}

export async function webhookBelongsToApp(db: DbOrTx, appId: string, webhookId: string): Promise<boolean> {
  return !!(await db.selectFrom('webhooks').select('id').where('app_id', '=', appId).where('id', '=', webhookId).executeTakeFirst());
}

export async function usernamesOf(db: DbOrTx, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'username_lower']).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((r) => [r.id, r.username_lower]));
}

export async function authorsOf(db: DbOrTx, postIds: readonly string[]): Promise<Map<string, string>> {
  if (postIds.length === 0) return new Map();
  const rows = await db.selectFrom('posts').select(['id', 'author_id']).where('id', 'in', [...postIds]).execute();
  return new Map(rows.map((r) => [r.id, r.author_id]));
}

/** Log entries of the given types written in [from, to], in log order, after `afterSeq`. */
export async function loggedEventsBetween(db: DbOrTx, logTypes: readonly string[], from: string, to: string | undefined, atMostSeq: number, afterSeq: number, limit: number) {
  if (logTypes.length === 0) return [];
  let q = db
    .selectFrom('events')
    .selectAll()
    .where('type', 'in', [...logTypes])
    .where('created_at', '>=', from)
    .where('seq', '<=', atMostSeq)
    .where('seq', '>', afterSeq);
  if (to !== undefined) q = q.where('created_at', '<=', to);
  return q.orderBy('seq').limit(limit).execute();
}

