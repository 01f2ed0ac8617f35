import DataLoader from 'dataloader';
import type { AdsPostTable } from '../store/schema-ads-media.js';
import type { Database, MediaTable as MediaRow, PostTable as PostRow, UserTable as UserRow } from '../store/schema.js';
import type { DbOrTx, Store } from '../store/store.js';

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

/** The entity readers of one process, built once in app.ts: nothing read is kept across responses. */
export interface Entities {
  posts: EntityReader<PostRow>;
  users: EntityReader<UserRow>;
  media: EntityReader<MediaRow>;
  /** The posts made through the advertising interface, for their card URIs (the post field card_uri). */
  adsPosts: EntityReader<AdsPostTable>;
}

export function createEntities(store: Store): Entities {
  return {
    posts: new EntityReader<PostRow>(store, { table: 'posts', key: 'id', live: 'not_deleted' }),
    users: new EntityReader<UserRow>(store, { table: 'users', key: 'id' }),
    media: new EntityReader<MediaRow>(store, { table: 'media', key: 'media_key' }),
    adsPosts: new EntityReader<AdsPostTable>(store, { table: 'ads_posts', key: 'post_id' }),
  };
}
