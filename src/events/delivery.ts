import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { PlatformContext } from '../platform/context.js';
import { isTlsError, recordOutcome, type Outcome } from '../platform/webhooks/lifecycle.js';
import { destinationPolicy } from '../platform/webhooks/service.js';
import { policyLookup, refusedAddress, type DestinationPolicy } from '../platform/webhooks/url-policy.js';
import { claimDueDeliveries, markAttemptFailed, markDelivered, type ClaimedDelivery } from './outbox.js';

/** The signature header of every delivery (shared/reference/platform.md §1 "Event delivery"). */
export const SIGNATURE_HEADER = 'x-twitter-webhooks-signature';
/** The delivery id, the same on every retry of one delivery: receivers dedupe on it. */
export const DELIVERY_ID_HEADER = 'x-plaza-delivery-id';
export const EVENT_ID_HEADER = 'x-plaza-event-id';

/** `sha256=` + base64 HMAC-SHA256 of the raw body under the app's consumer secret. */
export function signBody(body: string, consumerSecret: string): string {
  return `sha256=${createHmac('sha256', consumerSecret).update(body).digest('base64')}`;
}

/** The headers of one delivery attempt (also what `plaza trigger` and `plaza listen` send). */
export function deliveryHeaders(body: string, consumerSecret: string, deliveryId: string, eventId: string): Record<string, string> {
  return { 'content-type': 'application/json', [SIGNATURE_HEADER]: signBody(body, consumerSecret), [DELIVERY_ID_HEADER]: deliveryId, [EVENT_ID_HEADER]: eventId, 'user-agent': 'Plaza-Webhooks/1' };
}

/**
 * The reference's retries: 3 retries over 5 minutes after the first attempt. The delay before
 * retry n is RETRY_DELAYS_MS[n-1], counted on the injected clock; after the last, it is given up.
 */
export const RETRY_DELAYS_MS = [60_000, 120_000, 120_000];

const CLAIM_BATCH = 256;
const IN_FLIGHT = 64;

interface Attempt {
  delivery: ClaimedDelivery;
  outcome: Outcome;
  status: number | null;
}

/**
 * Keep-alive agents: deliveries to one receiver reuse their connections (node:http rather than
 * fetch, for its lower cost per request at thousands of deliveries a second).
 */
const agents = { http: new http.Agent({ keepAlive: true, maxSockets: 64 }), https: new https.Agent({ keepAlive: true, maxSockets: 64 }) };

