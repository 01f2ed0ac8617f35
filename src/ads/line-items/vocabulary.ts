/**
 * The values line items take (spec 001 "Line items", shared/reference/ads.md §3). Plaza speaks
 * the spec's dialect (PROMOTED_POSTS, ALL_ON_PLATFORM, PLATFORM_TIMELINE...) and accepts the
 * public platform's 'tweet'/'twitter' spellings as aliases, so the official SDKs work unchanged.
 */

export const OBJECTIVES = ['APP_ENGAGEMENTS', 'APP_INSTALLS', 'REACH', 'FOLLOWERS', 'ENGAGEMENTS', 'VIDEO_VIEWS', 'PREROLL_VIEWS', 'WEBSITE_CLICKS'] as const;
export type Objective = (typeof OBJECTIVES)[number];

export const PRODUCT_TYPES = ['MEDIA', 'PROMOTED_ACCOUNT', 'PROMOTED_POSTS'] as const;
export const PRODUCT_TYPE_ALIASES = { PROMOTED_TWEETS: 'PROMOTED_POSTS' } as const;

export const PLACEMENTS = [
  'ALL_ON_PLATFORM', 'PUBLISHER_NETWORK', 'TAP_BANNER', 'TAP_FULL', 'TAP_FULL_LANDSCAPE', 'TAP_NATIVE', 'TAP_MRECT',
  'PLATFORM_PROFILE', 'PLATFORM_REPLIES', 'PLATFORM_SEARCH', 'PLATFORM_TIMELINE',
] as const;
export type Placement = (typeof PLACEMENTS)[number];
export const PLACEMENT_ALIASES = {
  ALL_ON_TWITTER: 'ALL_ON_PLATFORM',
  TWITTER_PROFILE: 'PLATFORM_PROFILE',
  TWITTER_REPLIES: 'PLATFORM_REPLIES',
  TWITTER_SEARCH: 'PLATFORM_SEARCH',
  TWITTER_TIMELINE: 'PLATFORM_TIMELINE',
} as const;

export const BID_STRATEGIES = ['AUTO', 'MAX', 'TARGET'] as const;

/** Goals a new line item may take; PUT takes the spec's list, which has no SITE_VISITS. */
export const GOALS_ON_UPDATE = [
  'APP_CLICKS', 'APP_INSTALLS', 'APP_PURCHASES', 'ENGAGEMENT', 'FOLLOWERS', 'LINK_CLICKS', 'MAX_REACH', 'PREROLL', 'PREROLL_STARTS',
  'REACH_WITH_ENGAGEMENT', 'VIDEO_VIEW', 'VIEW_3S_100PCT', 'VIEW_6S', 'VIEW_15S', 'WEBSITE_CONVERSIONS',
] as const;
export const GOALS_ON_CREATE = [...GOALS_ON_UPDATE, 'SITE_VISITS'] as const;

export const PAY_BY = ['APP_CLICK', 'IMPRESSION', 'LINK_CLICK'] as const;
export const AUDIENCE_EXPANSIONS = ['BROAD', 'DEFINED', 'EXPANDED'] as const;
export const LINE_ITEM_STATUSES_ON_CREATE = ['ACTIVE', 'DRAFT', 'PAUSED'] as const;
/** PUT: entity_status ACTIVE or PAUSED (spec 001 "States and transitions"). */
export const LINE_ITEM_STATUSES_ON_UPDATE = ['ACTIVE', 'PAUSED'] as const;
export const DURATIONS_IN_DAYS = [1, 7, 30] as const;

/** frequency_cap: only for these objectives. */
export const FREQUENCY_CAP_OBJECTIVES: readonly string[] = ['REACH', 'ENGAGEMENTS', 'VIDEO_VIEWS', 'PREROLL_VIEWS'];
/** MAX is not available for these objectives. */
export const NO_MAX_BID_OBJECTIVES: readonly string[] = ['REACH', 'FOLLOWERS'];
/** TARGET is available only for these objectives. */
export const TARGET_BID_OBJECTIVES: readonly string[] = ['REACH', 'WEBSITE_CLICKS'];
/** These objectives need a store identifier (android or ios). */
export const APP_OBJECTIVES: readonly string[] = ['APP_INSTALLS', 'APP_ENGAGEMENTS'];

