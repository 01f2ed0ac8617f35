import type { PlatformContext } from '../platform/context.js';
import { deliveryHeaders } from '../events/delivery.js';
import { WEBHOOK_CURSOR } from '../events/fanout.js';
import { lastEventSeq } from '../events/log.js';
import { readCursor } from '../events/outbox.js';
import { appNamed } from './users.js';
import { TYPES_BY_LOG_TYPE } from '../platform/activity/event-types.js';
import { candidateSubscriptions, matchDeliveries } from '../platform/activity/fanout.js';
import { parseLogged } from '../platform/activity/event-types.js';

/**
 * GET /admin/apps/{app}/deliveries?after=SEQ, what `plaza listen` follows: every delivery meant for
 * the app past a cursor (the log's seq), with the headers a delivery carries:
 * - what the fan-out made for the app's webhooks, read from the outbox: Account Activity
 *   subscriptions, Activity subscriptions that name a webhook, filtered-stream rules delivered to
 *   a webhook. The outbox holds exactly the bodies the routers built, whichever process fanned
 *   them out;
 * - the events of the app's Activity subscriptions that name no webhook, which only the activity
 *   stream carries: matched here from the log by the stream's own code (src/platform/activity/
 *   fanout.ts), in the same envelope, and signed as a webhook delivery is, so the listener's
 *   handler verifies both alike. Their delivery id is `activity-<subscription>-<event>`.
 *
 * The feed stops at the fan-out's cursor: the outbox rows up to it are all written (fan-out
 * writes an event's rows and moves the cursor in one transaction), so a listener that polls or
 * reconnects misses none and sees none twice, and the activity events come in the same order.
 */
export interface FedDelivery {
  id: string;
  /** Empty for an Activity event of a subscription without a webhook. */
  webhook_id: string;
  event_id: string;
  event_seq: number;
  /** The log entry the delivery was built from (post.create, follow.follow...). */
  log_type: string;
  created_at: string;
  body: string;
  headers: Record<string, string>;
}

export interface Feed {
  /** Pass it back as `after` for the deliveries that follow. */
  cursor: number;
  deliveries: FedDelivery[];
}

const PAGE = 500;

export async function deliveryFeed(ctx: PlatformContext, appNameOrId: string, after: number | undefined): Promise<Feed> {
  const db = ctx.store.db;
  const app = await appNamed(ctx, appNameOrId);
  // Without a cursor, the feed starts at the log's end: only what happens from now on.
  if (after === undefined) return { cursor: await lastEventSeq(db), deliveries: [] };
  // The fan-out's cursor first: every outbox row up to it is committed by the time it is read.
  let cap = (await readCursor(db, WEBHOOK_CURSOR, ctx.store.dialect, false)) ?? after;
  if (cap <= after) return { cursor: after, deliveries: [] };
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .select(['d.id', 'd.webhook_id', 'd.event_id', 'd.event_seq', 'd.created_at', 'd.body', 'e.type as log_type'])
    .where('w.app_id', '=', app.id)
    .where('d.replay_job_id', '=', '')
    .where('d.event_seq', '>', after)
    .where('d.event_seq', '<=', cap)
    .orderBy('d.event_seq')
    .orderBy('d.route')
    .orderBy('d.part')
    .orderBy('d.webhook_id')
    .limit(PAGE)
    .execute();
  let page = rows.map((r) => ({ ...r, event_seq: Number(r.event_seq) }));
  if (page.length === PAGE) {
    // A full page may end inside one event's rows: those wait for the next call.
    const last = page.at(-1)!.event_seq;
    if (page[0]!.event_seq !== last) page = page.filter((r) => r.event_seq !== last);
    cap = page.at(-1)!.event_seq;
  }
  const activity = await streamOnlyActivity(ctx, app.id, after, cap);
  cap = activity.cap;
  const fed: FedDelivery[] = [
    ...page.filter((r) => r.event_seq <= cap).map((r) => ({ ...r, headers: deliveryHeaders(r.body, app.consumer_secret, r.id, r.event_id) })),
    ...activity.deliveries.map((d) => ({ ...d, headers: deliveryHeaders(d.body, app.consumer_secret, d.id, d.event_id) })),
  ];
  // Log order; within one event, the webhook deliveries first (a stable sort keeps their order).
  fed.sort((a, b) => a.event_seq - b.event_seq);
  return { cursor: cap, deliveries: fed };
}

/** Activity API event types read from the log (post.create, follow.follow...). */
const ACTIVITY_LOG_TYPES = [...TYPES_BY_LOG_TYPE.keys()];

/**
 * The app's Activity deliveries between two cursors for its subscriptions without a webhook (those
 * with one are in the outbox already). At most a page of log entries; `cap` is where it stopped.
 */
async function streamOnlyActivity(ctx: PlatformContext, appId: string, after: number, cap: number): Promise<{ cap: number; deliveries: Array<Omit<FedDelivery, 'headers'>> }> {
  const db = ctx.store.db;
  const hasStreamOnly = await db.selectFrom('activity_subscriptions').select('id').where('app_id', '=', appId).where('webhook_id', 'is', null).limit(1).executeTakeFirst();
  if (!hasStreamOnly) return { cap, deliveries: [] };
  const rows = await db
    .selectFrom('events')
    .selectAll()
    .where('seq', '>', after)
    .where('seq', '<=', cap)
    .where('type', 'in', ACTIVITY_LOG_TYPES)
    .orderBy('seq')
    .limit(PAGE)
    .execute();
  if (rows.length === PAGE) cap = Number(rows.at(-1)!.seq);
  const events = rows.map(parseLogged);
  const subs = (await candidateSubscriptions(db, events, { appIds: [appId] })).filter((s) => s.webhook_id === null);
  const deliveries = await matchDeliveries(ctx, db, events, subs);
  return {
    cap,
    deliveries: deliveries.map((d) => ({
      id: `activity-${d.subscription.id}-${d.event.id}`,
      webhook_id: '',
      event_id: d.event.id,
      event_seq: d.event.seq,
      log_type: d.event.type,
      created_at: d.event.created_at,
      body: JSON.stringify(d.body),
    })),
  };
}
