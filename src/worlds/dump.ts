import { sequenceEvents } from '../events/log.js';
import { sql } from 'kysely';
import type { DbOrTx, Store } from '../store/store.js';

/**
 * A whole store as data (issue #36's snapshots and snapshot files): every table's rows, ids and
 * all, and where each counter of the store stands. It is read in one transaction, so it is one
 * consistent state, and written back in one, so a restore is all or nothing. The same dump restores
 * into SQLite or PostgreSQL: rows are JSON values (binary columns as `{ "base64": … }`), SQLite's
 * row numbers ride along as `__rowid` (its full-text indexes are keyed by them) and are ignored by
 * PostgreSQL, and counters are the last value each table's counter handed out.
 */
export interface StoreDump {
  format: 'plaza-store-dump';
  version: 1;
  /** The last migration the store had run: a dump restores into a store migrated as far. */
  migration: string;
  tables: Record<string, { columns: string[]; rows: unknown[][] }>;
  /** The last value each table's counter handed out (the event log's seq). */
  counters: Record<string, number>;
}

/**
 * The migrator's own tables and the process-wide ones of the default store, which no world owns;
 * and the media bytes kept in the store, which a snapshot file carries by file (and a restore
 * leaves: each is named by a media key no other media takes).
 */
const NOT_WORLD_DATA = new Set(['kysely_migration', 'kysely_migration_lock', 'worker_leases', 'worlds', 'world_snapshots', 'server_secret', 'media_blobs']);
const ROWID = '__rowid';

interface TableShape {
  name: string;
  columns: string[];
  /** SQLite: the table has row numbers worth keeping. */
  rowid: boolean;
}

export async function dumpStore(store: Store): Promise<StoreDump> {
  // Events committed before the dump take their places in the log first (PostgreSQL): a dump
  // holds the log as its readers see it.
  await sequenceEvents(store.db);
  return store.db.transaction().execute(async (tx) => {
    const tables: StoreDump['tables'] = {};
    for (const shape of await tableShapes(store, tx)) {
      const columns = shape.rowid ? [ROWID, ...shape.columns] : shape.columns;
      const list = columns.map((c) => (c === ROWID ? `rowid as "${ROWID}"` : `"${c}"`)).join(', ');
      // In a fixed order, so two dumps of the same state are equal: SQLite's row numbers (restored
      // with the rows), or every column on PostgreSQL (where rows move as they are updated).
      const order = shape.rowid ? ' order by rowid' : store.dialect === 'postgres' ? ` order by ${columns.map((_, i) => i + 1).join(', ')}` : '';
      const { rows } = await sql.raw<Record<string, unknown>>(`select ${list} from "${shape.name}"${order}`).execute(tx);
      tables[shape.name] = { columns, rows: rows.map((row) => columns.map((c) => toJsonValue(row[c]))) };
    }
    return { format: 'plaza-store-dump', version: 1, migration: await lastMigration(tx), tables, counters: await readCounters(store, tx) };
  });
}

/** Replaces every row of the store with the dump's, in one transaction. */
export async function restoreStore(store: Store, dump: StoreDump): Promise<void> {
  if (dump.format !== 'plaza-store-dump' || dump.version !== 1) throw new Error('not a Plaza store dump');
  await store.db.transaction().execute(async (tx) => {
    const migration = await lastMigration(tx);
    if (dump.migration > migration) throw new Error(`the dump was made by a newer Plaza (migration ${dump.migration}; this store has ${migration})`);
    const shapes = await tableShapes(store, tx);
    const names = shapes.map((s) => s.name);
    const triggered = store.dialect === 'postgres' ? await tablesWithTriggers(tx) : [];
    const order = await insertionOrder(store, tx, shapes);
    if (store.dialect === 'postgres') {
      // The rows go back as they were: what triggers derive from them (the word counts' dirty hours)
      // is in the dump too. (SQLite's triggers keep its full-text indexes, which are not dumped.)
      for (const name of triggered) await sql.raw(`alter table "${name}" disable trigger user`).execute(tx);
      // Children before parents. DELETE, not TRUNCATE: a world's tables are small, and TRUNCATE
      // makes new files for each of them (measured: a restore of the demo seed took 210 ms with it).
      for (const shape of [...order].reverse()) await sql.raw(`delete from "${shape.name}"`).execute(tx);
    } else {
      // Checked at commit: rows go back table by table, children before their parents at times.
      await sql`pragma defer_foreign_keys = on`.execute(tx);
      for (const name of names) await sql.raw(`delete from "${name}"`).execute(tx);
    }
    for (const shape of order) {
      const saved = dump.tables[shape.name];
      if (!saved || saved.rows.length === 0) continue;
      // Columns both have: a dump of an older store lacks later columns (their defaults apply).
      const keep = saved.columns.map((c, i) => [c, i] as const).filter(([c]) => shape.columns.includes(c) || (c === ROWID && shape.rowid));
      const columns = keep.map(([c]) => (c === ROWID ? 'rowid' : `"${c}"`)).join(', ');
      const perStatement = Math.max(1, Math.floor(30_000 / keep.length));
      for (let at = 0; at < saved.rows.length; at += perStatement) {
        const rows = saved.rows.slice(at, at + perStatement);
        const values = sql.join(rows.map((row) => sql`(${sql.join(keep.map(([, i]) => fromJsonValue(row[i])))})`));
        await sql`insert into ${sql.raw(`"${shape.name}"`)} (${sql.raw(columns)}) values ${values}`.execute(tx);
      }
    }
    await writeCounters(store, tx, dump.counters);
    for (const name of triggered) await sql.raw(`alter table "${name}" enable trigger user`).execute(tx);
  });
}

