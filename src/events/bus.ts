import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { redisPubSub, storeRedisName } from '../redis.js';

/**
 * Wakes the consumers of the event log when it may have grown. It carries no content: a listener
 * reads the log from its own cursor, so a wake-up that is lost, late or doubled delays or repeats
 * a read and loses nothing. Consumers also poll on a slow timer as the safety net.
 */
export interface EventBus {
  /** Calls `listener` (soon after commit) whenever the log may have grown; returns the unsubscribe. */
  onAppend(listener: () => void): () => void;
  /** Says the log may have grown (an append in this process, usually before its commit). */
  notify(): void;
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
  private immediate: NodeJS.Immediate | undefined;
  private trailing: NodeJS.Timeout[] = [];
  private closed = false;

  onAppend(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  notify(): void {
    if (this.closed) return;
    this.wake();
    // A later notify restarts the trailing wakes: the last append's commit is what they wait for.
    for (const t of this.trailing) clearTimeout(t);
    this.trailing = TRAILING_WAKES_MS.map((ms) => {
      const t = setTimeout(() => this.fire(), ms);
      t.unref();
      return t;
    });
  }

  /** One coalesced call of every listener on the next turn of the event loop. */
  wake(): void {
    if (this.closed || this.immediate) return;
    this.immediate = setImmediate(() => {
      this.immediate = undefined;
      this.fire();
    });
  }

  private fire(): void {
    for (const listener of [...this.listeners]) {
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
  }
}

/**
 * The bus across processes: local wake-ups as LocalEventBus, plus a Redis pub/sub message per
 * notify so that processes sharing the store (same database URL, hence the same channel) wake too.
 * Redis is only a doorbell: if it is down, other processes fall back on their poll.
 */
export class RedisEventBus implements EventBus {
  private readonly local = new LocalEventBus();
  private readonly origin = randomUUID();
  private readonly channel: string;
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly publishTimers: Array<NodeJS.Timeout | undefined> = [undefined, undefined];

  constructor(redisUrl: string, storeKey: string, private readonly onError: (err: Error) => void = () => {}) {
    this.channel = storeRedisName('events', storeKey);
    ({ publisher: this.publisher, subscriber: this.subscriber } = redisPubSub(redisUrl, (err) => this.onError(err)));
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel && message !== this.origin) this.local.wake();
    });
    // Subscribing again after a reconnect is ioredis's own job (autoResubscribe).
    this.subscriber.subscribe(this.channel).catch((err: Error) => this.onError(err));
  }

  /** Resolves once the subscription is live, so a test can start writing on another process. */
  async ready(): Promise<void> {
    if (this.subscriber.status !== 'ready') await new Promise<void>((resolve) => this.subscriber.once('ready', () => resolve()));
    await this.subscriber.subscribe(this.channel);
  }

  onAppend(listener: () => void): () => void {
    return this.local.onAppend(listener);
  }

  async reachable(): Promise<void> {
    if (this.publisher.status !== 'ready') throw new Error(`Redis is ${this.publisher.status}`);
    await this.publisher.ping();
  }

  notify(): void {
    this.local.notify();
    // Published a little after the append, when its transaction has most likely committed, and
    // once more later for a slow commit; appends meanwhile share the messages.
    for (const [slot, ms] of [[0, TRAILING_WAKES_MS[0]], [1, TRAILING_WAKES_MS[2]]] as const) {
      if (this.publishTimers[slot]) continue;
      const t = setTimeout(() => {
        this.publishTimers[slot] = undefined;
        if (this.publisher.status === 'ready') this.publisher.publish(this.channel, this.origin).catch((err: Error) => this.onError(err));
      }, ms);
      t.unref();
      this.publishTimers[slot] = t;
    }
  }

  async close(): Promise<void> {
    for (const t of this.publishTimers) if (t) clearTimeout(t);
    await this.local.close();
    await Promise.allSettled([this.subscriber.quit(), this.publisher.quit()]);
    this.subscriber.disconnect();
    this.publisher.disconnect();
  }
}

/** The bus for this process: Redis when a URL is configured, in-process otherwise. */
export function createEventBus(options: { redisUrl?: string; databaseUrl: string; onError?: (err: Error) => void }): EventBus {
  if (options.redisUrl) return new RedisEventBus(options.redisUrl, options.databaseUrl, options.onError);
  return new LocalEventBus();
}
