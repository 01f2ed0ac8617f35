import type { AppContext } from '../context.js';
import { blockedAmong } from './blocks/store.js';
import { requestedAmong, requestersAmong } from './follows/store.js';
import { mutedAmong } from './mutes/store.js';
import { parseFieldSelection, selectFields } from '../http/fields.js';
import { parseEnumList } from '../http/params.js';
import type { Problem } from '../http/problems.js';
import { findMediaByKeys } from './media/store.js';
import { mediaDeclaration, type MediaRow } from './media/wire.js';
import { findPollsByIds } from './polls/store.js';
import { pollDeclaration } from './polls/wire.js';
import { findPostsByIds } from './posts/store.js';
import { postDeclaration, type PostRow } from './posts/wire.js';
import { followedAmong, followersAmong, findUsersByIds, findUsersByUsernames } from './users/store.js';
import { userDeclaration, type UserRow } from './users/wire.js';
import type { View } from './view.js';

/**
 * Expansions (spec 000 "Field selection and expansions"): related objects appear only in
 * `includes` (users, posts, media) and only when expanded. A primary resource declares its
 * expansions once; `hydrate` loads, filters and converts what they name.
 */
export type IncludeTarget = 'users' | 'usersByUsername' | 'posts' | 'media' | 'polls' | 'places';

export interface ExpansionDeclaration<Row> {
  target: IncludeTarget;
  /** The keys (ids, usernames, media keys) this expansion names on a primary row. */
  keys(row: Row): string[];
  /** For nested expansions (referenced_posts.id.author_id): the posts to read `keys` from. */
  through?(row: Row): string[];
  keysOfThrough?(post: PostRow): string[];
}

export type ExpansionDeclarations<Row> = Readonly<Record<string, ExpansionDeclaration<Row>>>;

export interface Selection {
  post: Set<string>;
  user: Set<string>;
  media: Set<string>;
  poll: Set<string>;
  expansions: Set<string>;
}

const PLACE_FIELDS = ['contained_within', 'country', 'country_code', 'full_name', 'geo', 'id', 'name', 'place_type'];

/** Parses every *.fields parameter and `expansions` before anything is read. */
export function parseSelection(ctx: AppContext, query: Record<string, unknown>, expansions: ExpansionDeclarations<any>): Selection {
  const str = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : undefined);
  const selection: Selection = {
    expansions: parseEnumList(ctx.problems, 'expansions', str('expansions'), Object.keys(expansions).sort()),
    post: parseFieldSelection(ctx.problems, postDeclaration, query),
    user: parseFieldSelection(ctx.problems, userDeclaration, query),
    media: parseFieldSelection(ctx.problems, mediaDeclaration, query),
    poll: parseFieldSelection(ctx.problems, pollDeclaration, query),
  };
  parseEnumList(ctx.problems, 'place.fields', str('place.fields'), PLACE_FIELDS);
  return selection;
}

/**
 * Which posts a viewer may see: a protected author's posts only by the author and approved
 * followers. Returns the ids of the posts the viewer may not see.
 */
export async function hiddenPosts(ctx: AppContext, view: View, posts: readonly PostRow[]): Promise<Set<string>> {
  const authors = await findUsersByIds(ctx.store.db, [...new Set(posts.map((p) => p.author_id))]);
  const protectedAuthors = authors.filter((a) => a.protected === 1 && a.id !== view.viewerId).map((a) => a.id);
  if (protectedAuthors.length === 0) return new Set();
  const approved = view.viewerId ? await followedAmong(ctx.store.db, view.viewerId, protectedAuthors) : new Set<string>();
  return new Set(posts.filter((p) => protectedAuthors.includes(p.author_id) && !approved.has(p.author_id)).map((p) => p.id));
}

/** Adds connection_status data to the view for these users when that field was selected. */
export async function withRelations(ctx: AppContext, view: View, selection: Selection, userIds: readonly string[]): Promise<View> {
  if (!selection.user.has('connection_status') || !view.viewerId) return view;
  const others = userIds.filter((id) => id !== view.viewerId);
  const db = ctx.store.db;
  const [following, followers, requestSent, requestReceived, blocking, muting] = await Promise.all([
    followedAmong(db, view.viewerId, others),
    followersAmong(db, view.viewerId, others),
    requestedAmong(db, view.viewerId, others),
    requestersAmong(db, view.viewerId, others),
    blockedAmong(db, view.viewerId, others),
    mutedAmong(db, view.viewerId, others),
  ]);
  const relations = new Map<string, string[]>();
  for (const id of userIds) {
    const status: string[] = [];
    if (following.has(id)) status.push('following');
    if (followers.has(id)) status.push('followed_by');
    if (requestSent.has(id)) status.push('follow_request_sent');
    if (requestReceived.has(id)) status.push('follow_request_received');
    if (blocking.has(id)) status.push('blocking');
    if (muting.has(id)) status.push('muting');
    relations.set(id, status);
  }
  return { ...view, relations };
}

