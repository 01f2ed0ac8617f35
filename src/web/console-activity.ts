import type { AppRow } from '../auth/store.js';
import type { PlatformContext } from '../platform/context.js';
import { insertDeliveries, pendingDelivery, type DeliveryRow } from '../events/outbox.js';
import { DEFAULT_LIMIT, RATE_LIMITS, type Window } from '../platform/rate-limits/table.js';
import { credits } from '../platform/usage/prices.js';
import { capsOf, spentSince } from '../platform/usage/store.js';
import { periodStart, usageOfPosts, USAGE_FIELDS, type CapPeriod, type CapScope } from '../platform/usage/service.js';
import { deleteConnectionsByUuids, getConnectionHistory, CONNECTION_FIELDS } from '../platform/streams/connections.js';
import { listWebhooksOfApp, type WebhookRow } from '../platform/webhooks/store.js';

/**
 * What the developer console shows of an app's traffic (issue #17 "The developer console"): its
 * webhook deliveries (and a resend through the outbox), its usage and rate-limit figures, and its
 * open stream connections (and a disconnect through the /2/connections rules).
 */

export const DELIVERIES_SHOWN = 50;

/** A resent copy is a new outbox row of the same event; its replay_job_id is "resend:<its id>", so it is never mistaken for a replay job's. */
export const RESEND_PREFIX = 'resend:';

export interface DeliveryView {
  row: DeliveryRow;
  webhookUrl: string;
  eventType: string;
  /** live, replay or resend. */
  origin: 'live' | 'replay' | 'resend';
}

/**
 * The event type a receiver sees: the Activity API's `data.event_type`, the Account Activity
 * body's `*_events` key (tweet_create_events, favorite_events...), a replay job's completion, or
 * else the type of the log entry it came from.
 */
export function eventTypeOf(body: string, logType: string | null): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return logType ?? 'unknown';
  }
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const o = parsed as Record<string, unknown>;
    const data = o.data as Record<string, unknown> | undefined;
    if (data && typeof data.event_type === 'string') return data.event_type;
    const key = Object.keys(o).find((k) => k.endsWith('_events') || k === 'replay_job_status');
    if (key) return key;
  }
  return logType ?? 'unknown';
}

const originOf = (replayJobId: string): DeliveryView['origin'] => (replayJobId === '' ? 'live' : replayJobId.startsWith(RESEND_PREFIX) ? 'resend' : 'replay');

export async function webhooksOf(ctx: PlatformContext, app: AppRow): Promise<WebhookRow[]> {
  return listWebhooksOfApp(ctx.store.db, app.id);
}

/** The app's most recent deliveries (every webhook of the app), newest first. */
export async function recentDeliveries(ctx: PlatformContext, app: AppRow, limit = DELIVERIES_SHOWN): Promise<DeliveryView[]> {
  const rows = await ctx.store.db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .leftJoin('events as e', 'e.id', 'd.event_id')
    .selectAll('d')
    .select(['w.url as webhook_url', 'e.type as log_type'])
    .where('w.app_id', '=', app.id)
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(({ webhook_url, log_type, ...row }) => ({ row, webhookUrl: webhook_url, eventType: eventTypeOf(row.body, log_type), origin: originOf(row.replay_job_id) }));
}

/**
 * Sends a delivery again: a new outbox row with the same event and body (a new delivery id, so a
 * receiver that dedupes on it takes it), due now, signed, claimed and retried by the delivery
 * workers like any other. Undefined when the app has no such delivery.
 */
export async function resendDelivery(ctx: PlatformContext, app: AppRow, deliveryId: string): Promise<string | undefined> {
  if (!/^[0-9]{1,19}$/.test(deliveryId)) return undefined;
  const original = await ctx.store.db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .selectAll('d')
    .where('d.id', '=', deliveryId)
    .where('w.app_id', '=', app.id)
    .executeTakeFirst();
  if (!original) return undefined;
  const id = ctx.ids.next();
  const now = ctx.clock.now().toISOString();
  const { webhook_id, event_id, event_seq, route, part, body } = original;
  await insertDeliveries(ctx.store.db, [pendingDelivery({ id, webhook_id, event_id, event_seq, route, part, body, replay_job_id: `${RESEND_PREFIX}${id}` }, now)]);
  ctx.events.committed();
  return id;
}

export interface CapFigure {
  period: CapPeriod;
  scope: CapScope;
  limit: string;
  spent: string;
}

export interface UsageFigures {
  /** Only pay-per-use apps are charged (src/platform/usage/). */
  charged: boolean;
  spentToday: string;
  spentThisMonth: string;
  caps: CapFigure[];
  byKind: Array<{ kind: string; units: number; amount: string }>;
  postsThisMonth: string;
  /** The tier's monthly post cap, written with thousands separators. */
  postCap?: string;
  daily: Array<{ date: string; usage: string }>;
}

