/**
 * Generated posts and their authors, for the benchmarks (scripts/seed-posts.ts, bench/) and for
 * `plaza seed` (POST /admin/seed): authors are generated accounts (seed_user_N); posts spread
 * evenly over the `days` before `now`, newest last, with keywords from a skewed vocabulary (a few
 * words are common, most rare), hashtags, mentions, links, replies and engagement counts. Ids are
 * time-ordered like Plaza's own.
 *
 * The store's search index (migration 0008) is kept by its triggers (SQLite) and generated
 * columns (PostgreSQL) as for any post; seedPosts says how each store is written.
 */
import { sql } from 'kysely';
import { mulberry32 } from '../../scripts/prng.js';
import { newEditControls } from '../platform/posts/edit-window.js';
import { parseEntities } from '../platform/posts/entities.js';
import type { PostRow } from '../platform/posts/wire.js';
import { countAllDueHours } from '../platform/search/term-hours.js';
import type { Db } from '../store/store.js';

const EPOCH_MS = 1288834974657n;

/** A fixed vocabulary: common words first, then `rare` generated ones (w0001...). */
export function vocabulary(rare = 5000): string[] {
  const common = ['plaza', 'news', 'today', 'music', 'game', 'coffee', 'café', 'weather', 'rain', 'sun', 'city', 'train', 'photo', 'video', 'code', 'open', 'launch', 'team', 'match', 'goal'];
  return [...common, ...Array.from({ length: rare }, (_, i) => `w${String(i).padStart(4, '0')}`)];
}

export interface SeedOptions {
  count: number;
  users: number;
  days: number;
  /** The time the newest post is written at. */
  now: Date;
  seed?: number;
  progress?: (done: number, total: number) => void;
  /** PostgreSQL: drop the secondary indexes for the load and build them after (default: for 50,000 posts or more). */
  bulkIndexes?: boolean;
  /**
   * A run written in several calls (`plaza seed` sends chunks): this call writes posts
   * first..first+count-1 of a run of `of` posts spread over the same days. Default: the whole run.
   */
  first?: number;
  of?: number;
  /** Added to each post's sequence bits, so two runs ending at the same instant (a frozen clock) make different ids. */
  idSalt?: number;
  /** Skip a post whose id is taken instead of failing (a running Plaza's store). */
  skipTaken?: boolean;
  /**
   * The authors have an e-mail address (seed_user_N@seed.plaza.example) and a phone number
   * (contactPhone(N)), so custom audiences uploaded from their hashes match them (issue 34).
   */
  contacts?: boolean;
}

/** The generated author N's e-mail address and phone number (E.164), when seeded with contacts. */
export const contactEmail = (i: number) => `seed_user_${i}@seed.plaza.example`;
export const contactPhone = (i: number) => `+1555${String(i).padStart(7, '0')}`;

export interface SeedResult {
  usernames: string[];
  /** The authors' ids, in the order of `usernames`. */
  userIds: string[];
  words: string[];
  /** Posts written (fewer than asked only when `skipTaken` skipped some). */
  written: number;
  seconds: number;
}

/** Generated authors seed_user_0..N-1 (created when missing), with their contacts when asked (given to those without). */
async function seedUsers(db: Db, count: number, now: Date, contacts: boolean): Promise<string[][]> {
  const existing = new Map((await db.selectFrom('users').select(['id', 'username']).where('username', 'like', 'seed_user_%').execute()).map((u) => [u.username, u.id]));
  const out: string[][] = [];
  const rows = [];
  for (let i = 0; i < count; i++) {
    const username = `seed_user_${i}`;
    let id = existing.get(username);
    if (!id) {
      id = (((BigInt(now.getTime() - 400 * 86_400_000) - EPOCH_MS) << 22n) | BigInt(i)).toString();
      rows.push({
        id, username, username_lower: username, name: `Seed User ${i}`, password_hash: null, email: contacts ? contactEmail(i) : null, email_confirmed: contacts ? 1 : 0,
        created_at: new Date(now.getTime() - 400 * 86_400_000).toISOString(), description: i % 3 === 0 ? 'data scientist in Zürich' : 'writes about music and code',
        location: i % 2 ? 'Paris' : 'London', url: null, profile_image_url: 'https://abs.twimg.com/sticky/default_profile_images/default_profile_normal.png',
        profile_banner_url: null, protected: 0, verified: i % 10 === 0 ? 1 : 0, verified_type: i % 10 === 0 ? 'blue' : 'none', subscription_type: 'None',
        parody: 0, is_identity_verified: 0, pinned_post_id: null, most_recent_post_id: null, affiliation: null, entities: '{}', withheld: null,
        followers_count: 0, following_count: 0, post_count: 0, listed_count: 0, like_count: 0, media_count: 0,
      });
    }
    out.push([id, username]);
  }
  for (let i = 0; i < rows.length; i += 500) await db.insertInto('users').values(rows.slice(i, i + 500)).execute();
  if (contacts) {
    const at = now.toISOString();
    // Authors an earlier run made without contacts get theirs.
    for (const [i, [id, username]] of out.entries()) {
      if (existing.has(username)) await db.updateTable('users').set({ email: contactEmail(i), email_confirmed: 1 }).where('id', '=', id).where('email', 'is', null).execute();
    }
    for (let i = 0; i < out.length; i += 500) {
      const values = out.slice(i, i + 500).map(([id], index) => ({ user_id: id, phone_number: contactPhone(i + index), created_at: at }));
      await db.insertInto('user_phone_numbers').values(values).onConflict((oc) => oc.doNothing()).execute();
    }
  }
  return out;
}

