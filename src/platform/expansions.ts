import type { AppContext } from '../context.js';
import { blockedAmong } from './blocks/store.js';
import { requestedAmong, requestersAmong } from './follows/store.js';
import { mutedAmong } from './mutes/store.js';
import { parseFieldSelection, selectFields } from '../http/fields.js';
import { parseEnumList } from '../http/params.js';
import type { Problem } from '../http/problems.js';
import type { DbOrTx } from '../store/store.js';
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
 * The users and posts one response reads, each row at most once: the visibility checks, the
 * expansions and the rows the response lists share them. Made for one response and dropped with
 * it; nothing here outlives the request (repeated answers are the response cache's business).
 */
export class ResponseReads {
  private readonly users = new Map<string, UserRow | undefined>();
  private readonly posts = new Map<string, PostRow | undefined>();

  constructor(private readonly db: DbOrTx) {}

  /** Posts this response already read, so that the expansions do not read them again. */
  holdPosts(rows: readonly PostRow[]): this {
    // findPostsByIds reads live posts only: a deleted one must still be missing from includes.
    for (const row of rows) if (row.deleted_at === null && !this.posts.has(row.id)) this.posts.set(row.id, row);
    return this;
  }

  /** What findUsersByIds answers, reading only the users this response has not read yet. */
  usersByIds(ids: readonly string[]): Promise<UserRow[]> {
    return readOnce(this.users, ids, (missing) => findUsersByIds(this.db, missing));
  }

  /** What findPostsByIds answers (live posts only), reading only the posts this response has not read yet. */
  postsByIds(ids: readonly string[]): Promise<PostRow[]> {
    return readOnce(this.posts, ids, (missing) => findPostsByIds(this.db, missing));
  }
}

async function readOnce<Row extends { id: string }>(known: Map<string, Row | undefined>, ids: readonly string[], read: (ids: string[]) => Promise<Row[]>): Promise<Row[]> {
  const wanted = unique(ids);
  const missing = wanted.filter((id) => !known.has(id));
  if (missing.length > 0) {
    const rows = await read(missing);
    for (const id of missing) known.set(id, undefined);
    for (const row of rows) known.set(row.id, row);
  }
  const rows: Row[] = [];
  for (const id of wanted) {
    const row = known.get(id);
    if (row) rows.push(row);
  }
  // In id order, as SQLite answers `id in (...)` on the primary key: what follows read order
  // (the order of hidden-post errors, of nested expansions) stays as it was with one query.
  return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Which posts a viewer may see: a protected author's posts only by the author and approved
 * followers. Returns the ids of the posts the viewer may not see.
 */
export async function hiddenPosts(ctx: AppContext, view: View, posts: readonly PostRow[], reads = new ResponseReads(ctx.store.db)): Promise<Set<string>> {
  const authors = await reads.usersByIds(posts.map((p) => p.author_id));
  const protectedAuthors = new Set(authors.filter((a) => a.protected === 1 && a.id !== view.viewerId).map((a) => a.id));
  if (protectedAuthors.size === 0) return new Set();
  const approved = view.viewerId ? await followedAmong(ctx.store.db, view.viewerId, [...protectedAuthors]) : new Set<string>();
  return new Set(posts.filter((p) => protectedAuthors.has(p.author_id) && !approved.has(p.author_id)).map((p) => p.id));
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
  /**
   * The wire post of a row with the selected post fields, converted once per response: a post in
   * both `data` and `includes.posts` is the same object.
   */
  post(row: PostRow): Record<string, unknown>;
}

/** Loads and converts what the selected expansions name on `rows`; `reads` holds what the response has read already. */
export async function hydrate<Row>(
  ctx: AppContext,
  view: View,
  rows: readonly Row[],
  declarations: ExpansionDeclarations<Row>,
  selection: Selection,
  primaryUserIds: readonly string[] = [],
  reads = new ResponseReads(ctx.store.db),
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
    const throughPosts = await reads.postsByIds([...throughIds]);
    for (const decl of nested) for (const post of throughPosts) want[decl.target].push(...decl.keysOfThrough!(post));
  }

  const [byId, byName, postRows, mediaRows, pollRows] = await Promise.all([
    reads.usersByIds(want.users),
    findUsersByUsernames(db, unique(want.usersByUsername)),
    reads.postsByIds(want.posts),
    findMediaByKeys(db, unique(want.media)),
    findPollsByIds(db, unique(want.polls)),
  ]);

  const errors: Problem[] = [];
  const hidden = await hiddenPosts(ctx, view, postRows, reads);
  for (const id of hidden) {
    errors.push(ctx.problems.notAuthorizedForResource({ value: id, resource_id: id, resource_type: 'post', section: 'includes', parameter: 'referenced_posts.id' }));
  }
  const users = orderBy(uniqueBy([...byId, ...byName], (u) => u.id), [...want.users, ...want.usersByUsername.map((n) => n.toLowerCase())], (u) => [u.id, u.username_lower]);
  const posts = orderBy(postRows.filter((p) => !hidden.has(p.id)), want.posts, (p) => [p.id]);
  const media = orderBy(mediaRows, want.media, (m: MediaRow) => [m.media_key]);
  const polls = orderBy(pollRows, want.polls, (p) => [p.id]);

  const fullView = await withRelations(ctx, view, selection, unique([...primaryUserIds, ...users.map((u) => u.id)]));
  const wirePosts = new Map<PostRow, Record<string, unknown>>();
  const post = (row: PostRow) => {
    let wire = wirePosts.get(row);
    if (!wire) wirePosts.set(row, (wire = selectFields(postDeclaration, row, selection.post, fullView)));
    return wire;
  };
  const includes: Includes = {};
  if (users.length) includes.users = users.map((u: UserRow) => selectFields(userDeclaration, u, selection.user, fullView));
  if (posts.length) includes.posts = posts.map(post);
  if (media.length) includes.media = media.map((m) => selectFields(mediaDeclaration, m, selection.media, fullView));
  if (polls.length) includes.polls = polls.map((p) => selectFields(pollDeclaration, p, selection.poll, fullView));
  return { includes: Object.keys(includes).length ? includes : undefined, errors, view: fullView, post };
}

function unique(items: readonly string[]): string[] {
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
  const ranked = rows.map((row) => ({ row, rank: Math.min(...keys(row).map((k) => position.get(k) ?? Infinity)) }));
  return ranked.sort((a, b) => a.rank - b.rank).map((r) => r.row);
}
