import type { PlatformContext } from './context.js';
import { blockedAmong } from './blocks/store.js';
import { requestedAmong, requestersAmong } from './follows/store.js';
import { mutedAmong } from './mutes/store.js';
import { fieldsParamOf, listParam, parseFieldSelection, parseSelectionText, selectFieldsJson, type ResourceDeclaration } from '../http/fields.js';
import type { RawJson, WireItem } from '../http/json-body.js';
import type { Problem } from '../http/problems.js';
import type { DbOrTx } from '../store/store.js';
import { mediaDeclaration, type MediaRow } from './media/wire.js';
import { findPollsByIds } from './polls/store.js';
import { pollDeclaration } from './polls/wire.js';
import { placeById, placeDeclaration } from './places/gazetteer.js';
import { EXTRA_FIELDS, mediaKeysOf, postDeclaration, type PostExtras, type PostRow, type PostView } from './posts/wire.js';
import { followedAmong, followersAmong, findUsersByUsernames } from './users/store.js';
import { userDeclaration, type UserRow } from './users/wire.js';
import type { View } from './view.js';
import { hiddenAuthors } from './visibility/memory.js';
import { READABLE } from './visibility/rule.js';
import type { ConnectionStatus } from './users/schema.js';
import { problems } from '../http/problems.js';
import { promotedCounts } from '../ads/delivery/store.js';
import type { PromotedCounts } from './analytics/post-metrics.js';

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
  /** The primary's field the expansion comes from, when it is not the expansion's name up to its first '.'. */
  field?: string;
}

export type ExpansionDeclarations<Row> = Readonly<Record<string, ExpansionDeclaration<Row>>>;

const primaries = new WeakMap<object, ResourceDeclaration<any, any>>();
/**
 * The expansions of responses whose primary objects are of `primary`: an expansion requested
 * brings the primary's field it comes from (parseSelection), and posts as primaries may need
 * PostExtras and field errors (hydrate).
 */
export function expansionsOf<Row>(primary: ResourceDeclaration<Row, any>, expansions: ExpansionDeclarations<Row>): ExpansionDeclarations<Row> {
  primaries.set(expansions, primary);
  return expansions;
}

const withSources = new WeakMap<ReadonlySet<string>, WeakMap<ReadonlySet<string>, ReadonlySet<string>>>();
/**
 * The primary's selected fields with the field each requested expansion comes from, as the public
 * platform answers (issue 34): `expansions=author_id` shows each post's `author_id` even when
 * `post.fields` does not name it, so a client can find the included author. The same inputs give
 * the same Set (field plans are kept by it).
 */
export function selectedWithSources(primary: ResourceDeclaration<any, any>, selected: ReadonlySet<string>, expansions: ReadonlySet<string>, declarations: ExpansionDeclarations<any>): ReadonlySet<string> {
  if (expansions.size === 0) return selected;
  let byExpansions = withSources.get(selected);
  if (!byExpansions) withSources.set(selected, (byExpansions = new WeakMap()));
  let out = byExpansions.get(expansions);
  if (!out) {
    const fields = new Set(selected);
    for (const name of expansions) {
      const field = declarations[name]?.field ?? name.split('.')[0];
      if (field in primary.fields) fields.add(field);
    }
    out = fields.size === selected.size ? selected : fields;
    byExpansions.set(expansions, out);
  }
  return out;
}

/** The primary's own `*.fields` (a resource other than posts and users) with the fields its requested expansions come from. */
export function parsePrimaryFields(primary: ResourceDeclaration<any, any>, query: Record<string, unknown>, selection: Selection, declarations: ExpansionDeclarations<any>): ReadonlySet<string> {
  return selectedWithSources(primary, parseFieldSelection(primary, query), selection.expansions, declarations);
}

export interface Selection {
  /** With the fields of posts as primaries that their requested expansions come from. */
  post: ReadonlySet<string>;
  user: ReadonlySet<string>;
  media: ReadonlySet<string>;
  poll: ReadonlySet<string>;
  place: ReadonlySet<string>;
  expansions: ReadonlySet<string>;
}

const expansionNames = new WeakMap<object, string[]>();

