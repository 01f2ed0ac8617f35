/**
 * The Activity API's event types (spec 000 "Events" and its release history; shared/reference/
 * platform.md §7): which log entries each one reads, since when it exists, which OAuth 2.0 scope a
 * private one needs, which filters it takes, and which entries concern a filter's user. This
 * table is the one place these rules live; subscriptions, the stream and webhooks all read it.
 */

/** An entry of the event log, its payload parsed. */
export interface LoggedEvent {
  seq: number;
  id: string;
  type: string;
  subject: string;
  payload: any;
  created_at: string;
}

export function parseLogged(row: { seq: number | string; id: string; type: string; subject: string; payload: string; created_at: string }): LoggedEvent {
  return { seq: Number(row.seq), id: row.id, type: row.type, subject: row.subject, payload: JSON.parse(row.payload), created_at: row.created_at };
}

export type Direction = 'sent' | 'received';

export interface ActivityFilter {
  user_id?: string;
  keyword?: string;
  direction?: Direction | Direction[];
}

/** What matching may need to look up in the store, loaded once per batch of events. */
export interface MatchLookups {
  /** Current usernames (lowercase) of users, for mentions. */
  usernameOf(userId: string): string | undefined;
  /** Authors of posts a new post refers to (quotes, reposts). */
  authorOf(postId: string): string | undefined;
}

export interface MatchInput {
  event: LoggedEvent;
  filter: ActivityFilter;
  appId: string;
  lookups: MatchLookups;
}

export interface ActivityEventType {
  name: string;
  /** The log entries this type is read from. */
  logTypes: readonly string[];
  /** The day (UTC) from which the type exists, by the injected clock. */
  since: string;
  /** Private events need user context with this OAuth 2.0 scope, and are about that user only. */
  scope?: string;
  /** Whether filter.user_id is required, optional or not taken. */
  user: 'required' | 'optional' | 'none';
  keyword: boolean;
  /** Direction (sent, received) applies to direct-message and chat events (spec 000 "Events"). */
  direction: boolean;
  /** Whether an entry concerns the filter; keyword and direction are checked here too. */
  matches(input: MatchInput): boolean;
}

const DAY = {
  beta: '2025-10-18', // activity API open beta
  keyword: '2025-10-27', // keyword filtering of activity subscriptions
  profileBadges: '2025-10-24', // profile.update.verified, .affiliate, .screenname
  spaces: '2026-01-28',
  dm: '2026-03-11',
  names: '2026-03-18', // direction filter; dot-separated names replace the PascalCase ones
  posts: '2026-06-04',
} as const;

/** From this day the direction filter exists and the PascalCase names are refused. */
export const DIRECTION_SINCE = DAY.names;
export const DOT_NAMES_ONLY_SINCE = DAY.names;
export const KEYWORD_LIMITS = { min: 1, max: 150 };

/** The deprecated PascalCase names and the dot-separated names that replace them (Mar 18, 2026). */
export const PASCAL_CASE_NAMES: Readonly<Record<string, string>> = {
  ProfileBioUpdate: 'profile.update.bio',
  ProfilePictureUpdate: 'profile.update.profile_picture',
  ProfileBannerUpdate: 'profile.update.banner_picture',
  ProfileGeoUpdate: 'profile.update.geo',
  ProfileUrlUpdate: 'profile.update.url',
};

const bySubject = ({ event, filter }: MatchInput) => event.subject === filter.user_id;

const keywordIn = (texts: Array<string | undefined>, keyword: string | undefined) =>
  keyword === undefined || texts.some((t) => typeof t === 'string' && t.toLowerCase().includes(keyword.toLowerCase()));

