import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';
import { FTS5_TOKENIZER, foldedTsvector } from './0008-search.js';

/**
 * The names index of users search (GET /2/users/search): the words of each user's username and
 * name, cut as src/query's tokenize() cuts text (so `dana_reads` holds the words dana and reads),
 * read by src/query/sql.ts compileNameSearch.
 * - SQLite: an FTS5 table over users (username, name), kept in step by triggers in the writing
 *   transaction, as posts_fts is.
 * - PostgreSQL: a generated tsvector column with a GIN index; the username's words weigh A and
 *   the name's B, so a phrase never runs from the one into the other. A posts.search_tsv made
 *   before foldedTsvector skipped the accent work for ASCII text is made again with it (the
 *   same words, written several times faster: what bulk loads of posts wait on).
 */
export async function up(db: Kysely<any>, dialect: StoreDialect): Promise<void> {
  if (dialect === 'sqlite') {
    await sql.raw(`create virtual table user_names_fts using fts5(username, name, content = 'users', content_rowid = 'rowid', ${FTS5_TOKENIZER})`).execute(db);
    await sql.raw(`create trigger user_names_fts_insert after insert on users begin insert into user_names_fts(rowid, username, name) values (new.rowid, new.username, new.name); end`).execute(db);
    await sql
      .raw(`create trigger user_names_fts_delete after delete on users begin insert into user_names_fts(user_names_fts, rowid, username, name) values ('delete', old.rowid, old.username, old.name); end`)
      .execute(db);
    await sql
      .raw(
        `create trigger user_names_fts_update after update of username, name on users begin ` +
          `insert into user_names_fts(user_names_fts, rowid, username, name) values ('delete', old.rowid, old.username, old.name); ` +
          `insert into user_names_fts(rowid, username, name) values (new.rowid, new.username, new.name); end`,
      )
      .execute(db);
    await sql.raw(`insert into user_names_fts(user_names_fts) values ('rebuild')`).execute(db);
  } else {
    await refreshPostsTextColumn(db);
    const names = `setweight(${foldedTsvector('username')}, 'A') || setweight(${foldedTsvector(`coalesce(name, '')`)}, 'B')`;
    await sql.raw(`alter table users add column names_tsv tsvector generated always as (${names}) stored`).execute(db);
    await sql.raw(`create index users_names_tsv on users using gin (names_tsv)`).execute(db);
  }
}

/** posts.search_tsv with today's foldedTsvector, where an earlier expression made it (one rewrite of the table). */
async function refreshPostsTextColumn(db: Kysely<any>): Promise<void> {
  const current = await sql<{ expr: string }>`
    select pg_get_expr(d.adbin, d.adrelid) as expr from pg_attrdef d
    join pg_attribute a on a.attrelid = d.adrelid and a.attnum = d.adnum
    where d.adrelid = 'posts'::regclass and a.attname = 'search_tsv'`.execute(db);
  if (current.rows.length === 0 || current.rows[0].expr.includes('octet_length')) return;
  await sql.raw(`alter table posts drop column search_tsv`).execute(db);
  await sql.raw(`alter table posts add column search_tsv tsvector generated always as (${foldedTsvector('text')}) stored`).execute(db);
  await sql.raw(`create index posts_search_tsv on posts using gin (search_tsv)`).execute(db);
}
