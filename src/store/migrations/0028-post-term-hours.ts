import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * Per-word hourly post counts for search counts and keyword insights on PostgreSQL, where a count
 * over the GIN index visits one heap page per matching post (src/platform/search/term-hours.ts
 * reads and keeps them). SQLite answers those counts from FTS5 within their targets and has none.
 *
 * - post_term_hours: for each word (a lexeme of posts.search_tsv), UTC hour (created_at's first
 *   13 characters) and kind (repost 0/1), how many live posts hold it: not deleted, not an
 *   edited-away version, not nullcast. Protected authors are counted; readers subtract what the
 *   viewer may not see.
 * - post_term_hours_dirty: one row per hour whose posts changed since it was counted; an hour
 *   with a row is read from posts, not from the counts, until the counting job has counted it
 *   again. Rows are only ever appended by writers (no unique key, so no writer waits on
 *   another) and removed by the job in the transaction that recounts their hour.
 */
export async function up(db: Kysely<any>, dialect: StoreDialect): Promise<void> {
  if (dialect === 'sqlite') return;
  await sql.raw(`create table post_term_hours (term text not null, hour text not null, repost smallint not null, n integer not null, primary key (term, hour, repost))`).execute(db);
  await sql.raw(`create index post_term_hours_hour on post_term_hours (hour)`).execute(db);
  await sql.raw(`create table post_term_hours_dirty (hour text not null)`).execute(db);
  await sql.raw(`create index post_term_hours_dirty_hour on post_term_hours_dirty (hour)`).execute(db);

  await sql
    .raw(
      `create function post_term_hours_inserted() returns trigger language plpgsql as $$ begin ` +
        `insert into post_term_hours_dirty (hour) select distinct substr(created_at, 1, 13) from changed_rows; return null; end $$`,
    )
    .execute(db);
  await sql.raw(`create trigger posts_term_hours_insert after insert on posts referencing new table as changed_rows for each statement execute function post_term_hours_inserted()`).execute(db);
  await sql.raw(`create trigger posts_term_hours_delete after delete on posts referencing old table as changed_rows for each statement execute function post_term_hours_inserted()`).execute(db);
  await sql
    .raw(
      `create function post_term_hours_updated() returns trigger language plpgsql as $$ begin ` +
        `insert into post_term_hours_dirty (hour) values (substr(old.created_at, 1, 13)); ` +
        `if new.created_at is distinct from old.created_at then insert into post_term_hours_dirty (hour) values (substr(new.created_at, 1, 13)); end if; ` +
        `return null; end $$`,
    )
    .execute(db);
  // Counters (likes, replies) change posts rows all the time; only what a count reads marks an hour.
  const counted = ['text', 'created_at', 'deleted_at', 'superseded_by_id', 'nullcast', 'reposted_post_id'];
  await sql
    .raw(
      `create trigger posts_term_hours_update after update of ${counted.join(', ')} on posts for each row ` +
        `when (${counted.map((c) => `old.${c} is distinct from new.${c}`).join(' or ')}) execute function post_term_hours_updated()`,
    )
    .execute(db);
  // Every hour that holds posts today is counted by the job once it runs.
  await sql.raw(`insert into post_term_hours_dirty (hour) select distinct substr(created_at, 1, 13) from posts`).execute(db);
}
