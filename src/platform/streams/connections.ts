import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppRow } from '../../auth/store.js';
import type { PlatformContext } from '../context.js';
import { appendEvent } from '../../events/log.js';
import { decodePageToken, encodePageToken, parseMaxResults } from '../../http/pagination.js';
import { invalidParameter, parseEnumList } from '../../http/params.js';
import { ProblemError, problems } from '../../http/problems.js';
import { KILL_EVENT, type EndReason, type StreamConnection } from './engine.js';
import {
  activeConnections,
  closeConnection,
  countOpenConnections,
  insertConnection,
  killConnections,
  listConnections,
  lockAppConnections,
  touchConnections,
  type StreamConnectionRow,
} from './connections-store.js';
import type { StreamWindow } from './window.js';

/**
 * Streaming connections (spec 000 "GET /2/connections" and the three DELETE operations,
 * shared/reference/platform.md §8): every connection to a listed endpoint is recorded; an app may
 * hold a per-tier allowance of them at once (across processes: the records are counted); a kill
 * closes the records at once, so TooManyConnections clears without waiting for time-outs, and
 * appends a log entry that the process holding each connection follows to cut it (ForceDisconnect).
 */

/** The endpoint ids of the connections endpoints (reference §8; 'tweet' kept, as the public platform names them). */
export const ENDPOINT_IDS = [
  'filtered_stream',
  'sample_stream',
  'sample10_stream',
  'firehose_stream',
  'tweets_compliance_stream',
  'users_compliance_stream',
  'tweet_label_stream',
  'firehose_stream_lang_en',
  'firehose_stream_lang_ja',
  'firehose_stream_lang_ko',
  'firehose_stream_lang_pt',
  'likes_firehose_stream',
  'likes_sample10_stream',
  'likes_compliance_stream',
] as const;
export type EndpointId = (typeof ENDPOINT_IDS)[number];

export const CONNECTION_FIELDS = ['client_ip', 'connected_at', 'disconnect_reason', 'disconnected_at', 'endpoint_name', 'id'] as const;
const DEFAULT_FIELDS = new Set(['id']);
const LIST_RANGE = { min: 1, max: 100, default: 10 };
const MAX_UUIDS = 100;

/** When an open record was last refreshed by a live process (see streamConnectionStaleMs). */
const liveSince = (ctx: PlatformContext) => new Date(ctx.clock.now().getTime() - ctx.config.streamConnectionStaleMs).toISOString();

/** The allowance of concurrent connections of an app to one endpoint: one on self-serve tiers, more on enterprise. */
export function connectionAllowance(ctx: PlatformContext, app: AppRow): number {
  return app.tier === 'enterprise' ? ctx.config.streamConnectionsEnterprise : ctx.config.streamConnectionsSelfServe;
}

/** The stream engines whose ticks refresh their records: one per world (src/worlds/), keyed by its engine. */
const heartbeats = new WeakSet<PlatformContext['streams']>();

/** Renews the leases of this process's open connection records (once per world's engine; see StreamEngine.onTick). */
function startHeartbeat(ctx: PlatformContext): void {
  if (heartbeats.has(ctx.streams)) return;
  heartbeats.add(ctx.streams);
  // The world's own store and clock, whatever runs the tick.
  const { store, clock, log } = ctx;
  ctx.streams.onTick((conns) => {
    const ids = conns.filter((c) => (c as RecordedConnection).endpoint !== undefined).map((c) => c.id);
    touchConnections(store.db, ids, clock.now().toISOString()).catch((err) => log.warn({ err }, 'stream connections: heartbeat failed'));
  });
}

export interface RecordedConnection extends StreamConnection {
  endpoint: EndpointId;
}

/**
 * Admits a connection to `endpoint` within the app's allowance, records it, and opens it on the
 * engine; `conn` carries what the channel needs. 429 streaming-connection TooManyConnections past the allowance.
 */
export async function openRecordedStream<C extends RecordedConnection>(
  ctx: PlatformContext,
  conn: Omit<C, 'id' | 'afterSeq' | 'held' | 'closed' | 'onEnd'>,
  partition: number,
  window: StreamWindow,
  request: FastifyRequest,
  reply: FastifyReply,
  prepare?: (conn: C) => Promise<void>,
): Promise<void> {
  ctx.streams.assertOpen();
  startHeartbeat(ctx);
  const app = conn.app;
  const allowance = connectionAllowance(ctx, app);
  const id = randomUUID();
  const full = { ...conn, id, afterSeq: 0, held: null, closed: false } as unknown as C;
  // What the channel checks (rules present and valid) comes first: a refused connection records nothing.
  await prepare?.(full);
  const now = ctx.clock.now().toISOString();
  await ctx.store.db.transaction().execute(async (tx) => {
    await lockAppConnections(tx, ctx.store.dialect, app.id);
    if ((await countOpenConnections(tx, app.id, conn.endpoint, partition, liveSince(ctx))) >= allowance) {
      throw new ProblemError(
        429,
        problems.streamingConnection(
          'TooManyConnections',
          `This stream is currently at the maximum allowed connection limit (${allowance} per app on the ${app.tier} tier). Close one with DELETE /2/connections to connect at once.`,
        ),
      );
    }
    await insertConnection(tx, {
      id,
      app_id: app.id,
      endpoint_name: conn.endpoint,
      partition,
      client_ip: request.ip,
      connected_at: now,
      disconnected_at: null,
      disconnect_reason: null,
      seen_at: now,
    });
  });
  full.onEnd = (reason: EndReason) => {
    closeConnection(ctx.store.db, id, ctx.clock.now().toISOString(), reason).catch((err) => ctx.log.warn({ err }, 'stream connections: closing a record failed'));
  };
  await ctx.streams.open(full, window, request, reply);
}

