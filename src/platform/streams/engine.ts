import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppRow } from '../../auth/store.js';
import type { CoreContext } from '../../context.js';
import { eventsAfter, lastEventSeq } from '../../events/log.js';
import { ProblemError, type DisconnectType, type Problem, problems, renderProblemBase } from '../../http/problems.js';
import { parseLogged, type LoggedEvent } from '../activity/event-types.js';
import { loggedEventsBetween } from '../activity/store.js';
import type { StreamWindow } from './window.js';

/**
 * The persistent streams of the platform interface (activity, filtered, sample, firehose,
 * compliance, label, likes), one engine per process: one reader follows the event log by cursor,
 * woken by the bus (and by a slow timer when no wake-up comes), and hands each batch to the
 * channels that have open connections; a channel turns entries into lines, each built once, for
 * its connections. A connection that has too much waiting for its reader is cut (SlowReader), so
 * a reader that stops reading costs a bounded amount of memory; keep-alives (`\r\n`) go out at
 * least every activityKeepAliveMs; a stream ends with an operational-disconnect line saying why.
 */

/** Why a connection ended: a disconnect_type when the server cut it, or the client's or the window's doing. */
export type EndReason = DisconnectType | 'ClientDisconnect' | 'EndTimeReached';

/** Log entries of this type kill connections by id, in whichever process holds them (src/platform/streams/connections.ts). */
export const KILL_EVENT = 'stream.connection.kill';

export interface StreamConnection {
  /** The connection's uuid (what GET /2/connections lists and DELETE /2/connections kills). */
  readonly id: string;
  readonly app: AppRow;
  readonly channel: StreamChannel<any>;
  /** Live entries after this seq are this connection's; backfill covers those at or before it. */
  afterSeq: number;
  /** Lines held while the backfill is written, so the stream stays in log order. */
  held: string[] | null;
  endTime?: string;
  closed: boolean;
  reply?: FastifyReply;
  /** Called once when the connection ends, with why (the connection record is closed here). */
  onEnd?: (reason: EndReason) => void;
}

export type Send<C extends StreamConnection> = (conn: C, event: LoggedEvent, text: string) => void;

/** What one kind of stream does with the log. */
export interface StreamChannel<C extends StreamConnection = StreamConnection> {
  /** The log entry types it reads: backfill reads only these, and a batch without any is not handed over. */
  readonly logTypes: ReadonlySet<string>;
  /** Sends the lines these entries (in log order) make for these connections. */
  dispatch(events: readonly LoggedEvent[], conns: readonly C[], send: Send<C>): Promise<void>;
}

const BATCH = 500;
/** After a cut, how long the disconnect message may take to drain before the socket is dropped. */
const CUT_GRACE_MS = 5_000;

export const streamLine = (body: unknown) => `${JSON.stringify(body)}\r\n`;
const errorLine = (problem: Problem, base: string) => streamLine(renderProblemBase({ errors: [problem] }, base));

const DETAILS: Partial<Record<DisconnectType, string>> = {
  SlowReader: 'This stream was disconnected because the client was not reading fast enough.',
  ForceDisconnect: 'This stream was disconnected by a request to the connections endpoint.',
  InvalidRules: 'This stream was disconnected because its rules are no longer valid.',
};

export class StreamEngine {
  private readonly connections = new Set<StreamConnection>();
  private readonly byId = new Map<string, StreamConnection>();
  /** The last log seq dispatched to the open connections; undefined while none is open. */
  private cursor: number | undefined;
  /** Reads and registrations run one at a time, in order, so no entry falls between the two. */
  private queue: Promise<void> = Promise.resolve();
  private readQueued = false;
  private unsubscribe?: () => void;
  private pollTimer?: NodeJS.Timeout;
  private keepAliveTimer?: NodeJS.Timeout;
  private renewTimer?: NodeJS.Timeout;
  private closing = false;
  private readonly tickListeners = new Set<(conns: readonly StreamConnection[]) => void>();

  constructor(private readonly ctx: CoreContext) {}

