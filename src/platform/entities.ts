import DataLoader from 'dataloader';
import { sql } from 'kysely';
import type { Database } from '../store/schema.js';
import type { DbOrTx, Store } from '../store/store.js';
import { preparedOnPostgres } from '../store/prepared-statements.js';
import { readJsonRows, rowsAsJsonArray } from '../store/json-rows.js';
import type { MediaRow } from './media/wire.js';
import { AuthorPosts, HomeAuthors } from './timelines/author-posts.js';
import { cardUriJoinOnPostgres, cardUrisOf } from './posts/store.js';
import type { PostRow } from './posts/wire.js';
import type { UserRow } from './users/wire.js';

/**
 * Decoded rows of the entities every read shows (posts, users, media), kept across requests so
 * that a response reads from the store only what changed since it was last read. Each row is
 * served only while it is known to be current:
 *
 * - SQLite (one writer process, or several on one file): a table's rows are kept while its
 *   write generation holds (every write through this process to that table, and every commit by
 *   another connection to the file, changes it); otherwise they are read again.
 * - PostgreSQL (other processes write unseen): a response that read the database's generation
 *   (Store.freshGeneration, a snapshot taken after it began) is served the rows known current
 *   under that same generation without asking again. Every other row it asks the store for the
 *   current row version of (the system column xmin, which every UPDATE of a row changes), and
 *   reads in full only the rows whose version differs; those it then knows current under its
 *   generation. A write committed by any process is therefore seen by the very next read, with no
 *   waiting on a log: it changes the generation.
 *
 * On PostgreSQL the version checks and row reads of every response that is waiting in one turn
 * of the event loop go to the store together, one query per table (DataLoader, scheduled on
 * setImmediate): concurrent requests share their round trips.
 *
 * Reads inside a transaction bypass the cache entirely: they must see the transaction's own
 * uncommitted writes, and nothing uncommitted may be kept.
 */
export interface EntityTable<Row> {
  table: keyof Database & string;
  key: keyof Row & string;
  /** Extra condition every read of the table applies (live posts only). */
  live?: 'not_deleted';
  /**
   * PostgreSQL: the column naming each row's author (posts.author_id), whose users row version
   * the version check reads too: every read of posts reads their authors next (the
   * protected-account rule), which then need no version check of their own.
   */
  author?: keyof Row & string;
  /**
   * PostgreSQL, posts: the version check of a response that shows card_uri reads each post's card
   * URI too (ads_posts.card_uri, which changes without the post row), so that the response need
   * not ask for it again (ResponseReads.readCardsWithPosts).
   */
  cardUri?: true;
}

/** What a read of posts learns beside their rows, for the rest of its response (ResponseReads). */
export interface ReadAlongside {
  /** Author id -> users row version, where the version check read them (an `author` column). */
  authors?: Map<string, string>;
  /** Post id -> its card URI or null for none, where the version check read them (`cardUri`); given, they are read. */
  cards?: Map<string, string | null>;
}

/**
 * A row version as the version check reads it; with an `author` column, the author's id and users
 * row version (null for none); with `cardUri`, the post's card URI (null for none).
 */
interface Version {
  k: string;
  v: string;
  a?: string;
  av?: string | null;
  c?: string | null;
}

interface Entry<Row> {
  row: Row;
  version: string;
  /**
   * PostgreSQL: the generation (Store.freshGeneration) of the last response that found this row
   * current, by a version check or a read made after that generation was taken: the row is
   * current for every response of that generation (it may be newer, never older).
   */
  seenAt: string | undefined;
}

/** How many rows of one table are kept; past it the earliest read go (a row read again comes back). */
const CAPACITY = 50_000;

/** Loads of one turn of the event loop go out together (what arrives during the poll phase shares a query). */
const nextTurn = (run: () => void) => void setImmediate(run);

