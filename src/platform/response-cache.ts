import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../auth/authenticate.js';
import type { AppContext } from '../context.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** False keeps a GET route's answers out of the response cache (its answer changes without a write). */
    cache?: boolean;
  }
}

/** How long, by the injected clock, an answer may be served again: fields derived from "now" (edit eligibility) move at most this much. */
export const CACHE_WINDOW_MS = 1000;

interface Entry {
  generation: string;
  storedAt: number;
  contentType: string;
  body: string;
}

interface Pending {
  key: string;
  generation: string;
  startedAt: number;
}

/**
 * Whole answers of authenticated GET routes, kept while the store has not changed: an entry is
 * served only when the store's generation (every write bumps it) equals the one it was read at,
 * and within CACHE_WINDOW_MS by the injected clock. The key is the full URL and who asks, down to
 * the token's scopes or access level, so an answer is only ever served to a caller who would
 * have been given the very same one. Entries are dropped least-recently-used beyond `maxBytes`.
 * A request with `Cache-Control: no-cache` is answered afresh.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string, generation: string, now: number): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.generation !== generation || now < entry.storedAt || now - entry.storedAt >= CACHE_WINDOW_MS) {
      this.remove(key, entry);
      return undefined;
    }
    // Map order is the LRU order: move the entry to the end.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, entry: Entry): void {
    const size = entry.body.length * 2;
    if (size > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    this.entries.set(key, entry);
    this.bytes += size;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(k, e);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.body.length * 2;
  }
}

/** Who asks, as far as it can change an answer: the app, the user, and what the token may do. */
export function callerKey(caller: Caller): string {
  switch (caller.kind) {
    case 'app':
      return `app:${caller.app.id}`;
    case 'oauth1':
      return `oauth1:${caller.app.id}:${caller.user.id}:${caller.accessLevel}`;
    case 'oauth2':
      return `oauth2:${caller.app.id}:${caller.user.id}:${[...caller.scopes].sort().join(' ')}:${caller.oauth1AccessLevel ?? ''}`;
  }
}

const pendingOf = new WeakMap<FastifyRequest, Pending>();

/**
 * Serves repeated reads from the cache. Runs after authentication and validation (preHandler), so
 * a cached answer still needs valid credentials and parameters; stores a 200 JSON answer only
 * when no write overlapped the request (the generation is the same before and after).
 */
export function installResponseCache(app: FastifyInstance, ctx: AppContext, maxBytes: number): void {
  if (maxBytes <= 0 || ctx.store.generation() === undefined) return;
  const cache = new ResponseCache(maxBytes);
  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'GET' || !request.caller || request.routeOptions.config.cache === false) return;
    const generation = ctx.store.generation();
    if (generation === undefined) return;
    const key = `${callerKey(request.caller)} ${request.url}`;
    const now = ctx.clock.now().getTime();
    // A client's Cache-Control: no-cache asks for a fresh answer; no-store also keeps it out of the cache.
    const directives = String(request.headers['cache-control'] ?? '').toLowerCase();
    if (!/\bno-(cache|store)\b/.test(directives)) {
      const hit = cache.get(key, generation, now);
      if (hit) return reply.header('content-type', hit.contentType).send(hit.body);
    }
    if (!/\bno-store\b/.test(directives)) pendingOf.set(request, { key, generation, startedAt: now });
  });
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const pending = pendingOf.get(request);
    if (!pending) return payload;
    pendingOf.delete(request);
    const contentType = String(reply.getHeader('content-type') ?? '');
    if (reply.statusCode !== 200 || typeof payload !== 'string' || !contentType.startsWith('application/json')) return payload;
    if (ctx.store.generation() !== pending.generation) return payload;
    cache.set(pending.key, { generation: pending.generation, storedAt: pending.startedAt, contentType, body: payload });
    return payload;
  });
}
