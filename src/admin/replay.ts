import type { AppRow } from '../auth/store.js';
import type { PlatformContext } from '../platform/context.js';
import { startReplay } from '../events/replay.js';
import { invalidValue } from '../http/params.js';
import { ProblemError, problems } from '../http/problems.js';

/**
 * POST /admin/replays and GET /admin/replays/{job_id} (`plaza replay`): the platform's replay job
 * (POST /2/webhooks/replay, src/events/replay.ts) started for any app's webhook without its bearer
 * token, with ISO 8601 times, and its progress read back, which the platform only tells at the
 * end (the replay_job_status event).
 */

export interface ReplayRequest {
  webhook_id: string;
  from_date: string;
  to_date: string;
}

export interface ReplayProgress {
  job_id: string;
  webhook_id: string;
  state: 'running' | 'complete' | 'incomplete';
  from_date: string;
  to_date: string;
  created_at: string;
  finished_at: string | null;
  /** Deliveries the job re-sends (the window's), and how many have ended each way. */
  total: number;
  delivered: number;
  failed: number;
  pending: number;
}

const ISO_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,3})?)?(Z|[+-]\d\d:\d\d)$/;

/**
 * The replay's yyyymmddhhmm, from ISO 8601 (or yyyymmddhhmm as is). Replay windows are whole
 * minutes: seconds are dropped, as the platform's format has none.
 */
function minuteOf(name: string, raw: string): string {
  if (/^\d{12}$/.test(raw)) return raw;
  const at = new Date(raw);
  if (!ISO_INSTANT.test(raw) || Number.isNaN(at.getTime())) {
    throw invalidValue(name, raw, `The \`${name}\` value [${raw}] is neither an ISO 8601 date-time such as 2026-01-02T03:04Z nor yyyymmddhhmm (UTC)`);
  }
  return at.toISOString().slice(0, 16).replace(/[-T:]/g, '');
}

export async function startAdminReplay(ctx: PlatformContext, body: ReplayRequest): Promise<ReplayProgress> {
  const webhook = await ctx.store.db.selectFrom('webhooks').select(['id', 'app_id']).where('id', '=', body.webhook_id).executeTakeFirst();
  if (!webhook) throw invalidValue('webhook_id', body.webhook_id, `WebhookIdInvalid: no webhook has the id [${body.webhook_id}]`);
  const app = (await ctx.store.db.selectFrom('apps').selectAll().where('id', '=', webhook.app_id).executeTakeFirstOrThrow()) as AppRow;
  const from = minuteOf('from_date', body.from_date);
  const to = minuteOf('to_date', body.to_date);
  const started = await startReplay(ctx, app, webhook.id, from, to, { legacy: false });
  return replayProgress(ctx, started.data.job_id);
}

export async function replayProgress(ctx: PlatformContext, jobId: string): Promise<ReplayProgress> {
  const db = ctx.store.db;
  const job = await db.selectFrom('webhook_replay_jobs').selectAll().where('id', '=', jobId).executeTakeFirst();
  if (!job) throw new ProblemError(404, problems.aboutBlank(404, 'Not Found', `No replay job has the id [${jobId}]`));
  const counts = await db
    .selectFrom('webhook_deliveries')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('replay_job_id', '=', jobId)
    // The job's own completion event is not one of the window's deliveries.
    .where('route', '>=', 0)
    .groupBy('status')
    .execute();
  const n = (s: string) => Number(counts.find((c) => c.status === s)?.n ?? 0);
  return {
    job_id: job.id,
    webhook_id: job.webhook_id,
    state: job.state,
    from_date: job.from_time,
    to_date: job.to_time,
    created_at: job.created_at,
    finished_at: job.finished_at,
    total: n('pending') + n('delivered') + n('failed'),
    delivered: n('delivered'),
    failed: n('failed'),
    pending: n('pending'),
  };
}