export class EntityCache<Row extends object> {
  private readonly entries = new Map<string, Entry<Row>>();
  private generation: string | undefined;
  /** PostgreSQL: current row versions (undefined for a missing row), batched across responses. */
  private readonly versions: DataLoader<string, Version | undefined>;
  /** The same, reading the posts' card URIs too (`cardUri`), for reads that are given somewhere to put them. */
  private readonly versionsWithCards: DataLoader<string, Version | undefined> | undefined;
  /** PostgreSQL: whole rows with their versions, batched across responses. */
  private readonly rows: DataLoader<string, Entry<Row> | undefined>;

  constructor(
    private readonly store: Store,
    private readonly spec: EntityTable<Row>,
  ) {
    const options = { cache: false, batchScheduleFn: nextTurn, maxBatchSize: 5_000 };
    const versionsLoader = (withCards: boolean) => {
      let versionsText: string | undefined;
      return new DataLoader<string, Version | undefined>(async (keys) => {
        // One text per table (and with or without cards), asked by every response: written once, planned once per connection.
        versionsText ??= preparedOnPostgres(this.versionsSql(withCards));
        const current = await readJsonRows<Version>(this.store.db, versionsText, [[...keys]]);
        const byKey = new Map(current.map((r) => [r.k, r]));
        return keys.map((k) => byKey.get(k));
      }, options);
    };
    this.versions = versionsLoader(false);
    // Only for responses that show card_uri: the join costs the others (post-by-id on PostgreSQL
    // measured about 15% slower with it).
    this.versionsWithCards = spec.cardUri ? versionsLoader(true) : undefined;
    this.rows = new DataLoader(async (keys) => {
      const { table, key } = this.spec;
      const fresh = await sql<Row & { __version: string }>`select *, xmin::text as __version from ${sql.table(table)} where ${sql.ref(key)} = any(${[...keys]})${this.liveCondition()}`.execute(this.store.db);
      const byKey = new Map<string, Entry<Row>>();
      for (const row of fresh.rows) {
        const version = row.__version;
        delete (row as { __version?: string }).__version;
        const entry: Entry<Row> = { row: row as Row, version, seenAt: undefined };
        byKey.set(String(row[key]), entry);
        this.remember(entry);
      }
      return keys.map((k) => byKey.get(k));
    }, options);
  }

  /**
   * The rows with these keys (those that exist, and are live for posts), in no particular order.
   * `known`: PostgreSQL row versions the caller has just read with the keys themselves (a page
   * query can return them at no cost), after `generation` was taken: a kept row of that version is
   * served without asking again.
   * `alongside`: what the version check read beside the versions (the rows' authors' versions,
   * their card URIs) is added to it. `generation`: on PostgreSQL, the response's
   * (Store.freshGeneration): rows known current under it are served as they are.
   */
  async read(db: DbOrTx, keys: readonly string[], known?: ReadonlyMap<string, string>, alongside?: ReadAlongside, generation?: string): Promise<Row[]> {
    if (keys.length === 0) return [];
    if (db.isTransaction) return this.readRows(db, keys);
    return this.store.dialect === 'postgres' ? this.readValidated(db, keys, known, alongside, generation) : this.readByGeneration(db, keys);
  }

  /** The kept row of a key, current or not: a guess at what a read will need next, never an answer. */
  peek(key: string): Row | undefined {
    return this.entries.get(key)?.row;
  }

  private async readByGeneration(db: DbOrTx, keys: readonly string[]): Promise<Row[]> {
    const generation = this.store.tableGeneration(this.spec.table);
    if (generation !== this.generation) {
      this.entries.clear();
      this.generation = generation;
    }
    const out: Row[] = [];
    const missing: string[] = [];
    for (const key of keys) {
      const entry = this.entries.get(key);
      if (entry) out.push(entry.row);
      else missing.push(key);
    }
    if (missing.length === 0) return out;
    const rows = await this.readRows(db, missing);
    // A write that overlapped the read leaves the generation changed: keep nothing read under it.
    const keep = this.store.tableGeneration(this.spec.table) === generation;
    for (const row of rows) {
      out.push(row);
      if (keep) this.remember({ row, version: '', seenAt: undefined });
    }
    return out;
  }

