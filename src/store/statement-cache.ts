import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * better-sqlite3 behind Kysely, with each statement prepared once: Kysely's SQLite driver calls
 * `prepare` for every query it runs, and preparing costs as much as running a small read. The
 * statements are kept by their SQL text, least recently used dropped past `capacity`. Kysely
 * runs one query at a time per connection and reads each statement to the end (`all`, `run`, or
 * an `iterate` it drains), so sharing a prepared statement between queries is safe.
 */
export function withStatementCache(db: SQLite.Database, capacity = 500): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => void db.close(),
    prepare(sql: string): SqliteStatement {
      let statement = statements.get(sql);
      if (statement) {
        // Map order is the LRU order: move it to the end.
        statements.delete(sql);
      } else {
        statement = db.prepare(sql);
        if (statements.size >= capacity) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement as unknown as SqliteStatement;
    },
  };
}
