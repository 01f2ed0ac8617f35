/**
 * The public platform's published rate limits of the v2 operations (issue #18), declared once and
 * keyed by route as /2/openapi.json names it ("GET /2/posts/{id}"), in Plaza's words (posts for
 * tweets). Sources: shared/reference/platform.md §3 (marked "ref") and the public platform's
 * rate-limit page (docs.x.com/x-api/fundamentals/rate-limits, and its enterprise page for the
 * Account Activity rows). Spec 000's Limits table says the v2 limits are "not shown", so these
 * figures are the public platform's, not the spec's.
 *
 * Columns: the route, the per-app limit (app-only Bearer token), the per-user limit (a user's
 * token, counted per app and user). A figure is per 15 minutes unless it ends in /24h. "-" means
 * the public platform publishes no limit for that kind of caller: the default below applies.
 *
 * Left out on purpose: second-scale limits (full-archive search's 1/sec) and second windows on a
 * row (a like's 1,000/24h on top of its 50/15min): one window per caller kind, as the headers
 * name one.
 */
const PUBLISHED = `
# Posts
GET    /2/posts                                              3500       5000
GET    /2/posts/{id}                                         450        900      ref
POST   /2/posts                                              10000/24h  100
DELETE /2/posts/{id}                                         -          50
GET    /2/posts/search/recent                                450        300      ref
GET    /2/posts/search/all                                   300        -
GET    /2/posts/counts/recent                                300        -        ref
GET    /2/posts/counts/all                                   300        -
GET    /2/posts/search/stream                                50         -        ref
GET    /2/posts/search/stream/rules                          450        -        ref
POST   /2/posts/search/stream/rules                          100        -        ref
GET    /2/posts/sample/stream                                50         -
GET    /2/users/{id}/posts                                   10000      900
GET    /2/users/{id}/mentions                                450        300
GET    /2/users/{id}/timelines/reverse_chronological         -          180
GET    /2/posts/{id}/liking_users                            75         75
GET    /2/users/{id}/liked_posts                             75         75
POST   /2/users/{id}/likes                                   -          50
DELETE /2/users/{id}/likes/{post_id}                         -          50
GET    /2/posts/{id}/reposted_by                             75         75
GET    /2/posts/{id}/reposts                                 75         75
POST   /2/users/{id}/reposts                                 -          50
DELETE /2/users/{id}/reposts/{source_post_id}                -          50
GET    /2/users/reposts_of_me                                -          75
GET    /2/posts/{id}/quote_posts                             75         75
PUT    /2/posts/{id}/hidden                                  -          50
GET    /2/users/{id}/bookmarks                               -          180
POST   /2/users/{id}/bookmarks                               -          50
DELETE /2/users/{id}/bookmarks/{post_id}                     -          50
# Users
GET    /2/users                                              300        900
GET    /2/users/{id}                                         300        900
GET    /2/users/by                                           300        900
GET    /2/users/by/username/{username}                       300        900
GET    /2/users/me                                           -          75
GET    /2/users/{id}/following                               300        300
GET    /2/users/{id}/followers                               300        300
POST   /2/users/{id}/following                               -          50
DELETE /2/users/{source_user_id}/following/{target_user_id}  -          50
GET    /2/users/{id}/blocking                                -          15
POST   /2/users/{id}/blocking                                -          50
DELETE /2/users/{source_user_id}/blocking/{target_user_id}   -          50
GET    /2/users/{id}/muting                                  -          100
POST   /2/users/{id}/muting                                  -          50
DELETE /2/users/{source_user_id}/muting/{target_user_id}     -          50
# Lists
GET    /2/lists/{id}                                         75         75
GET    /2/users/{id}/owned_lists                             15         15
POST   /2/lists                                              -          300
PUT    /2/lists/{id}                                         -          300
DELETE /2/lists/{id}                                         -          300
GET    /2/lists/{id}/posts                                   900        900
GET    /2/lists/{id}/members                                 900        900
POST   /2/lists/{id}/members                                 -          300
DELETE /2/lists/{id}/members/{user_id}                       -          300
GET    /2/users/{id}/list_memberships                        75         75
GET    /2/lists/{id}/followers                               180        180
GET    /2/users/{id}/followed_lists                          15         15
POST   /2/users/{id}/followed_lists                          -          50
DELETE /2/users/{id}/followed_lists/{list_id}                -          50
GET    /2/users/{id}/pinned_lists                            -          15
POST   /2/users/{id}/pinned_lists                            -          50
DELETE /2/users/{id}/pinned_lists/{list_id}                  -          50
# Spaces
GET    /2/spaces                                             300        300
GET    /2/spaces/{id}                                        300        300
GET    /2/spaces/by/creator_ids                              300        300
GET    /2/spaces/search                                      300        300
GET    /2/spaces/{id}/buyers                                 300        300
GET    /2/spaces/{id}/posts                                  300        300
# Direct Messages
GET    /2/dm_events                                          -          300
GET    /2/dm_conversations/with/{participant_id}/dm_events   -          300
GET    /2/dm_conversations/{dm_conversation_id}/dm_events    -          300
POST   /2/dm_conversations                                   15000/24h  200
POST   /2/dm_conversations/with/{participant_id}/messages    15000/24h  200
POST   /2/dm_conversations/{dm_conversation_id}/messages     15000/24h  200
# Usage, compliance, trends
GET    /2/usage/posts                                        50         -        ref
POST   /2/compliance/jobs                                    150        -
GET    /2/compliance/jobs                                    150        -
GET    /2/compliance/jobs/{id}                               150        -
GET    /2/trends/by/woeid/{woeid}                            75         -
# Webhooks: "450 per 15 min per app for each method; replay is 100"
GET    /2/webhooks                                           450        -        ref
POST   /2/webhooks                                           450        -        ref
PUT    /2/webhooks/{webhook_id}                              450        -        ref
DELETE /2/webhooks/{webhook_id}                              450        -        ref
POST   /2/webhooks/replay                                    100        -        ref
# Activity subscriptions: 500 per app for each method
GET    /2/activity/subscriptions                             500        -        ref
POST   /2/activity/subscriptions                             500        -        ref
DELETE /2/activity/subscriptions                             500        -        ref
PUT    /2/activity/subscriptions/{subscription_id}           500        -        ref
DELETE /2/activity/subscriptions/{subscription_id}           500        -        ref
# Account Activity (the enterprise page)
POST   /2/account_activity/webhooks/{webhook_id}/subscriptions/all          500  500
GET    /2/account_activity/webhooks/{webhook_id}/subscriptions/all          500  500
DELETE /2/account_activity/webhooks/{webhook_id}/subscriptions/{user_id}/all 500 500
GET    /2/account_activity/subscriptions/count                              15   -
`;