function expansionNamesOf(expansions: ExpansionDeclarations<any>): string[] {
  let names = expansionNames.get(expansions);
  if (!names) expansionNames.set(expansions, (names = Object.keys(expansions).sort()));
  return names;
}

/**
 * The query parameters of the field selection of an endpoint whose primary objects expand with
 * `expansions`: `expansions` and every included resource's `*.fields`, with their names (the
 * OpenAPI description lists them), plus the `*.fields` of the primary resource when it is not a
 * post or a user. parseSelection reads the same parameters.
 */
export function selectionParams(expansions: ExpansionDeclarations<any>, ...primary: ResourceDeclaration<any, any>[]) {
  return {
    ...Object.fromEntries(primary.map((decl) => [decl.fieldsParam, fieldsParamOf(decl)])),
    expansions: expansionsParam(expansions),
    'post.fields': fieldsParamOf(postDeclaration),
    'user.fields': fieldsParamOf(userDeclaration),
    'media.fields': fieldsParamOf(mediaDeclaration),
    'poll.fields': fieldsParamOf(pollDeclaration),
    'place.fields': fieldsParamOf(placeDeclaration),
  };
}

/** The `expansions` parameter of objects that expand with these declarations. */
export const expansionsParam = (expansions: ExpansionDeclarations<any>) => listParam(expansionNamesOf(expansions), 'A comma separated list of fields to expand.');

/** Parses every *.fields parameter and `expansions` (the parameters of selectionParams) before anything is read. */
export function parseSelection(query: Record<string, unknown>, expansions: ExpansionDeclarations<any>): Selection {
  const str = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : undefined);
  const selection: Selection = {
    expansions: parseSelectionText('expansions', str('expansions'), expansionNamesOf(expansions)),
    post: parseFieldSelection(postDeclaration, query),
    user: parseFieldSelection(userDeclaration, query),
    media: parseFieldSelection(mediaDeclaration, query),
    poll: parseFieldSelection(pollDeclaration, query),
    place: parseFieldSelection(placeDeclaration, query),
  };
  const primary = primaries.get(expansions);
  if (primary === postDeclaration) selection.post = selectedWithSources(primary, selection.post, selection.expansions, expansions);
  if (primary === userDeclaration) selection.user = selectedWithSources(primary, selection.user, selection.expansions, expansions);
  return selection;
}

/**
 * The users, posts and media one response reads, each at most once: the visibility checks, the
 * expansions and the rows the response lists share them. Rows are read from the store
 * (src/platform/entities.ts); inside a transaction, through that transaction.
 */
export class ResponseReads {
  private readonly users: OnceReader<UserRow>;
  private readonly posts: OnceReader<PostRow>;
  private readonly media: OnceReader<MediaRow>;
  constructor(
    private readonly ctx: PlatformContext,
    readonly db: DbOrTx = ctx.store.db,
  ) {
    const { entities } = ctx;
    this.users = new OnceReader((u) => u.id, (ids) => entities.users.read(this.db, ids));
    this.posts = new OnceReader((p) => p.id, (ids) => entities.posts.read(this.db, ids));
    this.media = new OnceReader((m) => m.media_key, (keys) => entities.media.read(this.db, keys));
  }

  /** Posts this response already read, so that the expansions do not read them again. */
  holdPosts(rows: readonly PostRow[]): this {
    // Reads of posts answer live posts only: a deleted one must still be missing from includes.
    for (const row of rows) if (row.deleted_at === null) this.posts.hold(row.id, row);
    return this;
  }

  /** Users with these ids, each read once per response, in the order asked. */
  usersByIds(ids: readonly string[]): Promise<UserRow[]> {
    return this.users.read(ids);
  }

  /** Live posts with these ids, each read once per response, in the order asked. */
  postsByIds(ids: readonly string[]): Promise<PostRow[]> {
    return this.posts.read(ids);
  }

  /** Media with these keys, each read once per response, in the order asked. */
  mediaByKeys(keys: readonly string[]): Promise<MediaRow[]> {
    return this.media.read(keys);
  }

  /** What promotion brought these posts (src/ads/delivery/). */
  promotedCounts(postIds: readonly string[]): Promise<Map<string, PromotedCounts>> {
    return promotedCounts(this.db, postIds);
  }

