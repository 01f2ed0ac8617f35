import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../auth/authenticate.js';
import { findAppById } from '../auth/store.js';
import type { PlatformContext } from '../platform/context.js';
import { appendEvent } from '../events/log.js';
import { invalidParameter } from '../http/params.js';
import { ProblemError, type DisconnectType, problems } from '../http/problems.js';
import { setRateLimitHeaders } from '../http/rate-limit.js';
import { KILL_EVENT } from '../platform/streams/engine.js';
import { ENDPOINT_IDS } from '../platform/streams/connections.js';
import { clearUsageCap, setUsageCap, type CapPeriod, type CapScope } from '../platform/usage/service.js';
import { deleteFaults, insertFault, listFaults, spendFault, type AdminFaultTable } from './store.js';
import { startPolledJob, type PolledJob } from '../polled-job.js';

/**
 * Faults the admin interface injects (POST /admin/faults), so an integration can be watched
 * meeting what the public platform does to it now and then:
 * - disconnect: every open connection of a stream endpoint ends at once with the
 *   operational-disconnect problem of the type asked for (through the log, in whichever process holds it);
 * - usage_cap: the app's priced requests get the 429 usage-capped problem until the fault is
 *   cleared (a cap of 0 credits of the usage pricing, src/platform/usage/);
 * - rate_limit: the app's next request (to one endpoint, or any) gets 429 with the x-rate-limit headers;
 * - webhook_failures: the webhook's next N deliveries count as failed with the status asked for,
 *   and are retried as any failure is.
 * The waiting ones live in the store (admin_faults); each process keeps a copy, read again every
 * activityPollMs, and spends a counted one by an atomic update, so it strikes once across processes.
 */

export const DISCONNECT_TYPES: readonly DisconnectType[] = [
  'OperationalDisconnect', 'UpstreamOperationalDisconnect', 'ForceDisconnect', 'UpstreamUncleanDisconnect',
  'SlowReader', 'InternalError', 'ClientApplicationStateDegraded', 'InvalidRules',
];

export interface NewFault {
  kind: 'disconnect' | 'usage_cap' | 'rate_limit' | 'webhook_failures';
  endpoint?: string;
  disconnect_type?: DisconnectType;
  app_id?: string;
  period?: 'Daily' | 'Monthly';
  scope?: 'Account' | 'Product';
  webhook_id?: string;
  count?: number;
  status?: number;
}

export interface FaultWire {
  id: string;
  kind: string;
  app_id?: string;
  webhook_id?: string;
  endpoint?: string;
  period?: string;
  scope?: string;
  status?: number;
  remaining?: number;
  created_at: string;
}

export interface DisconnectResult {
  kind: 'disconnect';
  endpoint: string;
  disconnect_type: DisconnectType;
  disconnected: number;
}

/** The window the injected 429's x-rate-limit-reset names: the platform's 15 minutes. */
const RATE_WINDOW_MS = 15 * 60 * 1000;

const toWire = (row: AdminFaultTable): FaultWire => {
  const detail = JSON.parse(row.detail) as Record<string, unknown>;
  return {
    id: row.id,
    kind: row.kind,
    ...(row.app_id !== null ? { app_id: row.app_id } : {}),
    ...(row.webhook_id !== null ? { webhook_id: row.webhook_id } : {}),
    ...(row.endpoint !== null ? { endpoint: row.endpoint } : {}),
    ...(detail as object),
    ...(row.remaining !== null ? { remaining: row.remaining } : {}),
    created_at: row.created_at,
  };
};

/** "POST /2/posts" or "/2/users/{id}/likes" (any method): the route pattern as /2/openapi.json names it. */
function parseEndpoint(text: string): { method?: string; url: string } | undefined {
  const m = /^(?:(GET|POST|PUT|PATCH|DELETE)\s+)?(\/\S*)$/i.exec(text.trim());
  return m ? { method: m[1]?.toUpperCase(), url: m[2] } : undefined;
}

/** Whether a request of this route matches the endpoint a fault names. */
function endpointMatches(endpoint: string | null, request: FastifyRequest): boolean {
  if (endpoint === null) return true;
  const want = parseEndpoint(endpoint);
  if (!want) return false;
  if (want.method && want.method !== request.method) return false;
  return want.url.replace(/\{([^}]+)\}/g, ':$1') === request.routeOptions.url;
}

export class FaultBook {
  private rows: AdminFaultTable[] = [];
  /** Bumped by every change this process makes, so a read that began before it is not applied over it. */
  private version = 0;
  private poll?: PolledJob;

