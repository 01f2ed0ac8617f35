import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppRow } from '../../auth/store.js';
import type { AppContext } from '../../context.js';
import { eventsAfter } from '../../events/log.js';
import { invalidParameter } from '../../http/params.js';
import { ProblemError, type DisconnectType, type Problem } from '../../http/problems.js';
import type { LoggedEvent } from './event-types.js';
import { activityTypesOf, candidateSubscriptions, matchDeliveries, parseLogged } from './fanout.js';
import { TYPES_BY_LOG_TYPE } from './event-types.js';
import { lastLogSeq, loggedEventsBetween, subscriptionsOfTypes } from './store.js';

/**
 * GET /2/activity/stream (spec 000 "Events", reference §7): one process-wide reader follows the
 * event log by cursor, woken by the bus (and by a slow timer when no wake-up comes), matches each
 * batch against the subscriptions of the apps with open streams, and writes each envelope, built
 * once, to every connection of its app. A connection that has too much waiting for its reader is
 * cut (SlowReader), so a reader that stops reading costs a bounded amount of memory.
 */

/** The bus of the events pipeline, as far as the stream needs it (src/events/bus.ts). */
interface AppendBus {
  onAppend(listener: () => void): () => void;
}

const BATCH = 500;
const BACKFILL_MINUTES = { min: 0, max: 5 };
/** After a cut, how long the disconnect message may take to drain before the socket is dropped. */
const CUT_GRACE_MS = 5_000;

export interface StreamQuery {
  backfill_minutes?: string;
  start_time?: string;
  end_time?: string;
}

interface Connection {
  app: AppRow;
  reply: FastifyReply;
  /** Live entries after this seq are this connection's; backfill covers those at or before it. */
  afterSeq: number;
  /** Lines held while the backfill is written, so the stream stays in log order. */
  held: string[] | null;
  endTime?: string;
  closed: boolean;
}

const line = (body: unknown) => `${JSON.stringify(body)}\r\n`;
const errorLine = (problem: Problem) => line({ errors: [problem] });

export class ActivityStreams {
  private readonly connections = new Set<Connection>();
  private readonly byApp = new Map<string, Set<Connection>>();
  /** The last log seq dispatched to the open connections; undefined while none is open. */
  private cursor: number | undefined;
  /** Reads and registrations run one at a time, in order, so no entry falls between the two. */
  private queue: Promise<void> = Promise.resolve();
  private readQueued = false;
  private unsubscribe?: () => void;
  private pollTimer?: NodeJS.Timeout;
  private keepAliveTimer?: NodeJS.Timeout;
  private closing = false;

  constructor(private readonly ctx: AppContext) {}

  /** Open connections, for tests and metrics. */
  count(appId?: string): number {
    return appId === undefined ? this.connections.size : (this.byApp.get(appId)?.size ?? 0);
  }

  async open(app: AppRow, query: StreamQuery, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const window = this.parseWindow(query);
    if (this.closing) throw new ProblemError(503, this.ctx.problems.operationalDisconnect('OperationalDisconnect', 'The server is shutting down.'));
    const cap = this.ctx.config.activityStreamConnections;
    if (this.count(app.id) >= cap) {
      throw new ProblemError(
        429,
        this.ctx.problems.streamingConnection('TooManyConnections', `This stream is currently at the maximum allowed connection limit (${cap} per app).`),
      );
    }
    const conn: Connection = { app, reply, afterSeq: 0, held: [], endTime: window.to, closed: false };
    // Counted at once, so two opens at the same moment cannot both pass the cap.
    this.add(conn);
    try {
      await this.enqueue(async () => {
        if (this.cursor === undefined) this.cursor = await lastLogSeq(this.ctx.store.db);
        conn.afterSeq = this.cursor;
      });
    } catch (err) {
      this.remove(conn);
      throw err;
    }
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache', connection: 'close', 'x-request-id': String(request.id) });
    // A first keep-alive sends the headers at once, so a client knows it is connected.
    res.write('\r\n');
    res.on('close', () => this.remove(conn));
    this.start();
    try {
      if (window.from !== undefined) await this.backfill(conn, window.from, window.to);
    } catch (err) {
      this.ctx.log.error({ err }, 'activity stream backfill failed');
      this.cut(conn, 'InternalError');
      return;
    }
    const held = conn.held ?? [];
    conn.held = null;
    for (const l of held) this.write(conn, l);
    if (window.to !== undefined && window.to <= this.ctx.clock.now().toISOString()) this.finish(conn);
  }

