import type { PlatformContext } from '../context.js';
import { appendEvent } from '../../events/log.js';
import { runCrc } from './crc.js';
import { destinationPolicy } from './service.js';
import { claimCrcAttempt, clearFailing, markFailing, markInvalid, recordCrcResult, webhooksDueForCrc } from './store.js';

/**
 * The webhook lifecycle of the reference (shared/reference/platform.md §1 "CRC challenge"): a
 * wrong CRC token, a 3xx or an SSL failure makes a webhook invalid at once; transient failures
 * (4xx, 5xx, time-outs, closed connections) only once they have lasted more than 28 h without a
 * success. An invalid webhook gets nothing until a PUT /2/webhooks/{id} passes again.
 */
export const TRANSIENT_GRACE_MS = 28 * 60 * 60 * 1000;
/** The periodic CRC: every 30 minutes, but only for a webhook not validated in the past 24 hours. */
export const CRC_RECHECK_EVERY_MS = 30 * 60 * 1000;
export const CRC_SUCCESS_FRESH_MS = 24 * 60 * 60 * 1000;

export type Outcome = { ok: true } | { ok: false; fatal: boolean; reason: string };

const TLS_CODE = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_OSSL|HOSTNAME_MISMATCH)/;

/** True for an error of the TLS layer (a bad, expired or self-signed certificate, a failed handshake). */
export function isTlsError(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown; message?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && TLS_CODE.test(e.code)) return true;
    if (typeof e.message === 'string' && /certificate|SSL routines|TLS/i.test(e.message)) return true;
  }
  return false;
}

/**
 * Sorts a failed CRC (crc.ts reports why in words): a wrong token, a redirect or a TLS failure is
 * fatal; anything else (a time-out, another status, a network error) is transient.
 */
export function crcFailureIsFatal(reason: string): boolean {
  return /wrong response_token/.test(reason) || /answered HTTP 3\d\d/.test(reason) || /certificate|SSL|TLS/i.test(reason);
}

/** Records what a delivery or a periodic CRC found out about the webhook. */
export async function recordOutcome(ctx: PlatformContext, webhookId: string, outcome: Outcome): Promise<void> {
  const db = ctx.store.db;
  if (outcome.ok) {
    await clearFailing(db, webhookId);
    return;
  }
  const now = ctx.clock.now();
  if (outcome.fatal) {
    await invalidate(ctx, webhookId, outcome.reason);
    return;
  }
  const since = await markFailing(db, webhookId, now.toISOString());
  if (since && now.getTime() - Date.parse(since) > TRANSIENT_GRACE_MS) {
    await invalidate(ctx, webhookId, `failing since ${since} (more than 28 h): ${outcome.reason}`);
  }
}

async function invalidate(ctx: PlatformContext, webhookId: string, reason: string): Promise<void> {
  await ctx.store.db.transaction().execute(async (tx) => {
    if (await markInvalid(tx, webhookId, reason)) {
      ctx.log.info({ webhook_id: webhookId, reason }, 'webhook made invalid');
      await appendEvent(ctx, tx, { type: 'webhook.invalid', subject: webhookId, payload: { webhook_id: webhookId, valid: false, reason } });
    }
  });
}

/** Sends the periodic CRCs that are due by the injected clock; each is claimed by one process. */
export async function runPeriodicCrcs(ctx: PlatformContext): Promise<number> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  const due = await webhooksDueForCrc(
    ctx.store.db,
    new Date(now.getTime() - CRC_SUCCESS_FRESH_MS).toISOString(),
    new Date(now.getTime() - CRC_RECHECK_EVERY_MS).toISOString(),
    50,
  );
  let sent = 0;
  for (const w of due) {
    if (!(await claimCrcAttempt(ctx.store.db, w.id, w.last_crc_attempt_at, at))) continue;
    sent++;
    const crc = await runCrc(w.url, w.consumer_secret, ctx.config.crcTimeoutMs, destinationPolicy(ctx));
    if (crc.valid) {
      await recordCrcResult(ctx.store.db, w.id, true, ctx.clock.now().toISOString());
    } else {
      const reason = crc.reason ?? 'CRC failed';
      await recordOutcome(ctx, w.id, { ok: false, fatal: crcFailureIsFatal(reason), reason: `periodic CRC: ${reason}` });
    }
  }
  return sent;
}
