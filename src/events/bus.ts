import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { sharedPubSub, storeRedisName, type SharedPubSub } from '../redis.js';

/**
 * Wakes the consumers of the event log when it may have grown. It carries no content: a listener
 * reads the log from its own cursor, so a wake-up that is lost, late or doubled delays or repeats
 * a read and loses nothing. Consumers also poll on a slow timer as the safety net.
 */
export interface EventBus {
  /** Calls `listener` (soon after commit) whenever the log may have grown; returns the unsubscribe. */
  onAppend(listener: () => void): () => void;
  /**
   * Calls `listener` when this process appended, on the trailing wake-ups (after the commit has
   * most likely happened), not when another process did: for work that any one process can do for all,
   * such as the webhook fan-out, which the appending process does, so that the others do not all
   * race for it on every write. Their poll covers an appender that died before it got there.
   */
  onOwnAppend(listener: () => void): () => void;
  /** Says the log may have grown (an append in this process, usually before its commit). */
  notify(): void;
  /**
   * Says committed events took their places in the log (src/events/log.ts): wakes the readers of
   * every process (`onAppend`), not the work of this process's own appends (`onOwnAppend`).
   */
  placed(): void;
  /** Resolves when what carries the wake-ups can be reached (Redis answers PING); in-process, always. */
  reachable(): Promise<void>;
  close(): Promise<void>;
}

/**
 * appendEvent runs inside the transaction of the change, so its notify() comes before the commit.
 * Listeners are woken at once and again after these delays (coalesced across notifies), so a
 * reader that ran before the commit reads again shortly after it; the poll covers the rest.
 */
const TRAILING_WAKES_MS = [5, 25, 100, 400];

/** The in-process fan-out: listeners of this process only. */
export class LocalEventBus implements EventBus {
  async reachable(): Promise<void> {}

  private readonly listeners = new Set<() => void>();
  private readonly ownListeners = new Set<() => void>();
  private immediate: NodeJS.Immediate | undefined;
  private readonly trailing: Array<NodeJS.Timeout | undefined> = [];
  private closed = false;

  onAppend(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  onOwnAppend(listener: () => void): () => void {
    this.ownListeners.add(listener);
    return () => void this.ownListeners.delete(listener);
  }

  notify(): void {
    if (this.closed) return;
    // The readers at once (the append may have committed by then); the own-append work with the
    // trailing wakes only, after the commit: run at once, it mostly finds nothing yet.
    this.wake();
    // A trailing wake already pending stays (during a burst of appends they keep firing, each
    // reading what committed meanwhile); the last restarts, so one always follows the last
    // append's commit.
    TRAILING_WAKES_MS.forEach((ms, slot) => {
      const last = slot === TRAILING_WAKES_MS.length - 1;
      if (this.trailing[slot] && !last) return;
      clearTimeout(this.trailing[slot]);
      const t = setTimeout(() => {
        this.trailing[slot] = undefined;
        this.fire(true);
      }, ms);
      t.unref();
      this.trailing[slot] = t;
    });
  }

  placed(): void {
    this.wake();
  }

  /** One coalesced call of every reader (`onAppend`) on the next turn of the event loop. */
  wake(): void {
    if (this.closed || this.immediate) return;
    this.immediate = setImmediate(() => {
      this.immediate = undefined;
      this.fire(false);
    });
  }

  /** Calls the readers, and the own-append listeners too when `own`. */
  private fire(own: boolean): void {
    for (const listener of own ? [...this.listeners, ...this.ownListeners] : [...this.listeners]) {
      try {
        listener();
      } catch {
        // A listener's failure is its own; the others still get their wake-up.
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.immediate) clearImmediate(this.immediate);
    for (const t of this.trailing) clearTimeout(t);
    this.listeners.clear();
    this.ownListeners.clear();
  }
}

/**
 * The bus across processes: local wake-ups as LocalEventBus, plus a Redis pub/sub message per
 * notify so that processes sharing the store (same database URL, hence the same channel) wake too.
 * A process listens on the channel only while it has listeners (a stream open here, rules loaded
 * for one): the others are not woken by every write of every process, which on a busy deployment
 * costs each of them a wake-up per write for nothing. The connections are the process's shared
 * pub/sub (src/redis.ts): every world's bus uses the same two.
 * Redis is only a doorbell: if it is down, other processes fall back on their poll.
 */
export class RedisEventBus implements EventBus {
  private readonly local = new LocalEventBus();
  private readonly origin = randomUUID();
  private readonly channel: string;
  private readonly pubsub: SharedPubSub;
  private readonly publishTimers: Array<NodeJS.Timeout | undefined> = [undefined, undefined];
  private listening = 0;
  private subscription: { live: Promise<void>; off: () => void } | undefined;

  /** Wakes the local readers in the asynchronous context the bus was made in (its world's), whatever context a Redis message arrives in. */
  private readonly wakeHere: () => void;

  constructor(redisUrl: string, storeKey: string, private readonly onError: (err: Error) => void = () => {}) {
    this.channel = storeRedisName('events', storeKey);
    this.pubsub = sharedPubSub(redisUrl, (err) => this.onError(err));
    this.wakeHere = AsyncResource.bind(() => this.local.wake());
  }

  /** Resolves once the subscription of the listeners so far is live, so a test can start writing on another process. */
  async ready(): Promise<void> {
    await this.subscription?.live;
  }

  onAppend(listener: () => void): () => void {
    const off = this.local.onAppend(listener);
    if (this.listening++ === 0) {
      this.subscription = this.pubsub.subscribe(this.channel, (message) => {
        if (message !== this.origin) this.wakeHere();
      });
    }
    let on = true;
    return () => {
      if (!on) return;
      on = false;
      off();
      if (--this.listening === 0) {
        this.subscription?.off();
        this.subscription = undefined;
      }
    };
  }

  onOwnAppend(listener: () => void): () => void {
    return this.local.onOwnAppend(listener);
  }

  reachable(): Promise<void> {
    return this.pubsub.reachable();
  }

  placed(): void {
    this.local.placed();
    this.pubsub.publish(this.channel, this.origin);
  }

  notify(): void {
    this.local.notify();
    // Published a little after the append, when its transaction has most likely committed, and
    // once more later for a slow commit; appends meanwhile share the messages.
    for (const [slot, ms] of [[0, TRAILING_WAKES_MS[0]], [1, TRAILING_WAKES_MS[2]]] as const) {
      if (this.publishTimers[slot]) continue;
      const t = setTimeout(() => {
        this.publishTimers[slot] = undefined;
        this.pubsub.publish(this.channel, this.origin);
      }, ms);
      t.unref();
      this.publishTimers[slot] = t;
    }
  }

  async close(): Promise<void> {
    for (const t of this.publishTimers) if (t) clearTimeout(t);
    this.subscription?.off();
    this.subscription = undefined;
    await this.local.close();
    await this.pubsub.release();
  }
}

/** The bus for this process: Redis when a URL is configured, in-process otherwise. */
export function createEventBus(options: { redisUrl?: string; databaseUrl: string; onError?: (err: Error) => void }): EventBus {
  if (options.redisUrl) return new RedisEventBus(options.redisUrl, options.databaseUrl, options.onError);
  return new LocalEventBus();
}