/** The app's charges and caps this period, and the posts it read per day (GET /2/usage/posts's figures). */
export async function usageFigures(ctx: PlatformContext, app: AppRow): Promise<UsageFigures> {
  const db = ctx.store.db;
  const now = ctx.clock.now();
  const day = periodStart('Daily', now).toISOString();
  const month = periodStart('Monthly', now).toISOString();
  const caps = await Promise.all(
    (await capsOf(db, app.id)).map(async (c) => {
      const since = periodStart(c.period, now).toISOString();
      const spent = c.scope === 'Product' ? await spentSince(db, 'app_id', app.id, since) : await spentSince(db, 'account_id', app.owner_user_id ?? app.id, since);
      return { period: c.period, scope: c.scope, limit: credits(Number(c.limit_micro)), spent: credits(spent) };
    }),
  );
  const kinds = await db
    .selectFrom('usage_ledger')
    .select(['kind', (eb) => eb.fn.sum<number | string>('units').as('units'), (eb) => eb.fn.sum<number | string>('amount_micro').as('amount')])
    .where('app_id', '=', app.id)
    .where('created_at', '>=', month)
    .groupBy('kind')
    .orderBy('kind')
    .execute();
  const posts = (await usageOfPosts(ctx, app, { days: 7, selected: new Set(USAGE_FIELDS) })).data as {
    project_usage?: string;
    project_cap?: string;
    daily_project_usage?: { usage: Array<{ date: string; usage: string }> };
  };
  return {
    charged: app.tier === 'pay-per-use',
    spentToday: credits(await spentSince(db, 'app_id', app.id, day)),
    spentThisMonth: credits(await spentSince(db, 'app_id', app.id, month)),
    caps,
    byKind: kinds.map((k) => ({ kind: k.kind, units: Number(k.units), amount: credits(Number(k.amount)) })),
    postsThisMonth: posts.project_usage ?? '0',
    postCap: posts.project_cap === undefined ? undefined : Number(posts.project_cap).toLocaleString('en'),
    daily: posts.daily_project_usage?.usage ?? [],
  };
}

const windowText = (w: Window, published: boolean) =>
  `${w.limit.toLocaleString('en')} per ${w.windowMs >= 24 * 60 * 60 * 1000 ? '24 hours' : `${w.windowMs / 60_000} minutes`}${published ? '' : ' (default)'}`;

export interface RateLimitTable {
  /** False when the installation runs without rate limits (PLAZA_RATE_LIMITS=off). */
  enforced: boolean;
  defaultLimit: string;
  rows: Array<{ route: string; app: string; user: string }>;
}

/** The limits every app meets (src/platform/rate-limits/table.ts): per app with a bearer token, per person with a user's token. */
export function rateLimitTable(ctx: PlatformContext): RateLimitTable {
  return {
    enforced: ctx.config.platformRateLimits !== 'off',
    defaultLimit: windowText(DEFAULT_LIMIT, true),
    rows: [...RATE_LIMITS.values()].map((r) => ({ route: r.route, app: windowText(r.app, r.published.app), user: windowText(r.user, r.published.user) })),
  };
}

/** The admin interface's rate_limit faults waiting for this app (each strikes one request with a 429). */
export async function pendingRateLimitFaults(ctx: PlatformContext, app: AppRow): Promise<Array<{ id: string; endpoint: string; remaining: number }>> {
  if (!ctx.faults) return [];
  return (await ctx.faults.list())
    .filter((f) => f.kind === 'rate_limit' && f.app_id === app.id)
    .map((f) => ({ id: f.id, endpoint: f.endpoint ?? 'any endpoint', remaining: f.remaining ?? 1 }));
}

export interface ConnectionView {
  id: string;
  endpoint_name: string;
  client_ip: string;
  connected_at: string;
  disconnected_at?: string;
  disconnect_reason?: string;
}

const ALL_CONNECTION_FIELDS = CONNECTION_FIELDS.join(',');

/** The app's open stream connections and its latest closed ones, as GET /2/connections lists them. */
export async function connectionsOf(ctx: PlatformContext, app: AppRow): Promise<{ open: ConnectionView[]; closed: ConnectionView[] }> {
  const list = async (status: 'active' | 'inactive') =>
    ((await getConnectionHistory(ctx, app, { status, max_results: status === 'active' ? '100' : '10', 'connection.fields': ALL_CONNECTION_FIELDS })).data ?? []) as unknown as ConnectionView[];
  const [open, closed] = await Promise.all([list('active'), list('inactive')]);
  return { open, closed };
}

/** Ends one of the app's open connections as DELETE /2/connections does (ForceDisconnect); false when none is open with that id. */
export async function disconnect(ctx: PlatformContext, app: AppRow, uuid: string): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(uuid)) return false;
  const result = await deleteConnectionsByUuids(ctx, app, [uuid]);
  return result.data.successful_kills === 1;
}
