import type { FastifyInstance, FastifyReply, preValidationHookHandler } from 'fastify';
import type { Caller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { ProblemError, problems } from '../../http/problems.js';
import {
  FixedWindowRateLimiter,
  RATE_LIMIT_HEADERS,
  sharedRateLimitCounter,
  setRateLimitHeaders,
  type RateLimitRule,
  type RateLimitState,
} from '../../http/rate-limit.js';
import { limitsOf } from './table.js';
import { worldKey } from '../../worlds/tags.js';

/** The persistent streams write their own head (reply.hijack): their headers go on the raw response. */
const STREAM_ROUTE = /\/stream(\/lang\/[a-z]+)?$/;

const hooksOf = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

/** The limiter of each Plaza's platform listener, for the console's read-only view (windows.ts); keyed by the configuration every world shares. */
const limiters = new WeakMap<PlatformContext['config'], FixedWindowRateLimiter>();

/** The platform listener's limiter; undefined when limits are off or the listener is not built yet. */
export const platformLimiter = (ctx: PlatformContext): FixedWindowRateLimiter | undefined => limiters.get(ctx.config);

/** "/2/users/:id/likes/:post_id" as /2/openapi.json names it: "/2/users/{id}/likes/{post_id}". */
export const openApiPath = (url: string): string => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/**
 * Rate limits of every v2 operation (issue #18): each route with an auth declaration gets its own
 * preValidation hook, which runs once the caller is known (src/platform/route-auth.ts) and before
 * validation, so a refused body is counted and answered with the headers too. App-only callers
 * spend their app's window of the route, user-context callers their own (per app and user), by
 * the table in table.ts. Every answer to a known caller carries x-rate-limit-limit, -remaining and
 * -reset; past the limit the answer is 429 with the reference's about:blank body.
 *
 * Counts are kept in Redis when REDIS_URL is set (shared by every process on the store), else in
 * this process, where the decision is synchronous: no promise per request.
 */
export function installPlatformRateLimits(app: FastifyInstance, ctx: PlatformContext): void {
  if (ctx.config.platformRateLimits === 'off') return;
  // The request's world's clock, read at each decision (src/worlds/scope.ts).
  const limiter = new FixedWindowRateLimiter({ now: () => ctx.clock.now() }, sharedRateLimitCounter(app, ctx));
  limiters.set(ctx.config, limiter);
  const tooManyRequests = () => new ProblemError(429, problems.aboutBlank(429, 'Too Many Requests'));

  app.addHook('onRoute', (route) => {
    if (!route.config?.auth) return;
    const path = openApiPath(route.url);
    const stream = STREAM_ROUTE.test(route.url);
    // One pair of rules per method the route answers, looked up once here, not per request.
    const rules = new Map<string, { app: RateLimitRule; user: RateLimitRule }>();
    for (const method of hooksOf(route.method)) {
      const endpoint = `${method} ${path}`;
      const limits = limitsOf(endpoint);
      rules.set(method, { app: { name: endpoint, ...limits.app }, user: { name: endpoint, ...limits.user } });
    }
    const decide = (reply: FastifyReply, state: RateLimitState, done: (err?: Error) => void) => {
      setRateLimitHeaders(reply, state);
      if (stream) copyToRaw(reply);
      done(state.allowed ? undefined : tooManyRequests());
    };
    const limited: preValidationHookHandler = (request, reply, done) => {
      const caller = request.caller;
      const pair = caller && rules.get(request.method);
      if (!caller || !pair) return done();
      // Each world spends its own windows: worlds copied from one seed share app and user ids.
      const state = caller.kind === 'app' ? limiter.hit(pair.app, worldKey(ctx, `app:${caller.app.id}`)) : limiter.hit(pair.user, worldKey(ctx, userKey(caller)));
      if (state instanceof Promise) state.then((s) => decide(reply, s, done), done);
      else decide(reply, state, done);
    };
    route.preValidation = [...hooksOf(route.preValidation), limited];
  });
}

/** Whose window a user-context request spends; windows.ts reads the same shape back. */
export const userKey = (caller: Exclude<Caller, { kind: 'app' }>): string => `user:${caller.app.id}:${caller.user.id}`;

/** A hijacked reply (the persistent streams) writes its head from the raw response: the headers are copied there. */
function copyToRaw(reply: FastifyReply): void {
  for (const name of RATE_LIMIT_HEADERS) reply.raw.setHeader(name, reply.getHeader(name) as string);
}
