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