  /** Open connections, for tests, allowances and metrics. */
  count(where?: (conn: StreamConnection) => boolean): number {
    if (!where) return this.connections.size;
    let n = 0;
    for (const c of this.connections) if (where(c)) n++;
    return n;
  }

  /** The open connections that `where` takes. */
  list(where: (conn: StreamConnection) => boolean): StreamConnection[] {
    return [...this.connections].filter(where);
  }

  /** The open connection with this id in this process, if any. */
  get(id: string): StreamConnection | undefined {
    return this.byId.get(id);
  }

  /**
   * Called with the open connections every third of streamConnectionStaleMs while there are some:
   * the renewal of the connection records' leases (a dead process's lapse within that time).
   */
  onTick(listener: (conns: readonly StreamConnection[]) => void): () => void {
    this.tickListeners.add(listener);
    return () => void this.tickListeners.delete(listener);
  }

  /** Refuses a new connection while the process shuts down. */
  assertOpen(): void {
    if (this.closing) throw new ProblemError(503, problems.operationalDisconnect('OperationalDisconnect', 'The server is shutting down.'));
  }

  /**
   * Registers `conn` at once (an allowance counted in memory sees it before any await), then
   * takes over the response: headers and a first keep-alive, the backfill of `window`, and live
   * lines from the log.
   */
  async open(conn: StreamConnection, window: StreamWindow, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    this.assertOpen();
    conn.endTime = window.to;
    conn.held = [];
    this.add(conn);
    try {
      await this.enqueue(async () => {
        if (this.cursor === undefined) this.cursor = await lastEventSeq(this.ctx.store.db);
        conn.afterSeq = this.cursor;
      });
    } catch (err) {
      this.remove(conn, 'InternalError');
      throw err;
    }
    // Killed while it was being set up: it never started.
    if (conn.closed) throw new ProblemError(503, problems.operationalDisconnect('ForceDisconnect', DETAILS.ForceDisconnect));
    conn.reply = reply;
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache', connection: 'close', 'x-request-id': String(request.id) });
    // A first keep-alive sends the headers at once, so a client knows it is connected.
    res.write('\r\n');
    res.on('close', () => this.remove(conn, 'ClientDisconnect'));
    this.start();
    try {
      if (window.from !== undefined) await this.backfill(conn, window.from, window.to);
    } catch (err) {
      this.ctx.log.error({ err }, 'stream backfill failed');
      this.cut(conn, 'InternalError');
      return;
    }
    const held = conn.held ?? [];
    conn.held = null;
    for (const l of held) this.write(conn, l);
    if (window.to !== undefined && window.to <= this.ctx.clock.now().toISOString()) this.finish(conn);
  }

  /** Writes the connection's entries of [from, to] at or before its start, in log order. */
  private async backfill(conn: StreamConnection, from: string, to: string | undefined): Promise<void> {
    const db = this.ctx.store.db;
    const types = [...conn.channel.logTypes];
    let after = 0;
    for (;;) {
      if (conn.closed) return;
      const rows = await loggedEventsBetween(db, types, from, to, conn.afterSeq, after, BATCH);
      if (rows.length === 0) return;
      const events = rows.map(parseLogged);
      await conn.channel.dispatch(events, [conn], (c, _event, text) => this.write(c, text, true));
      after = events[events.length - 1].seq;
      if (rows.length < BATCH) return;
    }
  }

  private add(conn: StreamConnection): void {
    this.connections.add(conn);
    this.byId.set(conn.id, conn);
  }

  private remove(conn: StreamConnection, reason: EndReason): void {
    conn.closed = true;
    if (!this.connections.delete(conn)) return;
    this.byId.delete(conn.id);
    try {
      conn.onEnd?.(reason);
    } catch (err) {
      this.ctx.log.error({ err }, 'stream end hook failed');
    }
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
    this.unsubscribe = this.ctx.events.onAppend(() => this.wake());
    this.pollTimer = setInterval(() => this.wake(), this.ctx.config.activityPollMs);
    this.pollTimer.unref();
    this.keepAliveTimer = setInterval(() => this.keepAlive(), this.ctx.config.activityKeepAliveMs);
    this.keepAliveTimer.unref();
    this.renewTimer = setInterval(() => this.renew(), Math.max(100, Math.floor(this.ctx.config.streamConnectionStaleMs / 3)));
    this.renewTimer.unref();
  }

