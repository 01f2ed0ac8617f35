import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { redisClient, storeRedisName } from '../redis.js';
import type { Clock } from '../clock.js';
import { sendProblem } from './platform-errors.js';
import { problems } from './problems.js';

/**
 * Fixed-window rate limits (shared/reference/platform.md §3): every response of a limited
 * endpoint carries x-rate-limit-limit, x-rate-limit-remaining and x-rate-limit-reset (Unix epoch
 * seconds); past the limit the answer is 429 with the about:blank problem. Windows are counted by
 * the injected clock, so tests move time instead of sleeping.
 */
export interface RateLimitRule {
  /** Names the counter family, e.g. "oauth/request_token". */
  name: string;
  limit: number;
  windowMs: number;
}

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Unix epoch seconds when the window ends. */
  reset: number;
  allowed: boolean;
}

/** Where counts live. In-process by default; a shared store (Redis) can implement the same. */
export interface RateLimitCounter {
  /** Adds one hit to the window that starts at windowStart and returns the count so far. */
  increment(key: string, windowStart: number, windowMs: number): Promise<number> | number;
  /** The count of the window that starts at windowStart, adding nothing. */
  peek(key: string, windowStart: number): Promise<number> | number;
  /** The keys containing `fragment` whose window has not ended at `now` (what a caller is spending). */
  activeKeys(fragment: string, now: number): Promise<string[]> | string[];
}

export class MemoryRateLimitCounter implements RateLimitCounter {
  private readonly windows = new Map<string, { start: number; count: number; end: number }>();
  private hits = 0;

  increment(key: string, windowStart: number, windowMs: number): number {
    // Now and then drop windows that have ended, so idle keys do not pile up.
    if (++this.hits % 1000 === 0) {
      for (const [k, w] of this.windows) if (w.end <= windowStart) this.windows.delete(k);
    }
    const current = this.windows.get(key);
    if (current && current.start === windowStart) {
      current.count += 1;
      return current.count;
    }
    this.windows.set(key, { start: windowStart, count: 1, end: windowStart + windowMs });
    return 1;
  }

  peek(key: string, windowStart: number): number {
    const current = this.windows.get(key);
    return current && current.start === windowStart ? current.count : 0;
  }

  activeKeys(fragment: string, now: number): string[] {
    const keys: string[] = [];
    for (const [k, w] of this.windows) if (w.end > now && k.includes(fragment)) keys.push(k);
    return keys;
  }
}

/** Redis MATCH patterns treat * ? [ ] and \\ as wildcards: a literal fragment escapes them. */
const globLiteral = (text: string) => text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);

/**
 * Counts in Redis, so processes sharing a store share their windows (issue #18): one INCR per
 * request on a key named by the store, the counter family and the window's start, expiring with
 * the window. While Redis cannot answer, counts fall back on this process's own, so an outage
 * loosens the limits rather than refusing requests.
 */
export class RedisRateLimitCounter implements RateLimitCounter {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly fallback = new MemoryRateLimitCounter();

