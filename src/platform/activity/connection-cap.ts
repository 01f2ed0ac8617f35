import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { redisClient, storeRedisName } from '../../redis.js';
import type { PlatformContext } from '../context.js';

/**
 * The activity stream's connections per app counted across processes (issue 37 item 9): with
 * Redis, each open connection holds a lease in a sorted set per app (score: when it lapses),
 * admitted by one atomic script, renewed while the connection is open and removed when it ends;
 * the connection of a process killed outright lapses within the lease. The lease is wall time
 * (liveness, not a rule of the interface: moving the admin clock does not end connections).
 */
export class SharedConnectionCap {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(redisUrl: string, storeKey: string, private readonly leaseMs: number, private readonly onError: (err: Error) => void) {
    this.prefix = `${storeRedisName('conns', storeKey)}:`;
    this.redis = redisClient(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: false });
    this.redis.on('error', (err) => this.onError(err));
    this.redis.defineCommand('plazaAdmit', {
      numberOfKeys: 1,
      // ARGV: now, cap, lapses at, connection id.
      lua: `redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
return 1`,
    });
  }

  /** Whether the connection fits under `cap` (and now holds a lease); undefined when Redis cannot say. */
  async admit(key: string, id: string, cap: number): Promise<boolean | undefined> {
    if (this.redis.status !== 'ready') return undefined;
    const now = Date.now();
    try {
      const admit = (this.redis as unknown as { plazaAdmit(key: string, now: number, cap: number, until: number, id: string): Promise<number> }).plazaAdmit;
      return Number(await admit.call(this.redis, this.prefix + key, now, cap, now + this.leaseMs, id)) === 1;
    } catch (err) {
      this.onError(err as Error);
      return undefined;
    }
  }

  /** Renews the leases of these open connections. */
  renew(leases: ReadonlyArray<{ key: string; id: string }>): void {
    if (leases.length === 0 || this.redis.status !== 'ready') return;
    const until = Date.now() + this.leaseMs;
    const batch = this.redis.multi();
    for (const { key, id } of leases) batch.zadd(this.prefix + key, 'XX', until, id).pexpireat(this.prefix + key, until);
    batch.exec().catch((err: Error) => this.onError(err));
  }

  release(key: string, id: string): void {
    if (this.redis.status !== 'ready') return;
    this.redis.zrem(this.prefix + key, id).catch((err: Error) => this.onError(err));
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
    this.redis.disconnect();
  }
}

const caps = new WeakMap<object, SharedConnectionCap>();

/** This process's shared cap when Redis is configured (one per configuration, closed with `app`); undefined otherwise. */
export function sharedConnectionCap(app: FastifyInstance, ctx: PlatformContext): SharedConnectionCap | undefined {
  const { redisUrl, databaseUrl, streamConnectionStaleMs } = ctx.config;
  if (!redisUrl) return undefined;
  let cap = caps.get(ctx.config);
  if (!cap) {
    const made = new SharedConnectionCap(redisUrl, databaseUrl, streamConnectionStaleMs, (err) => ctx.log.warn({ err }, 'stream caps lost Redis; counting in this process'));
    caps.set(ctx.config, (cap = made));
    app.addHook('onClose', async () => {
      caps.delete(ctx.config);
      await made.close();
    });
  }
  return cap;
}
