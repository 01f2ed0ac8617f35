import { sql } from 'kysely';
import type { Database } from '../store/schema.js';
import type { DbOrTx, Store } from '../store/store.js';
import type { MediaRow } from './media/wire.js';
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
 * - PostgreSQL (other processes write unseen): every read asks the store for the current row
 *   version (the system column xmin, which every UPDATE of a row changes) of the ids it needs,
 *   and reads in full only the rows whose version differs. A write committed by any process is
 *   therefore seen by the very next read, with no waiting on a log.
 *
 * Reads inside a transaction bypass the cache entirely: they must see the transaction's own
 * uncommitted writes, and nothing uncommitted may be kept.
 */
export interface EntityTable<Row> {
  table: keyof Database & string;
  key: keyof Row & string;
  /** Extra condition every read of the table applies (live posts only). */
  live?: 'not_deleted';
}

interface Entry<Row> {
  row: Row;
  version: string;
}

/** How many rows of one table are kept; past it the earliest read go (a row read again comes back). */
const CAPACITY = 50_000;

export class EntityCache<Row extends object> {
  private readonly entries = new Map<string, Entry<Row>>();
  private generation: string | undefined;

  constructor(
    private readonly store: Store,
    private readonly spec: EntityTable<Row>,
  ) {}

  /** The rows with these keys (those that exist, and are live for posts), in no particular order. */
  async read(db: DbOrTx, keys: readonly string[]): Promise<Row[]> {
    if (keys.length === 0) return [];
    if (db.isTransaction) return this.readRows(db, keys);
    return this.store.dialect === 'postgres' ? this.readValidated(db, keys) : this.readByGeneration(db, keys);
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
      if (keep) this.remember(row, '');
    }
    return out;
  }

  private async readValidated(db: DbOrTx, keys: readonly string[]): Promise<Row[]> {
    const { table, key } = this.spec;
    // Nothing kept for these keys: no version to compare, so read the rows at once (one round trip).
    if (!keys.some((k) => this.entries.has(k))) return this.fetchVersioned(db, keys, []);
    const current = await sql<{ k: string; v: string }>`select ${sql.ref(key)} as k, xmin::text as v from ${sql.table(table)} where ${sql.ref(key)} = any(${[...keys]})${this.liveCondition()}`.execute(db);
    const out: Row[] = [];
    const stale: string[] = [];
    for (const { k, v } of current.rows) {
      const entry = this.entries.get(k);
      if (entry && entry.version === v) out.push(entry.row);
      else stale.push(k);
    }
    return stale.length === 0 ? out : this.fetchVersioned(db, stale, out);
  }

  /** Reads these rows with their versions, keeps them, and adds them to `out`. */
  private async fetchVersioned(db: DbOrTx, keys: readonly string[], out: Row[]): Promise<Row[]> {
    const { table, key } = this.spec;
    const fresh = await sql<Row & { __version: string }>`select *, xmin::text as __version from ${sql.table(table)} where ${sql.ref(key)} = any(${[...keys]})${this.liveCondition()}`.execute(db);
    for (const row of fresh.rows) {
      const version = row.__version;
      delete (row as { __version?: string }).__version;
      out.push(row);
      this.remember(row, version);
    }
    return out;
  }

  private readRows(db: DbOrTx, keys: readonly string[]): Promise<Row[]> {
    let q = db.selectFrom(this.spec.table as 'posts').selectAll().where(this.spec.key as 'id', 'in', keys);
    if (this.spec.live === 'not_deleted') q = q.where('deleted_at', 'is', null);
    return q.execute() as unknown as Promise<Row[]>;
  }

  private liveCondition() {
    return this.spec.live === 'not_deleted' ? sql` and deleted_at is null` : sql``;
  }

  private remember(row: Row, version: string): void {
    const key = String(row[this.spec.key]);
    this.entries.delete(key);
    this.entries.set(key, { row, version });
    if (this.entries.size > CAPACITY) this.entries.delete(this.entries.keys().next().value!);
  }
}

/** The caches of one process, built once in app.ts. */
export interface Entities {
  posts: EntityCache<PostRow>;
  users: EntityCache<UserRow>;
  media: EntityCache<MediaRow>;
}

export function createEntities(store: Store): Entities {
  return {
    posts: new EntityCache<PostRow>(store, { table: 'posts', key: 'id', live: 'not_deleted' }),
    users: new EntityCache<UserRow>(store, { table: 'users', key: 'id' }),
    media: new EntityCache<MediaRow>(store, { table: 'media', key: 'media_key' }),
  };
}