/** Sides of a direct-message entry: who acted and who it reached. */
function dmSides(event: LoggedEvent): { actor: string | undefined; recipients: string[] } {
  const items: any[] = event.payload?.direct_message_events ?? [];
  if (event.type === 'dm.received') {
    return { actor: items[0]?.message_create?.sender_id, recipients: [event.subject] };
  }
  if (event.type === 'dm.sent') {
    // A group message names no single recipient: everyone in `users` but the sender received it.
    const target = items[0]?.message_create?.target?.recipient_id;
    const recipients = target ? [target] : Object.keys(event.payload?.users ?? {}).filter((id) => id !== event.subject);
    return { actor: event.subject, recipients };
  }
  if (event.type === 'chat.sent') {
    const recipients: unknown = event.payload?.recipient_ids;
    return { actor: event.subject, recipients: Array.isArray(recipients) ? recipients.map(String) : [] };
  }
  if (event.type === 'chat.received') {
    return { actor: event.payload?.chat_message_events?.[0]?.sender_id, recipients: [event.subject] };
  }
  if (event.type === 'chat.conversation_join') {
    const joined: unknown = items[0]?.participant_ids;
    return { actor: event.subject, recipients: Array.isArray(joined) ? joined.map(String) : [] };
  }
  return { actor: event.subject, recipients: items.map((i) => i?.target?.recipient_id).filter((id): id is string => typeof id === 'string') };
}

function directions(filter: ActivityFilter): Set<Direction> {
  if (filter.direction === undefined) return new Set(['sent', 'received']);
  return new Set(Array.isArray(filter.direction) ? filter.direction : [filter.direction]);
}

const byDmSide = ({ event, filter }: MatchInput) => {
  const { actor, recipients } = dmSides(event);
  const wanted = directions(filter);
  return (wanted.has('sent') && actor === filter.user_id) || (wanted.has('received') && recipients.includes(filter.user_id ?? ''));
};

const postText = (p: any): string | undefined => (typeof p?.text === 'string' ? p.text : undefined);
const refsOf = (p: any, type: string): string[] => (Array.isArray(p?.referenced_posts) ? p.referenced_posts.filter((r: any) => r?.type === type).map((r: any) => String(r.id)) : []);

/** A type about one user (the log entry's subject), filtered by user id only. */
function aboutUser(name: string, since: string, logType = name): ActivityEventType {
  return { name, logTypes: [logType], since, user: 'required', keyword: false, direction: false, matches: bySubject };
}

function dm(name: string, logType: string, since: string): ActivityEventType {
  return { name, logTypes: [logType], since, scope: 'dm.read', user: 'required', keyword: false, direction: true, matches: byDmSide };
}

function pair(name: string, scope: string): ActivityEventType {
  // The filter's user must be the source of the mute or block (reference §7), and no direction.
  return { name, logTypes: [name], since: DAY.beta, scope, user: 'required', keyword: false, direction: false, matches: ({ event, filter }) => event.payload?.source?.data?.id === filter.user_id };
}

/** A post by someone else that concerns the filter's user, in one of the ways `concerns` says. */
function postAbout(name: string, concerns: (input: MatchInput) => boolean): ActivityEventType {
  return {
    name,
    logTypes: ['post.create'],
    since: DAY.beta,
    scope: 'post.read',
    user: 'required',
    keyword: true,
    direction: false,
    matches: (input) => input.event.payload?.author_id !== input.filter.user_id && concerns(input) && keywordIn([postText(input.event.payload)], input.filter.keyword),
  };
}

