import { sql, type Selectable } from 'kysely';
import type { UsageCapTable, UsageLedgerTable } from '../../store/schema-news-notes-usage.js';
import type { DbOrTx } from '../../store/store.js';

export type UsageLedgerRow = Selectable<UsageLedgerTable>;
export type UsageCapRow = Selectable<UsageCapTable>;

export async function insertCharge(db: DbOrTx, row: UsageLedgerRow): Promise<void> {
  await db.insertInto('usage_ledger').values(row).execute();
}

export async function capsOf(db: DbOrTx, appId: string): Promise<UsageCapRow[]> {
  return db.selectFrom('usage_caps').selectAll().where('app_id', '=', appId).execute();
}

export async function upsertCap(db: DbOrTx, row: UsageCapRow): Promise<void> {
  await db
    .insertInto('usage_caps')
    .values(row)
    .onConflict((oc) => oc.columns(['app_id', 'period', 'scope']).doUpdateSet({ limit_micro: row.limit_micro, created_at: row.created_at }))
    .execute();
}

export async function deleteCaps(db: DbOrTx, appId: string, period?: string, scope?: string): Promise<number> {
  let q = db.deleteFrom('usage_caps').where('app_id', '=', appId);
  if (period) q = q.where('period', '=', period as UsageCapRow['period']);
  if (scope) q = q.where('scope', '=', scope as UsageCapRow['scope']);
  return Number((await q.executeTakeFirst()).numDeletedRows);
}

/** What an app (column app_id) or an account (account_id) was charged since `since`, in micro-credits. */
export async function spentSince(db: DbOrTx, column: 'app_id' | 'account_id', id: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('usage_ledger')
    .select((eb) => eb.fn.sum<number | string | null>('amount_micro').as('spent'))
    .where(column, '=', id)
    .where('created_at', '>=', since)
    .executeTakeFirst();
  return Number(row?.spent ?? 0);
}

/** Posts used per day (yyyy-mm-dd) and app of a project since `since`. */
export async function postsPerDay(db: DbOrTx, projectId: string, since: string): Promise<Array<{ day: string; app_id: string; posts: number }>> {
  // Literal arguments, so the grouped expression is the selected one on PostgreSQL too.
  const day = sql<string>`substr(created_at, ${sql.lit(1)}, ${sql.lit(10)})`;
  const rows = await db
    .selectFrom('usage_ledger')
    .select((eb) => [day.as('day'), 'app_id', eb.fn.sum<number | string>('posts').as('posts')])
    .where('project_id', '=', projectId)
    .where('created_at', '>=', since)
    .groupBy([day, 'app_id'])
    .execute();
  return rows.map((r) => ({ day: r.day, app_id: r.app_id, posts: Number(r.posts) }));
}

export async function postsSince(db: DbOrTx, projectId: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('usage_ledger')
    .select((eb) => eb.fn.sum<number | string | null>('posts').as('posts'))
    .where('project_id', '=', projectId)
    .where('created_at', '>=', since)
    .executeTakeFirst();
  return Number(row?.posts ?? 0);
}
