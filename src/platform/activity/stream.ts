import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppRow } from '../../auth/store.js';
import type { PlatformContext } from '../context.js';
import { ProblemError, problems } from '../../http/problems.js';
import { streamLine, type Send, type StreamChannel, type StreamConnection } from '../streams/engine.js';
import { parseStreamWindow, type StreamWindowQuery } from '../streams/window.js';
import { TYPES_BY_LOG_TYPE, type LoggedEvent } from './event-types.js';
import type { SharedConnectionCap } from './connection-cap.js';
import { worldKey } from '../../worlds/tags.js';
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

/** The key of an app's connections in the shared cap: the world's app. */
const capKey = (ctx: PlatformContext, appId: string) => worldKey(ctx, `activity:${appId}`);

function channelOf(ctx: PlatformContext, shared: SharedConnectionCap | undefined): ActivityChannel {
  let channel = channels.get(ctx.store);
  if (!channel) {
    const made = new ActivityChannel(ctx);
    channels.set(ctx.store, (channel = made));
    // The leases of this world's open activity connections, renewed with the engine's tick.
    if (shared) ctx.streams.onTick((conns) => shared.renew(conns.filter((c) => c.channel === made).map((c) => ({ key: capKey(ctx, c.app.id), id: c.id }))));
  }
  return channel;
}

/**
 * Opens an activity stream: at most activityStreamConnections per app, counted across the
 * processes on the store when Redis is configured (`shared`), else (or while Redis cannot answer)
 * on this process.
 */
export async function openActivityStream(ctx: PlatformContext, app: AppRow, query: StreamQuery, request: FastifyRequest, reply: FastifyReply, shared?: SharedConnectionCap): Promise<void> {
  const window = parseStreamWindow(ctx, query);
  ctx.streams.assertOpen();
  const channel = channelOf(ctx, shared);
  const cap = ctx.config.activityStreamConnections;
  const tooMany = () =>
    new ProblemError(429, problems.streamingConnection('TooManyConnections', `This stream is currently at the maximum allowed connection limit (${cap} per app).`));
  const id = randomUUID();
  const admitted = shared ? await shared.admit(capKey(ctx, app.id), id, cap) : undefined;
  if (admitted === false) throw tooMany();
  if (admitted === undefined && ctx.streams.count((c) => c.channel === channel && c.app.id === app.id) >= cap) throw tooMany();
  // Registered synchronously by open, so two opens at the same moment cannot both pass the local count.
  const conn: StreamConnection = { id, app, channel, afterSeq: 0, held: null, closed: false };
  if (admitted) conn.onEnd = () => shared!.release(capKey(ctx, app.id), id);
  await ctx.streams.open(conn, window, request, reply);
}