  constructor(private readonly ctx: PlatformContext) {}

  async start(): Promise<void> {
    await this.refresh();
    this.poll = startPolledJob(this.ctx, 'could not read the admin faults', () => this.refresh(), Math.max(100, this.ctx.config.activityPollMs));
  }

  close(): void {
    void this.poll?.close();
  }

  async refresh(): Promise<void> {
    const version = this.version;
    const rows = await listFaults(this.ctx.store.db);
    if (version === this.version) this.rows = rows;
  }

  async list(): Promise<FaultWire[]> {
    await this.refresh();
    return this.rows.map(toWire);
  }

  /** Clears one fault (404 when there is none with that id) or, without an id, all of them. */
  async clear(id?: string): Promise<{ deleted: number }> {
    this.version++;
    const deleted = await this.ctx.store.db.transaction().execute(async (tx) => {
      const gone = await deleteFaults(tx, id);
      // A usage_cap fault is a cap of 0 credits: clearing it removes that cap.
      for (const row of gone.filter((r) => r.kind === 'usage_cap' && r.app_id !== null)) {
        const { period, scope } = JSON.parse(row.detail) as { period: CapPeriod; scope: CapScope };
        await clearUsageCap(this.ctx, row.app_id!, { period, scope }, tx);
      }
      return gone.map((r) => r.id);
    });
    if (id !== undefined && deleted.length === 0) {
      throw new ProblemError(404, problems.aboutBlank(404, 'Not Found', `There is no fault with id [${id}].`));
    }
    this.rows = this.rows.filter((r) => !deleted.includes(r.id));
    return { deleted: deleted.length };
  }

  /** Injects a fault: a disconnect happens at once; the others wait for what they strike. */
  async add(body: NewFault): Promise<FaultWire | DisconnectResult> {
    const bad = (name: string, value: unknown, message: string) => invalidParameter(name, value === undefined ? [] : [String(value)], message);
    const requireApp = async () => {
      if (body.app_id === undefined) throw bad('app_id', undefined, `A ${body.kind} fault needs the \`app_id\` of the app it strikes`);
      if (!(await findAppById(this.ctx.store.db, body.app_id))) throw bad('app_id', body.app_id, `The \`app_id\` value [${body.app_id}] is not an app`);
      return body.app_id;
    };
    const now = this.ctx.clock.now().toISOString();
    const row = (fields: Partial<Omit<AdminFaultTable, 'detail'>> & { detail: Record<string, unknown> }): AdminFaultTable => ({
      id: this.ctx.ids.next(),
      kind: body.kind,
      app_id: null,
      webhook_id: null,
      endpoint: null,
      remaining: null,
      created_at: now,
      ...fields,
      detail: JSON.stringify(fields.detail),
    });
    let fault: AdminFaultTable;
    switch (body.kind) {
      case 'disconnect':
        return this.disconnect(body);
      case 'usage_cap': {
        const appId = await requireApp();
        const cap = { period: body.period ?? 'Monthly', scope: body.scope ?? 'Product' } as const;
        fault = row({ app_id: appId, detail: cap });
        // The usage pricing's own cap (src/platform/usage/): a cap of 0 credits refuses at once.
        this.version++;
        await this.ctx.store.db.transaction().execute(async (tx) => {
          await insertFault(tx, fault);
          await setUsageCap(this.ctx, appId, { ...cap, credits: 0 }, tx);
        });
        this.rows = [...this.rows, fault];
        return toWire(fault);
      }
      case 'rate_limit': {
        const appId = await requireApp();
        if (body.endpoint !== undefined) this.checkEndpoint(body.endpoint);
        fault = row({ app_id: appId, endpoint: body.endpoint?.trim() ?? null, remaining: body.count ?? 1, detail: {} });
        break;
      }
      case 'webhook_failures': {
        if (body.webhook_id === undefined) throw bad('webhook_id', undefined, 'A webhook_failures fault needs the `webhook_id` of the webhook whose deliveries fail');
        const known = await this.ctx.store.db.selectFrom('webhooks').select('id').where('id', '=', body.webhook_id).executeTakeFirst();
        if (!known) throw bad('webhook_id', body.webhook_id, `The \`webhook_id\` value [${body.webhook_id}] is not a webhook`);
        fault = row({ webhook_id: body.webhook_id, remaining: body.count ?? 1, detail: { status: body.status ?? 503 } });
        break;
      }
    }
    this.version++;
    await insertFault(this.ctx.store.db, fault);
    this.rows = [...this.rows, fault];
    return toWire(fault);
  }

