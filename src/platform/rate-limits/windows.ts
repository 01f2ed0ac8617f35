import type { PlatformContext } from '../context.js';
import { platformLimiter } from './install.js';
import { limitsOf } from './table.js';

/**
 * The current rate-limit windows of one app, for the developer console: per endpoint the app has
 * called in a window still open, and per caller (the app's bearer token, or each person acting
 * through the app), the limit, the requests left and when the window resets. Read with the
 * limiter's peek, which counts nothing, so looking at the console spends no one's budget.
 */
export interface RateLimitWindow {
  /** "GET /2/users/{id}", as the rate-limit table names it. */
  endpoint: string;
  caller: { kind: 'app' } | { kind: 'user'; id: string; username: string | null };
  limit: number;
  remaining: number;
  /** When the window resets (ISO 8601). */
  reset: string;
}

export async function rateLimitWindowsOf(ctx: PlatformContext, appId: string): Promise<RateLimitWindow[] | undefined> {
  const limiter = platformLimiter(ctx);
  if (!limiter) return undefined;
  // Keys are `app:<app>` and `user:<app>:<user>` (install.ts); the NUL before them anchors the match.
  const live = [...(await limiter.active(`\u0000app:${appId}`)), ...(await limiter.active(`\u0000user:${appId}:`))].filter(
    ({ key }) => key === `app:${appId}` || key.startsWith(`user:${appId}:`),
  );
  const userIds = [...new Set(live.filter((w) => w.key.startsWith('user:')).map((w) => w.key.split(':')[2]!))];
  const usernames = new Map(
    userIds.length ? (await ctx.store.db.selectFrom('users').select(['id', 'username']).where('id', 'in', userIds).execute()).map((u) => [u.id, u.username]) : [],
  );
  const windows = await Promise.all(
    live.map(async ({ name, key }): Promise<RateLimitWindow> => {
      const limits = limitsOf(name);
      const isApp = key.startsWith('app:');
      const state = await limiter.peek({ name, ...(isApp ? limits.app : limits.user) }, key);
      const userId = key.split(':')[2] ?? '';
      return {
        endpoint: name,
        caller: isApp ? { kind: 'app' } : { kind: 'user', id: userId, username: usernames.get(userId) ?? null },
        limit: state.limit,
        remaining: state.remaining,
        reset: new Date(state.reset * 1000).toISOString(),
      };
    }),
  );
  return windows.sort((a, b) => a.endpoint.localeCompare(b.endpoint) || (a.caller.kind === 'app' ? -1 : b.caller.kind === 'app' ? 1 : a.caller.id.localeCompare(b.caller.id)));
}