/** The wire Connection with the selected fields (id always). */
function toWire(ctx: PlatformContext, row: StreamConnectionRow, fields: ReadonlySet<string>, live: string): Record<string, unknown> {
  // An open record no live process refreshes belongs to a process that died: shown as disconnected then.
  const stale = row.disconnected_at === null && row.seen_at < live;
  const all: Record<string, unknown> = {
    id: row.id,
    client_ip: row.client_ip,
    connected_at: row.connected_at,
    disconnected_at: stale ? row.seen_at : (row.disconnected_at ?? undefined),
    disconnect_reason: stale ? 'UpstreamUncleanDisconnect' : (row.disconnect_reason ?? undefined),
    endpoint_name: row.endpoint_name,
  };
  const out: Record<string, unknown> = {};
  for (const name of CONNECTION_FIELDS) if ((fields.has(name) || name === 'id') && all[name] !== undefined) out[name] = all[name];
  void ctx;
  return out;
}

export interface ConnectionListParams {
  status?: string;
  endpoints?: string;
  max_results?: string;
  pagination_token?: string;
  'connection.fields'?: string;
}

/** GET /2/connections: the app's connections, newest first. */
export async function getConnectionHistory(ctx: PlatformContext, app: AppRow, q: ConnectionListParams) {
  const status = q.status ?? 'active';
  if (status !== 'active' && status !== 'inactive' && status !== 'all') {
    throw invalidParameter('status', [status], `The \`status\` query parameter value [${status}] is not one of [active,inactive,all]`);
  }
  const endpoints = [...parseEnumList('endpoints', q.endpoints, ENDPOINT_IDS)];
  const max = parseMaxResults(q.max_results, LIST_RANGE);
  const token = decodePageToken(q.pagination_token);
  let before: { connected_at: string; id: string } | undefined;
  if (token !== undefined) {
    const at = token.lastIndexOf('|');
    if (at < 0) throw invalidParameter('pagination_token', [q.pagination_token!], `The \`pagination_token\` query parameter value [${q.pagination_token}] is not a valid token`);
    before = { connected_at: token.slice(0, at), id: token.slice(at + 1) };
  }
  const fields = q['connection.fields'] === undefined ? DEFAULT_FIELDS : parseEnumList('connection.fields', q['connection.fields'], CONNECTION_FIELDS);
  const live = liveSince(ctx);
  const rows = await listConnections(ctx.store.db, app.id, { status, endpoints, liveSince: live, limit: max + 1, before });
  const items = rows.slice(0, max);
  const meta: { result_count: number; next_token?: string } = { result_count: items.length };
  if (rows.length > max) {
    const last = items[items.length - 1];
    meta.next_token = encodePageToken(`${last.connected_at}|${last.id}`);
  }
  return { ...(items.length > 0 ? { data: items.map((r) => toWire(ctx, r, fields, live)) } : {}), meta };
}

export interface KillResult {
  data: { successful_kills: number; failed_kills: number; results: Array<{ uuid: string; success: boolean; error_message?: string }> };
}

/** Kills connections: the records close at once; the log entry reaches the process holding each. */
async function kill(ctx: PlatformContext, app: AppRow, targets: { ids?: readonly string[]; endpoint?: EndpointId }): Promise<KillResult> {
  const now = ctx.clock.now().toISOString();
  const live = liveSince(ctx);
  const results: KillResult['data']['results'] = [];
  const killed = await ctx.store.db.transaction().execute(async (tx) => {
    const rows = await activeConnections(tx, app.id, live, targets);
    const ids = await killConnections(tx, rows.map((r) => r.id), now);
    if (ids.length > 0) await appendEvent(ctx, tx, { type: KILL_EVENT, subject: app.id, payload: { app_id: app.id, ids } });
    return new Set(ids);
  });
  // Cut here at once when this process holds them; other processes cut on reading the entry.
  for (const id of killed) {
    const conn = ctx.streams.get(id);
    if (conn && conn.app.id === app.id) ctx.streams.cut(conn, 'ForceDisconnect');
  }
  const asked = targets.ids ?? [...killed];
  for (const uuid of asked) {
    if (killed.has(uuid)) results.push({ uuid, success: true });
    else results.push({ uuid, success: false, error_message: `No active connection with uuid [${uuid}] was found for this app.` });
  }
  const successful = results.filter((r) => r.success).length;
  return { data: { successful_kills: successful, failed_kills: results.length - successful, results } };
}

/** DELETE /2/connections/all. */
export const deleteAllConnections = (ctx: PlatformContext, app: AppRow) => kill(ctx, app, {});

/** DELETE /2/connections/{endpoint_id}. */
export const deleteConnectionsByEndpoint = (ctx: PlatformContext, app: AppRow, endpoint: EndpointId) => kill(ctx, app, { endpoint });

/** DELETE /2/connections with {uuids: [1..100]}. */
export function deleteConnectionsByUuids(ctx: PlatformContext, app: AppRow, uuids: readonly string[]): Promise<KillResult> {
  if (uuids.length < 1 || uuids.length > MAX_UUIDS) {
    throw invalidParameter('uuids', uuids.map(String), `The number of values in \`uuids\` [${uuids.length}] is not between 1 and ${MAX_UUIDS}`);
  }
  return kill(ctx, app, { ids: [...new Set(uuids)] });
}
