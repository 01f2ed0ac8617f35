import type { PlatformContext } from '../platform/context.js';
import type { DbOrTx } from '../store/store.js';
import type { EventRow } from './log.js';

/**
 * Says which webhooks get a delivery of one event of the log, and with what JSON body. The fan-out
 * worker (fanout.ts) asks every registered router about every event, in seq order, and writes one
 * outbox row per (webhook, event) it is told about.
 */
export type WebhookRouter = (ctx: PlatformContext, db: DbOrTx, event: EventRow) => Promise<Array<{ webhookId: string; body: unknown }>>;

const routers: WebhookRouter[] = [];

/** Registers a router (once per module, at import time); registering the same function twice is a no-op. */
export function registerWebhookRouter(r: WebhookRouter): void {
  if (!routers.includes(r)) routers.push(r);
}

export function webhookRouters(): readonly WebhookRouter[] {
  return routers;
}