/** POSTs `body` and resolves with the status; the answer's body is read and dropped. */
function post(url: string, body: string, headers: Record<string, string>, timeoutMs: number, policy: DestinationPolicy): Promise<number> {
  const target = new URL(url);
  // Deliveries go only where the webhook URL policy allows, checked when connecting (a name may
  // resolve elsewhere since the webhook was created); a literal address is never looked up.
  const literal = target.hostname.replace(/^\[|\]$/g, '');
  const refused = isIP(literal) ? refusedAddress(literal, policy) : undefined;
  if (refused) return Promise.reject(new Error(`the address ${literal} ${refused}`));
  const client = target.protocol === 'https:' ? https : http;
  const signal = AbortSignal.timeout(timeoutMs);
  return new Promise<number>((resolve, reject) => {
    const req = client.request(
      target,
      { method: 'POST', agent: target.protocol === 'https:' ? agents.https : agents.http, lookup: policyLookup(policy), signal, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', (err) => reject(signal.aborted ? Object.assign(new Error(`no answer within ${timeoutMs} ms`), { name: 'TimeoutError' }) : err));
    req.end(body);
  });
}

/** One POST of one delivery; never throws. */
async function attempt(ctx: PlatformContext, d: ClaimedDelivery): Promise<Attempt> {
  try {
    // A failure injected through the admin interface: taken as the receiver's answer, not sent.
    const injected = await ctx.faults?.webhookFailure(d.webhook_id);
    if (injected !== undefined) return { delivery: d, outcome: { ok: false, fatal: injected >= 300 && injected < 400, reason: `answered HTTP ${injected} (injected fault)` }, status: injected };
    const s = await post(
      d.url,
      d.body,
      deliveryHeaders(d.body, d.consumer_secret, d.id, d.event_id),
      ctx.config.webhookTimeoutMs,
      destinationPolicy(ctx),
    );
    if (s >= 200 && s < 300) return { delivery: d, outcome: { ok: true }, status: s };
    // A redirect makes the webhook invalid at once; any other status is a transient failure.
    return { delivery: d, outcome: { ok: false, fatal: s >= 300 && s < 400, reason: `answered HTTP ${s}` }, status: s };
  } catch (err) {
    const timeout = (err as Error | null)?.name === 'TimeoutError';
    const reason = timeout ? `no answer within ${ctx.config.webhookTimeoutMs} ms` : `request failed: ${describe(err)}`;
    return { delivery: d, outcome: { ok: false, fatal: !timeout && isTlsError(err), reason }, status: null };
  }
}

function describe(err: unknown): string {
  const e = err as { message?: string; cause?: { message?: string; code?: string } } | null;
  return [e?.message, e?.cause?.code, e?.cause?.message].filter(Boolean).join(': ') || String(err);
}

/**
 * Claims due deliveries and sends them, until none is due. Returns how many were attempted.
 * Each result is recorded on its own row, so a process killed mid-batch leaves the unrecorded
 * ones claimed until their lease runs out, and then they are sent again (at-least-once).
 */
export async function deliverDue(ctx: PlatformContext, shouldStop: () => boolean): Promise<number> {
  let total = 0;
  while (!shouldStop()) {
    const now = ctx.clock.now();
    // The lease covers the request's time-out with room to record the result.
    const lease = new Date(now.getTime() + ctx.config.webhookTimeoutMs + 5_000).toISOString();
    const claimed = await claimDueDeliveries(ctx.store.db, ctx.store.dialect, now.toISOString(), lease, CLAIM_BATCH);
    if (claimed.length === 0) break;
    total += claimed.length;
    const results: Attempt[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(IN_FLIGHT, claimed.length) }, async () => {
        while (next < claimed.length) results.push(await attempt(ctx, claimed[next++]!));
      }),
    );
    await record(ctx, results);
    if (claimed.length < CLAIM_BATCH) break;
  }
  return total;
}

async function record(ctx: PlatformContext, results: Attempt[]): Promise<void> {
  const at = ctx.clock.now();
  await ctx.store.db.transaction().execute(async (tx) => {
    // Successes, the bulk of it, in one statement per status code.
    const delivered = new Map<number, string[]>();
    for (const r of results) if (r.outcome.ok) delivered.set(r.status ?? 200, [...(delivered.get(r.status ?? 200) ?? []), r.delivery.id]);
    for (const [status, ids] of delivered) await markDelivered(tx, ids, status, at.toISOString());
    for (const r of results) {
      const d = r.delivery;
      if (r.outcome.ok) {
        continue;
      } else if (r.outcome.fatal) {
        // Not the receiver's fault alone: the webhook is invalid now, and the delivery waits, not
        // spent, for it to pass a CRC again.
        await markAttemptFailed(tx, d.id, { status: r.status, error: r.outcome.reason, nextAttemptAt: at.toISOString() });
      } else {
        const delay = RETRY_DELAYS_MS[d.attempts];
        const nextAttemptAt = delay === undefined ? null : new Date(at.getTime() + delay).toISOString();
        await markAttemptFailed(tx, d.id, { status: r.status, error: r.outcome.reason, nextAttemptAt });
      }
    }
  });
  // What the attempts say about each webhook: a success ends a failing run; a fatal failure or
  // more than 28 h of transient ones make it invalid.
  // Per webhook, a fatal failure counts most, then any success, then a transient failure.
  const rank = (o: Outcome) => (o.ok ? 1 : o.fatal ? 2 : 0);
  const byWebhook = new Map<string, Outcome>();
  for (const r of results) {
    const seen = byWebhook.get(r.delivery.webhook_id);
    if (!seen || rank(r.outcome) > rank(seen)) byWebhook.set(r.delivery.webhook_id, r.outcome);
  }
  for (const [webhookId, outcome] of byWebhook) await recordOutcome(ctx, webhookId, outcome);
}
