import type { AccessLevel } from '../../store/schema.js';

/**
 * The OAuth 2.0 user scopes (shared/reference/platform.md §4, and S167's additions), with 'tweet'
 * renamed 'post' as the spec does. Each carries what the consent page tells the person.
 */
export const OAUTH2_SCOPES: Readonly<Record<string, string>> = {
  'post.read': 'Read posts you can see, including posts of protected accounts you follow.',
  'post.write': 'Post and repost for you.',
  'post.moderate.write': 'Hide and unhide replies to your posts.',
  'users.read': 'See any account you can see, including protected accounts you follow.',
  'users.email': 'See the confirmed email address of your account.',
  'follows.read': 'See who you follow and who follows you.',
  'follows.write': 'Follow and unfollow accounts for you.',
  'offline.access': 'Stay connected after you leave: the app gets a refresh token.',
  'space.read': 'See the Spaces you can see.',
  'mute.read': 'See the accounts you have muted.',
  'mute.write': 'Mute and unmute accounts for you.',
  'like.read': 'See the posts you like and the likes you can see.',
  'like.write': 'Like and unlike posts for you.',
  'list.read': 'See lists you made or belong to, private ones included, and their members.',
  'list.write': 'Make and manage lists for you.',
  'block.read': 'See the accounts you have blocked.',
  'block.write': 'Block and unblock accounts for you.',
  'bookmark.read': 'See your bookmarks.',
  'bookmark.write': 'Add and remove bookmarks for you.',
  'dm.read': 'Read all your direct messages.',
  'dm.write': 'Send and manage direct messages for you.',
  'media.write': 'Upload photos and videos for you.',
  'broadcast.read': 'See your live broadcasts and their chat.',
  'broadcast.write': 'Run your live broadcasts and chat in them for you.',
  'timeline.read': 'See the custom timelines you can see.',
};

/** The public platform's names that differ from Plaza's. */
const PUBLIC_ALIASES: Readonly<Record<string, string>> = {
  'tweet.read': 'post.read',
  'tweet.write': 'post.write',
  'tweet.moderate.write': 'post.moderate.write',
};
const TO_PUBLIC: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(PUBLIC_ALIASES).map(([pub, plaza]) => [plaza, pub]));

export type ScopeDialect = 'post' | 'tweet';

export interface ParsedScopes {
  /** Plaza's names, in the order asked, without repeats. */
  scopes: string[];
  /** 'tweet' when the client used the public platform's tweet.* names. */
  dialect: ScopeDialect;
  /** Names that are no scope at all. */
  unknown: string[];
}

/** Parses a space-separated scope parameter; tweet.* names are accepted as aliases of post.*. */
export function parseScopes(value: string): ParsedScopes {
  const scopes: string[] = [];
  const unknown: string[] = [];
  let dialect: ScopeDialect = 'post';
  for (const name of value.split(/\s+/).filter(Boolean)) {
    const alias = PUBLIC_ALIASES[name];
    if (alias) dialect = 'tweet';
    const plaza = alias ?? name;
    if (!(plaza in OAUTH2_SCOPES)) unknown.push(name);
    else if (!scopes.includes(plaza)) scopes.push(plaza);
  }
  return { scopes, dialect, unknown };
}

/** A scope's name in the dialect the client asked in. */
export function scopeName(scope: string, dialect: ScopeDialect): string {
  return dialect === 'tweet' ? (TO_PUBLIC[scope] ?? scope) : scope;
}

export function formatScopes(scopes: readonly string[], dialect: ScopeDialect): string {
  return scopes.map((s) => scopeName(s, dialect)).join(' ');
}

/** What an OAuth 1.0a access level lets an app do, in OAuth 2.0 scope terms. */
export function scopeAllowedAt(level: AccessLevel, scope: string): boolean {
  if (scope.startsWith('dm.')) return level === 'read-write-directmessages';
  if (level !== 'read') return true;
  return scope.endsWith('.read') || scope === 'users.email' || scope === 'offline.access';
}

/**
 * Spec 000 (release history): "When OAuth 1.0a permissions are present they fully override OAuth
 * 2.0 scopes." When the person has authorized the same app through OAuth 1.0a (a live access
 * token; with several, the widest), that permission (read, read-write, read-write-directmessages)
 * decides which kinds of access the OAuth 2.0 token has, whatever its scopes say: a scope outside
 * the permission does not count. The permission does not add scopes the token was not granted.
 */
export function effectiveScopes(scopes: ReadonlySet<string>, oauth1Level: AccessLevel | undefined): ReadonlySet<string> {
  if (!oauth1Level) return scopes;
  return new Set([...scopes].filter((s) => scopeAllowedAt(oauth1Level, s)));
}

/**
 * The OAuth 1.0a access level an OAuth 2.0 token's scopes amount to (the x-access-level header):
 * the narrowest level that allows every scope.
 */
export function accessLevelOfScopes(scopes: ReadonlySet<string>): AccessLevel {
  const levels: AccessLevel[] = ['read', 'read-write', 'read-write-directmessages'];
  return levels.find((level) => [...scopes].every((s) => scopeAllowedAt(level, s))) ?? 'read-write-directmessages';
}

/** What the OAuth 1.0a consent page says an access level allows. */
export const ACCESS_LEVEL_TEXT: Readonly<Record<AccessLevel, string[]>> = {
  read: ['Read posts from your timeline and see who you follow.', 'See your account information and profile.'],
  'read-write': [
    'Read posts from your timeline and see who you follow.',
    'See your account information and profile.',
    'Post, repost, like, follow and unfollow for you; update your profile.',
  ],
  'read-write-directmessages': [
    'Read posts from your timeline and see who you follow.',
    'See your account information and profile.',
    'Post, repost, like, follow and unfollow for you; update your profile.',
    'Read and send your direct messages.',
  ],
};

const LEVEL_RANK: Record<AccessLevel, number> = { read: 0, 'read-write': 1, 'read-write-directmessages': 2 };

export function accessLevelCovers(granted: AccessLevel, wanted: AccessLevel): boolean {
  return LEVEL_RANK[granted] >= LEVEL_RANK[wanted];
}
