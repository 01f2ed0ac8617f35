import { sql } from 'kysely';
import { tokenize } from '../../query/ast.js';
import { compileNameSearch, type SqlDialect } from '../../query/sql.js';
import type { DbOrTx } from '../../store/store.js';
import type { UserRow } from './wire.js';

export async function findUsersByIds(db: DbOrTx, ids: readonly string[]): Promise<UserRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('users').selectAll().where('id', 'in', ids).execute();
}

/** Usernames match case-insensitively, as on the public platform. */
export async function findUsersByUsernames(db: DbOrTx, usernames: readonly string[]): Promise<UserRow[]> {
  if (usernames.length === 0) return [];
  return db
    .selectFrom('users')
    .selectAll()
    .where('username_lower', 'in', usernames.map((u) => u.toLowerCase()))
    .execute();
}

/** Of `targets`, those the viewer follows. */
export async function followedAmong(db: DbOrTx, viewerId: string, targets: readonly string[]): Promise<Set<string>> {
  if (targets.length === 0) return new Set();
  const rows = await db
    .selectFrom('follows')
    .select('target_user_id')
    .where('source_user_id', '=', viewerId)
    .where('target_user_id', 'in', targets)
    .execute();
  return new Set(rows.map((r) => r.target_user_id));
}

/** Of `others`, those who follow the viewer. */
export async function followersAmong(db: DbOrTx, viewerId: string, others: readonly string[]): Promise<Set<string>> {
  if (others.length === 0) return new Set();
  const rows = await db
    .selectFrom('follows')
    .select('source_user_id')
    .where('target_user_id', '=', viewerId)
    .where('source_user_id', 'in', others)
    .execute();
  return new Set(rows.map((r) => r.source_user_id));
}

/**
 * Users whose username or name holds every word of the query at the start of one of its words
 * (case and accents aside), through the names index: an exact username first, then the most followed.
 */
export async function findUsersMatching(db: DbOrTx, dialect: SqlDialect, words: readonly string[], exact: string, limit: number, offset: number): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(compileNameSearch(words.map(tokenize), dialect))
    .orderBy(sql`case when ${sql.ref('username_lower')} = ${exact.toLowerCase()} then 0 else 1 end`)
    .orderBy('followers_count', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}
