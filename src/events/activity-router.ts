import type { PlatformContext } from '../platform/context.js';
import { candidateSubscriptions, matchDeliveries } from '../platform/activity/fanout.js';
import { parseLogged } from '../platform/activity/event-types.js';
import { TYPES_BY_LOG_TYPE } from '../platform/activity/event-types.js';
import type { DbOrTx } from '../store/store.js';
import { appDialects } from '../auth/store.js';
import { bodyToTweet } from '../http/dialect/translate.js';
import type { EventRow } from './log.js';
import { registerWebhookRouter, type WebhookRouter } from './webhook-routers.js';

/**
 * Activity subscriptions that name a webhook get their events there as well as on the stream
 * (reference §7), in the same envelope. The outbox holds one delivery per (webhook, event) for a
 * router, so when several subscriptions to one webhook match one event, the oldest one's envelope
 * is sent.
 */
export const activityWebhookRouter: WebhookRouter = async (ctx: PlatformContext, db: DbOrTx, row: EventRow) => {
  if (!TYPES_BY_LOG_TYPE.has(row.type)) return [];
  const event = parseLogged(row);
  const subs = await candidateSubscriptions(db, [event], { withWebhook: true });
  if (subs.length === 0) return [];
  const out = new Map<string, { appId: string; body: unknown }>();
  for (const d of await matchDeliveries(ctx, db, [event], subs)) {
    const webhookId = d.subscription.webhook_id!;
    if (!out.has(webhookId)) out.set(webhookId, { appId: d.subscription.app_id, body: d.body });
  }
  // Each app receives them in its dialect.
  const dialects = await appDialects(db, [...out.values()].map((d) => d.appId));
  return [...out].map(([webhookId, d]) => ({ webhookId, body: dialects.get(d.appId) === 'tweet' ? bodyToTweet(d.body) : d.body }));
};

registerWebhookRouter(activityWebhookRouter);
