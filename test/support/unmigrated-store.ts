import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { StoreDialect } from '../../src/store/store.js';
import { dropPostgresDatabase, freshPostgresDatabase } from './postgres.js';

/**
 * Runs `check` on a new store with no migration run yet, for a test of one migration: PostgreSQL
 * when DATABASE_URL is set (a scratch database next to it), else an SQLite file in a temporary
 * folder. The store is dropped afterwards, whatever `check` did.
 */
export async function withUnmigratedStore(check: (db: Kysely<any>, dialect: StoreDialect) => Promise<void>, opts: { maxConnections?: number } = {}): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  const dialect: StoreDialect = adminUrl ? 'postgres' : 'sqlite';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-migration-'));
  const url = adminUrl ? await freshPostgresDatabase(adminUrl) : path.join(dir, 'plaza.sqlite');
  const db = new Kysely<any>({
    dialect: adminUrl ? new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: opts.maxConnections ?? 2 }) }) : new SqliteDialect({ database: new SQLite(url) }),
  });
  try {
    await check(db, dialect);
  } finally {
    await db.destroy();
    if (adminUrl) await dropPostgresDatabase(url);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