async function tablesWithTriggers(db: DbOrTx): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select distinct event_object_table as name from information_schema.triggers where trigger_schema = current_schema()`.execute(db);
  return rows.map((r) => r.name).filter((name) => !NOT_WORLD_DATA.has(name));
}

async function lastMigration(db: DbOrTx): Promise<string> {
  const row = await db.selectFrom('kysely_migration' as never).select(sql<string>`max(name)`.as('name')).executeTakeFirst();
  return (row as { name?: string } | undefined)?.name ?? '';
}

async function tableShapes(store: Store, db: DbOrTx): Promise<TableShape[]> {
  if (store.dialect === 'postgres') {
    const { rows } = await sql<{ table_name: string; column_name: string }>`
      select c.table_name, c.column_name from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = current_schema() and t.table_type = 'BASE TABLE' and c.is_generated = 'NEVER'
      order by c.table_name, c.ordinal_position`.execute(db);
    const byTable = new Map<string, string[]>();
    for (const row of rows) if (!NOT_WORLD_DATA.has(row.table_name)) (byTable.get(row.table_name) ?? byTable.set(row.table_name, []).get(row.table_name)!).push(row.column_name);
    return [...byTable].map(([name, columns]) => ({ name, columns, rowid: false }));
  }
  const { rows: tables } = await sql<{ name: string; wr: number }>`select name, wr from pragma_table_list where schema = 'main' and type = 'table' and name not like 'sqlite_%' order by name`.execute(db);
  const shapes: TableShape[] = [];
  for (const table of tables) {
    if (NOT_WORLD_DATA.has(table.name)) continue;
    // hidden: 0 a column, 1 a virtual table's hidden column, 2 and 3 generated columns.
    const { rows: columns } = await sql<{ name: string; hidden: number; pk: number; type: string }>`select name, hidden, pk, type from pragma_table_xinfo(${table.name})`.execute(db);
    // An INTEGER PRIMARY KEY is the row number itself: kept as that column.
    const integerKey = columns.filter((c) => c.pk > 0).length === 1 && columns.some((c) => c.pk > 0 && c.type.toUpperCase() === 'INTEGER');
    shapes.push({ name: table.name, columns: columns.filter((c) => c.hidden === 0).map((c) => c.name), rowid: !table.wr && !integerKey });
  }
  return shapes;
}

/** Parents before children (PostgreSQL checks each row's references as it goes in). */
async function insertionOrder(store: Store, db: DbOrTx, shapes: TableShape[]): Promise<TableShape[]> {
  if (store.dialect !== 'postgres') return shapes;
  const { rows } = await sql<{ child: string; parent: string }>`
    select cl.relname as child, pl.relname as parent from pg_constraint k
    join pg_class cl on cl.oid = k.conrelid join pg_class pl on pl.oid = k.confrelid
    where k.contype = 'f' and k.connamespace = current_schema()::regnamespace`.execute(db);
  const parents = new Map<string, string[]>();
  for (const { child, parent } of rows) if (child !== parent) (parents.get(child) ?? parents.set(child, []).get(child)!).push(parent);
  const byName = new Map(shapes.map((s) => [s.name, s]));
  const out: TableShape[] = [];
  const placed = new Set<string>();
  const place = (name: string) => {
    if (placed.has(name)) return;
    placed.add(name);
    for (const parent of parents.get(name) ?? []) place(parent);
    const shape = byName.get(name);
    if (shape) out.push(shape);
  };
  for (const shape of shapes) place(shape.name);
  return out;
}

async function readCounters(store: Store, db: DbOrTx): Promise<Record<string, number>> {
  if (store.dialect === 'postgres') {
    const counters: Record<string, number> = {};
    for (const { table_name, column_name } of await serialColumns(db)) {
      const { rows } = await sql<{ last: number | null }>`select (case when is_called then last_value else null end) as last from ${sql.raw(`${await sequenceOf(db, table_name, column_name)}`)}`.execute(db);
      counters[table_name] = Number(rows[0]?.last ?? 0);
    }
    return counters;
  }
  const { rows } = await sql<{ name: string; seq: number }>`select name, seq from sqlite_sequence`.execute(db);
  return Object.fromEntries(rows.filter((r) => !NOT_WORLD_DATA.has(r.name)).map((r) => [r.name, Number(r.seq)]));
}

async function writeCounters(store: Store, db: DbOrTx, counters: Record<string, number>): Promise<void> {
  if (store.dialect === 'postgres') {
    for (const { table_name, column_name } of await serialColumns(db)) {
      const last = counters[table_name] ?? 0;
      const sequence = await sequenceOf(db, table_name, column_name);
      await sql`select setval(${sequence}::regclass, ${Math.max(1, last)}, ${last > 0})`.execute(db);
    }
    return;
  }
  await sql`delete from sqlite_sequence`.execute(db);
  for (const [name, seq] of Object.entries(counters)) await sql`insert into sqlite_sequence (name, seq) values (${name}, ${seq})`.execute(db);
}

async function serialColumns(db: DbOrTx): Promise<Array<{ table_name: string; column_name: string }>> {
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
    where table_schema = current_schema() and column_default like 'nextval(%'`.execute(db);
  return rows.filter((r) => !NOT_WORLD_DATA.has(r.table_name));
}

async function sequenceOf(db: DbOrTx, table: string, column: string): Promise<string> {
  const { rows } = await sql<{ seq: string }>`select pg_get_serial_sequence(${table}, ${column}) as seq`.execute(db);
  return rows[0].seq;
}

function toJsonValue(value: unknown): unknown {
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return { base64: Buffer.from(value).toString('base64') };
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return Number(value);
  return value ?? null;
}

function fromJsonValue(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { base64?: unknown }).base64 === 'string') return Buffer.from((value as { base64: string }).base64, 'base64');
  return value;
}
