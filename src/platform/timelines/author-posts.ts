import { CompiledQuery } from 'kysely';
import type { DbOrTx, Store } from '../../store/store.js';
import type { TimeWindow } from '../graph/query.js';
import { LIVE, SHARED as SHARED_SQL, type PageAfter, type PostKey } from './store.js';

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
 * The keys of each author's newest live posts, kept on SQLite while the posts table's write
 * generation holds (as the entity caches keep rows, src/platform/entities.ts), so that a page of
 * a home or user timeline over authors read before is merged in memory instead of asked of the
 * store: every timeline that shows an author shares what is kept of them, whoever asks and
 * whichever page. pagedAuthorKeys asks the store itself when nothing may be kept (PostgreSQL, a
 * transaction) and when the page reaches past what is kept of an author. The page rules applied
 * here are those of authorsPageShape (./store.ts), which the tests hold to the same answers.
 */
export class AuthorPosts {
  private readonly kept: KeptUnderGeneration<Kept>;

  /** `perAuthor`: how many of each author's newest posts are kept. */
  constructor(
    store: Store,
    private readonly perAuthor = PER_AUTHOR,
  ) {
    this.kept = new KeptUnderGeneration(store, ['posts'], CAPACITY, (list) => list.ids.length);
  }

  /** pagedAuthorKeys' page from what is kept (reading what is missing); undefined when the store must answer it. */
  async page(db: DbOrTx, authors: readonly string[], home: boolean, window: TimeWindow, limit: number, after?: PageAfter): Promise<PostKey[] | undefined> {
    const generation = this.kept.current(db);
    if (generation === undefined) return undefined;
    const lists: Kept[] = [];
    for (const author of authors) {
      let list = this.kept.get(author);
      if (!list) {
        list = await readKept(db, author, this.perAuthor);
        if (!this.kept.keep(author, list, generation)) return undefined;
      }
      lists.push(list);
    }
    return mergePage(lists, home, window, limit, after);
  }
}

/** The author's newest `count` live posts, through the index of migration 0030 (its live conditions stated literally). */
async function readKept(db: DbOrTx, author: string, count: number): Promise<Kept> {
  const { rows } = await db.executeQuery<{ id: string; created_at: string; shared: number; reply: number; repost: number }>(
    CompiledQuery.raw(
      `select posts.id, posts.created_at, ${SHARED_SQL} as shared, posts.in_reply_to_user_id is not null as reply, posts.reposted_post_id is not null as repost ` +
        `from posts where posts.author_id = ? and ${LIVE} order by posts.created_at desc, posts.id desc limit ?`,
      [author, count + 1],
    ),
  );
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
 * they mute or block), kept on SQLite while the write generations of follows, mutes and blocks
 * hold; read afresh elsewhere (PostgreSQL, a transaction).
 */
export class HomeAuthors {
  private readonly kept: KeptUnderGeneration<readonly string[]>;

  constructor(store: Store) {
    this.kept = new KeptUnderGeneration(store, ['follows', 'mutes', 'blocks'], HOME_CAPACITY);
  }

  async of(db: DbOrTx, userId: string, read: (db: DbOrTx, userId: string) => Promise<string[]>): Promise<readonly string[]> {
    const generation = this.kept.current(db);
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
 * Values read from some tables, kept while those tables' write generations hold (SQLite: every
 * write to them through this process, and every commit by another connection, changes them),
 * as the entity caches keep rows (src/platform/entities.ts). Nothing is kept where there is no
 * generation (PostgreSQL) or for a read through a transaction. Past `capacity` (each value
 * counting `sizeOf` of it), the values kept earliest go.
 */
class KeptUnderGeneration<V> {
  private readonly values = new Map<string, V>();
  private size = 0;
  private generation: string | undefined;

  constructor(
    private readonly store: Store,
    private readonly tables: readonly string[],
    private readonly capacity: number,
    private readonly sizeOf: (value: V) => number = () => 1,
  ) {}

  /** The generation a read through `db` is made under, forgetting what was kept under another; undefined when nothing may be kept. */
  current(db: DbOrTx): string | undefined {
    if (db !== this.store.db) return undefined;
    const generation = this.now();
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

  /** Keeps a value read under `generation`, unless a write overlapped the read (the generation changed): answers whether it did. */
  keep(key: string, value: V, generation: string): boolean {
    if (this.now() !== generation || this.generation !== generation) return false;
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
