import type { AppRow } from '../auth/store.js';
import type { CoreContext } from '../context.js';
import { invalidParameter } from '../http/params.js';
import { ProblemError, problems } from '../http/problems.js';
import { findWebhookOfApp } from '../platform/webhooks/store.js';
import { insertDeliveries, pendingDelivery } from './outbox.js';

/**
 * Replay (shared/reference/platform.md §1 "Replay"): a job that re-delivers to one webhook the
 * deliveries made or attempted in a window of the last 24 h, then a completion event. The copies
 * are new outbox rows (tagged with the job), so they are signed, retried and claimed like any
 * other; the job completes when none of them is pending any more.
 */
const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60_000;

export interface ReplayWindowRules {
  /** The deprecated Account Activity replay's extra rules: from ≤ now − 31 min, to ≤ now − 10 min. */
  legacy: boolean;
}

/** yyyymmddhhmm, UTC; undefined when it is not such a time. */
export function parseReplayDate(raw: unknown): Date | undefined {
  if (typeof raw !== 'string' || !/^\d{12}$/.test(raw)) return undefined;
  const [y, mo, d, h, mi] = [raw.slice(0, 4), raw.slice(4, 6), raw.slice(6, 8), raw.slice(8, 10), raw.slice(10, 12)].map(Number) as [number, number, number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi));
  // Date.UTC rolls 20260231 over to March: a date that does not round-trip does not exist.
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d || date.getUTCHours() !== h || date.getUTCMinutes() !== mi) return undefined;
  return date;
}

function queryParamInvalid(name: string, value: unknown, why: string) {
  return invalidParameter(name, [String(value ?? '')], `QueryParamInvalid: the \`${name}\` value [${String(value ?? '')}] ${why}`);
}

/** Checks a replay window against the injected clock; throws QueryParamInvalid naming the bad date. */
export function checkReplayWindow(ctx: CoreContext, fromRaw: unknown, toRaw: unknown, rules: ReplayWindowRules): { from: Date; to: Date } {
  const from = parseReplayDate(fromRaw);
  if (!from) throw queryParamInvalid('from_date', fromRaw, 'must be a UTC time written yyyymmddhhmm');
  const to = parseReplayDate(toRaw);
  if (!to) throw queryParamInvalid('to_date', toRaw, 'must be a UTC time written yyyymmddhhmm');
  const now = ctx.clock.now().getTime();
  if (from.getTime() < now - DAY_MS) throw queryParamInvalid('from_date', fromRaw, 'is more than 24 hours ago');
  if (from.getTime() > now) throw queryParamInvalid('from_date', fromRaw, 'is in the future');
  if (to.getTime() > now) throw queryParamInvalid('to_date', toRaw, 'is in the future');
  if (from.getTime() >= to.getTime()) throw queryParamInvalid('from_date', fromRaw, `must be before the \`to_date\` [${String(toRaw)}]`);
  if (rules.legacy) {
    if (from.getTime() > now - 31 * MINUTE_MS) throw queryParamInvalid('from_date', fromRaw, 'must be at least 31 minutes ago');
    if (to.getTime() > now - 10 * MINUTE_MS) throw queryParamInvalid('to_date', toRaw, 'must be at least 10 minutes ago');
  }
  return { from, to };
}

/** Starts a replay job for one of the app's webhooks; ReplayConflictError while another runs. */
export async function startReplay(ctx: CoreContext, app: AppRow, webhookId: string, fromRaw: unknown, toRaw: unknown, rules: ReplayWindowRules) {
  const webhook = await findWebhookOfApp(ctx.store.db, app.id, webhookId);
  if (!webhook) throw invalidParameter('webhook_id', [webhookId], `WebhookIdInvalid: no webhook with id [${webhookId}] belongs to this app`);
  const { from, to } = checkReplayWindow(ctx, fromRaw, toRaw, rules);
  if (webhook.valid !== 1) {
    throw invalidParameter('webhook_id', [webhookId], `CrcValidationFailed: webhook [${webhookId}] is not valid; validate it with PUT /2/webhooks/${webhookId} first`);
  }
  const now = ctx.clock.now().toISOString();
  const jobId = ctx.ids.next();
  await ctx.store.db.transaction().execute(async (tx) => {
    // One job per webhook at a time: the webhook's row lock serialises two starts on PostgreSQL
    // (SQLite runs one write transaction at a time).
    if (ctx.store.dialect === 'postgres') await tx.selectFrom('webhooks').select('id').where('id', '=', webhookId).forUpdate().execute();
    const running = await tx.selectFrom('webhook_replay_jobs').select('id').where('webhook_id', '=', webhookId).where('state', '=', 'running').executeTakeFirst();
    if (running) throw new ProblemError(409, problems.conflict(`ReplayConflictError: replay job [${running.id}] is still running for webhook [${webhookId}]`));
    await tx.insertInto('webhook_replay_jobs').values({ id: jobId, webhook_id: webhookId, from_time: from.toISOString(), to_time: to.toISOString(), state: 'running', created_at: now, finished_at: null }).execute();
    const originals = await tx
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('webhook_id', '=', webhookId)
      .where('replay_job_id', '=', '')
      .where('created_at', '>=', from.toISOString())
      .where('created_at', '<', to.toISOString())
      .orderBy('event_seq')
      .execute();
    await insertDeliveries(
      tx,
      originals.map((o) => pendingDelivery({ ...o, id: ctx.ids.next(), replay_job_id: jobId }, now)),
    );
  });
  ctx.events.committed();
  return { data: { job_id: jobId, created_at: now } };
}

/** Completes every running job none of whose deliveries is pending, and queues its completion event. */
export async function finishReplayJobs(ctx: CoreContext): Promise<void> {
  const running = await ctx.store.db.selectFrom('webhook_replay_jobs').selectAll().where('state', '=', 'running').execute();
  for (const job of running) {
    const counts = await ctx.store.db
      .selectFrom('webhook_deliveries')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('replay_job_id', '=', job.id)
      .groupBy('status')
      .execute();
    const n = (s: string) => Number(counts.find((c) => c.status === s)?.n ?? 0);
    if (n('pending') > 0) continue;
    const complete = n('failed') === 0;
    const now = ctx.clock.now().toISOString();
    await ctx.store.db.transaction().execute(async (tx) => {
      // Only the process whose update moves the job out of 'running' queues the completion event.
      const moved = await tx
        .updateTable('webhook_replay_jobs')
        .set({ state: complete ? 'complete' : 'incomplete', finished_at: now })
        .where('id', '=', job.id)
        .where('state', '=', 'running')
        .executeTakeFirst();
      if (moved.numUpdatedRows === 0n) return;
      const body = {
        replay_job_status: {
          webhook_id: job.webhook_id,
          job_state: complete ? 'Complete' : 'Incomplete',
          job_state_description: complete
            ? `All ${n('delivered')} events of the window were delivered`
            : `${n('failed')} of ${n('delivered') + n('failed')} events of the window could not be delivered`,
          job_id: job.id,
        },
      };
      const completion = { id: ctx.ids.next(), webhook_id: job.webhook_id, event_id: `replay-${job.id}`, event_seq: 0, route: -1, part: 0, replay_job_id: job.id, body: JSON.stringify(body) };
      await insertDeliveries(tx, [pendingDelivery(completion, now)]);
    });
  }
}
