import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * Uploaded audience identifiers kept as bytes: a SHA-256 digest as its 32 bytes instead of 64 hex
 * characters (a partner_user_id as its UTF-8 bytes), and no created_at, which nothing read.
 *
 * A batch of fresh random digests touches nearly every page of the primary key's index, so the
 * width of an entry is what a large audience's batch costs (issue #14: 2,500 operations in under
 * 1 s). On SQLite the table becomes WITHOUT ROWID: the rows live in the key's own B-tree, one
 * structure to update instead of a table and its index.
 */
export async function up(db: Kysely<any>, dialect: StoreDialect): Promise<void> {
  if (dialect === 'postgres') {
    await sql
      .raw(
        `alter table ads_audience_users drop column created_at, ` +
          `alter column key_hash type bytea using (case when key_type = 'partner_user_id' then convert_to(key_hash, 'UTF8') else decode(key_hash, 'hex') end)`,
      )
      .execute(db);
    return;
  }
  await sql.raw(`drop index ads_audience_users_matched`).execute(db);
  await sql.raw(`alter table ads_audience_users rename to ads_audience_users_text`).execute(db);
  await sql
    .raw(
      `create table ads_audience_users (list_id text not null, key_type text not null, key_hash blob not null, user_id text, expires_at text not null, ` +
        `constraint ads_audience_users_pk primary key (list_id, key_type, key_hash)) without rowid`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into ads_audience_users (list_id, key_type, key_hash, user_id, expires_at) ` +
        `select list_id, key_type, case when key_type = 'partner_user_id' then cast(key_hash as blob) else unhex(key_hash) end, user_id, expires_at from ads_audience_users_text`,
    )
    .execute(db);
  await sql.raw(`drop table ads_audience_users_text`).execute(db);
  await sql.raw(`create index ads_audience_users_matched on ads_audience_users (list_id, user_id, expires_at) where user_id is not null`).execute(db);
}