  private async readValidated(db: DbOrTx, keys: readonly string[], known?: ReadonlyMap<string, string>, alongside?: ReadAlongside, generation?: string): Promise<Row[]> {
    // Another handle than the store's own (none today) is read directly, unbatched.
    if (db !== this.store.db) return this.readRows(db, keys);
    const out: Row[] = [];
    const stale: string[] = [];
    // A current row: served, and known current under this response's generation, if it has one.
    const current = (entry: Entry<Row>) => {
      if (generation !== undefined) entry.seenAt = generation;
      out.push(entry.row);
    };
    let unknown = keys;
    if (generation !== undefined) {
      const rest: string[] = [];
      for (const k of keys) {
        const entry = this.entries.get(k);
        if (entry !== undefined && entry.seenAt === generation) out.push(entry.row);
        else rest.push(k);
      }
      if (rest.length === 0) return out;
      unknown = rest;
    }
    if (known) {
      const rest: string[] = [];
      for (const k of unknown) {
        const v = known.get(k);
        const entry = this.entries.get(k);
        if (v === undefined) rest.push(k);
        else if (entry?.version === v) current(entry);
        else stale.push(k);
      }
      unknown = rest;
    }
    if (unknown.length > 0) {
      // Nothing kept for these keys: no version to compare, so read the rows at once (one round trip).
      if (!unknown.some((k) => this.entries.has(k))) stale.push(...unknown);
      else {
        const versions = await (alongside?.cards && this.versionsWithCards ? this.versionsWithCards : this.versions).loadMany(unknown);
        unknown.forEach((k, i) => {
          const v = versions[i];
          if (v instanceof Error) throw v;
          const entry = this.entries.get(k);
          // Gone (or no longer live): what was kept of it must not be served under any generation.
          if (v === undefined) return void this.entries.delete(k);
          if (alongside?.authors && v.a !== undefined && typeof v.av === 'string') alongside.authors.set(v.a, v.av);
          if (alongside?.cards && v.c !== undefined) alongside.cards.set(k, v.c);
          if (entry && entry.version === v.v) current(entry);
          else stale.push(k);
        });
      }
    }
    if (stale.length > 0) {
      for (const entry of await this.rows.loadMany(stale)) {
        if (entry instanceof Error) throw entry;
        if (entry) current(entry);
      }
    }
    return out;
  }

  private async readRows(db: DbOrTx, keys: readonly string[]): Promise<Row[]> {
    let q = db.selectFrom(this.spec.table as 'posts').selectAll().where(this.spec.key as 'id', 'in', keys);
    if (this.spec.live === 'not_deleted') q = q.where('deleted_at', 'is', null);
    return ((await q.execute()) as unknown as Row[]).map(fastRow);
  }

  /**
   * The version check: each key's row version and, with an `author` column, the author's id and
   * users row version; `withCards`, the card URI; as one JSON array (rowsAsJsonArray).
   */
  private versionsSql(withCards: boolean): string {
    const { table, key, author } = this.spec;
    const authorVersion = author ? sql`, t.${sql.ref(author)} as a, (select u.xmin::text from users u where u.id = t.${sql.ref(author)}) as av` : sql``;
    const card = withCards ? [sql`, c.card_uri as c`, sql.raw(cardUriJoinOnPostgres(`t.${key}`))] : [sql``, sql``];
    return rowsAsJsonArray(
      sql`select t.${sql.ref(key)} as k, t.xmin::text as v${authorVersion}${card[0]} from ${sql.table(table)} t${card[1]} where t.${sql.ref(key)} = any($1)${this.liveCondition('t.')}`.compile(this.store.db).sql,
    );
  }

  private liveCondition(alias = '') {
    return this.spec.live === 'not_deleted' ? sql.raw(` and ${alias}deleted_at is null`) : sql``;
  }

  private remember(entry: Entry<Row>): void {
    const key = String(entry.row[this.spec.key]);
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > CAPACITY) this.entries.delete(this.entries.keys().next().value!);
  }
}