export interface Includes {
  users?: Record<string, unknown>[];
  posts?: Record<string, unknown>[];
  media?: Record<string, unknown>[];
  polls?: Record<string, unknown>[];
}

export interface Hydrated {
  includes?: Includes;
  /** Problems for related objects the viewer may not see (section "includes"). */
  errors: Problem[];
  view: View;
}

/** Loads and converts what the selected expansions name on `rows`. */
export async function hydrate<Row>(
  ctx: AppContext,
  view: View,
  rows: readonly Row[],
  declarations: ExpansionDeclarations<Row>,
  selection: Selection,
  primaryUserIds: readonly string[] = [],
): Promise<Hydrated> {
  const db = ctx.store.db;
  const want: Record<IncludeTarget, string[]> = { users: [], usersByUsername: [], posts: [], media: [], polls: [], places: [] };
  const nested: Array<ExpansionDeclaration<Row>> = [];
  for (const name of selection.expansions) {
    const decl = declarations[name];
    if (decl.through) nested.push(decl);
    for (const row of rows) want[decl.target].push(...decl.keys(row));
  }
  if (nested.length > 0) {
    const throughIds = new Set(nested.flatMap((d) => rows.flatMap((r) => d.through!(r))));
    const throughPosts = await findPostsByIds(db, [...throughIds]);
    for (const decl of nested) for (const post of throughPosts) want[decl.target].push(...decl.keysOfThrough!(post));
  }

  const [byId, byName, postRows, mediaRows, pollRows] = await Promise.all([
    findUsersByIds(db, unique(want.users)),
    findUsersByUsernames(db, unique(want.usersByUsername)),
    findPostsByIds(db, unique(want.posts)),
    findMediaByKeys(db, unique(want.media)),
    findPollsByIds(db, unique(want.polls)),
  ]);

  const errors: Problem[] = [];
  const hidden = await hiddenPosts(ctx, view, postRows);
  for (const id of hidden) {
    errors.push(ctx.problems.notAuthorizedForResource({ value: id, resource_id: id, resource_type: 'post', section: 'includes', parameter: 'referenced_posts.id' }));
  }
  const users = orderBy(uniqueBy([...byId, ...byName], (u) => u.id), [...want.users, ...want.usersByUsername.map((n) => n.toLowerCase())], (u) => [u.id, u.username_lower]);
  const posts = orderBy(postRows.filter((p) => !hidden.has(p.id)), want.posts, (p) => [p.id]);
  const media = orderBy(mediaRows, want.media, (m: MediaRow) => [m.media_key]);
  const polls = orderBy(pollRows, want.polls, (p) => [p.id]);

  const fullView = await withRelations(ctx, view, selection, unique([...primaryUserIds, ...users.map((u) => u.id)]));
  const includes: Includes = {};
  if (users.length) includes.users = users.map((u: UserRow) => selectFields(userDeclaration, u, selection.user, fullView));
  if (posts.length) includes.posts = posts.map((p) => selectFields(postDeclaration, p, selection.post, fullView));
  if (media.length) includes.media = media.map((m) => selectFields(mediaDeclaration, m, selection.media, fullView));
  if (polls.length) includes.polls = polls.map((p) => selectFields(pollDeclaration, p, selection.poll, fullView));
  return { includes: Object.keys(includes).length ? includes : undefined, errors, view: fullView };
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}

function uniqueBy<T>(items: T[], key: (t: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}

/** Orders rows by where any of their keys first appears in `order`. */
function orderBy<T>(rows: T[], order: string[], keys: (t: T) => string[]): T[] {
  const position = new Map<string, number>();
  order.forEach((k, i) => {
    if (!position.has(k)) position.set(k, i);
  });
  const rank = (t: T) => Math.min(...keys(t).map((k) => position.get(k) ?? Infinity));
  return [...rows].sort((a, b) => rank(a) - rank(b));
}
