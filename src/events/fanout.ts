import type { PlatformContext } from '../platform/context.js';
import type { WebhookDeliveryTable } from '../store/schema-events.js';
import { eventsAfter, lastEventSeq, logState, placeEvents } from './log.js';
import { ensureCursor, insertDeliveries, moveCursor, pendingDelivery, readCursor, skipWithoutWebhooks } from './outbox.js';
import { webhookRouters } from './webhook-routers.js';

export const WEBHOOK_CURSOR = 'webhooks';
const BATCH = 500;

/** Starts the webhook fan-out at the log's end on a store that never had it (older events are no one's news). */
export async function initFanOut(ctx: PlatformContext): Promise<void> {
  await ensureCursor(ctx.store.db, WEBHOOK_CURSOR, await lastEventSeq(ctx.store.db));
}

/**
 * Reads one batch of the log past the fan-out cursor, asks every registered router which webhooks
 * get each event, and writes the outbox rows and the moved cursor in one transaction: a crash
 * before the commit redoes the batch, and the rows' unique key makes redoing it harmless.
 * Says how many events it read (0: none new, or another process holds the cursor), how many
 * deliveries it wrote, and whether events it found waiting for their places still wait (held back
 * by an older transaction, or by another sequencer at work): then it should look again soon.
 */
export async function fanOutOnce(ctx: PlatformContext): Promise<{ events: number; deliveries: number; held: boolean }> {
  let held = false;
  const none = () => ({ events: 0, deliveries: 0, held });
  // One look first: the fan-out is woken after every commit of this process that appended (and
  // polled), and a wake-up that finds nothing new costs only this; the log's places and the
  // cursor's lock are for those that do.
  const state = await logState(ctx.store.db, WEBHOOK_CURSOR);
  if (state.held > 0) {
    // The events waiting take their places first (outside the transaction below); the readers of
    // every process hear of it.
    const placed = await placeEvents(ctx.store.db);
    if (placed > 0) ctx.events.placed();
    held = placed < state.held;
  } else if (state.last <= state.cursor) return none();
  // A store without webhooks has nothing to route: the cursor moves to the log's end in one statement.
  if (!state.webhooks && (await skipWithoutWebhooks(ctx.store.db, WEBHOOK_CURSOR, ctx.store.dialect))) return none();
  return ctx.store.db.transaction().execute(async (tx) => {
    const cursor = await readCursor(tx, WEBHOOK_CURSOR, ctx.store.dialect, true);
    if (cursor === undefined) return none();
    const events = await eventsAfter(tx, cursor, BATCH);
    if (events.length === 0) return none();
    const now = ctx.clock.now().toISOString();
    const rows: WebhookDeliveryTable[] = [];
    const routers = webhookRouters();
    for (const event of events) {
      for (let route = 0; route < routers.length; route++) {
        const parts = new Map<string, number>();
        for (const target of await routers[route]!(ctx, tx, event)) {
          const part = parts.get(target.webhookId) ?? 0;
          parts.set(target.webhookId, part + 1);
          rows.push(
            pendingDelivery(
              { id: ctx.ids.next(), webhook_id: target.webhookId, event_id: event.id, event_seq: Number(event.seq), route, part, replay_job_id: '', body: JSON.stringify(target.body) },
              now,
            ),
          );
        }
      }
    }
    await insertDeliveries(tx, rows);
    await moveCursor(tx, WEBHOOK_CURSOR, Number(events.at(-1)!.seq));
    return { events: events.length, deliveries: rows.length, held };
  });
}
