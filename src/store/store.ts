import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type pg from 'pg';
import { CompiledQuery, Kysely, sql, Migrator, PostgresDialect, SqliteDialect, type Driver, type Migration, type PostgresDialectConfig, type SqliteDialectConfig, type Transaction } from 'kysely';
import { CommitWatch } from './commit-watch.js';
import type { Database } from './schema.js';
import { WriteCounter } from './generation.js';
import { withStatementCache } from './statement-cache.js';
import { nameMarkedStatements } from './prepared-statements.js';
import { checkpointInBackground, type BackgroundCheckpoints } from './sqlite-checkpoints.js';
import { migrations } from './migrations/index.js';

export type StoreDialect = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Either the database or a transaction on it: stores take this so services choose the boundary. */
export type DbOrTx = Kysely<Database>;

export interface Store {
  db: Db;
  dialect: StoreDialect;
  /**
   * A value that changes whenever the store's data may have changed: a write through this process,
   * or a commit by another connection to the same SQLite file. Undefined on PostgreSQL, where other
   * processes write unseen.
   */
  generation(): string | undefined;
  /**
   * Like generation(), for some tables: it changes when a write may have changed one of `tables`
   * (a write whose tables cannot be told counts for every table). Undefined on PostgreSQL.
   */
  tableGeneration(...tables: string[]): string | undefined;
  /**
   * For who a bearer token belongs to (CREDENTIAL_TABLES): on SQLite a value that changes with every
   * write to those tables; on PostgreSQL one that changes with every such write through this
   * process at once, and every CREDENTIALS_STALE_MS otherwise, so another process's write is seen
   * within that time. A post (which counts itself in its author's row) does not change it.
   */
  credentialsGeneration(): string | undefined;
  /** Another process announced a change (src/events/settings-bus.ts): what credentialsGeneration() keys is read again at once. */
  changedElsewhere(): void;
  /** How many changes other processes have announced: for what is kept a while on PostgreSQL, to be read again at once after one. */
  changesElsewhere(): number;
  /**
   * Calls `listener` after each commit through this store that appended to the event log (a
   * transaction's, or a lone INSERT's): when the log's readers can see what was appended
   * (src/store/commit-watch.ts). Returns the unsubscribe.
   */
  onEventsCommitted(listener: () => void): () => void;
  /** An SQLite file's checkpoints, run on a worker thread (see sqlite-checkpoints.ts); none on PostgreSQL or in memory. */
  checkpoints?: BackgroundCheckpoints;
  /**
   * Resolves when the database answers (what /readyz asks). On PostgreSQL through a connection of
   * its own, not the pool's: under load every pooled connection is busy and a check queued behind
   * them would report a reachable database as gone, and a balancer would then take every process
   * out at once.
   */
  reachable(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Tables written beside the answers, whose writes change no answer a cache keeps: the nonce log
 * (every verified signature), the impression ledger and the posts each app read (written up to a
 * second after the reads that counted), the word counts a background job remakes from posts
 * (search/term-hours.ts), the worker-number leases (renewed on a timer).
 */
export const WRITTEN_BESIDE_ANSWERS: ReadonlySet<string> = new Set([
  'oauth_nonces',
  'post_impressions_hourly',
  'post_term_hours',
  'post_term_hours_dirty',
  'usage_post_days',
  'usage_posts_seen',
  'worker_leases',
]);

/** The tables that say who a bearer token belongs to: the token, its app, its user, their OAuth 1.0a grant. */
const CREDENTIAL_TABLES = ['oauth2_tokens', 'app_bearer_tokens', 'apps', 'users', 'oauth1_tokens'];

/** How late a PostgreSQL process may see another process's change to a credential (a revoked token). */
export const CREDENTIALS_STALE_MS = 1_000;

export function dialectOf(url: string): StoreDialect {
  return /^postgres(ql)?:\/\//.test(url) ? 'postgres' : 'sqlite';
}

/** PostgreSQL: how many connections the store may hold, and how long an idle one is kept (10 and 10 s unless told). */
export interface StoreOptions {
  maxConnections?: number;
  idleMs?: number;
}

/**
 * Opens SQLite (a file path or ":memory:") or PostgreSQL (a postgres:// URL) and migrates it.
 * `onConnectionError` hears of a connection lost on the way (an idle PostgreSQL connection the
 * server ended, SQLite's checkpoint worker failing); the store carries on without it.
 */
export async function openStore(url: string, onConnectionError: (err: Error) => void = () => {}, options: StoreOptions = {}): Promise<Store> {
  const dialect = dialectOf(url);
  let db: Db;
  let closePool = async () => {};
  let reachable = async () => void (await sql`select 1`.execute(db));
  let checkpoints: BackgroundCheckpoints | undefined;
  const writes = new WriteCounter(WRITTEN_BESIDE_ANSWERS);
  const eventCommits = new CommitWatch('events');
  let generation: () => string | undefined = () => undefined;
  let tableGeneration: (...tables: string[]) => string | undefined = () => undefined;
  // A cache-validity window, not a rule of the interface: wall time, not the injected clock.
  let elsewhere = 0;
  const credentialWrites = () => CREDENTIAL_TABLES.map((table) => writes.writesTo(table)).join('/');
  let credentialsGeneration: () => string | undefined = () => `${credentialWrites()}:${elsewhere}:${Math.floor(Date.now() / CREDENTIALS_STALE_MS)}`;
  if (dialect === 'postgres') {
    // Counts and bigints come back as JS numbers; every id Plaza stores is text.
    // Loaded only for PostgreSQL: an embedded store's start-up need not wait for it.
    const { default: pgModule } = await import('pg');
    pgModule.types.setTypeParser(20, (v) => Number(v));
    // JIT off: Plaza's queries are short, and compiling one that crosses jit_above_cost (a count of
    // a common word over a large store) costs more than running it.
    const pool = new pgModule.Pool({ connectionString: url, max: options.maxConnections ?? 10, idleTimeoutMillis: options.idleMs ?? 10_000, options: '-c jit=off' });
    // An idle connection the server drops (a restart, an administrator) is an 'error' event on the
    // pool; unheard, it would end the process. The pool has already discarded that connection.
    pool.on('error', onConnectionError);
    // A connection dropped while checked out between two queries (inside a transaction) is an
    // 'error' event on that client, which the pool does not hear: heard here, the transaction's
    // next query fails (and the pool discards the client on release) instead of the process ending.
    pool.on('connect', (client) => client.on('error', onConnectionError));
    nameMarkedStatements(pool);
    closePool = connectionsClosed(pool);
    reachable = async () => {
      const client = new pgModule.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
      client.on('error', () => {});
      try {
        await client.connect();
        await client.query('select 1');
      } finally {
        await client.end().catch(() => {});
      }
    };
    db = new Kysely<Database>({ dialect: new WatchedPostgresDialect({ pool }, eventCommits), plugins: [writes] });
  } else {
    if (url !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(url)), { recursive: true });
    const sqlite = new SQLite(url);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // Reads of a large store (keyword insights and counts scan index ranges of a million posts)
    // map the file instead of copying each page through SQLite's cache: about a third less CPU.
    sqlite.pragma('mmap_size = 268435456');
    // The planner's statistics, brought up to date where they are missing or stale, as SQLite
    // advises for a connection that lives long; approximate (at most 1,000 rows an index), so a
    // 200,000-post store opens 83 ms later. Without them a search that excludes reposts went
    // through the index of reposts: 47 ms a query instead of 14.
    sqlite.pragma('analysis_limit = 1000');
    sqlite.pragma('optimize = 0x10002');
    if (url !== ':memory:') checkpoints = checkpointInBackground(sqlite, url, onConnectionError);
    db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }, eventCommits, checkpoints), plugins: [writes] });
    // data_version changes when another connection commits to the file; this one's own writes are counted.
    const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
    // Read once per turn of the event loop: the requests served in one turn share it, and a commit
    // by another connection is seen by every request of the next turn.
    let version: number | undefined;
    const currentDataVersion = () => {
      if (version === undefined) {
        version = dataVersion.get() as number;
        setImmediate(() => (version = undefined));
      }
      return version;
    };
    generation = () => `${writes.writes}:${currentDataVersion()}`;
    tableGeneration = (...tables) => `${tables.length === 1 ? writes.writesTo(tables[0]) : tables.map((table) => writes.writesTo(table)).join('/')}:${currentDataVersion()}`;
    credentialsGeneration = () => tableGeneration(...CREDENTIAL_TABLES);
  }
  await migrate(db, dialect);
  return {
    db,
    dialect,
    generation,
    tableGeneration,
    credentialsGeneration,
    onEventsCommitted: (listener) => eventCommits.on(listener),
    changedElsewhere: () => void elsewhere++,
    changesElsewhere: () => elsewhere,
    checkpoints,
    reachable: () => reachable(),
    close: async () => {
      await checkpoints?.close();
      await db.destroy();
      await closePool();
    },
  };
}

