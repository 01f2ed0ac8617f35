import type { UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { appendEvent } from '../../events/log.js';
import { invalidParameter } from '../../http/params.js';
import { isUniqueViolation, toJson, type DbOrTx } from '../../store/store.js';
import type { UserTable } from '../../store/schema.js';
import type { Selection } from '../expansions.js';
import { recordFollow } from '../follows/service.js';
import { pendingRequesters } from '../follows/store.js';
import { requireWriteAccess } from '../graph/access.js';
import { latestOf } from '../graph/visibility.js';
import { parseEntities } from '../posts/entities.js';
import { findPostsByIds } from '../posts/store.js';
import { viewOf } from '../view.js';
import { lookupUsers, type UsersResult } from './service.js';
import { findUsersByIds, findUsersByUsernames } from './store.js';
import type { UserRow } from './wire.js';

/**
 * Profile update (Plaza's PATCH /2/users/me: the public platform's v2 has no such endpoint).
 * The profile fields a user edits, plus the pinned post; verified_type and affiliation are
 * badges the platform grants, settable here so integrations can see their events.
 */
export interface ProfileChanges {
  name?: string;
  username?: string;
  description?: string;
  location?: string;
  url?: string;
  profile_image_url?: string;
  protected?: boolean;
  pinned_post_id?: string | null;
  verified_type?: 'none' | 'blue' | 'business' | 'government';
  affiliation?: { description?: string; url?: string; badge_url?: string; user_id?: string[] } | null;
}

/** Which change is told by which event (spec 000 "Events"; geo, url and picture from shared/reference §7). */
const PROFILE_EVENTS: Array<{ type: string; of: (u: UserRow) => string }> = [
  { type: 'profile.update.bio', of: (u) => u.description },
  { type: 'profile.update.screenname', of: (u) => u.username },
  { type: 'profile.update.verified', of: (u) => u.verified_type },
  { type: 'profile.update.affiliate', of: (u) => u.affiliation ?? '' },
  { type: 'profile.update.geo', of: (u) => u.location ?? '' },
  { type: 'profile.update.url', of: (u) => u.url ?? '' },
  { type: 'profile.update.profile_picture', of: (u) => u.profile_image_url },
  // Not an Activity API type: the users compliance stream reads it (user_protect, user_unprotect).
  { type: 'profile.update.protected', of: (u) => (u.protected === 1 ? 'true' : 'false') },
];

const USERNAME = /^[A-Za-z0-9_]{4,15}$/;

function checkUrl(name: string, value: string, https = false): void {
  let ok = false;
  try {
    const parsed = new URL(value);
    ok = parsed.protocol === 'https:' || (!https && parsed.protocol === 'http:');
  } catch {
    ok = false;
  }
  if (!ok) throw invalidParameter(name, [value], `The \`${name}\` body field value [${value}] is not a valid ${https ? 'https ' : ''}URL`);
}

function checkChanges(c: ProfileChanges): void {
  const text = (name: keyof ProfileChanges, value: string | undefined, max: number, min = 0) => {
    if (value === undefined) return;
    const length = [...value].length;
    if (length < min || length > max) throw invalidParameter(name, [value], `The \`${name}\` body field must be between ${min} and ${max} characters long`);
  };
  text('name', c.name?.trim(), 50, 1);
  text('description', c.description, 160);
  text('location', c.location, 30);
  text('url', c.url, 100);
  if (c.username !== undefined && !USERNAME.test(c.username)) {
    throw invalidParameter('username', [c.username], 'The `username` body field must be 4 to 15 letters, digits or underscores');
  }
  if (c.url) checkUrl('url', c.url);
  if (c.profile_image_url !== undefined) checkUrl('profile_image_url', c.profile_image_url, true);
  if (c.affiliation?.url) checkUrl('affiliation.url', c.affiliation.url);
  if (c.affiliation?.badge_url) checkUrl('affiliation.badge_url', c.affiliation.badge_url, true);
}

/** The user entities of the public platform: url.urls and the description's hashtags, mentions, urls, cashtags. */
export function userEntities(description: string, url: string | null): string {
  const entities: Record<string, unknown> = {};
  if (url) entities.url = { urls: [{ start: 0, end: [...url].length, url, expanded_url: url, display_url: url.replace(/^https?:\/\/(www\.)?/, '') }] };
  const parsed = parseEntities(description);
  if (Object.keys(parsed).length > 0) entities.description = parsed;
  return toJson(entities);
}

async function applyChanges(db: DbOrTx, user: UserRow, c: ProfileChanges): Promise<UserRow> {
  const set: Partial<UserTable> = {};
  if (c.name !== undefined) set.name = c.name.trim();
  if (c.username !== undefined && c.username !== user.username) {
    const [taken] = await findUsersByUsernames(db, [c.username]);
    if (taken && taken.id !== user.id) throw invalidParameter('username', [c.username], `The username [${c.username}] is already taken`);
    set.username = c.username;
    set.username_lower = c.username.toLowerCase();
  }
  if (c.description !== undefined) set.description = c.description;
  if (c.location !== undefined) set.location = c.location === '' ? null : c.location;
  if (c.url !== undefined) set.url = c.url === '' ? null : c.url;
  if (c.profile_image_url !== undefined) set.profile_image_url = c.profile_image_url;
  if (c.protected !== undefined) set.protected = c.protected ? 1 : 0;
  if (c.pinned_post_id !== undefined) {
    let pinned: string | null = null;
    if (c.pinned_post_id !== null) {
      const [named] = await findPostsByIds(db, [c.pinned_post_id]);
      const post = named && (await latestOf(db, named));
      if (!post || post.author_id !== user.id) {
        throw invalidParameter('pinned_post_id', [c.pinned_post_id], `The \`pinned_post_id\` body field value [${c.pinned_post_id}] is not one of your posts`);
      }
      pinned = post.id;
    }
    set.pinned_post_id = pinned;
  }
  if (c.verified_type !== undefined) {
    set.verified_type = c.verified_type;
    set.verified = c.verified_type === 'none' ? 0 : 1;
  }
  if (c.affiliation !== undefined) {
    if (c.affiliation?.user_id?.length) {
      const found = await findUsersByIds(db, c.affiliation.user_id);
      const missing = c.affiliation.user_id.find((id) => !found.some((u) => u.id === id));
      if (missing) throw invalidParameter('affiliation.user_id', [missing], `The \`affiliation.user_id\` body field value [${missing}] is not a user`);
    }
    set.affiliation = c.affiliation === null ? null : toJson(c.affiliation);
  }
  if (set.description !== undefined || set.url !== undefined) {
    set.entities = userEntities(set.description ?? user.description, set.url !== undefined ? set.url : user.url);
  }
  if (Object.keys(set).length === 0) return user;
  await db.updateTable('users').set(set).where('id', '=', user.id).execute();
  return { ...user, ...set };
}

/**
 * PATCH /2/users/me: changes the authenticated user's profile in one transaction, with a
 * profile.update.* event ({before, after}) per changed item. Making a protected account public
 * approves its pending follow requests, as on the public platform.
 */
export async function updateProfile(ctx: PlatformContext, caller: UserCaller, changes: ProfileChanges, selection: Selection): Promise<UsersResult> {
  requireWriteAccess(caller);
  checkChanges(changes);
  try {
    await ctx.store.db.transaction().execute(async (tx) => {
      const [before] = await findUsersByIds(tx, [caller.user.id]);
      const after = await applyChanges(tx, before, changes);
      for (const { type, of } of PROFILE_EVENTS) {
        if (of(before) !== of(after)) await appendEvent(ctx, tx, { type, subject: before.id, payload: { before: of(before), after: of(after) } });
      }
      if (before.protected === 1 && after.protected === 0) {
        for (const requester of await pendingRequesters(tx, before.id)) await recordFollow(ctx, tx, requester, before.id);
      }
    });
  } catch (err) {
    // Two renames to one username at once: the engine's unique index decides.
    if (isUniqueViolation(err)) throw invalidParameter('username', [changes.username ?? ''], `The username [${changes.username}] is already taken`);
    throw err;
  }
  return lookupUsers(ctx, viewOf(ctx.clock, caller), [caller.user.id], { by: 'id', parameter: 'id' }, selection);
}
