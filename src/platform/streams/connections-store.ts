import type { DbOrTx, StoreDialect } from '../../store/store.js';
import type { StreamConnectionTable } from '../../store/schema-stream-connections.js';

export type StreamConnectionRow = StreamConnectionTable;

/**
 * Serialises connection admissions of one app for the rest of the transaction, so the allowance
 * check cannot race another open. PostgreSQL locks the app's row; a SQLite transaction runs alone.
 */
export async function lockAppConnections(tx: DbOrTx, dialect: StoreDialect, appId: string): Promise<void> {
  if (dialect !== 'postgres') return;
  await tx.selectFrom('apps').select('id').where('id', '=', appId).forNoKeyUpdate().execute();
}

/** Open connections of the app to one endpoint (and partition) seen since `liveSince`. */
export async function countOpenConnections(db: DbOrTx, appId: string, endpoint: string, partition: number, liveSince: string): Promise<number> {
  const row = await db
    .selectFrom('stream_connections')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('app_id', '=', appId)
    .where('endpoint_name', '=', endpoint)
    .where('partition', '=', partition)
    .where('disconnected_at', 'is', null)
    .where('seen_at', '>=', liveSince)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function insertConnection(db: DbOrTx, row: StreamConnectionRow): Promise<void> {
  await db.insertInto('stream_connections').values(row).execute();
}

/** Closes an open record (one already closed, by a kill for instance, keeps its reason). */
export async function closeConnection(db: DbOrTx, id: string, at: string, reason: string): Promise<void> {
  await db.updateTable('stream_connections').set({ disconnected_at: at, disconnect_reason: reason }).where('id', '=', id).where('disconnected_at', 'is', null).execute();
}

/** The holding process says these connections live. */
export async function touchConnections(db: DbOrTx, ids: readonly string[], at: string): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('stream_connections').set({ seen_at: at }).where('id', 'in', [...ids]).where('disconnected_at', 'is', null).execute();
}

export interface ConnectionListQuery {
  status: 'active' | 'inactive' | 'all';
  endpoints: readonly string[];
  liveSince: string;
  limit: number;
  /** Continue after this (connected_at, id) key, newest first. */
  before?: { connected_at: string; id: string };
}

/** The app's connections, newest first: active ones are open and seen since `liveSince`. */
export async function listConnections(db: DbOrTx, appId: string, q: ConnectionListQuery): Promise<StreamConnectionRow[]> {
  let query = db.selectFrom('stream_connections').selectAll().where('app_id', '=', appId);
  if (q.endpoints.length > 0) query = query.where('endpoint_name', 'in', [...q.endpoints]);
  if (q.status === 'active') query = query.where('disconnected_at', 'is', null).where('seen_at', '>=', q.liveSince);
  if (q.status === 'inactive') query = query.where((eb) => eb.or([eb('disconnected_at', 'is not', null), eb('seen_at', '<', q.liveSince)]));
  if (q.before) {
    const { connected_at, id } = q.before;
    query = query.where((eb) => eb.or([eb('connected_at', '<', connected_at), eb.and([eb('connected_at', '=', connected_at), eb('id', '<', id)])]));
  }
  return query.orderBy('connected_at', 'desc').orderBy('id', 'desc').limit(q.limit).execute();
}

/** The app's active connections among `ids` (all of them when `ids` is undefined), of `endpoint` when given. */
export async function activeConnections(db: DbOrTx, appId: string, liveSince: string, opts: { ids?: readonly string[]; endpoint?: string }): Promise<StreamConnectionRow[]> {
  let query = db.selectFrom('stream_connections').selectAll().where('app_id', '=', appId).where('disconnected_at', 'is', null).where('seen_at', '>=', liveSince);
  if (opts.ids) {
    if (opts.ids.length === 0) return [];
    query = query.where('id', 'in', [...opts.ids]);
  }
  if (opts.endpoint) query = query.where('endpoint_name', '=', opts.endpoint);
  return query.orderBy('connected_at').execute();
}

/** Marks these connections killed; returns the ids this call closed. */
export async function killConnections(db: DbOrTx, ids: readonly string[], at: string): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .updateTable('stream_connections')
    .set({ disconnected_at: at, disconnect_reason: 'ForceDisconnect' })
    .where('id', 'in', [...ids])
    .where('disconnected_at', 'is', null)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}
