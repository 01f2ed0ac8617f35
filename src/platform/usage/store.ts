import { sql, type Selectable } from 'kysely';
import type { UsageCapTable, UsageLedgerTable } from '../../store/schema-news-notes-usage.js';
import type { Db, DbOrTx, StoreDialect } from '../../store/store.js';

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

/**
 * Records that an app read these posts on a day (yyyy-mm-dd), and adds those not already read
 * that day to the day's count; forgets the ids of the app's earlier days. Answers how many were new.
 * The ids go as one parameter (a JSON array on SQLite, a text array on PostgreSQL): a batch holds
 * thousands, and a parameter per row cost PostgreSQL half of a loaded lookup's throughput.
 */
export async function addPostsRead(db: Db, dialect: StoreDialect, appId: string, day: string, postIds: readonly string[]): Promise<number> {
  return db.transaction().execute(async (tx) => {
    await tx.deleteFrom('usage_posts_seen').where('app_id', '=', appId).where('day', '<', day).execute();
    const inserted =
      dialect === 'postgres'
        ? await sql`insert into usage_posts_seen (app_id, day, post_id) select ${appId}, ${day}, unnest(${[...postIds]}::text[]) on conflict do nothing`.execute(tx)
        : await sql`insert or ignore into usage_posts_seen (app_id, day, post_id) select ${appId}, ${day}, value from json_each(${JSON.stringify(postIds)})`.execute(tx);
    const added = Number(inserted.numAffectedRows ?? 0);
    if (added > 0) {
      await tx
        .insertInto('usage_post_days')
        .values({ app_id: appId, day, posts: added })
        .onConflict((oc) => oc.columns(['app_id', 'day']).doUpdateSet({ posts: sql`usage_post_days.posts + excluded.posts` }))
        .execute();
    }
    return added;
  });
}

/** The posts an app read per day (yyyy-mm-dd) from `since` (a day). */
export async function postsReadPerDay(db: DbOrTx, appId: string, since: string): Promise<Array<{ day: string; posts: number }>> {
  const rows = await db.selectFrom('usage_post_days').select(['day', 'posts']).where('app_id', '=', appId).where('day', '>=', since).execute();
  return rows.map((r) => ({ day: r.day, posts: Number(r.posts) }));
}

/** The posts an app read from `since` (a day) on. */
export async function postsReadSince(db: DbOrTx, appId: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('usage_post_days')
    .select((eb) => eb.fn.sum<number | string | null>('posts').as('posts'))
    .where('app_id', '=', appId)
    .where('day', '>=', since)
    .executeTakeFirst();
  return Number(row?.posts ?? 0);
}
