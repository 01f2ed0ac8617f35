import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * Accented lowercase Latin letters and their base letters, for PostgreSQL's translate(): the
 * letters that Unicode decomposition splits into a base and marks, which is exactly what
 * src/query/ast.ts fold() strips (NFD, then marks removed).
 */
function accentTable(): { accented: string; base: string } {
  let accented = '';
  let base = '';
  for (let code = 0xe0; code <= 0x24f; code++) {
    const c = String.fromCodePoint(code);
    const folded = c.normalize('NFD').replace(/\p{M}/gu, '');
    if (c === c.toLowerCase() && folded !== c && [...folded].length === 1) {
      accented += c;
      base += folded;
    }
  }
  return { accented, base };
}

/**
 * PostgreSQL: the words of the text expression `expr` as a tsvector, cut as src/query's
 * tokenize() cuts them. Combining marks (text written decomposed) go first, then precomposed
 * accents, then every run of other characters becomes one space. Text that is all ASCII (as many
 * bytes as characters) has no accents to fold and skips that work, the most costly part of
 * writing a post's index entry (translate() looks each character up in a long table).
 */
export function foldedTsvector(expr: string): string {
  const { accented, base } = accentTable();
  const marks = `[${'\u0300'}-${'\u036f'}]`;
  const folded = `case when octet_length(${expr}) = char_length(${expr}) then lower(${expr}) else translate(regexp_replace(lower(${expr}), '${marks}', '', 'g'), '${accented}', '${base}') end`;
  return `to_tsvector('simple', regexp_replace(${folded}, '[^[:alnum:]]+', ' ', 'g'))`;
}

/** SQLite: the FTS5 tokenizer that cuts text as src/query's tokenize() does. */
export const FTS5_TOKENIZER = `tokenize = "unicode61 remove_diacritics 2 categories 'L* N*'"`;

/**
 * Full-text search over posts and profiles (shared/reference/platform.md §9), the indexes of
 * src/query's SQL compiler. Both engines cut text into runs of letters and digits, lowercased,
 * accents removed, as src/query's tokenize() does, so the SQL and in-memory back-ends agree.
 * - SQLite: FTS5 tables over posts (text, author_id) and users (description, name, location), kept in step by
 *   triggers in the writing transaction.
 * - PostgreSQL: generated tsvector columns with GIN indexes.
 * Both: btree indexes for the time window, the count operators' engines and reposts.
 */
export async function up(db: Kysely<any>, dialect: StoreDialect): Promise<void> {
  if (dialect === 'sqlite') {
    const tokenizer = FTS5_TOKENIZER;
    // author_id is indexed beside the text so `words from:user` is one FTS5 lookup: probing the
    // index once per row of the author's posts costs far more than intersecting two doclists.
    await sql.raw(`create virtual table posts_fts using fts5(text, author_id, content = 'posts', content_rowid = 'rowid', ${tokenizer})`).execute(db);
    await sql.raw(`create trigger posts_fts_insert after insert on posts begin insert into posts_fts(rowid, text, author_id) values (new.rowid, new.text, new.author_id); end`).execute(db);
    await sql
      .raw(`create trigger posts_fts_delete after delete on posts begin insert into posts_fts(posts_fts, rowid, text, author_id) values ('delete', old.rowid, old.text, old.author_id); end`)
      .execute(db);
    await sql
      .raw(
        `create trigger posts_fts_update after update of text, author_id on posts begin ` +
          `insert into posts_fts(posts_fts, rowid, text, author_id) values ('delete', old.rowid, old.text, old.author_id); ` +
          `insert into posts_fts(rowid, text, author_id) values (new.rowid, new.text, new.author_id); end`,
      )
      .execute(db);
    await sql.raw(`insert into posts_fts(posts_fts) values ('rebuild')`).execute(db);

    const cols = `coalesce(description, ''), coalesce(name, ''), coalesce(location, '')`;
    await sql.raw(`create virtual table users_fts using fts5(description, name, location, ${tokenizer})`).execute(db);
    await sql.raw(`create trigger users_fts_insert after insert on users begin insert into users_fts(rowid, description, name, location) select new.rowid, ${cols.replace(/(description|name|location)/g, 'new.$1')}; end`).execute(db);
    await sql.raw(`create trigger users_fts_delete after delete on users begin delete from users_fts where rowid = old.rowid; end`).execute(db);
    await sql
      .raw(
        `create trigger users_fts_update after update of description, name, location on users begin ` +
          `delete from users_fts where rowid = old.rowid; ` +
          `insert into users_fts(rowid, description, name, location) select new.rowid, ${cols.replace(/(description|name|location)/g, 'new.$1')}; end`,
      )
      .execute(db);
    await sql.raw(`insert into users_fts(rowid, description, name, location) select rowid, ${cols} from users`).execute(db);
  } else {
    const words = foldedTsvector;
    await sql.raw(`alter table posts add column search_tsv tsvector generated always as (${words('text')}) stored`).execute(db);
    await sql.raw(`create index posts_search_tsv on posts using gin (search_tsv)`).execute(db);
    const profile =
      `setweight(${words(`coalesce(description, '')`)}, 'A') || setweight(${words(`coalesce(name, '')`)}, 'B') || ` +
      `setweight(${words(`coalesce(location, '')`)}, 'C')`;
    await sql.raw(`alter table users add column bio_tsv tsvector generated always as (${profile}) stored`).execute(db);
    await sql.raw(`create index users_bio_tsv on users using gin (bio_tsv)`).execute(db);
  }
  // The search window is a range of created_at; counts group it by time.
  await db.schema.createIndex('posts_created').on('posts').columns(['created_at', 'id']).execute();
}
