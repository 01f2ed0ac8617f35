import { CompiledQuery } from 'kysely';
import type { DbOrTx, Store, StoreDialect } from '../../store/store.js';
import type { FreshGeneration } from '../../store/snapshots.js';
import { readJsonRows, rowsAsJsonArray } from '../../store/json-rows.js';
import { preparedOnPostgres } from '../../store/prepared-statements.js';
import { LIVE, SHARED as SHARED_SQL, type PageAfter, type PostKey, type TimeWindow } from './store.js';

/** How many of an author's newest live posts are kept: the first pages of their timelines. */
const PER_AUTHOR = 500;
/** How many keys are kept in all (a few tens of MB at most); past it the authors read earliest go. */
const CAPACITY = 100_000;

const SHARED = 1;
const REPLY = 2;
const REPOST = 4;

/** An author's newest live posts, newest first by (created_at, id), with what timelines filter on. */
interface Kept {
  ids: string[];
  times: string[];
  /** SHARED (not a community post, or shared with followers), REPLY, REPOST. */
  flags: Uint8Array;
  /** Whether these are all the author's live posts. */
  complete: boolean;
}

/**
 * The keys of each author's newest live posts, kept while the posts table's generation holds (on
 * SQLite its write generation; on
 * PostgreSQL the generation of the response that asks, Store.freshGeneration), so that a page of
 * a home or user timeline over authors read before is merged in memory instead of asked of the
 * store: every timeline that shows an author shares what is kept of them, whoever asks and
 * whichever page. pagedAuthorKeys asks the store itself when nothing may be kept (a transaction,
 * PostgreSQL without a settled generation) and when the page reaches past what is kept of an
 * author. The page rules applied here are those of authorsPageShape (./store.ts), which the tests
 * hold to the same answers.
 */
export class AuthorPosts {
  private readonly kept: KeptUnderGeneration<Kept>;

  /** `perAuthor`: how many of each author's newest posts are kept. */
  constructor(
    private readonly store: Store,
    private readonly perAuthor = PER_AUTHOR,
  ) {
    this.kept = new KeptUnderGeneration(store, ['posts'], CAPACITY, (list) => list.ids.length);
  }

  /** pagedAuthorKeys' page from what is kept (reading what is missing); undefined when the store must answer it. */
  async page(db: DbOrTx, authors: readonly string[], home: boolean, window: TimeWindow, limit: number, after?: PageAfter, fresh?: FreshGeneration): Promise<PostKey[] | undefined> {
    const generation = this.kept.current(db, fresh);
    if (generation === undefined) return undefined;
    // In the order of `authors` (a home timeline's owner first).
    const lists = authors.map((author) => this.kept.get(author));
    const missing = authors.filter((_, i) => lists[i] === undefined);
    if (missing.length > 0) {
      const read = await readKept(db, this.store.dialect, missing, this.perAuthor);
      let next = 0;
      for (let i = 0; i < lists.length; i++) {
        if (lists[i] !== undefined) continue;
        if (!this.kept.keep(authors[i], read[next], generation)) return undefined;
        lists[i] = read[next++];
      }
    }
    return mergePage(lists as Kept[], home, window, limit, after);
  }
}

/** An entry of a kept list as readKept's queries answer it (SQLite gives the flags as 0 or 1, PostgreSQL as booleans). */
type KeptRow = { id: string; created_at: string; shared: number | boolean; reply: number | boolean; repost: number | boolean };

/** The columns of a kept list's entries, as readKept's queries select them. */
const KEPT_COLUMNS = `posts.id, posts.created_at, ${SHARED_SQL} as shared, posts.in_reply_to_user_id is not null as reply, posts.reposted_post_id is not null as repost`;
/** Newest first, through the index of migration 0030 (its live conditions stated literally). */
const KEPT_ORDER = `${LIVE} order by posts.created_at desc, posts.id desc limit`;

/**
 * Each author's newest `count` live posts, in the order of `authors`: on SQLite a statement per
 * author (no round trips), on PostgreSQL one query for them all.
 */