/**
 * A copy of a row as better-sqlite3 gives it, with fast properties: it builds a row of many
 * columns (posts have 31) as a dictionary, so that every field read while rendering would be a
 * hash lookup. A copy made by spreading has one hidden class per table, and those reads are the
 * engine's cheapest. (node-postgres rows have fast properties already: its loader above deletes
 * only the last one, which V8 undoes without leaving them.)
 */
function fastRow<Row extends object>(row: Row): Row {
  return { ...row };
}

/**
 * The card URIs of posts made through the advertising interface (the post field card_uri): they
 * live in ads_posts, which changes without the post row. On SQLite each post's answer is kept
 * while that table's write generation holds, as the entity caches keep rows; on PostgreSQL under
 * the generation of the response that asks (Store.freshGeneration), or, without one, read afresh,
 * the reads of every response waiting in one turn of the event loop going out as one query, as
 * the caches' do.
 */
export class CardUris {
  private readonly batched: DataLoader<string, string | undefined>;
  /** Post id -> its card URI, or null for none, valid for `generation`. */
  private readonly kept = new Map<string, string | null>();
  private generation: string | undefined;

  constructor(private readonly store: Store) {
    this.batched = new DataLoader(
      async (ids) => {
        const found = await cardUrisOf(this.store.db, ids, this.store.dialect);
        return ids.map((id) => found.get(id));
      },
      { cache: false, batchScheduleFn: nextTurn, maxBatchSize: 5_000 },
    );
  }

  /** The card URI of each post of `postIds` that has one; `given`, on PostgreSQL, the response's generation. */
  async of(db: DbOrTx, postIds: readonly string[], given?: string): Promise<Map<string, string>> {
    if (postIds.length === 0) return new Map();
    if (db !== this.store.db) return cardUrisOf(db, postIds, this.store.dialect);
    const out = new Map<string, string>();
    // On PostgreSQL, without the response's generation, nothing may be kept: other processes write unseen.
    const generation = this.store.dialect === 'postgres' ? given : this.store.tableGeneration('ads_posts');
    if (generation === undefined) {
      const loaded = await this.batched.loadMany(postIds);
      loaded.forEach((uri, i) => {
        if (uri instanceof Error) throw uri;
        if (uri !== undefined) out.set(postIds[i], uri);
      });
      return out;
    }
    if (generation !== this.generation || this.kept.size > CAPACITY) {
      this.kept.clear();
      this.generation = generation;
    }
    const missing = postIds.filter((id) => !this.kept.has(id));
    if (missing.length > 0) {
      // Read under `generation`: a write that lands meanwhile changes the generation, and the
      // next response reads again.
      const found = await cardUrisOf(db, missing, this.store.dialect);
      if (this.generation === generation) for (const id of missing) this.kept.set(id, found.get(id) ?? null);
      for (const [id, uri] of found) out.set(id, uri);
    }
    for (const id of postIds) {
      const uri = this.kept.get(id);
      if (uri) out.set(id, uri);
    }
    return out;
  }
}

/** The caches of one process, built once in app.ts. */
export interface Entities {
  posts: EntityCache<PostRow>;
  users: EntityCache<UserRow>;
  media: EntityCache<MediaRow>;
  cardUris: CardUris;
  /** The newest posts of authors, for timelines (src/platform/timelines/author-posts.ts). */
  authorPosts: AuthorPosts;
  /** The authors of users' home timelines (the same file). */
  homeAuthors: HomeAuthors;
}

export function createEntities(store: Store): Entities {
  return {
    posts: new EntityCache<PostRow>(store, { table: 'posts', key: 'id', live: 'not_deleted', author: 'author_id', cardUri: true }),
    users: new EntityCache<UserRow>(store, { table: 'users', key: 'id' }),
    media: new EntityCache<MediaRow>(store, { table: 'media', key: 'media_key' }),
    cardUris: new CardUris(store),
    authorPosts: new AuthorPosts(store),
    homeAuthors: new HomeAuthors(store),
  };
}