/**
 * Endpoints without a published limit, and the caller kind a row leaves "-": 450 per 15 minutes
 * per app and per user, the figure the reference gives for every webhook method and the table's
 * most common per-app value.
 */
export const DEFAULT_LIMIT = { limit: 450, windowMs: 15 * 60 * 1000 } as const;

export interface Window {
  limit: number;
  windowMs: number;
}

export interface RouteLimits {
  /** "GET /2/posts/{id}", or "default". */
  route: string;
  app: Window;
  user: Window;
  /** Which figures the public platform publishes; the others are the default. */
  published: { app: boolean; user: boolean };
}

const QUARTER_MS = 15 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

function parseWindow(text: string, where: string): Window | undefined {
  if (text === '-') return undefined;
  const m = /^(\d+)(\/24h)?$/.exec(text);
  if (!m) throw new Error(`rate-limit table: bad figure "${text}" on ${where}`);
  return { limit: Number(m[1]), windowMs: m[2] ? DAY_MS : QUARTER_MS };
}

function parseTable(text: string): Map<string, RouteLimits> {
  const rows = new Map<string, RouteLimits>();
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const [method, path, app, user] = trimmed.split(/\s+/);
    const route = `${method} ${path}`;
    if (!method || !path?.startsWith('/2/') || app === undefined || user === undefined) throw new Error(`rate-limit table: bad row "${trimmed}"`);
    if (rows.has(route)) throw new Error(`rate-limit table: ${route} twice`);
    const appWindow = parseWindow(app, route);
    const userWindow = parseWindow(user, route);
    rows.set(route, {
      route,
      app: appWindow ?? DEFAULT_LIMIT,
      user: userWindow ?? DEFAULT_LIMIT,
      published: { app: appWindow !== undefined, user: userWindow !== undefined },
    });
  }
  return rows;
}

export const RATE_LIMITS: ReadonlyMap<string, RouteLimits> = parseTable(PUBLISHED);

const DEFAULT_ROW: RouteLimits = { route: 'default', app: DEFAULT_LIMIT, user: DEFAULT_LIMIT, published: { app: false, user: false } };

/** The limits of a route named as /2/openapi.json names it ("GET /2/posts/{id}"); the default row when none is published. */
export function limitsOf(route: string): RouteLimits {
  return RATE_LIMITS.get(route) ?? DEFAULT_ROW;
}
