import type { Kysely } from 'kysely';
import type { DbOrTx } from '../store/store.js';

/** The admin interface's rows: its settings (token, clock) in `settings`, its faults in admin_faults (migration 0016). */
export interface AdminFaultTable {
  id: string;
  kind: string;
  app_id: string | null;
  webhook_id: string | null;
  endpoint: string | null;
  /** JSON. */
  detail: string;
  remaining: number | null;
  created_at: string;
}

type AdminTables = {
  admin_faults: AdminFaultTable;
};

const admin = (db: DbOrTx): Kysely<AdminTables & { settings: { key: string; value: string } }> => db.withTables<AdminTables>() as never;

export const ADMIN_TOKEN_KEY = 'admin_token';
export const ADMIN_CLOCK_KEY = 'admin_clock';

export async function readSetting<T>(db: DbOrTx, key: string): Promise<T | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row ? (JSON.parse(row.value) as T) : undefined;
}

export async function writeSetting(db: DbOrTx, key: string, value: unknown): Promise<void> {
  const text = JSON.stringify(value);
  await db.insertInto('settings').values({ key, value: text }).onConflict((oc) => oc.column('key').doUpdateSet({ value: text })).execute();
}

/** Inserts the setting unless one is there; true when this call wrote it (the first of several processes starting at once). */
export async function insertSettingOnce(db: DbOrTx, key: string, value: unknown): Promise<boolean> {
  const rows = await db
    .insertInto('settings')
    .values({ key, value: JSON.stringify(value) })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('key')
    .execute();
  return rows.length > 0;
}

export async function insertFault(db: DbOrTx, row: AdminFaultTable): Promise<void> {
  await admin(db).insertInto('admin_faults').values(row).execute();
}

export async function listFaults(db: DbOrTx): Promise<AdminFaultTable[]> {
  return admin(db).selectFrom('admin_faults').selectAll().orderBy('created_at').orderBy('id').execute();
}

/** Deletes one fault (or all); returns the rows deleted. */
export async function deleteFaults(db: DbOrTx, id?: string): Promise<AdminFaultTable[]> {
  let query = admin(db).deleteFrom('admin_faults');
  if (id !== undefined) query = query.where('id', '=', id);
  return query.returningAll().execute();
}

/**
 * Spends one strike of a counted fault: true when this call took it (a fault spent by another
 * process meanwhile is not taken twice). The last strike deletes the row.
 */
export async function spendFault(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await admin(db)
    .updateTable('admin_faults')
    .set((eb) => ({ remaining: eb('remaining', '-', 1) }))
    .where('id', '=', id)
    .where('remaining', '>', 0)
    .returning('remaining')
    .execute();
  if (rows.length === 0) return false;
  if (rows[0].remaining === 0) await admin(db).deleteFrom('admin_faults').where('id', '=', id).where('remaining', '<=', 0).execute();
  return true;
}
