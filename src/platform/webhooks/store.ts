import type { WebhookTable } from '../../store/schema.js';
import type { DbOrTx, StoreDialect } from '../../store/store.js';

export type WebhookRow = WebhookTable;

export async function listWebhooksOfApp(db: DbOrTx, appId: string): Promise<WebhookRow[]> {
  return db.selectFrom('webhooks').selectAll().where('app_id', '=', appId).orderBy('id').execute();
}

/** A webhook of this app; another app's webhook is never found. */
export async function findWebhookOfApp(db: DbOrTx, appId: string, id: string): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('app_id', '=', appId).where('id', '=', id).executeTakeFirst();
}

/**
 * Serialises webhook creation per app for the rest of the transaction, so a duplicate-URL check
 * made inside it cannot race another create. PostgreSQL locks the app's row; SQLite needs nothing,
 * since Kysely runs a SQLite transaction alone on its one connection.
 */
export async function lockAppWebhooks(tx: DbOrTx, dialect: StoreDialect, appId: string): Promise<void> {
  if (dialect !== 'postgres') return;
  await tx.selectFrom('apps').select('id').where('id', '=', appId).forNoKeyUpdate().execute();
}

export async function insertWebhook(db: DbOrTx, row: WebhookRow): Promise<void> {
  await db.insertInto('webhooks').values(row).execute();
}

/** Records a CRC result; false when the webhook no longer exists (deleted meanwhile). */
export async function recordCrcResult(db: DbOrTx, id: string, valid: boolean, at: string, reason?: string): Promise<boolean> {
  // A pass (re-)enables the webhook and ends any run of failures; a failure says why.
  const set = valid
    ? { valid: 1, last_crc_at: at, last_crc_attempt_at: at, failing_since: null, invalid_reason: null }
    : { valid: 0, last_crc_attempt_at: at, invalid_reason: `CRC: ${reason ?? 'failed'}`.slice(0, 500) };
  const result = await db.updateTable('webhooks').set(set).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** False when there was nothing to delete (a concurrent delete won). */
export async function deleteWebhookRow(db: DbOrTx, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** A successful delivery or CRC ends a run of transient failures. */
export async function clearFailing(db: DbOrTx, id: string): Promise<void> {
  await db.updateTable('webhooks').set({ failing_since: null }).where('id', '=', id).where('failing_since', 'is not', null).execute();
}

/** Starts a run of transient failures at `at` unless one is already running; returns when it began. */
export async function markFailing(db: DbOrTx, id: string, at: string): Promise<string | undefined> {
  await db.updateTable('webhooks').set({ failing_since: at }).where('id', '=', id).where('failing_since', 'is', null).execute();
  const row = await db.selectFrom('webhooks').select('failing_since').where('id', '=', id).executeTakeFirst();
  return row?.failing_since ?? undefined;
}

/** Makes a webhook invalid (it then gets nothing until a PUT /2/webhooks/{id} passes). */
export async function markInvalid(db: DbOrTx, id: string, reason: string): Promise<boolean> {
  const result = await db.updateTable('webhooks').set({ valid: 0, invalid_reason: reason.slice(0, 500) }).where('id', '=', id).where('valid', '=', 1).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Valid webhooks whose periodic CRC is due: no success since `successBefore`, no attempt since `attemptBefore`. */
export async function webhooksDueForCrc(db: DbOrTx, successBefore: string, attemptBefore: string, limit: number) {
  return db
    .selectFrom('webhooks')
    .innerJoin('apps', 'apps.id', 'webhooks.app_id')
    .select(['webhooks.id', 'webhooks.url', 'webhooks.last_crc_attempt_at', 'apps.consumer_secret'])
    .where('webhooks.valid', '=', 1)
    .where((eb) => eb(eb.fn.coalesce('webhooks.last_crc_at', 'webhooks.created_at'), '<=', successBefore))
    .where((eb) => eb.or([eb('webhooks.last_crc_attempt_at', 'is', null), eb('webhooks.last_crc_attempt_at', '<=', attemptBefore)]))
    .orderBy('webhooks.id')
    .limit(limit)
    .execute();
}

/** Claims one periodic CRC (so two processes do not both send it); false when another took it. */
export async function claimCrcAttempt(db: DbOrTx, id: string, previous: string | null, at: string): Promise<boolean> {
  const q = db.updateTable('webhooks').set({ last_crc_attempt_at: at }).where('id', '=', id);
  const result = await (previous === null ? q.where('last_crc_attempt_at', 'is', null) : q.where('last_crc_attempt_at', '=', previous)).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function countWebhooksOfApp(db: DbOrTx, appId: string): Promise<number> {
  const row = await db.selectFrom('webhooks').select((eb) => eb.fn.countAll<number>().as('n')).where('app_id', '=', appId).executeTakeFirst();
  return Number(row?.n ?? 0);
}
