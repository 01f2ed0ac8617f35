import type { Clock } from '../../clock.js';
import { AdsError } from './errors.js';

/**
 * Rate limits of the advertising interface (shared/reference/ads.md §2, the public platform's
 * rate-limit chart). User-level limits answer in `x-rate-limit-*`; GET endpoints limited per
 * ad account answer in `x-account-rate-limit-*`, their user-level limit then being the app's high
 * global quota. Reset values are epoch seconds. Windows start with their first request and are
 * kept in memory per listener.
 */
export type RateCategory =
  /** POST, PUT, DELETE: one category per user, 450 per minute. */
  | 'write'
  /** Core entity reads (campaigns, line items...): per endpoint and ad account, 10,000 per 15 minutes. */
  | 'entity-read'
  /** Other reads with :account_id: per endpoint and ad account, 2,000 per 15 minutes. */
  | 'account-read'
  /** Targeting criteria reads: one category per user, 400 per 15 minutes. */
  | 'targeting-read'
  /** GET endpoints without :account_id: per endpoint and user, 5 per 15 minutes. */
  | 'global-read'
  /** Custom audience users batches: per ad account, 1,500 per minute (spec 001 "Limits"). */
  | 'audience-users';

const MINUTE = 60_000;
const QUARTER = 15 * MINUTE;

interface Limit {
  limit: number;
  windowMs: number;
}

export const RATE_LIMITS: Record<RateCategory, Limit> = {
  write: { limit: 450, windowMs: MINUTE },
  'entity-read': { limit: 10_000, windowMs: QUARTER },
  'account-read': { limit: 2_000, windowMs: QUARTER },
  'targeting-read': { limit: 400, windowMs: QUARTER },
  'global-read': { limit: 5, windowMs: QUARTER },
  'audience-users': { limit: 1_500, windowMs: MINUTE },
};
/** The application-wide quota shown at user level on account-limited endpoints. */
export const APP_GLOBAL_QUOTA: Limit = { limit: 100_000, windowMs: QUARTER };
/** Requests with with_total_count=true (spec 001 "Limits"). */
export const TOTAL_COUNT_LIMIT: Limit = { limit: 200, windowMs: QUARTER };

export interface WindowState {
  limit: number;
  remaining: number;
  /** Epoch seconds. */
  reset: number;
  exceeded: boolean;
}

export class AdsRateLimiter {
  private readonly windows = new Map<string, { start: number; used: number }>();

  constructor(private readonly clock: Clock) {}

  /** Counts one request against `key` and says where its window stands. */
  take(key: string, { limit, windowMs }: Limit): WindowState {
    const now = this.clock.now().getTime();
    let window = this.windows.get(key);
    if (!window || now >= window.start + windowMs || now < window.start) {
      window = { start: now, used: 0 };
      this.windows.set(key, window);
      if (this.windows.size > 50_000) this.prune(now);
    }
    const exceeded = window.used >= limit;
    if (!exceeded) window.used += 1;
    return { limit, remaining: Math.max(0, limit - window.used), reset: Math.ceil((window.start + windowMs) / 1000), exceeded };
  }

  private prune(now: number): void {
    for (const [key, w] of this.windows) if (now >= w.start + QUARTER) this.windows.delete(key);
  }
}

export function rateHeaders(prefix: 'x-rate-limit' | 'x-account-rate-limit', state: WindowState): Record<string, string> {
  return { [`${prefix}-limit`]: String(state.limit), [`${prefix}-remaining`]: String(state.remaining), [`${prefix}-reset`]: String(state.reset) };
}

export function tooManyRequests(message: string, headers: Record<string, string>): AdsError {
  return new AdsError(429, [{ code: 'TOO_MANY_REQUESTS', message }], true, headers);
}