async function readKept(db: DbOrTx, dialect: StoreDialect, authors: readonly string[], count: number): Promise<Kept[]> {
  if (dialect === 'postgres') {
    const rows = await readJsonRows<KeptRow & { n: number }>(db, KEPT_MANY, [authors, count + 1]);
    const byAuthor: KeptRow[][] = authors.map(() => []);
    for (const row of rows) byAuthor[row.n - 1].push(row);
    return byAuthor.map((list) => keptOf(list, count));
  }
  const out: Kept[] = [];
  for (const author of authors) {
    const { rows } = await db.executeQuery<KeptRow>(CompiledQuery.raw(`select ${KEPT_COLUMNS} from posts where posts.author_id = ? and ${KEPT_ORDER} ?`, [author, count + 1]));
    out.push(keptOf(rows, count));
  }
  return out;
}

/** PostgreSQL: readKept's lists of several authors in one query, each row numbered by its author's place in the list. */
const KEPT_MANY = preparedOnPostgres(
  rowsAsJsonArray(
    `select a.n, p.* from unnest($1::text[]) with ordinality a(author, n) cross join lateral (select ${KEPT_COLUMNS} from posts where posts.author_id = a.author and ${KEPT_ORDER} $2) p`,
    'r.n, r.created_at desc, r.id desc',
  ),
);

/** A kept list of the rows read (one more than `count`, to tell whether they are all). */
function keptOf(rows: readonly KeptRow[], count: number): Kept {
  const n = Math.min(rows.length, count);
  const kept: Kept = { ids: new Array(n), times: new Array(n), flags: new Uint8Array(n), complete: rows.length <= count };
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    kept.ids[i] = r.id;
    kept.times[i] = r.created_at;
    kept.flags[i] = (r.shared ? SHARED : 0) | (r.reply ? REPLY : 0) | (r.repost ? REPOST : 0);
  }
  return kept;
}

/** Whether entry `i` of `list` sorts before (created_at, id) = (time, id), newest first. */
function newerThan(list: Kept, i: number, time: string, id: string): boolean {
  const t = list.times[i];
  return t > time || (t === time && list.ids[i] > id);
}