  constructor(redisUrl: string, storeKey: string, private readonly onError: (err: Error) => void = () => {}) {
    this.prefix = `${storeRedisName('rate', storeKey)}:`;
    this.redis = redisClient(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: false });
    this.redis.on('error', (err) => this.onError(err));
    this.redis.defineCommand('plazaHit', {
      numberOfKeys: 1,
      lua: "local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return n",
    });
  }

  async increment(key: string, windowStart: number, windowMs: number): Promise<number> {
    if (this.redis.status !== 'ready') return this.fallback.increment(key, windowStart, windowMs);
    try {
      const hit = (this.redis as unknown as { plazaHit(key: string, ttl: number): Promise<number> }).plazaHit;
      return Number(await hit.call(this.redis, `${this.prefix}${key}\u0000${windowStart}`, windowMs));
    } catch (err) {
      this.onError(err as Error);
      return this.fallback.increment(key, windowStart, windowMs);
    }
  }

  async peek(key: string, windowStart: number): Promise<number> {
    if (this.redis.status !== 'ready') return this.fallback.peek(key, windowStart);
    try {
      return Number((await this.redis.get(`${this.prefix}${key}\u0000${windowStart}`)) ?? 0);
    } catch (err) {
      this.onError(err as Error);
      return this.fallback.peek(key, windowStart);
    }
  }

  /**
   * Redis keys expire with their window, so every key left is a live window. SCAN, not KEYS: the
   * console reads this, and it must not block the Redis every process is counting in.
   */
  async activeKeys(fragment: string, now: number): Promise<string[]> {
    if (this.redis.status !== 'ready') return this.fallback.activeKeys(fragment, now);
    try {
      const found = new Set<string>();
      let cursor = '0';
      do {
        const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${globLiteral(this.prefix)}*${globLiteral(fragment)}*`, 'COUNT', 1000);
        cursor = next;
        for (const k of keys) {
          const body = k.slice(this.prefix.length);
          found.add(body.slice(0, body.lastIndexOf('\u0000')));
        }
      } while (cursor !== '0');
      return [...found];
    } catch (err) {
      this.onError(err as Error);
      return this.fallback.activeKeys(fragment, now);
    }
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
    this.redis.disconnect();
  }
}

const sharedCounters = new WeakMap<object, RedisRateLimitCounter>();

/**
 * The counter every limit of a listener counts in: Redis when the configuration names one (shared
 * by every process on the store: the platform's limits, the OAuth steps and the sign-in pages,
 * issue 37 item 9), undefined (each limiter in-process) otherwise. One per configuration, closed
 * with the listener that asked first.
 */
export function sharedRateLimitCounter(
  app: FastifyInstance,
  ctx: { config: { redisUrl?: string; databaseUrl: string }; log: { warn(obj: object, msg: string): void } },
): RateLimitCounter | undefined {
  if (!ctx.config.redisUrl) return undefined;
  let counter = sharedCounters.get(ctx.config);
  if (!counter) {
    const made = new RedisRateLimitCounter(ctx.config.redisUrl, ctx.config.databaseUrl, (err) => ctx.log.warn({ err }, 'rate limits lost Redis; counting in this process'));
    sharedCounters.set(ctx.config, (counter = made));
    app.addHook('onClose', async () => {
      sharedCounters.delete(ctx.config);
      await made.close();
    });
  }
  return counter;
}

export class FixedWindowRateLimiter {
  constructor(
    private readonly clock: Clock,
    private readonly counter: RateLimitCounter = new MemoryRateLimitCounter(),
  ) {}

  /**
   * Counts one request of `key` under `rule`. Windows are aligned on the epoch (so every process
   * agrees on them); the answer comes at once, without a promise, when the counter is in-process.
   */
  hit(rule: RateLimitRule, key: string): RateLimitState | Promise<RateLimitState> {
    const now = this.clock.now().getTime();
    const windowStart = now - (now % rule.windowMs);
    const count = this.counter.increment(`${rule.name}\u0000${key}`, windowStart, rule.windowMs);
    return typeof count === 'number' ? stateOf(rule, windowStart, count) : count.then((n) => stateOf(rule, windowStart, n));
  }

  /**
   * The state of `key` under `rule` without counting a request: what the headers of its last
   * answer said, with the clock's window (a window that has ended reads as a fresh one). `allowed`
   * says whether the next request would pass.
   */
  peek(rule: RateLimitRule, key: string): RateLimitState | Promise<RateLimitState> {
    const now = this.clock.now().getTime();
    const windowStart = now - (now % rule.windowMs);
    const count = this.counter.peek(`${rule.name}\u0000${key}`, windowStart);
    return typeof count === 'number' ? stateOf(rule, windowStart, count, 1) : count.then((n) => stateOf(rule, windowStart, n, 1));
  }

  /** The (rule name, key) pairs with a live window whose key contains `fragment`. */
  async active(fragment: string): Promise<Array<{ name: string; key: string }>> {
    const keys = await this.counter.activeKeys(fragment, this.clock.now().getTime());
    return keys.map((k) => {
      const cut = k.indexOf('\u0000');
      return { name: k.slice(0, cut), key: k.slice(cut + 1) };
    });
  }
}

/** `ahead`: 0 for the request just counted, 1 for a peek at whether the next one would pass. */
function stateOf(rule: RateLimitRule, windowStart: number, count: number, ahead = 0): RateLimitState {
  return {
    limit: rule.limit,
    remaining: Math.max(0, rule.limit - count),
    reset: Math.ceil((windowStart + rule.windowMs) / 1000),
    allowed: count + ahead <= rule.limit,
  };
}

export const RATE_LIMIT_HEADERS = ['x-rate-limit-limit', 'x-rate-limit-remaining', 'x-rate-limit-reset'] as const;

/** The one writer of the rate-limit headers: the limiters and the admin interface's rate_limit fault. */
export function setRateLimitHeaders(reply: FastifyReply, state: RateLimitState): void {
  reply.header('x-rate-limit-limit', String(state.limit));
  reply.header('x-rate-limit-remaining', String(state.remaining));
  reply.header('x-rate-limit-reset', String(state.reset));
}

/** The 429 of the platform: `{"title":"Too Many Requests","type":"about:blank","status":429,"detail":"Too Many Requests"}`. */
export function sendRateLimited(reply: FastifyReply): FastifyReply {
  return sendProblem(reply, 429, problems.aboutBlank(429, 'Too Many Requests'));
}

export interface RateLimitHookOptions {
  limiter: FixedWindowRateLimiter;
  rule: RateLimitRule;
  /** Whose budget a request spends: an app, a user, a client address... */
  keyOf(request: FastifyRequest): string | Promise<string>;
  /** How to answer past the limit; the 429 problem by default. The headers are already set. */
  onLimited?(request: FastifyRequest, reply: FastifyReply): FastifyReply | Promise<FastifyReply>;
}

/** An onRequest (or preHandler) hook that counts the request, sets the headers and stops it at the limit. */
export function rateLimitHook(options: RateLimitHookOptions) {
  return async function rateLimited(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const state = await options.limiter.hit(options.rule, await options.keyOf(request));
    setRateLimitHeaders(reply, state);
    if (state.allowed) return undefined;
    if (options.onLimited) return options.onLimited(request, reply);
    return sendRateLimited(reply);
  };
}