  /** backfill_minutes (0 to 5) or start_time/end_time: which part of the log a connection replays. */
  private parseWindow(query: StreamQuery): { from?: string; to?: string } {
    const problems = this.ctx.problems;
    const now = this.ctx.clock.now();
    const time = (name: 'start_time' | 'end_time', raw: string) => {
      const ok = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(raw) && !Number.isNaN(Date.parse(raw));
      if (!ok) throw invalidParameter(problems, name, [raw], `The \`${name}\` query parameter value [${raw}] is not a valid time (YYYY-MM-DDTHH:mm:ssZ)`);
      return new Date(raw).toISOString();
    };
    const start = query.start_time !== undefined ? time('start_time', query.start_time) : undefined;
    const end = query.end_time !== undefined ? time('end_time', query.end_time) : undefined;
    let from = start;
    if (query.backfill_minutes !== undefined) {
      const raw = query.backfill_minutes;
      const n = Number(raw);
      if (!/^[0-9]+$/.test(raw) || n < BACKFILL_MINUTES.min || n > BACKFILL_MINUTES.max) {
        throw invalidParameter(problems, 'backfill_minutes', [raw], `The \`backfill_minutes\` query parameter value [${raw}] is not between ${BACKFILL_MINUTES.min} and ${BACKFILL_MINUTES.max}`);
      }
      if (start !== undefined) throw invalidParameter(problems, 'backfill_minutes', [raw], 'Give `backfill_minutes` or `start_time`, not both');
      if (n > 0) from = new Date(now.getTime() - n * 60_000).toISOString();
    }
    if (start !== undefined && start > now.toISOString()) {
      throw invalidParameter(problems, 'start_time', [query.start_time!], `The \`start_time\` query parameter value [${query.start_time}] is in the future`);
    }
    if (end !== undefined && start !== undefined && end <= start) {
      throw invalidParameter(problems, 'end_time', [query.end_time!], `The \`end_time\` query parameter value [${query.end_time}] is not after \`start_time\``);
    }
    if (end !== undefined && start === undefined && end <= now.toISOString()) {
      throw invalidParameter(problems, 'end_time', [query.end_time!], `The \`end_time\` query parameter value [${query.end_time}] is in the past: give a \`start_time\` to read a past window`);
    }
    return { from, to: end };
  }

  /** Writes the app's matching entries of [from, to] at or before the connection's start, in log order. */
  private async backfill(conn: Connection, from: string, to: string | undefined): Promise<void> {
    const db = this.ctx.store.db;
    const allTypes = [...TYPES_BY_LOG_TYPE.keys()];
    const subs = await subscriptionsOfTypes(db, [...new Set([...TYPES_BY_LOG_TYPE.values()].flat().map((t) => t.name))], { appIds: [conn.app.id] });
    if (subs.length === 0) return;
    const logTypes = allTypes.filter((lt) => (TYPES_BY_LOG_TYPE.get(lt) ?? []).some((t) => subs.some((s) => s.canonical_type === t.name)));
    let after = 0;
    for (;;) {
      if (conn.closed) return;
      const rows = await loggedEventsBetween(db, logTypes, from, to, conn.afterSeq, after, BATCH);
      if (rows.length === 0) return;
      const events = rows.map(parseLogged);
      for (const d of await matchDeliveries(this.ctx, db, events, subs)) this.write(conn, line(d.body), true);
      after = events[events.length - 1].seq;
      if (rows.length < BATCH) return;
    }
  }

  private add(conn: Connection): void {
    this.connections.add(conn);
    let set = this.byApp.get(conn.app.id);
    if (!set) this.byApp.set(conn.app.id, (set = new Set()));
    set.add(conn);
  }