/**
 * Writes `count` generated posts; returns the authors' usernames and the vocabulary.
 * - SQLite: batches of 500 rows, one transaction per 20 batches; the FTS5 triggers index each post.
 * - PostgreSQL, for a large load (50,000 posts or more), as bulk loads are done: the posts'
 *   secondary indexes (btree and GIN) are dropped first and built once at the end, which is far
 *   cheaper than a million incremental updates; rows go in as multi-row INSERT ... SELECT FROM
 *   unnest() of one array per column (one parameter per column for 5,000 rows, not one per value),
 *   with two writers in flight so the server computes the text column of one batch while this
 *   process generates the next. The past hours loaded are then counted by word
 *   (src/platform/search/term-hours.ts), as the server's job would count them, so counts and
 *   insights are fast from the start; that is part of the seeding time.
 */
export async function seedPosts(db: Db, o: SeedOptions & { dialect?: 'sqlite' | 'postgres' }): Promise<SeedResult> {
  const started = Date.now();
  const random = mulberry32(o.seed ?? 1);
  const words = vocabulary();
  const authors = await seedUsers(db, o.users, o.now, o.contacts ?? false);
  const batches = generatePosts(o, random, words, authors, o.dialect === 'postgres' ? PG_BATCH : SQLITE_BATCH);
  let written: number;
  if (o.dialect === 'postgres') {
    const rebuild = (o.bulkIndexes ?? o.count >= BULK_MIN) ? await dropSecondaryIndexes(db) : [];
    try {
      written = await writePostgres(db, batches, o);
    } finally {
      await rebuildIndexes(db, rebuild);
    }
    await countAllDueHours(db, o.now);
  } else {
    written = await writeSqlite(db, batches, o);
  }
  // The last part of a run: the planner learns the tables' new size and spread. Unanalysed, a
  // search over 200,000 new posts took 414 ms a query on PostgreSQL (planned as over none) and 47
  // on SQLite (through the index of reposts, for posts that are none), instead of 8.5 and 11.
  if ((o.first ?? 0) + o.count >= (o.of ?? o.count)) {
    if (o.dialect === 'postgres') await sql`analyze posts, users`.execute(db);
    else for (const table of ['posts', 'users']) await sql`analyze ${sql.table(table)}`.execute(db);
  }
  return { usernames: authors.map(([, u]) => u), userIds: authors.map(([id]) => id), words, written, seconds: (Date.now() - started) / 1000 };
}

const SQLITE_BATCH = 500;
const SQLITE_BATCHES_PER_TX = 20;
const PG_BATCH = 5000;
const PG_WRITERS = 2;
/** Below this many posts, dropping and building the indexes again costs more than it saves. */
const BULK_MIN = 50_000;

/** The generated posts, `size` at a time, oldest first. */
function* generatePosts(o: SeedOptions, random: () => number, words: string[], authors: string[][], size: number): Generator<PostRow[]> {
  // Zipf-like: index = floor(n^(u^1.6)) favours the first words strongly.
  const word = () => words[Math.min(words.length - 1, Math.floor(Math.pow(words.length, Math.pow(random(), 1.6))) - 1)];
  const end = o.now.getTime();
  const span = o.days * 86_400_000;
  const first = o.first ?? 0;
  const of = o.of ?? o.count;
  const salt = o.idSalt ?? 0;
  const recent: Array<{ id: string; author: string; conversation: string }> = [];
  for (let done = first; done < first + o.count; ) {
    const rows: PostRow[] = [];
    for (let k = 0; k < size && done < first + o.count; k++, done++) {
      const ms = end - span + Math.floor((done * span) / of);
      const id = (((BigInt(ms) - EPOCH_MS) << 22n) | BigInt((done + salt) & 0x3fffff)).toString();
      const [authorId] = authors[Math.floor(random() * authors.length)];
      const parts = Array.from({ length: 4 + Math.floor(random() * 8) }, word);
      if (random() < 0.2) parts.push(`#${word()}`);
      if (random() < 0.1) parts.push(`@${authors[Math.floor(random() * authors.length)][1]}`);
      if (random() < 0.05) parts.push(`https://example.com/${word()}`);
      const parent = recent.length > 0 && random() < 0.15 ? recent[Math.floor(random() * recent.length)] : undefined;
      const text = parts.join(' ');
      rows.push({
        id, author_id: authorId, text, created_at: new Date(ms).toISOString(), conversation_id: parent ? parent.conversation : id,
        in_reply_to_user_id: parent ? parent.author : null, referenced_posts: parent ? JSON.stringify([{ type: 'replied_to', id: parent.id }]) : '[]',
        media_keys: '[]', poll_ids: '[]', media_source_post_ids: null, lang: random() < 0.8 ? 'en' : 'fr', source: 'Plaza seed', possibly_sensitive: 0, reply_settings: 'everyone',
        entities: JSON.stringify(parseEntities(text)), context_annotations: '[]', paid_partnership: 0, community_id: null,
        edit_history_post_ids: JSON.stringify([id]), edit_controls: JSON.stringify(newEditControls(new Date(ms))),
        geo: null, withheld: null, scopes: null, retweet_count: Math.floor(random() * random() * 20), reply_count: Math.floor(random() * random() * 10),
        like_count: Math.floor(random() * random() * 100), quote_count: 0, bookmark_count: 0, impression_count: 0, deleted_at: null,
        in_reply_to_post_id: parent ? parent.id : null, quoted_post_id: null, reposted_post_id: null, share_with_followers: 0, reply_hidden: 0, superseded_by_id: null,
        nullcast: 0,
      });
      if (recent.length < 1000) recent.push({ id, author: authorId, conversation: parent ? parent.conversation : id });
      else if (random() < 0.01) recent[Math.floor(random() * recent.length)] = { id, author: authorId, conversation: parent ? parent.conversation : id };
    }
    yield rows;
  }
}

