import type { AppContext } from '../context.js';
import { deliveryHeaders } from '../events/delivery.js';
import { lastEventSeq } from '../events/log.js';
import { invalidParameter } from '../http/params.js';

/**
 * GET /admin/apps/{app}/deliveries?after=SEQ, what `plaza listen` follows: the deliveries the
 * fan-out has made for the app's webhooks (Account Activity subscriptions and Activity
 * subscriptions that name a webhook), past a cursor, with the headers a delivery carries.
 *
 * Read from the outbox, not from a stream: the outbox already holds exactly the bodies the routers
 * built for the app's webhooks, whichever process fanned them out, and the cursor (the log's seq)
 * means a listener that polls or reconnects misses none and sees none twice. Fan-out writes all
 * of an event's rows in one transaction in seq order, so nothing ever appears behind the cursor.
 */

export interface FedDelivery {
  id: string;
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

export async function deliveryFeed(ctx: AppContext, appNameOrId: string, after: number | undefined): Promise<Feed> {
  const db = ctx.store.db;
  const app = await db
    .selectFrom('apps')
    .select(['id', 'consumer_secret'])
    .where((eb) => eb.or([eb('id', '=', appNameOrId), eb('name', '=', appNameOrId)]))
    .executeTakeFirst();
  if (!app) throw invalidParameter(ctx.problems, 'app', [appNameOrId], `The \`app\` value [${appNameOrId}] is neither the id nor the name of an app`);
  // Without a cursor, the feed starts at the log's end: only what happens from now on.
  if (after === undefined) return { cursor: await lastEventSeq(db), deliveries: [] };
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .select(['d.id', 'd.webhook_id', 'd.event_id', 'd.event_seq', 'd.created_at', 'd.body', 'e.type as log_type'])
    .where('w.app_id', '=', app.id)
    .where('d.replay_job_id', '=', '')
    .where('d.event_seq', '>', after)
    .orderBy('d.event_seq')
    .orderBy('d.route')
    .orderBy('d.part')
    .orderBy('d.webhook_id')
    .limit(PAGE)
    .execute();
  let page = rows.map((r) => ({ ...r, event_seq: Number(r.event_seq) }));
  // A full page may end inside one event's rows: those wait for the next call.
  if (page.length === PAGE && page[0]!.event_seq !== page.at(-1)!.event_seq) {
    const last = page.at(-1)!.event_seq;
    page = page.filter((r) => r.event_seq !== last);
  }
  return {
    cursor: page.length ? page.at(-1)!.event_seq : after,
    deliveries: page.map((r) => ({ ...r, headers: deliveryHeaders(r.body, app.consumer_secret, r.id, r.event_id) })),
  };
}
