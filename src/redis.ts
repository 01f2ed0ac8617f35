import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Redis, RedisOptions } from 'ioredis';

const require = createRequire(import.meta.url);

/**
 * A Redis client, with ioredis loaded on first use: a Plaza without REDIS_URL never loads it
 * (about 20 MB of memory and a tenth of the cold start, issue #8).
 */
export function redisClient(url: string, options: RedisOptions): Redis {
  const { Redis: Client } = require('ioredis') as typeof import('ioredis');
  return new Client(url, options);
}

/**
 * The two clients of a pub/sub user: one that publishes (commands fail at once while Redis is
 * away) and one that subscribes (its commands wait for the reconnect; ioredis subscribes again by
 * itself), named `plaza-<pid>-publish` and `plaza-<pid>-subscribe`. Their errors go to `onError`.
 */
export function redisPubSub(url: string, onError: (err: Error) => void): { publisher: Redis; subscriber: Redis } {
  const options = { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: false };
  // Named after the process (CLIENT LIST shows whose they are).
  const publisher = redisClient(url, { ...options, connectionName: `plaza-${process.pid}-publish` });
  const subscriber = redisClient(url, { ...options, enableOfflineQueue: true, connectionName: `plaza-${process.pid}-subscribe` });
  publisher.on('error', onError);
  subscriber.on('error', onError);
  return { publisher, subscriber };
}

/**
 * A Redis name of the processes sharing one store, `plaza:<kind>:<hash of the store's URL>`: the
 * store's URL (which may hold a password) never reaches Redis, and processes on other stores
 * sharing the Redis never meet.
 */
export function storeRedisName(kind: string, storeKey: string): string {
  return `plaza:${kind}:${createHash('sha256').update(storeKey).digest('hex').slice(0, 24)}`;
}

/**
 * Redis pub/sub shared by the users of one process: one publisher and one subscriber per Redis
 * URL, however many users (each world's event bus is one: a world costs no Redis connection of
 * its own). A channel is subscribed while some user listens on it.
 */
export interface SharedPubSub {
  /** Publishes when the publisher is connected; otherwise the message is dropped (a doorbell, not a mailbox). */
  publish(channel: string, message: string): void;
  /**
   * Calls `handler` with every message on `channel` until `off()` (in no particular asynchronous
   * context: a user that needs its own binds the handler). `live` resolves once Redis has
   * confirmed the subscription.
   */
  subscribe(channel: string, handler: (message: string) => void): { live: Promise<void>; off: () => void };
  /** Resolves when Redis answers PING on the publisher. */
  reachable(): Promise<void>;
  /** This user is done: the connections close with the last user. */
  release(): Promise<void>;
}

interface Hub {
  publisher: Redis;
  subscriber: Redis;
  users: number;
  errorListeners: Set<(err: Error) => void>;
  handlers: Map<string, Set<(message: string) => void>>;
  /** Per channel, the last SUBSCRIBE or UNSUBSCRIBE sent (commands on one connection keep their order). */
  pending: Map<string, Promise<unknown>>;
}

const hubs = new Map<string, Hub>();

/** Joins this process's pub/sub for `url` (made on first use); its connection errors go to `onError` too. */
export function sharedPubSub(url: string, onError: (err: Error) => void): SharedPubSub {
  let hub = hubs.get(url);
  if (!hub) {
    const made: Hub = { ...redisPubSub(url, (err) => made.errorListeners.forEach((l) => l(err))), users: 0, errorListeners: new Set(), handlers: new Map(), pending: new Map() };
    made.subscriber.on('message', (channel: string, message: string) => {
      for (const handler of made.handlers.get(channel) ?? []) {
        try {
          handler(message);
        } catch (err) {
          made.errorListeners.forEach((l) => l(err as Error));
        }
      }
    });
    hubs.set(url, (hub = made));
  }
  const h = hub;
  h.users++;
  h.errorListeners.add(onError);
  const send = (channel: string, command: 'subscribe' | 'unsubscribe') => {
    const sent = h.subscriber[command](channel)
      .catch((err: Error) => onError(err))
      .finally(() => {
        // A channel no one listens on any more is forgotten (a process opens and closes many worlds).
        if (h.pending.get(channel) === sent && !h.handlers.has(channel)) h.pending.delete(channel);
      });
    h.pending.set(channel, sent);
    return sent;
  };
  let released = false;
  return {
    publish(channel, message) {
      if (h.publisher.status === 'ready') h.publisher.publish(channel, message).catch((err: Error) => onError(err));
    },
    subscribe(channel, handler) {
      // A wrapper of its own: the same function subscribed twice is two subscriptions, each ended by its off().
      const entry = (message: string) => handler(message);
      let set = h.handlers.get(channel);
      if (!set) h.handlers.set(channel, (set = new Set()));
      set.add(entry);
      // Subscribing again after a reconnect is ioredis's own job (autoResubscribe).
      const live = set.size === 1 ? send(channel, 'subscribe') : (h.pending.get(channel) ?? Promise.resolve());
      let on = true;
      return {
        live: live.then(() => {}),
        off() {
          if (!on) return;
          on = false;
          set.delete(entry);
          if (set.size > 0 || h.handlers.get(channel) !== set) return;
          h.handlers.delete(channel);
          void send(channel, 'unsubscribe');
        },
      };
    },
    async reachable() {
      if (h.publisher.status !== 'ready') throw new Error(`Redis is ${h.publisher.status}`);
      await h.publisher.ping();
    },
    async release() {
      if (released) return;
      released = true;
      h.errorListeners.delete(onError);
      if (--h.users > 0) return;
      if (hubs.get(url) === h) hubs.delete(url);
      await Promise.allSettled([h.subscriber.quit(), h.publisher.quit()]);
      h.subscriber.disconnect();
      h.publisher.disconnect();
    },
  };
}
