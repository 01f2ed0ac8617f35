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
  private readonly authors = new Map<string, Kept>();
  private size = 0;
  private generation: string | undefined;

  /** `perAuthor`: how many of each author's newest posts are kept. */
  constructor(
    private readonly store: Store,
    private readonly perAuthor = PER_AUTHOR,
  ) {}

  /** pagedAuthorKeys' page from what is kept (reading what is missing); undefined when the store must answer it. */
  async page(db: DbOrTx, authors: readonly string[], home: boolean, window: TimeWindow, limit: number, after?: PageAfter): Promise<PostKey[] | undefined> {
    if (db !== this.store.db) return undefined;
    const generation = this.store.tableGeneration('posts');
    if (generation === undefined) return undefined;
    if (generation !== this.generation) {
      this.authors.clear();
      this.size = 0;
      this.generation = generation;
    }
    const lists: Kept[] = [];
    for (const author of authors) {
      let kept = this.authors.get(author);
      if (!kept) {
        kept = await readKept(db, author, this.perAuthor);
        // A write that overlapped the read leaves the generation changed: keep nothing read under it.
        if (this.store.tableGeneration('posts') !== generation) return undefined;
        this.remember(author, kept);
      }
      lists.push(kept);
    }
    return mergePage(lists, home, window, limit, after);
  }

  private remember(author: string, kept: Kept): void {
    this.authors.set(author, kept);
    this.size += kept.ids.length;
    for (const [oldest, list] of this.authors) {
      if (this.size <= CAPACITY || oldest === author) break;
      this.authors.delete(oldest);
      this.size -= list.ids.length;
    }
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
  private readonly kept = new Map<string, readonly string[]>();
  private generation: string | undefined;

  constructor(private readonly store: Store) {}

  async of(db: DbOrTx, userId: string, read: (db: DbOrTx, userId: string) => Promise<string[]>): Promise<readonly string[]> {
    const generation = db === this.store.db ? this.currentGeneration() : undefined;
    if (generation === undefined) return read(db, userId);
    if (generation !== this.generation) {
      this.kept.clear();
      this.generation = generation;
    }
    let authors = this.kept.get(userId);
    if (!authors) {
      authors = await read(db, userId);
      // A write that overlapped the read leaves the generation changed: keep nothing read under it.
      if (this.currentGeneration() === generation) {
        if (this.kept.size >= HOME_CAPACITY) this.kept.delete(this.kept.keys().next().value!);
        this.kept.set(userId, authors);
      }
    }
    return authors;
  }

  private currentGeneration(): string | undefined {
    const parts = ['follows', 'mutes', 'blocks'].map((table) => this.store.tableGeneration(table));
    return parts.includes(undefined) ? undefined : parts.join('/');
  }
}
