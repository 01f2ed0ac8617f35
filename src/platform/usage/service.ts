import type { AppRow } from '../../auth/store.js';
import type { PlatformContext } from '../context.js';
import { parseSelectionText } from '../../http/fields.js';
import { invalidParameter } from '../../http/params.js';
import type { DbOrTx } from '../../store/store.js';
import { unitPrice, type ChargeKind } from './prices.js';
import { capsOf, deleteCaps, insertCharge, postsReadPerDay, spentSince, upsertCap, type UsageCapRow } from './store.js';
import { accountOf, projectOf, usageCapped } from './capped.js';
import { flushPostReads, POST_CAPS, postsReadThisMonth } from './post-reads.js';

/**
 * The credit ledger of pay-per-use apps and the caps on spending (spec 000 "Limits" and the
 * usage-capped problem), and GET /2/usage/posts. A Product cap counts the app's own charges, an
 * Account cap those of every app of its account (capped.ts); Daily periods start at 00:00 UTC,
 * Monthly ones on the 1st (cap_reset_day 1). The posts read, and the tiers' post caps, are
 * post-reads.ts's.
 */
export type CapPeriod = 'Daily' | 'Monthly';
export type CapScope = 'Account' | 'Product';
export const CAP_PERIODS: readonly CapPeriod[] = ['Daily', 'Monthly'];
export const CAP_SCOPES: readonly CapScope[] = ['Account', 'Product'];
export const CAP_RESET_DAY = 1;
const DAY_MS = 24 * 60 * 60 * 1000;

export function periodStart(period: CapPeriod, now: Date): Date {
  return period === 'Daily'
    ? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
    : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), CAP_RESET_DAY));
}

/**
 * Each app's caps, kept so the check costs no query on most requests: on SQLite while usage_caps
 * is unwritten (exact); on PostgreSQL, where other processes write too, for CAP_CACHE_MS at most
 * (a cap set through this process applies at once: setting and clearing drop the copy).
 */
const CAP_CACHE_MS = 1_000;
const capCache = new WeakMap<object, { generation: string | undefined; caps: Map<string, { rows: UsageCapRow[]; at: number }> }>();

/** The app's caps as kept, while still current; undefined when they must be read. */
function keptCaps(ctx: Pick<PlatformContext, 'store'>, appId: string): UsageCapRow[] | undefined {
  const exact = ctx.store.tableGeneration('usage_caps');
  // PostgreSQL: kept for CAP_CACHE_MS, or until another process announces an admin change.
  const generation = exact ?? `elsewhere:${ctx.store.changesElsewhere()}`;
  let cache = capCache.get(ctx.store);
  if (!cache || cache.generation !== generation) capCache.set(ctx.store, (cache = { generation, caps: new Map() }));
  const kept = cache.caps.get(appId);
  return kept && (exact !== undefined || Date.now() - kept.at < CAP_CACHE_MS) ? kept.rows : undefined;
}

/** Whether the app is known, without a query, to have no cap: the cap check's fast path. */
export function knownUncapped(ctx: Pick<PlatformContext, 'store'>, appId: string): boolean {
  return keptCaps(ctx, appId)?.length === 0;
}

async function capsFor(ctx: Pick<PlatformContext, 'store'>, appId: string): Promise<UsageCapRow[]> {
  const kept = keptCaps(ctx, appId);
  if (kept) return kept;
  const cache = capCache.get(ctx.store)!;
  const rows = await capsOf(ctx.store.db, appId);
  cache.caps.set(appId, { rows, at: Date.now() });
  return rows;
}

/**
 * The usage cap check: refuses the request with 429 usage-capped (period, scope) when a cap of
 * the app has been reached in its current period. A cap of 0 credits refuses everything it
 * covers at once, which is how the admin interface's fault makes an app capped.
 */
export async function checkUsageCap(ctx: PlatformContext, app: Pick<AppRow, 'id' | 'owner_user_id' | 'tier'>): Promise<void> {
  const caps = await capsFor(ctx, app.id);
  if (caps.length === 0) return;
  const now = ctx.clock.now();
  const order = (c: UsageCapRow) => CAP_PERIODS.indexOf(c.period) * 2 + CAP_SCOPES.indexOf(c.scope);
  for (const cap of [...caps].sort((a, b) => order(a) - order(b))) {
    const since = periodStart(cap.period, now).toISOString();
    const spent = cap.scope === 'Product' ? await spentSince(ctx.store.db, 'app_id', app.id, since) : await spentSince(ctx.store.db, 'account_id', accountOf(app), since);
    if (spent >= Number(cap.limit_micro)) throw usageCapped(app, cap.period, cap.scope);
  }
}