async function writeSqlite(db: Db, batches: Iterator<PostRow[]>, o: SeedOptions): Promise<number> {
  let done = 0;
  let written = 0;
  for (let finished = false; !finished; ) {
    await db.transaction().execute(async (tx) => {
      for (let b = 0; b < SQLITE_BATCHES_PER_TX; b++) {
        const next = batches.next();
        if (next.done) {
          finished = true;
          return;
        }
        const insert = tx.insertInto('posts').values(next.value);
        const result = await (o.skipTaken ? insert.onConflict((oc) => oc.column('id').doNothing()) : insert).executeTakeFirst();
        written += Number(result.numInsertedOrUpdatedRows ?? BigInt(next.value.length));
        done += next.value.length;
      }
    });
    o.progress?.(done, o.count);
  }
  return written;
}

/** One INSERT ... SELECT FROM unnest() per batch: an array per column, integer columns as int8[]. */
async function insertUnnest(db: Db, rows: readonly PostRow[], skipTaken: boolean): Promise<number> {
  const columns = Object.keys(rows[0]) as Array<keyof PostRow>;
  const arrays = columns.map((c) => {
    const values = rows.map((r) => r[c]);
    const numeric = typeof rows[0][c] === 'number';
    return numeric ? sql`${values}::int8[]` : sql`${values}::text[]`;
  });
  const result = await sql`insert into posts (${sql.join(columns.map((c) => sql.id(c)))}) select * from unnest(${sql.join(arrays)}) ${skipTaken ? sql`on conflict (id) do nothing` : sql``}`.execute(db);
  return Number(result.numAffectedRows ?? BigInt(rows.length));
}

async function writePostgres(db: Db, batches: Iterable<PostRow[]>, o: SeedOptions): Promise<number> {
  let done = 0;
  let written = 0;
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  for (const rows of batches) {
    const write: Promise<void> = insertUnnest(db, rows, o.skipTaken ?? false).then(
      (n) => {
        written += n;
        done += rows.length;
        o.progress?.(done, o.count);
      },
      (err) => {
        failure ??= err;
      },
    );
    const tracked = write.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
    if (inFlight.size >= PG_WRITERS) await Promise.race(inFlight);
    if (failure) break;
  }
  await Promise.all(inFlight);
  if (failure) throw failure;
  return written;
}

/** Drops the non-unique indexes of posts (the primary key and unique ones stay); answers their definitions. */
async function dropSecondaryIndexes(db: Db): Promise<string[]> {
  const indexes = await sql<{ indexname: string; indexdef: string }>`
    select c.relname as indexname, pg_get_indexdef(c.oid) as indexdef
    from pg_index x join pg_class c on c.oid = x.indexrelid
    where x.indrelid = 'posts'::regclass and not x.indisunique`.execute(db);
  for (const i of indexes.rows) await sql`drop index ${sql.id(i.indexname)}`.execute(db);
  return indexes.rows.map((i) => i.indexdef);
}

/** Builds the dropped indexes again, `PG_WRITERS` at a time (each on its own connection, with room to sort in memory). */
async function rebuildIndexes(db: Db, definitions: readonly string[]): Promise<void> {
  const queue = [...definitions];
  const builder = () =>
    db.connection().execute(async (conn) => {
      await sql`set maintenance_work_mem = '256MB'`.execute(conn);
      for (let def = queue.shift(); def !== undefined; def = queue.shift()) await sql.raw(def).execute(conn);
      await sql`reset maintenance_work_mem`.execute(conn);
    });
  await Promise.all(Array.from({ length: Math.min(PG_WRITERS, queue.length) }, builder));
}
