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
export async function recordCrcResult(db: DbOrTx, id: string, valid: boolean, at: string): Promise<boolean> {
  const result = await db.updateTable('webhooks').set({ valid: valid ? 1 : 0, last_crc_at: at }).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** False when there was nothing to delete (a concurrent delete won). */
export async function deleteWebhookRow(db: DbOrTx, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