  private remove(conn: Connection): void {
    conn.closed = true;
    if (!this.connections.delete(conn)) return;
    const set = this.byApp.get(conn.app.id);
    set?.delete(conn);
    if (set && set.size === 0) this.byApp.delete(conn.app.id);
    if (this.connections.size === 0) this.stop();
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => {});
    return run;
  }

  /** Starts following the log: the bus wakes the reader, a slow timer is the safety net. */
  private start(): void {
    if (this.unsubscribe || this.pollTimer) return;
    const bus = (this.ctx as unknown as { events?: AppendBus }).events;
    if (bus) this.unsubscribe = bus.onAppend(() => this.wake());
    this.pollTimer = setInterval(() => this.wake(), this.ctx.config.activityPollMs);
    this.pollTimer.unref();
    this.keepAliveTimer = setInterval(() => this.keepAlive(), this.ctx.config.activityKeepAliveMs);
    this.keepAliveTimer.unref();
  }

  private stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearInterval(this.pollTimer);
    clearInterval(this.keepAliveTimer);
    this.pollTimer = undefined;
    this.keepAliveTimer = undefined;
    // Reopened later, the reader starts from the log's end then: no one was listening meanwhile.
    this.enqueue(async () => {
      if (this.connections.size === 0) this.cursor = undefined;
    }).catch(() => {});
  }

  /** The log may have grown: read it once more (one read queued at a time is enough). */
  wake(): void {
    if (this.readQueued || this.connections.size === 0) return;
    this.readQueued = true;
    this.enqueue(async () => {
      this.readQueued = false;
      await this.readLog();
    }).catch((err) => this.ctx.log.error({ err }, 'activity stream read failed'));
  }

  private async readLog(): Promise<void> {
    const db = this.ctx.store.db;
    while (this.cursor !== undefined && this.connections.size > 0) {
      const rows = await eventsAfter(db, this.cursor, BATCH);
      if (rows.length === 0) return;
      const events: LoggedEvent[] = rows.map(parseLogged);
      if (activityTypesOf(events).length > 0) {
        const subs = await candidateSubscriptions(db, events, { appIds: [...this.byApp.keys()] });
        for (const d of await matchDeliveries(this.ctx, db, events, subs)) {
          const text = line(d.body);
          for (const conn of this.byApp.get(d.subscription.app_id) ?? []) {
            if (d.event.seq <= conn.afterSeq) continue;
            if (conn.endTime !== undefined && d.event.created_at > conn.endTime) this.finish(conn);
            else this.write(conn, text);
          }
        }
      }
      this.cursor = events[events.length - 1].seq;
      if (rows.length < BATCH) return;
    }
  }

  /** Writes a line, or holds it during the backfill; cuts a connection whose reader has fallen too far behind. */
  private write(conn: Connection, text: string, backfilling = false): void {
    if (conn.closed) return;
    if (conn.held && !backfilling) {
      conn.held.push(text);
      return;
    }
    const res = conn.reply.raw;
    res.write(text);
    if (res.writableLength > this.ctx.config.activityStreamBufferBytes) this.cut(conn, 'SlowReader');
  }

  private keepAlive(): void {
    const now = this.ctx.clock.now().toISOString();
    for (const conn of this.connections) {
      if (conn.endTime !== undefined && now > conn.endTime) {
        this.finish(conn);
        continue;
      }
      // Keep-alives say the connection lives; one is not worth adding to a reader that is behind.
      if (conn.reply.raw.writableLength === 0) conn.reply.raw.write('\r\n');
    }
  }

  /** The end_time was reached: the stream ends cleanly. */
  private finish(conn: Connection): void {
    if (conn.closed) return;
    this.remove(conn);
    conn.reply.raw.end();
  }

  /** Ends a connection with an operational-disconnect message, dropping it if it does not drain. */
  private cut(conn: Connection, type: DisconnectType): void {
    if (conn.closed) return;
    this.remove(conn);
    const res = conn.reply.raw;
    const detail = type === 'SlowReader' ? 'This stream was disconnected because the client was not reading fast enough.' : undefined;
    res.end(errorLine(this.ctx.problems.operationalDisconnect(type, detail)));
    const drop = setTimeout(() => res.destroy(), CUT_GRACE_MS);
    drop.unref();
    res.once('close', () => clearTimeout(drop));
  }

  /** Shutdown: every stream ends with an OperationalDisconnect message. */
  async close(): Promise<void> {
    this.closing = true;
    for (const conn of [...this.connections]) this.cut(conn, 'OperationalDisconnect');
    this.stop();
    await this.queue;
  }
}