/**
 * SQLite transactions begin IMMEDIATE: a transaction that reads and then writes, begun deferred,
 * fails with SQLITE_BUSY_SNAPSHOT when another process (several Plaza processes may share one
 * file) committed in between, and busy_timeout cannot help; taking the write lock at BEGIN makes
 * it wait its turn instead.
 *
 * With background checkpoints, a commit that leaves a long log starts one, and the next
 * transaction waits for it (off the event loop) before it begins: begun once the log is all
 * copied, it starts the log over instead of growing it.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  constructor(
    config: SqliteDialectConfig,
    private readonly commits: CommitWatch,
    private readonly checkpoints?: BackgroundCheckpoints,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const commit = driver.commitTransaction.bind(driver);
    const checkpoints = this.checkpoints;
    driver.beginTransaction = async (connection) => {
      await checkpoints?.running();
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    driver.commitTransaction = async (connection) => {
      await commit(connection);
      checkpoints?.afterCommit();
    };
    return this.commits.wrap(driver);
  }
}

/** PostgreSQL through pg's pool, its commits of events watched. */
class WatchedPostgresDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    private readonly commits: CommitWatch,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return this.commits.wrap(super.createDriver());
  }
}

/**
 * pg's Pool.end() resolves once its connections are asked to end, not once they have; this waits
 * for the last one, so a caller that closes the store and then drops the database races nothing.
 */
