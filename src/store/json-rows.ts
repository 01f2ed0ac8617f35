import { CompiledQuery } from 'kysely';
import type { DbOrTx } from './store.js';

/**
 * A hot read on PostgreSQL answering its rows as one JSON array: one row, column `rows`, which
 * node-postgres hands over parsed. Decoding a hundred rows of a few text columns (a timeline page's
 * keys, a version check) had cost Plaza's one thread more than parsing their JSON; PostgreSQL,
 * which builds it, has cores of its own. `orderBy` orders the array by the rows' columns.
 */
export function rowsAsJsonArray(query: string, orderBy?: string): string {
  return `select coalesce(json_agg(r${orderBy ? ` order by ${orderBy}` : ''}), '[]') as rows from (${query}) r`;
}

/** The rows of a text made by rowsAsJsonArray. */
export async function readJsonRows<Row>(db: DbOrTx, text: string, parameters: readonly unknown[]): Promise<Row[]> {
  return (await db.executeQuery<{ rows: Row[] }>(CompiledQuery.raw(text, [...parameters]))).rows[0]!.rows;
}
