import type { DbOrTx } from '../../store/store.js';

export async function subscribedWebhooks(db: DbOrTx, userIds: string[]) {
  if (userIds.length === 0) return [];
  return db
    .selectFrom('account_activity_subscriptions as s')
    .innerJoin('apps as a', 'a.id', 's.app_id')
    .select(['s.webhook_id', 's.user_id', 's.app_id', 's.direct_messages', 'a.dialect'])
    .where('s.user_id', 'in', [...new Set(userIds)])
    .execute();
}

/** Subscribes (or re-subscribes, taking the new token's DM access). */
export async function upsertSubscription(db: DbOrTx, row: { webhook_id: string; user_id: string; app_id: string; direct_messages: number; created_at: string }): Promise<void> {
  await db
    .insertInto('account_activity_subscriptions')
    .values(row)
    .onConflict((oc) => oc.columns(['webhook_id', 'user_id']).doUpdateSet({ direct_messages: row.direct_messages }))
    .execute();
}

export async function findSubscription(db: DbOrTx, webhookId: string, userId: string) {
  return db.selectFrom('account_activity_subscriptions').selectAll().where('webhook_id', '=', webhookId).where('user_id', '=', userId).executeTakeFirst();
}

export async function listSubscriptions(db: DbOrTx, webhookId: string) {
  return db.selectFrom('account_activity_subscriptions').select('user_id').where('webhook_id', '=', webhookId).orderBy('created_at').orderBy('user_id').execute();
}

export async function deleteSubscription(db: DbOrTx, webhookId: string, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('account_activity_subscriptions').where('webhook_id', '=', webhookId).where('user_id', '=', userId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function countSubscriptionsOfApp(db: DbOrTx, appId: string): Promise<{ all: number; directMessages: number }> {
  const row = await db
    .selectFrom('account_activity_subscriptions')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('direct_messages').as('dm')])
    .where('app_id', '=', appId)
    .executeTakeFirst();
  return { all: Number(row?.n ?? 0), directMessages: Number(row?.dm ?? 0) };
}