/** The first entry of `list` after the cursor (older than it). */
function firstAfter(list: Kept, after: PageAfter): number {
  let lo = 0;
  let hi = list.ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (newerThan(list, mid, after.createdAt, after.id) || (list.times[mid] === after.createdAt && list.ids[mid] === after.id)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The page, merged from the authors' kept lists (the first author a home timeline's owner), or
 * undefined when it would need an entry older than what is kept of an author who has more.
 */
function mergePage(lists: readonly Kept[], home: boolean, window: TimeWindow, limit: number, after?: PageAfter): PostKey[] | undefined {
  const at = lists.map((list) => (after ? firstAfter(list, after) : 0));
  // Sorted newest first: past start_time, nothing older of that author can show.
  const done = lists.map(() => false);
  // The window's bounds as windowConditions (./store.ts) reads them: an empty one is none.
  const shows = (list: Kept, i: number, owner: boolean): boolean => {
    const flags = list.flags[i];
    if (home && !owner && !(flags & SHARED)) return false;
    if (window.excludeReplies && flags & REPLY) return false;
    if (window.excludeReposts && flags & REPOST) return false;
    const id = list.ids[i];
    if (window.sinceId && !(id > window.sinceId)) return false;
    if (window.untilId && !(id < window.untilId)) return false;
    if (window.endTime && !(list.times[i] < window.endTime)) return false;
    return true;
  };
  const out: PostKey[] = [];
  while (out.length < limit) {
    let best = -1;
    for (let a = 0; a < lists.length; a++) {
      if (done[a]) continue;
      const list = lists[a];
      while (at[a] < list.ids.length && !shows(list, at[a], a === 0)) {
        if (window.startTime && list.times[at[a]] < window.startTime) break;
        at[a]++;
      }
      if (at[a] >= list.ids.length) {
        if (!list.complete) return undefined;
        done[a] = true;
        continue;
      }
      if (window.startTime && list.times[at[a]] < window.startTime) {
        done[a] = true;
        continue;
      }
      if (best < 0 || newerThan(list, at[a], lists[best].times[at[best]], lists[best].ids[at[best]])) best = a;
    }
    if (best < 0) break;
    const list = lists[best];
    out.push({ id: list.ids[at[best]], created_at: list.times[at[best]] });
    at[best]++;
  }
  return out;
}

/** How many users' home-timeline authors are kept. */
const HOME_CAPACITY = 10_000;

/**
 * The authors of users' home timelines (homeAuthors: the user, then whom they follow, minus whom
 * they mute or block), kept while the generations of follows, mutes and blocks hold (on
 * PostgreSQL, the response's generation).
 */
export class HomeAuthors {
  private readonly kept: KeptUnderGeneration<readonly string[]>;

  constructor(store: Store) {
    this.kept = new KeptUnderGeneration(store, ['follows', 'mutes', 'blocks'], HOME_CAPACITY);
  }

  /** The user's home authors, kept, or read by `read` (and kept where they may be: not in a transaction; on PostgreSQL under a settled `fresh`). */
  async of(db: DbOrTx, userId: string, read: (db: DbOrTx, userId: string) => Promise<string[]>, fresh?: FreshGeneration): Promise<readonly string[]> {
    const generation = this.kept.current(db, fresh);
    if (generation === undefined) return read(db, userId);
    let authors = this.kept.get(userId);
    if (!authors) {
      authors = await read(db, userId);
      this.kept.keep(userId, authors, generation);
    }
    return authors;
  }
}

/**
 * Values read from some tables, kept while those tables' generations hold: on SQLite their write generations (every write to them
 * through this process, and every commit by another connection, changes them); on PostgreSQL the
 * database's generation that the response asking gives (Store.freshGeneration), once settled.
 * Nothing is kept for a read through a transaction. Past `capacity` (each value counting
 * `sizeOf` of it), the values kept earliest go.
 */
class KeptUnderGeneration<V> {
  private readonly values = new Map<string, V>();
  private size = 0;
  private generation: string | undefined;
  /** PostgreSQL: kept under the generations responses give, not under the tables' write generations. */
  private readonly byResponse: boolean;

  constructor(
    private readonly store: Store,
    private readonly tables: readonly string[],
    private readonly capacity: number,
    private readonly sizeOf: (value: V) => number = () => 1,
  ) {
    this.byResponse = store.freshGeneration !== undefined;
  }

  /**
   * The generation a read through `db` is made under, forgetting what was kept under another;
   * undefined when nothing may be kept. On PostgreSQL, `fresh` is the response's: a generation
   * not seen settled yet (the store changing under constant writes) is not worth filling.
   */
  current(db: DbOrTx, fresh?: FreshGeneration): string | undefined {
    if (db !== this.store.db) return undefined;
    const generation = this.byResponse ? (fresh?.settled ? fresh.generation : undefined) : this.now();
    if (generation !== undefined && generation !== this.generation) {
      this.values.clear();
      this.size = 0;
      this.generation = generation;
    }
    return generation;
  }

  get(key: string): V | undefined {
    return this.values.get(key);
  }

  /**
   * Keeps a value read under `generation`, unless a write overlapped the read (SQLite: the
   * generation changed) or another generation came meanwhile: answers whether it kept it. On
   * PostgreSQL a value read after its response's generation was taken is current under it: a
   * write that landed between makes every later response's generation another.
   */
  keep(key: string, value: V, generation: string): boolean {
    if ((this.byResponse ? generation : this.now()) !== generation || this.generation !== generation) return false;
    const previous = this.values.get(key);
    if (previous !== undefined) {
      this.values.delete(key);
      this.size -= this.sizeOf(previous);
    }
    this.values.set(key, value);
    this.size += this.sizeOf(value);
    for (const [oldest, kept] of this.values) {
      if (this.size <= this.capacity || oldest === key) break;
      this.values.delete(oldest);
      this.size -= this.sizeOf(kept);
    }
    return true;
  }

  private now(): string | undefined {
    return this.store.tableGeneration(...this.tables);
  }
}