function connectionsClosed(pool: pg.Pool): () => Promise<void> {
  let open = 0;
  let settle: (() => void) | undefined;
  pool.on('connect', () => void open++);
  pool.on('remove', () => {
    open--;
    if (open === 0) settle?.();
  });
  return () => (open === 0 ? Promise.resolve() : new Promise<void>((resolve) => (settle = resolve)));
}

/** Plaza's migrations for one dialect, in Kysely's terms (a test migrates a store part way with it). */
export function plazaMigrator(db: Kysely<any>, dialect: StoreDialect): Migrator {
  const provider = {
    async getMigrations(): Promise<Record<string, Migration>> {
      return Object.fromEntries(
        Object.entries(migrations).map(([name, m]) => [name, { up: (k: Kysely<any>) => m.up(k, dialect) }]),
      );
    },
  };
  return new Migrator({ db, provider });
}

/**
 * Migrates to the latest version. Processes started together on one new store (issue #37) may
 * migrate at once: on SQLite Kysely takes no lock between processes, so a process can run a
 * migration another has just run and fail on it (its step rolled back). A failed run is tried
 * again, up to MIGRATE_ATTEMPTS times, a little later each time: the next run reads which
 * migrations are done and runs only the rest. A migration that fails every time is reported.
 */
async function migrate(db: Db, dialect: StoreDialect): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await plazaMigrator(db, dialect).migrateToLatest();
    if (!error) return;
    const failed = results?.find((r) => r.status === 'Error');
    if (attempt < MIGRATE_ATTEMPTS && (failed || MIGRATING_ELSEWHERE.has(String((error as { code?: unknown }).code)))) {
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      continue;
    }
    // No migration ran: the database itself could not be reached; say that, not "migration failed".
    if (!failed) throw error;
    throw new Error(`migration ${failed.migrationName} failed: ${String(error)}`, { cause: error });
  }
}

const MIGRATE_ATTEMPTS = 5;
/** What another process migrating at the same moment looks like before any migration ran: a busy SQLite file, a table or type PostgreSQL is creating. */
const MIGRATING_ELSEWHERE = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', '42P07', '23505']);

/** True when the engine refused a write for a unique or primary-key constraint. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Parses a JSON text column, typed by the caller. */
export function fromJson<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

export const toJson = (value: unknown): string => JSON.stringify(value);