  /** The card URIs of these posts (those made through the advertising interface with a card). */
  async cardUris(postIds: readonly string[]): Promise<Map<string, string>> {
    const uris = new Map<string, string>();
    for (const row of await this.ctx.entities.adsPosts.read(this.db, postIds)) if (row.card_uri) uris.set(row.post_id, row.card_uri);
    return uris;
  }
}

/** A key a response read and found no row for. */
const MISSING = Symbol('missing');

/**
 * Rows of one kind that a response reads at most once each. One map holds each key's state: its row, MISSING, or the read under way
 * (this runs for every row of every answer: each key costs a lookup or two, not one per state).
 */
class OnceReader<Row extends object> {
  private readonly slots = new Map<string, Row | typeof MISSING | Promise<void>>();

  constructor(
    private readonly keyOf: (row: Row) => string,
    private readonly load: (ids: string[]) => Promise<Row[]>,
  ) {}

  hold(key: string, row: Row): void {
    if (!this.slots.has(key)) this.slots.set(key, row);
  }

  /** Starts reading the rows of these keys not read or being read yet. */
  private start(ids: readonly string[]): void {
    let missing: string[] | undefined;
    let settle!: (read: Promise<void>) => void;
    const done = new Promise<void>((resolve) => (settle = resolve));
    for (const id of ids) {
      if (this.slots.has(id)) continue;
      // Marked at once, so that a key asked twice is read once.
      this.slots.set(id, done);
      (missing ??= []).push(id);
    }
    if (!missing) return;
    const keys = missing;
    settle(
      this.load(keys).then(
        (rows) => {
          for (const row of rows) this.slots.set(this.keyOf(row), row);
          for (const id of keys) if (this.slots.get(id) === done) this.slots.set(id, MISSING);
        },
        (err: unknown) => {
          for (const id of keys) if (this.slots.get(id) === done) this.slots.delete(id);
          throw err;
        },
      ),
    );
    // A read started and never awaited must not fail the process; an awaited one still fails its response.
    done.catch(() => {});
  }

  /** The rows with these keys that exist, in the order asked, each once. */
  async read(ids: readonly string[]): Promise<Row[]> {
    let out = this.known(ids);
    if (out === undefined) {
      this.start(ids);
      const waits = new Set<Promise<void>>();
      for (const id of ids) {
        const slot = this.slots.get(id);
        if (slot instanceof Promise) waits.add(slot);
      }
      await Promise.all(waits);
      out = this.known(ids)!;
    }
    return out;
  }

  /**
   * The rows with these keys, in the order asked (what follows read order, hidden-post errors and
   * nested expansions, does not depend on what was kept from earlier responses), each once; or
   * undefined while a key is not read yet.
   */
  private known(ids: readonly string[]): Row[] | undefined {
    const out: Row[] = [];
    const seen = new Set<string>();
    for (const id of ids) {
      const slot = this.slots.get(id);
      if (slot === undefined || slot instanceof Promise) return undefined;
      if (seen.size === seen.add(id).size) continue;
      if (slot !== MISSING) out.push(slot);
    }
    return out;
  }
}

/**
 * Which posts a viewer may see: a protected author's posts only by the author and approved
 * followers. Returns the ids of the posts the viewer may not see.
 */
export async function hiddenPosts(ctx: PlatformContext, view: View, posts: readonly PostRow[], reads = new ResponseReads(ctx)): Promise<Set<string>> {
  const authors = await reads.usersByIds(posts.map((p) => p.author_id));
  const hidden = await hiddenAuthors(reads.db, READABLE, view.viewerId, authors);
  if (hidden.size === 0) return hidden;
  return new Set(posts.filter((p) => hidden.has(p.author_id)).map((p) => p.id));
}