const TYPES: ActivityEventType[] = [
  aboutUser('profile.update.bio', DAY.beta),
  aboutUser('profile.update.profile_picture', DAY.beta),
  aboutUser('profile.update.banner_picture', DAY.beta),
  aboutUser('profile.update.geo', DAY.beta),
  aboutUser('profile.update.url', DAY.beta),
  aboutUser('profile.update.verified', DAY.profileBadges),
  aboutUser('profile.update.affiliate', DAY.profileBadges),
  aboutUser('profile.update.screenname', DAY.profileBadges),
  // The reference's names for the same changes (spec 000 names them verified, affiliate, screenname).
  aboutUser('profile.update.verified_badge', DAY.profileBadges, 'profile.update.verified'),
  aboutUser('profile.update.affiliate_badge', DAY.profileBadges, 'profile.update.affiliate'),
  aboutUser('profile.update.handle', DAY.profileBadges, 'profile.update.screenname'),
  ...['follow.follow', 'follow.unfollow'].map((name): ActivityEventType => ({
    ...aboutUser(name, DAY.beta),
    matches: ({ event, filter }) => event.payload?.source?.data?.id === filter.user_id || event.payload?.target?.data?.id === filter.user_id,
  })),
  {
    name: 'post.create',
    logTypes: ['post.create'],
    since: DAY.posts,
    user: 'required',
    keyword: true,
    direction: false,
    matches: ({ event, filter }) => event.payload?.author_id === filter.user_id && keywordIn([postText(event.payload)], filter.keyword),
  },
  { name: 'post.delete', logTypes: ['post.delete'], since: DAY.posts, user: 'required', keyword: false, direction: false, matches: ({ event, filter }) => event.payload?.author_id === filter.user_id },
  postAbout('post.mention.create', ({ event, filter, lookups }) => {
    const username = lookups.usernameOf(filter.user_id ?? '');
    return !!username && (event.payload?.entities?.mentions ?? []).some((m: any) => String(m?.username ?? '').toLowerCase() === username);
  }),
  postAbout('post.reply.create', ({ event, filter }) => event.payload?.in_reply_to_user_id === filter.user_id && refsOf(event.payload, 'replied_to').length > 0),
  postAbout('post.quote.create', ({ event, filter, lookups }) => refsOf(event.payload, 'quoted').some((id) => lookups.authorOf(id) === filter.user_id)),
  postAbout('post.repost.create', ({ event, filter, lookups }) => refsOf(event.payload, 'reposted').some((id) => lookups.authorOf(id) === filter.user_id)),
  {
    name: 'like.create',
    logTypes: ['like.create'],
    since: DAY.beta,
    scope: 'like.read',
    user: 'required',
    keyword: false,
    direction: false,
    matches: ({ event, filter }) => event.payload?.liking_user_id === filter.user_id || event.payload?.post_author_id === filter.user_id,
  },
  pair('mute.mute', 'mute.read'),
  pair('mute.unmute', 'mute.read'),
  pair('block.block', 'block.read'),
  pair('block.unblock', 'block.read'),
  dm('dm.sent', 'dm.sent', DAY.dm),
  dm('dm.received', 'dm.received', DAY.dm),
  dm('dm.read', 'dm.read', DAY.dm),
  dm('dm.indicate_typing', 'dm.indicate_typing', DAY.dm),
  // Chat messages (POST /2/chat/conversations/{id}/messages) are their own log entries, apart from direct messages.
  dm('chat.sent', 'chat.sent', DAY.beta),
  dm('chat.received', 'chat.received', DAY.beta),
  dm('chat.conversation_join', 'chat.conversation_join', DAY.beta),
  ...['spaces.start', 'spaces.end'].map((name): ActivityEventType => ({
    name,
    logTypes: [name],
    since: DAY.spaces,
    user: 'required',
    keyword: false,
    direction: false,
    matches: ({ event, filter }) => event.payload?.creator_id === filter.user_id || (event.payload?.host_ids ?? []).includes(filter.user_id),
  })),
  {
    name: 'news.new',
    logTypes: ['news.new'],
    since: DAY.keyword,
    user: 'none',
    keyword: true,
    direction: false,
    matches: ({ event, filter }) => keywordIn([event.payload?.headline, event.payload?.summary, event.payload?.hook, event.payload?.category], filter.keyword),
  },
  ...['broadcast.start', 'broadcast.end', 'broadcast.chat'].map((name) => aboutUser(name, DAY.beta)),
  // An app hears of the revocations of its own authorizations; the filter is empty (reference §7).
  { name: 'oauth.revoke', logTypes: ['oauth.revoke'], since: DAY.beta, user: 'none', keyword: false, direction: false, matches: ({ event, appId }) => event.payload?.app_id === appId },
];

export const ACTIVITY_EVENT_TYPES: ReadonlyMap<string, ActivityEventType> = new Map(TYPES.map((t) => [t.name, t]));

/** The activity types that read a log type: what fan-out asks about each entry. */
export const TYPES_BY_LOG_TYPE: ReadonlyMap<string, readonly ActivityEventType[]> = (() => {
  const map = new Map<string, ActivityEventType[]>();
  for (const t of TYPES) for (const log of t.logTypes) map.set(log, [...(map.get(log) ?? []), t]);
  return map;
})();

export function isAvailable(type: ActivityEventType, now: Date): boolean {
  return now.toISOString().slice(0, 10) >= type.since;
}