  private stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearInterval(this.pollTimer);
    clearInterval(this.keepAliveTimer);
    clearInterval(this.renewTimer);
    this.pollTimer = undefined;
    this.keepAliveTimer = undefined;
    this.renewTimer = undefined;
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
    }).catch((err) => this.ctx.log.error({ err }, 'stream read failed'));
  }

  private async readLog(): Promise<void> {
    const db = this.ctx.store.db;
    while (this.cursor !== undefined && this.connections.size > 0) {
      const rows = await eventsAfter(db, this.cursor, BATCH, { onPlaced: () => this.ctx.events.placed(), waitForHeld: false });
      if (rows.length === 0) return;
      const events: LoggedEvent[] = rows.map(parseLogged);
      await this.dispatch(events);
      this.cursor = events[events.length - 1].seq;
      if (rows.length < BATCH) return;
    }
  }

  /** One batch of the log to every channel with open connections (and the kills to whoever they name). */
  private async dispatch(events: readonly LoggedEvent[]): Promise<void> {
    const byChannel = new Map<StreamChannel<any>, StreamConnection[]>();
    for (const conn of this.connections) {
      let list = byChannel.get(conn.channel);
      if (!list) byChannel.set(conn.channel, (list = []));
      list.push(conn);
    }
    const send: Send<StreamConnection> = (conn, event, text) => {
      if (conn.closed || event.seq <= conn.afterSeq) return;
      if (conn.endTime !== undefined && event.created_at > conn.endTime) this.finish(conn);
      else this.write(conn, text);
    };
    for (const [channel, conns] of byChannel) {
      const mine = events.filter((e) => channel.logTypes.has(e.type));
      if (mine.length === 0) continue;
      try {
        await channel.dispatch(mine, conns, send);
      } catch (err) {
        // One channel's failure is its own; its entries are skipped, the others still stream.
        this.ctx.log.error({ err }, 'stream dispatch failed');
      }
    }
    for (const event of events) {
      if (event.type !== KILL_EVENT) continue;
      for (const id of (event.payload?.ids ?? []) as string[]) {
        const conn = this.byId.get(id);
        // A kill by DELETE /2/connections is a ForceDisconnect; an admin fault names its own type.
        if (conn) this.cut(conn, (event.payload?.disconnect_type as DisconnectType | undefined) ?? 'ForceDisconnect');
      }
    }
  }

  /** Writes a line, or holds it during the backfill; cuts a connection whose reader has fallen too far behind. */
  private write(conn: StreamConnection, text: string, backfilling = false): void {
    if (conn.closed || !conn.reply) return;
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
      if (!conn.reply) continue;
      if (conn.endTime !== undefined && now > conn.endTime) {
        this.finish(conn);
        continue;
      }
      // Keep-alives say the connection lives; one is not worth adding to a reader that is behind.
      if (conn.reply.raw.writableLength === 0) conn.reply.raw.write('\r\n');
    }
  }

  private renew(): void {
    const open = [...this.connections];
    for (const listener of this.tickListeners) listener(open);
  }

  /** The end_time was reached: the stream ends cleanly. */
  private finish(conn: StreamConnection): void {
    if (conn.closed) return;
    this.remove(conn, 'EndTimeReached');
    conn.reply?.raw.end();
  }

  /** Ends a connection with an operational-disconnect message, dropping it if it does not drain. */
  cut(conn: StreamConnection, type: DisconnectType): void {
    if (conn.closed) return;
    this.remove(conn, type);
    const res = conn.reply?.raw;
    if (!res) return;
    res.end(errorLine(problems.operationalDisconnect(type, DETAILS[type]), this.ctx.config.problemBase));
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