/** Sets (or replaces) an app's cap of `credits` per period and scope: for the admin interface. */
export async function setUsageCap(ctx: Pick<PlatformContext, 'clock' | 'store'>, appId: string, cap: { period: CapPeriod; scope: CapScope; credits: number }, db: DbOrTx = ctx.store.db): Promise<void> {
  if (!CAP_PERIODS.includes(cap.period)) throw new RangeError(`period must be one of ${CAP_PERIODS.join(', ')}`);
  if (!CAP_SCOPES.includes(cap.scope)) throw new RangeError(`scope must be one of ${CAP_SCOPES.join(', ')}`);
  if (!Number.isFinite(cap.credits) || cap.credits < 0) throw new RangeError('credits must be a number of at least 0');
  await upsertCap(db, { app_id: appId, period: cap.period, scope: cap.scope, limit_micro: Math.round(cap.credits * 1_000_000), created_at: ctx.clock.now().toISOString() });
  capCache.delete(ctx.store);
}

/** Removes an app's caps (all of them, or the one period and/or scope named); how many were removed. */
export async function clearUsageCap(ctx: Pick<PlatformContext, 'store'>, appId: string, which: { period?: CapPeriod; scope?: CapScope } = {}, db: DbOrTx = ctx.store.db): Promise<number> {
  const removed = await deleteCaps(db, appId, which.period, which.scope);
  capCache.delete(ctx.store);
  return removed;
}

export interface Charge {
  kind: ChargeKind;
  units: number;
}

/** Writes a charge to the ledger at the prices in force now; only pay-per-use apps are charged. */
export async function recordCharge(ctx: PlatformContext, app: Pick<AppRow, 'id' | 'owner_user_id' | 'tier'>, charge: Charge): Promise<void> {
  if (app.tier !== 'pay-per-use' || charge.units <= 0) return;
  const now = ctx.clock.now();
  const price = unitPrice(charge.kind, now);
  if (price === undefined) return;
  await insertCharge(ctx.store.db, {
    id: ctx.ids.next(),
    app_id: app.id,
    project_id: projectOf(app),
    account_id: accountOf(app),
    kind: charge.kind,
    units: charge.units,
    unit_price_micro: price,
    amount_micro: price * charge.units,
    created_at: now.toISOString(),
  });
}

export const USAGE_FIELDS = ['cap_reset_day', 'daily_client_app_usage', 'daily_project_usage', 'project_cap', 'project_id', 'project_usage'] as const;
const USAGE_DEFAULTS: readonly string[] = ['cap_reset_day', 'project_cap', 'project_id', 'project_usage'];
export const USAGE_DAYS = { min: 1, max: 90, default: 7 };

/** GET /2/usage/posts's days and usage.fields, parsed by its route. */
export function parseUsageRequest(query: { days?: number | string; 'usage.fields'?: string }): { days: number; selected: ReadonlySet<string> } {
  const rawDays = query.days === undefined || query.days === '' ? String(USAGE_DAYS.default) : String(query.days);
  const days = Number(rawDays);
  if (!/^[0-9]+$/.test(rawDays) || days < USAGE_DAYS.min || days > USAGE_DAYS.max) {
    throw invalidParameter('days', [rawDays], `The \`days\` query parameter value [${rawDays}] is not between ${USAGE_DAYS.min} and ${USAGE_DAYS.max}`);
  }
  return { days, selected: parseSelectionText('usage.fields', query['usage.fields'], USAGE_FIELDS) };
}

/**
 * GET /2/usage/posts: the posts the app's project read (post-reads.ts) per day over the last
 * `days` days (1 to 90, default 7; today included, oldest first, days without reads as "0"), and in
 * the current monthly period; project_cap is the tier's monthly post cap, where it has one.
 */
export async function usageOfPosts(ctx: PlatformContext, app: AppRow, { days, selected }: { days: number; selected: ReadonlySet<string> }): Promise<{ data: Record<string, unknown> }> {
  const want = (name: string) => selected.has(name) || USAGE_DEFAULTS.includes(name);
  await flushPostReads(ctx);
  const now = ctx.clock.now();
  const project = projectOf(app);
  const firstDay = periodStart('Daily', new Date(now.getTime() - (days - 1) * DAY_MS));
  const out: Record<string, unknown> = {};
  if (want('project_id')) out.project_id = project;
  if (want('cap_reset_day')) out.cap_reset_day = CAP_RESET_DAY;
  const cap = POST_CAPS[app.tier];
  if (want('project_cap') && cap !== undefined) out.project_cap = String(cap);
  if (want('project_usage')) out.project_usage = String(await postsReadThisMonth(ctx, app.id));
  if (want('daily_project_usage') || want('daily_client_app_usage')) {
    const perDay = new Map((await postsReadPerDay(ctx.store.db, app.id, firstDay.toISOString().slice(0, 10))).map((r) => [r.day, r.posts]));
    const usage = Array.from({ length: days }, (_, i) => {
      const date = new Date(firstDay.getTime() + i * DAY_MS).toISOString();
      return { date, usage: String(perDay.get(date.slice(0, 10)) ?? 0) };
    });
    if (want('daily_project_usage')) out.daily_project_usage = { project_id: project, usage };
    // The project is the app: its one client app.
    if (want('daily_client_app_usage')) out.daily_client_app_usage = [{ client_app_id: app.id, usage, usage_result_count: usage.length }];
  }
  return { data: out };
}
