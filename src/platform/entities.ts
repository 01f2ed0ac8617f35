import DataLoader from 'dataloader';
import type { Database, MediaTable as MediaRow, PostTable as PostRow, UserTable as UserRow } from '../store/schema.js';
import type { DbOrTx, Store } from '../store/store.js';
import { AuthorPosts, HomeAuthors } from './timelines/author-posts.js';
import { cardUrisOf } from './posts/store.js';

/**
 * The rows of the entities every read shows (posts, users, media), read from the store for each
 * response: nothing is kept across requests. (Rows were kept, with write generations on SQLite and
 * row-version checks on PostgreSQL, until bench:lookup, a random 100 of 200,000 posts per request,
 * measured the keeping costing a fifth to a third of the rate and half the memory; bench/README.md.)
 *
 * On PostgreSQL the reads of every response waiting in one turn of the event loop go to the store
 * together, one query per table (DataLoader, scheduled on setImmediate): concurrent requests share
 * their round trips. On SQLite a read is a call into the same process and goes at once.
 */
export interface EntityTable<Row> {
  table: keyof Database & string;
  key: keyof Row & string;
  /** Extra condition every read of the table applies (live posts only). */
  live?: 'not_deleted';
}

/** Loads of one turn of the event loop go out together (what arrives during the poll phase shares a query). */
const nextTurn = (run: () => void) => void setImmediate(run);

export class EntityReader<Row extends object> {
  /** PostgreSQL: whole rows, batched across responses. */
  private readonly batched: DataLoader<string, Row | undefined>;

  constructor(
    private readonly store: Store,
    private readonly spec: EntityTable<Row>,
  ) {
    this.batched = new DataLoader(
      async (keys) => {
        const rows = await this.readRows(this.store.db, keys);
        const byKey = new Map(rows.map((row) => [String(row[this.spec.key]), row]));
        return keys.map((k) => byKey.get(k));
      },
      { cache: false, batchScheduleFn: nextTurn, maxBatchSize: 5_000 },
    );
  }

  /** The rows with these keys (those that exist, and are live for posts), in no particular order. */
  async read(db: DbOrTx, keys: readonly string[]): Promise<Row[]> {
    if (keys.length === 0) return [];
    if (db !== this.store.db || this.store.dialect !== 'postgres') return this.readRows(db, keys);
    const out: Row[] = [];
    for (const row of await this.batched.loadMany(keys)) {
      if (row instanceof Error) throw row;
      if (row) out.push(row);
    }
    return out;
  }

  private async readRows(db: DbOrTx, keys: readonly string[]): Promise<Row[]> {
    let q = db.selectFrom(this.spec.table as 'posts').selectAll().where(this.spec.key as 'id', 'in', keys);
    if (this.spec.live === 'not_deleted') q = q.where('deleted_at', 'is', null);
    return ((await q.execute()) as unknown as Row[]).map(fastRow);
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

/** How many posts' card URIs are kept; past it they are all read again. */
const KEPT_CARD_URIS = 50_000;

/**
 * The card URIs of posts made through the advertising interface (the post field card_uri): they
 * live in ads_posts, which changes without the post row. On SQLite each post's answer is kept
 * while that table's write generation holds; on PostgreSQL under the generation of the response
 * that asks (Store.freshGeneration), or, without one, read afresh, the reads of every response
 * waiting in one turn of the event loop going out as one query, as the rows' do.
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
    if (generation !== this.generation || this.kept.size > KEPT_CARD_URIS) {
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

/** The entity readers and caches of one process, built once in app.ts. */
export interface Entities {
  posts: EntityReader<PostRow>;
  users: EntityReader<UserRow>;
  media: EntityReader<MediaRow>;
  cardUris: CardUris;
  /** The newest posts of authors, for timelines (src/platform/timelines/author-posts.ts). */
  authorPosts: AuthorPosts;
  /** The authors of users' home timelines (the same file). */
  homeAuthors: HomeAuthors;
}

export function createEntities(store: Store): Entities {
  return {
    posts: new EntityReader<PostRow>(store, { table: 'posts', key: 'id', live: 'not_deleted' }),
    users: new EntityReader<UserRow>(store, { table: 'users', key: 'id' }),
    media: new EntityReader<MediaRow>(store, { table: 'media', key: 'media_key' }),
    cardUris: new CardUris(store),
    authorPosts: new AuthorPosts(store),
    homeAuthors: new HomeAuthors(store),
  };
}
