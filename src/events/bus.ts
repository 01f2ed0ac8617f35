import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { sharedPubSub, storeRedisName, type SharedPubSub } from '../redis.js';

/**
 * Wakes the consumers of the event log when it may have grown. It carries no content: a listener
 * reads the log from its own cursor, so a wake-up that is lost, late or doubled delays or repeats
 * a read and loses nothing. Consumers also poll on a slow timer as the safety net.
 */
export interface EventBus {
  /** Calls `listener` whenever the log may have grown (after a commit here or elsewhere, or events placed); returns the unsubscribe. */
  onAppend(listener: () => void): () => void;
  /**
   * Calls `listener` after this process committed (`committed`), not when another process did: for
   * work that any one process can do for all, such as the webhook fan-out, which the appending
   * process does, so that the others do not all race for it on every write. Their poll covers an
   * appender that died before it got there.
   */
  onOwnAppend(listener: () => void): () => void;
  /**
   * Says this process committed what the log's consumers read: events (the store says so after
   * each commit that appended one, src/store/commit-watch.ts), or deliveries queued. Wakes this
   * process's readers and own-append work, and the other processes' readers.
   */
  committed(): void;
  /**
   * Says committed events took their places in the log (src/events/log.ts): wakes the readers of
   * every process (`onAppend`), not the work of this process's own appends (`onOwnAppend`).
   */
  placed(): void;
  /** Resolves when what carries the wake-ups can be reached (Redis answers PING); in-process, always. */
  reachable(): Promise<void>;
  close(): Promise<void>;
}

/** The in-process fan-out: listeners of this process only. */
export class LocalEventBus implements EventBus {
  async reachable(): Promise<void> {}

  private readonly listeners = new Set<() => void>();
  private readonly ownListeners = new Set<() => void>();
  private immediate: NodeJS.Immediate | undefined;
  /** Whether the wake-up pending includes the own-append work. */
  private own = false;
  private closed = false;

  onAppend(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  onOwnAppend(listener: () => void): () => void {
    this.ownListeners.add(listener);
    return () => void this.ownListeners.delete(listener);
  }

  committed(): void {
    this.wake(true);
  }

  placed(): void {
    this.wake(false);
  }

  /** One coalesced call of every reader (`onAppend`), and of the own-append work when `own`, on the next turn of the event loop. */
  wake(own = false): void {
    if (this.closed) return;
    this.own ||= own;
    this.immediate ??= setImmediate(() => {
      this.immediate = undefined;
      const withOwn = this.own;
      this.own = false;
      for (const listener of withOwn ? [...this.listeners, ...this.ownListeners] : [...this.listeners]) {
        try {
          listener();
        } catch {
          // A listener's failure is its own; the others still get their wake-up.
        }
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.immediate) clearImmediate(this.immediate);
    this.listeners.clear();
    this.ownListeners.clear();
  }
}

/**
 * The bus across processes: local wake-ups as LocalEventBus, plus a Redis pub/sub message per
 * commit (one a turn of the event loop) so that processes sharing the store (same database URL, hence the same channel) wake too.
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
  private publishing: NodeJS.Immediate | undefined;
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
    this.publishSoon();
  }

  committed(): void {
    this.local.committed();
    this.publishSoon();
  }

  /** One message for the commits and placings of a turn of the event loop. */
  private publishSoon(): void {
    this.publishing ??= setImmediate(() => {
      this.publishing = undefined;
      this.pubsub.publish(this.channel, this.origin);
    });
  }

  async close(): Promise<void> {
    if (this.publishing) clearImmediate(this.publishing);
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
