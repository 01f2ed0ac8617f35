import type { Caller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { ProblemError, problems } from '../../http/problems.js';
import { tierWayOut } from '../../seed/way-out.js';
import type { Tier } from '../../store/schema.js';

const SELF_SERVE: readonly Tier[] = ['free', 'basic', 'pro', 'pay-per-use'];

/** Where an app on a refused tier is sent to change its access (the public platform's portal). */
export const REGISTRATION_URL = 'https://developer.twitter.com/en/portal/product';

interface Removal {
  tiers: readonly Tier[];
  /** The day of the release history from which the removal applies (UTC); absent: always. */
  from?: string;
}

interface TierRule {
  what: string;
  removals: readonly Removal[];
}

/**
 * Endpoint groups the release history (spec 000 "Versioning") took away from some tiers. The
 * dated entries follow the clock, so a store whose clock reads an earlier day behaves as the
 * platform did then; the 2023 removals predate anything Plaza emulates and always apply.
 */
export const TIER_RULES = {
  /** "Removed in 2023: follows and list-follows endpoints from the basic and pro tiers". */
  follows: { what: 'The follows endpoints', removals: [{ tiers: ['basic', 'pro'] }] },
  listFollows: { what: 'The list-follows endpoints', removals: [{ tiers: ['basic', 'pro'] }] },
  /** "...and the manage-blocks endpoint" (2023); enterprise keeps it. */
  manageBlocks: { what: 'Blocking and unblocking through the API', removals: [{ tiers: SELF_SERVE }] },
  /** Aug 22, 2025: likes and follows removed from the free tier; Apr 20, 2026: from all self-serve tiers. */
  manageLikes: {
    what: 'Liking posts through POST /2/users/:id/likes',
    removals: [{ tiers: ['free'], from: '2025-08-22' }, { tiers: SELF_SERVE, from: '2026-04-20' }],
  },
  manageFollows: {
    what: 'Following users through POST /2/users/:id/following',
    removals: [{ tiers: ['free'], from: '2025-08-22' }, { tiers: SELF_SERVE, from: '2026-04-20' }],
  },
} satisfies Record<string, TierRule>;

export type TierRuleName = keyof typeof TIER_RULES;

/** Whether the rule refuses an app of `tier` at `now`. */
export function tierRefuses(rule: TierRuleName, tier: Tier, now: Date): boolean {
  const day = now.toISOString().slice(0, 10);
  return TIER_RULES[rule].removals.some((r: Removal) => r.tiers.includes(tier) && (r.from === undefined || day >= r.from));
}

/**
 * Refuses the request with the client-forbidden problem (HTTP 403) when the calling app's tier
 * lost the endpoint group, in the shape the public platform sends (shared/reference/platform.md §2).
 */
export function checkTier(ctx: PlatformContext, caller: Caller, ...rules: TierRuleName[]): void {
  const now = ctx.clock.now();
  for (const rule of rules) {
    if (!tierRefuses(rule, caller.app.tier, now)) continue;
    const problem = problems.clientForbidden({
      reason: 'client-not-enrolled',
      registration_url: REGISTRATION_URL,
      detail: `${TIER_RULES[rule].what} ${TIER_RULES[rule].what.startsWith('The ') ? 'are' : 'is'} not available to apps on the ${caller.app.tier} tier. Use an app on the enterprise tier.${tierWayOut(ctx, ['enterprise'])}`,
    });
    throw new ProblemError(403, { ...problem, client_id: caller.app.id, required_enrollment: 'Appropriate Level of API Access' });
  }
}