/** The goal a line item gets when none is given ("default depends on objective"). */
export const DEFAULT_GOAL: Record<Objective, string> = {
  APP_ENGAGEMENTS: 'APP_CLICKS',
  APP_INSTALLS: 'APP_INSTALLS',
  REACH: 'MAX_REACH',
  FOLLOWERS: 'FOLLOWERS',
  ENGAGEMENTS: 'ENGAGEMENT',
  VIDEO_VIEWS: 'VIDEO_VIEW',
  PREROLL_VIEWS: 'PREROLL',
  WEBSITE_CLICKS: 'LINK_CLICKS',
};

/** Goals limited to some objectives (shared/reference/ads.md §3 and the public docs of `goal`). */
export const GOAL_OBJECTIVES: Record<string, readonly string[]> = {
  APP_PURCHASES: ['APP_INSTALLS'],
  APP_CLICKS: ['APP_INSTALLS', 'APP_ENGAGEMENTS'],
  APP_INSTALLS: ['APP_INSTALLS', 'APP_ENGAGEMENTS'],
  SITE_VISITS: ['WEBSITE_CLICKS'],
};

/** pay_by values a goal supports; the first is the default. Other goals are billed automatically. */
export const PAY_BY_FOR_GOAL: Record<string, readonly string[]> = {
  APP_INSTALLS: ['IMPRESSION', 'APP_CLICK'],
  LINK_CLICKS: ['IMPRESSION', 'LINK_CLICK'],
  SITE_VISITS: ['IMPRESSION'],
};

/** The billing unit of goals whose pay_by is not chosen. */
export const AUTOMATIC_PAY_BY: Record<string, string> = {
  APP_CLICKS: 'APP_CLICK',
  APP_PURCHASES: 'IMPRESSION',
  ENGAGEMENT: 'ENGAGEMENT',
  FOLLOWERS: 'FOLLOW',
  MAX_REACH: 'IMPRESSION',
  REACH_WITH_ENGAGEMENT: 'IMPRESSION',
  PREROLL: 'VIEW',
  PREROLL_STARTS: 'VIEW',
  VIDEO_VIEW: 'VIEW',
  VIEW_3S_100PCT: 'VIEW',
  VIEW_6S: 'VIEW',
  VIEW_15S: 'VIEW',
  WEBSITE_CONVERSIONS: 'IMPRESSION',
};

const SURFACES: Placement[] = ['PLATFORM_PROFILE', 'PLATFORM_SEARCH', 'PLATFORM_TIMELINE', 'PLATFORM_REPLIES'];

function subsets<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let mask = 1; mask < 1 << items.length; mask++) out.push(items.filter((_, i) => mask & (1 << i)));
  return out.sort((a, b) => a.length - b.length);
}

/** Valid placement combinations per product type (GET line_items/placements). */
export const PLACEMENT_COMBINATIONS: Record<(typeof PRODUCT_TYPES)[number], Placement[][]> = {
  PROMOTED_POSTS: [['ALL_ON_PLATFORM'], ['PUBLISHER_NETWORK'], ['ALL_ON_PLATFORM', 'PUBLISHER_NETWORK'], ...subsets(SURFACES)],
  PROMOTED_ACCOUNT: [['ALL_ON_PLATFORM'], ['PLATFORM_TIMELINE']],
  MEDIA: [
    ['ALL_ON_PLATFORM'],
    ['PUBLISHER_NETWORK'],
    ['TAP_BANNER'],
    ['TAP_FULL'],
    ['TAP_FULL_LANDSCAPE'],
    ['TAP_MRECT'],
    ['TAP_NATIVE'],
    ['TAP_BANNER', 'TAP_FULL', 'TAP_FULL_LANDSCAPE', 'TAP_MRECT', 'TAP_NATIVE'],
  ],
};

export function isValidPlacementCombination(productType: string, placements: readonly string[]): boolean {
  const combos = PLACEMENT_COMBINATIONS[productType as keyof typeof PLACEMENT_COMBINATIONS] ?? [];
  const wanted = [...new Set(placements)].sort().join(',');
  return combos.some((c) => [...c].sort().join(',') === wanted);
}