  private checkEndpoint(endpoint: string): void {
    const parsed = parseEndpoint(endpoint);
    if (!parsed || !parsed.url.startsWith('/2/')) {
      throw invalidParameter('endpoint', [endpoint], `The \`endpoint\` value [${endpoint}] is not an endpoint of the platform interface, such as "POST /2/posts" or "/2/users/{id}/likes"`);
    }
  }

  /** Ends every open connection of the endpoint (of one app when app_id is given) with the disconnect type. */
  private async disconnect(body: NewFault): Promise<DisconnectResult> {
    const endpoint = body.endpoint;
    if (endpoint === undefined || !(ENDPOINT_IDS as readonly string[]).includes(endpoint)) {
      throw invalidParameter('endpoint', endpoint === undefined ? [] : [endpoint], `A disconnect fault needs an \`endpoint\`, one of ${ENDPOINT_IDS.join(', ')}`);
    }
    const type = body.disconnect_type ?? 'OperationalDisconnect';
    const now = this.ctx.clock.now().toISOString();
    const ids = await this.ctx.store.db.transaction().execute(async (tx) => {
      let open = tx.selectFrom('stream_connections').select(['id', 'app_id']).where('endpoint_name', '=', endpoint).where('disconnected_at', 'is', null);
      if (body.app_id !== undefined) open = open.where('app_id', '=', body.app_id);
      const rows = await open.execute();
      if (rows.length === 0) return [];
      const closed = await tx
        .updateTable('stream_connections')
        .set({ disconnected_at: now, disconnect_reason: type })
        .where('id', 'in', rows.map((r) => r.id))
        .where('disconnected_at', 'is', null)
        .returning(['id', 'app_id'])
        .execute();
      const byApp = new Map<string, string[]>();
      for (const r of closed) byApp.set(r.app_id, [...(byApp.get(r.app_id) ?? []), r.id]);
      // The process holding each connection cuts it on reading the entry (src/platform/streams/engine.ts).
      for (const [appId, appIds] of byApp) await appendEvent(this.ctx, tx, { type: KILL_EVENT, subject: appId, payload: { app_id: appId, ids: appIds, disconnect_type: type } });
      return closed.map((r) => r.id);
    });
    for (const id of ids) {
      const conn = this.ctx.streams.get(id);
      if (conn) this.ctx.streams.cut(conn, type);
    }
    return { kind: 'disconnect', endpoint, disconnect_type: type, disconnected: ids.length };
  }

  /**
   * Called once a request's caller is known: undefined (at once, no promise) when no rate_limit
   * fault strikes the app, else a promise that rejects with the 429 when it does. (A usage_cap
   * fault strikes through the usage pricing's cap check, src/platform/usage/.)
   */
  strike(caller: Caller, request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined {
    if (this.rows.length === 0) return undefined;
    const appId = caller.app.id;
    const limited = this.rows.filter((r) => r.kind === 'rate_limit' && r.app_id === appId && endpointMatches(r.endpoint, request));
    if (limited.length === 0) return undefined;
    return (async () => {
      for (const fault of limited) {
        if (!(await spendFault(this.ctx.store.db, fault.id))) continue;
        this.forget(fault);
        const now = this.ctx.clock.now().getTime();
        setRateLimitHeaders(reply, { limit: 0, remaining: 0, reset: Math.ceil((now - (now % RATE_WINDOW_MS) + RATE_WINDOW_MS) / 1000), allowed: false });
        throw new ProblemError(429, problems.aboutBlank(429, 'Too Many Requests'));
      }
    })();
  }

  /** The status the webhook's next delivery is to fail with, when a fault says so (one strike spent). */
  async webhookFailure(webhookId: string): Promise<number | undefined> {
    for (const fault of this.rows) {
      if (fault.kind !== 'webhook_failures' || fault.webhook_id !== webhookId) continue;
      if (!(await spendFault(this.ctx.store.db, fault.id))) continue;
      this.forget(fault);
      return (JSON.parse(fault.detail) as { status: number }).status;
    }
    return undefined;
  }

  /** The local copy after one strike: the last one removes it (the store did the same). */
  private forget(fault: AdminFaultTable): void {
    this.version++;
    if (fault.remaining !== null && fault.remaining <= 1) this.rows = this.rows.filter((r) => r.id !== fault.id);
    else this.rows = this.rows.map((r) => (r.id === fault.id ? { ...r, remaining: (r.remaining ?? 1) - 1 } : r));
  }
}
