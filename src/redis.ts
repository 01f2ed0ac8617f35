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
 * itself). Their errors go to `onError`.
 */
export function redisPubSub(url: string, onError: (err: Error) => void): { publisher: Redis; subscriber: Redis } {
  const options = { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: false };
  const publisher = redisClient(url, options);
  const subscriber = redisClient(url, { ...options, enableOfflineQueue: true });
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
