import DataLoader from 'dataloader';
import type { Database, MediaTable as MediaRow, PostTable as PostRow, UserTable as UserRow } from '../store/schema.js';
import type { DbOrTx, Store } from '../store/store.js';
import { cardUrisOf } from './posts/store.js';

/**
 * The rows of the entities every read shows (posts, users, media), read from the store for each
 * response: nothing is kept across requests. (Rows were kept, with write generations on SQLite and
 * row-version checks on PostgreSQL, until bench:reads (its lookup: a random 100 of 200,000 posts a request)
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
/**
 * The card URIs of posts made through the advertising interface (the post field card_uri): they
 * live in ads_posts, which changes without the post row, and are read for each answer that selects
 * the field; on PostgreSQL the reads of every response waiting in one turn of the event loop go out
 * as one query, as the rows' do.
 */
export class CardUris {
  private readonly batched: DataLoader<string, string | undefined>;

  constructor(private readonly store: Store) {
    this.batched = new DataLoader(
      async (ids) => {
        const found = await cardUrisOf(this.store.db, ids, this.store.dialect);
        return ids.map((id) => found.get(id));
      },
      { cache: false, batchScheduleFn: nextTurn, maxBatchSize: 5_000 },
    );
  }

  /** The card URI of each post of `postIds` that has one. */
  async of(db: DbOrTx, postIds: readonly string[]): Promise<Map<string, string>> {
    if (postIds.length === 0) return new Map();
    if (db !== this.store.db || this.store.dialect !== 'postgres') return cardUrisOf(db, postIds, this.store.dialect);
    const out = new Map<string, string>();
    (await this.batched.loadMany(postIds)).forEach((uri, i) => {
      if (uri instanceof Error) throw uri;
      if (uri !== undefined) out.set(postIds[i], uri);
    });
    return out;
  }
}

/** The entity readers of one process, built once in app.ts: nothing read is kept across responses. */
export interface Entities {
  posts: EntityReader<PostRow>;
  users: EntityReader<UserRow>;
  media: EntityReader<MediaRow>;
  cardUris: CardUris;
}

export function createEntities(store: Store): Entities {
  return {
    posts: new EntityReader<PostRow>(store, { table: 'posts', key: 'id', live: 'not_deleted' }),
    users: new EntityReader<UserRow>(store, { table: 'users', key: 'id' }),
    media: new EntityReader<MediaRow>(store, { table: 'media', key: 'media_key' }),
    cardUris: new CardUris(store),
  };
}
