import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppRow } from '../../auth/store.js';
import type { PlatformContext } from '../context.js';
import { ProblemError, problems } from '../../http/problems.js';
import { streamLine, type Send, type StreamChannel, type StreamConnection } from '../streams/engine.js';
import { parseStreamWindow, type StreamWindowQuery } from '../streams/window.js';
import { TYPES_BY_LOG_TYPE, type LoggedEvent } from './event-types.js';
import { candidateSubscriptions, matchDeliveries } from './fanout.js';

/**
 * GET /2/activity/stream (spec 000 "Events", reference §7) on the process's stream engine
 * (src/platform/streams/engine.ts): each batch of the log is matched against the subscriptions
 * of the apps with open streams, and each envelope, built once, goes to every connection of its app.
 */

export type StreamQuery = StreamWindowQuery;

/** The activity channel: the log types some activity event type reads, matched by subscription. */
class ActivityChannel implements StreamChannel {
  readonly logTypes: ReadonlySet<string> = new Set(TYPES_BY_LOG_TYPE.keys());

  constructor(private readonly ctx: PlatformContext) {}

  async dispatch(events: readonly LoggedEvent[], conns: readonly StreamConnection[], send: Send<StreamConnection>): Promise<void> {
    const db = this.ctx.store.db;
    const byApp = new Map<string, StreamConnection[]>();
    for (const c of conns) byApp.set(c.app.id, [...(byApp.get(c.app.id) ?? []), c]);
    const subs = await candidateSubscriptions(db, events, { appIds: [...byApp.keys()] });
    for (const d of await matchDeliveries(this.ctx, db, events, subs)) {
      const text = streamLine(d.body);
      for (const conn of byApp.get(d.subscription.app_id) ?? []) send(conn, d.event, text);
    }
  }
}

/** One channel per world: keyed by its store, on the world's own context. */
const channels = new WeakMap<PlatformContext['store'], ActivityChannel>();

/** Opens an activity stream: at most activityStreamConnections per app on this process. */
export async function openActivityStream(ctx: PlatformContext, app: AppRow, query: StreamQuery, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const window = parseStreamWindow(ctx, query);
  ctx.streams.assertOpen();
  let channel = channels.get(ctx.store);
  if (!channel) channels.set(ctx.store, (channel = new ActivityChannel(ctx)));
  const cap = ctx.config.activityStreamConnections;
  const mine = channel;
  if (ctx.streams.count((c) => c.channel === mine && c.app.id === app.id) >= cap) {
    throw new ProblemError(
      429,
      problems.streamingConnection('TooManyConnections', `This stream is currently at the maximum allowed connection limit (${cap} per app).`),
    );
  }
  // Registered synchronously by open, so two opens at the same moment cannot both pass the cap.
  const conn: StreamConnection = { id: randomUUID(), app, channel, afterSeq: 0, held: null, closed: false };
  await ctx.streams.open(conn, window, request, reply);
}