/** Adds connection_status data to the view for these users when that field was selected. */
export async function withRelations(db: DbOrTx, baseView: View, selection: Selection, userIds: readonly string[]): Promise<View> {
  const view = await userDeclaration.withViewData(db, baseView, selection.user, userIds);
  if (!selection.user.has('connection_status') || !view.viewerId) return view;
  const others = userIds.filter((id) => id !== view.viewerId);
  const [following, followers, requestSent, requestReceived, blocking, muting] = await Promise.all([
    followedAmong(db, view.viewerId, others),
    followersAmong(db, view.viewerId, others),
    requestedAmong(db, view.viewerId, others),
    requestersAmong(db, view.viewerId, others),
    blockedAmong(db, view.viewerId, others),
    mutedAmong(db, view.viewerId, others),
  ]);
  const relations = new Map<string, ConnectionStatus[]>();
  for (const id of userIds) {
    const status: ConnectionStatus[] = [];
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
  users?: WireItem[];
  posts?: WireItem[];
  media?: WireItem[];
  polls?: WireItem[];
  places?: WireItem[];
}

export interface Hydrated {
  includes?: Includes;
  /** Problems for related objects the viewer may not see (section "includes"). */
  errors: Problem[];
  view: View;
  /** The wire post of a row with the selected post fields. */
  post(row: PostRow): RawJson;
  /** The wire user of a row with the selected user fields. */
  user(row: UserRow): RawJson;
}

/** Loads and converts what the selected expansions name on `rows`; `reads` holds what the response has read already. */
export async function hydrate<Row>(
  ctx: PlatformContext,
  view: View,
  rows: readonly Row[],
  declarations: ExpansionDeclarations<Row>,
  selection: Selection,
  primaryUserIds: readonly string[] = [],
  reads = new ResponseReads(ctx),
): Promise<Hydrated> {
  const primaryPosts = primaries.get(declarations) === postDeclaration ? (rows as readonly PostRow[]) : [];
  if (selection.expansions.size === 0) {
    // Nothing to include: only the primaries' own wire objects (and connection_status, if asked).
    const ownView = await withPostExtras(reads, selection, primaryPosts, await withRelations(reads.db, view, selection, primaryUserIds));
    return { errors: privateFieldErrors(view, selection, primaryPosts, []), view: ownView, ...converters(selection, ownView) };
  }
  const want: Record<IncludeTarget, string[]> = { users: [], usersByUsername: [], posts: [], media: [], polls: [], places: [] };
  // Which expansion first named each post: a hidden one's error names that parameter.
  const postNamedBy = new Map<string, string>();
  const wantPosts = (keys: readonly string[], expansion: string) => {
    for (const key of keys) {
      if (!postNamedBy.has(key)) postNamedBy.set(key, expansion);
      want.posts.push(key);
    }
  };
  const nested: Array<[string, ExpansionDeclaration<Row>]> = [];
  for (const name of selection.expansions) {
    const decl = declarations[name];
    if (decl.through) nested.push([name, decl]);
    const list = want[decl.target];
    for (const row of rows) {
      if (decl.target === 'posts') wantPosts(decl.keys(row), name);
      else for (const key of decl.keys(row)) list.push(key);
    }
  }
  if (nested.length > 0) {
    const throughIds = new Set(nested.flatMap(([, d]) => rows.flatMap((r) => d.through!(r))));
    const throughPosts = await reads.postsByIds([...throughIds]);
    for (const [name, decl] of nested) {
      for (const post of throughPosts) {
        if (decl.target === 'posts') wantPosts(decl.keysOfThrough!(post), name);
        else want[decl.target].push(...decl.keysOfThrough!(post));
      }
    }
  }

  const [byId, byName, postRows, mediaRows, pollRows] = await Promise.all([
    reads.usersByIds(want.users),
    findUsersByUsernames(reads.db, unique(want.usersByUsername)),
    reads.postsByIds(want.posts),
    reads.mediaByKeys(want.media),
    findPollsByIds(reads.db, unique(want.polls)),
  ]);

  const errors: Problem[] = [];
  const hidden = await hiddenPosts(ctx, view, postRows, reads);
  for (const id of hidden) {
    const parameter = postNamedBy.get(id) ?? 'referenced_posts.id';
    errors.push(problems.notAuthorizedForResource({ value: id, resource_id: id, resource_type: 'post', section: 'includes', parameter }));
  }
  const users = orderBy(uniqueBy([...byId, ...byName], (u) => u.id), [...want.users, ...want.usersByUsername.map((n) => n.toLowerCase())], (u) => [u.id, u.username_lower]);
  const posts = orderBy(postRows.filter((p) => !hidden.has(p.id)), want.posts, (p) => [p.id]);
  const media = orderBy(mediaRows, want.media, (m: MediaRow) => [m.media_key]);
  const polls = orderBy(pollRows, want.polls, (p) => [p.id]);

  errors.push(...privateFieldErrors(view, selection, primaryPosts, posts));
  const relationsView = await withRelations(reads.db, view, selection, unique([...primaryUserIds, ...users.map((u) => u.id)]));
  const fullView = await withPostExtras(reads, selection, [...primaryPosts, ...posts], relationsView);
  const { post, user } = converters(selection, fullView);
  const includes: Includes = {};
  if (users.length) includes.users = users.map(user);
  if (posts.length) includes.posts = posts.map(post);
  if (media.length) {
    const mediaView = await mediaDeclaration.withViewData(reads.db, fullView, selection.media, media);
    includes.media = media.map((m) => selectFieldsJson(mediaDeclaration, m, selection.media, mediaView));
  }
  if (polls.length) includes.polls = polls.map((p) => (selectFieldsJson(pollDeclaration, p, selection.poll, fullView)));
  const places = unique(want.places).flatMap((id) => placeById(id) ?? []);
  if (places.length) includes.places = places.map((p) => selectFieldsJson(placeDeclaration, p, selection.place, fullView));
  return { includes: Object.keys(includes).length ? includes : undefined, errors, view: fullView, post, user };
}

/** The post fields only a post's author may see (src/platform/analytics/post-metrics.ts). */
const PRIVATE_FIELDS = ['non_public_metrics', 'organic_metrics', 'promoted_metrics'] as const;

/**
 * A not-authorized-for-field item for each private metrics field selected on each shown post the
 * viewer did not author: the public platform answers the post without the field and says why.
 * The detail names the post, as the problem type has no member for it.
 */
function privateFieldErrors(view: View, selection: Selection, primaries: readonly PostRow[], included: readonly PostRow[]): Problem[] {
  const fields = PRIVATE_FIELDS.filter((f) => selection.post.has(f));
  if (fields.length === 0) return [];
  const errors: Problem[] = [];
  const add = (posts: readonly PostRow[], section: 'data' | 'includes') => {
    for (const p of posts) {
      if (view.viewerId !== undefined && p.author_id === view.viewerId) continue;
      for (const field of fields) {
        const problem = problems.notAuthorizedForField({ field, resource_type: 'post', section });
        errors.push({ ...problem, detail: `${problem.detail!.replace(/\.$/, '')} (id: ${p.id}).` });
      }
    }
  };
  add(primaries, 'data');
  add(included, 'includes');
  return errors;
}

/** The view with what the selected post fields read besides the post rows; the view itself when none of them is selected. */
async function withPostExtras(reads: ResponseReads, selection: Selection, posts: readonly PostRow[], view: View): Promise<View> {
  if (posts.length === 0 || !EXTRA_FIELDS.some((f) => selection.post.has(f))) return view;
  const extras: PostExtras = {};
  const out: PostView = { ...view, postExtras: extras };
  const own = view.viewerId === undefined ? [] : posts.filter((p) => p.author_id === view.viewerId);
  const [cards, media, promoted] = await Promise.all([
    selection.post.has('card_uri') ? reads.cardUris(unique(posts.map((p) => p.id))) : undefined,
    selection.post.has('media_metadata') ? reads.mediaByKeys(unique(posts.flatMap(mediaKeysOf))) : undefined,
    (selection.post.has('organic_metrics') || selection.post.has('promoted_metrics')) && own.length > 0 ? reads.promotedCounts(unique(own.map((p) => p.id))) : undefined,
  ]);
  if (cards) extras.cardUris = cards;
  if (media) extras.media = new Map(media.map((m) => [m.media_key, m]));
  if (promoted) extras.promoted = promoted;
  return out;
}

/** The wire post and user of a response, with its selection and view. */
function converters(selection: Selection, view: View): Pick<Hydrated, 'post' | 'user'> {
  return {
    post: (row) => selectFieldsJson(postDeclaration, row, selection.post, view),
    user: (row) => selectFieldsJson(userDeclaration, row, selection.user, view),
  };
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
