import { createHash } from 'node:crypto';
import { PostgresAdapter, sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { StreamRuleTable, StreamWebhookTable } from '../../store/schema-stream.js';
import type { DbOrTx } from '../../store/store.js';

export type StreamRuleRow = StreamRuleTable;

/** One rule per value and app: the value's hash carries the uniqueness (values run to 2,048 characters). */
export const ruleValueHash = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

const CHUNK = 500;

/** Rule ids in numeric order: decimal strings, so by length, then text. */
const idLength = sql<number>`length(stream_rules.id)`;

function afterId(eb: ExpressionBuilder<Database, 'stream_rules'>, id: string) {
  return eb.or([eb(idLength, '>', id.length), eb.and([eb(idLength, '=', id.length), eb('stream_rules.id', '>', id)])]);
}

/** The app's rules in id order, after `after`, at most `limit`; only those of `ids` when given. */
export async function listRules(db: DbOrTx, appId: string, opts: { ids?: readonly string[]; after?: string; limit?: number }): Promise<StreamRuleRow[]> {
  let q = db.selectFrom('stream_rules').selectAll().where('app_id', '=', appId);
  if (opts.ids) {
    if (opts.ids.length === 0) return [];
    q = q.where('id', 'in', opts.ids);
  }
  if (opts.after !== undefined) q = q.where((eb) => afterId(eb, opts.after!));
  q = q.orderBy(idLength).orderBy('id');
  if (opts.limit !== undefined) q = q.limit(opts.limit);
  return q.execute();
}

export async function countRules(db: DbOrTx, appId: string): Promise<number> {
  const row = await db.selectFrom('stream_rules').select((eb) => eb.fn.countAll<number | string>().as('n')).where('app_id', '=', appId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The app's rules with these values (by hash), keyed by hash. */
export async function rulesByValueHash(db: DbOrTx, appId: string, hashes: readonly string[]): Promise<Map<string, StreamRuleRow>> {
  const found = new Map<string, StreamRuleRow>();
  const unique = [...new Set(hashes)];
  for (let i = 0; i < unique.length; i += CHUNK) {
    const rows = await db.selectFrom('stream_rules').selectAll().where('app_id', '=', appId).where('value_hash', 'in', unique.slice(i, i + CHUNK)).execute();
    for (const r of rows) found.set(r.value_hash, r);
  }
  return found;
}

export async function insertRules(db: DbOrTx, rows: readonly StreamRuleRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 100) await db.insertInto('stream_rules').values(rows.slice(i, i + 100)).execute();
}

/** Deletes the app's rules of these ids; returns the ids that existed. */
export async function deleteRules(db: DbOrTx, appId: string, ids: readonly string[]): Promise<Set<string>> {
  const deleted = new Set<string>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += CHUNK) {
    const rows = await db.deleteFrom('stream_rules').where('app_id', '=', appId).where('id', 'in', unique.slice(i, i + CHUNK)).returning('id').execute();
    for (const r of rows) deleted.add(r.id);
  }
  return deleted;
}

/** Says, in the changing transaction, that the app's rule set changed: every rule book reloads it. */
export async function bumpRuleVersion(db: DbOrTx, appId: string, now: string): Promise<number> {
  const row = await db
    .insertInto('stream_rule_versions')
    .values({ app_id: appId, version: 1, updated_at: now })
    .onConflict((oc) => oc.column('app_id').doUpdateSet({ version: sql`stream_rule_versions.version + 1`, updated_at: now }))
    .returning('version')
    .executeTakeFirstOrThrow();
  return Number(row.version);
}

/** The current rule-set version of each app (0: never had rules). */
export async function ruleVersions(db: DbOrTx, appIds: readonly string[]): Promise<Map<string, number>> {
  const versions = new Map<string, number>(appIds.map((id) => [id, 0]));
  const unique = [...new Set(appIds)];
  for (let i = 0; i < unique.length; i += CHUNK) {
    const rows = await db.selectFrom('stream_rule_versions').select(['app_id', 'version']).where('app_id', 'in', unique.slice(i, i + CHUNK)).execute();
    for (const r of rows) versions.set(r.app_id, Number(r.version));
  }
  return versions;
}

/** Every rule of the app with the version it belongs to, read in one transaction so they agree. */
export async function ruleSetOf(db: DbOrTx, appId: string): Promise<{ version: number; rules: StreamRuleRow[] }> {
  const read = async (tx: DbOrTx) => {
    const version = (await ruleVersions(tx, [appId])).get(appId) ?? 0;
    return { version, rules: await listRules(tx, appId, {}) };
  };
  return db.isTransaction ? read(db) : db.transaction().execute(read);
}

/** How many rules each app has, for the apps given. */
export async function ruleCountsOf(db: DbOrTx, appIds: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>(appIds.map((id) => [id, 0]));
  if (appIds.length === 0) return counts;
  const rows = await db
    .selectFrom('stream_rules')
    .select(['app_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('app_id', 'in', [...new Set(appIds)])
    .groupBy('app_id')
    .execute();
  for (const r of rows) counts.set(r.app_id, Number(r.n));
  return counts;
}

// Filtered-stream webhooks: links of a webhook to its app's filtered stream.

export type StreamWebhookRow = StreamWebhookTable;

export async function upsertStreamWebhook(db: DbOrTx, row: StreamWebhookRow): Promise<void> {
  await db
    .insertInto('stream_webhooks')
    .values(row)
    .onConflict((oc) => oc.column('webhook_id').doUpdateSet({ fields: row.fields }))
    .execute();
}

export async function streamWebhooksOfApp(db: DbOrTx, appId: string): Promise<StreamWebhookRow[]> {
  return db.selectFrom('stream_webhooks').selectAll().where('app_id', '=', appId).orderBy('created_at').orderBy('webhook_id').execute();
}

export async function deleteStreamWebhook(db: DbOrTx, appId: string, webhookId: string): Promise<boolean> {
  const result = await db.deleteFrom('stream_webhooks').where('app_id', '=', appId).where('webhook_id', '=', webhookId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Every link, with its app: the fan-out's list of whom to match a post for. */
export async function allStreamWebhooks(db: DbOrTx): Promise<StreamWebhookRow[]> {
  return db.selectFrom('stream_webhooks').selectAll().orderBy('webhook_id').execute();
}

/**
 * Serialises changes of one app's rule set on PostgreSQL (the cap is checked against the count the
 * change sees); SQLite runs one write transaction at a time already.
 */
export async function lockRuleSet(tx: DbOrTx, appId: string): Promise<void> {
  if (tx.getExecutor().adapter instanceof PostgresAdapter) await tx.selectFrom('apps').select('id').where('id', '=', appId).forNoKeyUpdate().execute();
}
