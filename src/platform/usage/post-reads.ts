import type { AppRow } from '../../auth/store.js';
import type { Tier } from '../../store/schema.js';
import { BatchedWrites } from '../../store/batched-writes.js';
import type { PlatformContext } from '../context.js';
import { usageCapped } from './capped.js';
import { addPostsRead, postsReadSince } from './store.js';

/**
 * The posts each app read, on every tier (the public platform's "Post cap"; Plaza's project is the
 * app): each post an answer lists in `data` (lookups, timelines, search, lists, likes, bookmarks:
 * wherever posts are rendered for a caller) and each post a stream sends, counted once per UTC day
 * however often it is read that day. GET /2/usage/posts reports them; the self-serve tiers'
 * monthly caps refuse post reads past them with usage-capped (Monthly, Product).
 *
 * Reads are counted in memory and written at most once a second (BatchedWrites): counted per
 * answer, every read would be a write. This process's count of an app's month is exact (what the
 * store held when last read, plus what this process wrote and counted since); other processes'
 * reads are seen within MONTH_STALE_MS.
 */

/** Posts a month per tier; enterprise's caps are contractual (none here). Pay-per-use: 2 million post reads a month. */
export const POST_CAPS: Readonly<Partial<Record<Tier, number>>> = { free: 100, basic: 15_000, pro: 1_000_000, 'pay-per-use': 2_000_000 };

/** How long this process trusts its count of an app's month before reading the store again (other processes' reads). */
const MONTH_STALE_MS = 1_000;

/** app id -> day (yyyy-mm-dd) -> post ids read and not yet written. */
type Batch = Map<string, Map<string, Set<string>>>;

const dayOf = (at: Date) => at.toISOString().slice(0, 10);
const monthOf = (at: Date) => at.toISOString().slice(0, 7);

class PostReads {
  readonly batches: BatchedWrites<Batch>;
  /** app id -> its posts read this month as the store held them, with the writes of this process since added. */
  private readonly months = new Map<string, { month: string; posts: number; at: number }>();

  constructor(private readonly ctx: PlatformContext) {
    const store = ctx.store;
    this.batches = new BatchedWrites<Batch>(
      () => new Map(),
      async (batch) => {
        for (const [appId, days] of batch) {
          for (const [day, ids] of days) {
            const added = await addPostsRead(store.db, store.dialect, appId, day, [...ids]);
            const kept = this.months.get(appId);
            if (kept && day.startsWith(kept.month)) kept.posts += added;
          }
        }
      },
      (err) => ctx.log.error({ err }, 'post reads not recorded'),
    );
  }

  count(appId: string, postIds: Iterable<string>): void {
    const day = dayOf(this.ctx.clock.now());
    const batch = this.batches.current;
    let days = batch.get(appId);
    if (!days) batch.set(appId, (days = new Map()));
    let ids = days.get(day);
    if (!ids) days.set(day, (ids = new Set()));
    for (const id of postIds) ids.add(id);
    this.batches.added();
  }

  /** The app's posts read this month, as far as this process knows without a query; undefined when the store must be read. */
  known(appId: string, now: Date): number | undefined {
    const kept = this.months.get(appId);
    if (!kept || kept.month !== monthOf(now) || Date.now() - kept.at > MONTH_STALE_MS) return undefined;
    return kept.posts + this.unwritten(appId, kept.month);
  }

  /** The app's posts read this month, read from the store when this process's count is stale. */
  async used(appId: string, now: Date, fresh = false): Promise<number> {
    const known = fresh ? undefined : this.known(appId, now);
    if (known !== undefined) return known;
    const month = monthOf(now);
    // Read between writes, so each write is either in what is read or added to it afterwards.
    const posts = await this.batches.serial(() => postsReadSince(this.ctx.store.db, appId, `${month}-01`));
    this.months.set(appId, { month, posts, at: Date.now() });
    return posts + this.unwritten(appId, month);
  }

  /** Posts counted and not yet written (at most: some may have been read earlier that day). */
  private unwritten(appId: string, month: string): number {
    let posts = 0;
    for (const batch of this.batches.unwritten()) for (const [day, ids] of batch.get(appId) ?? []) if (day.startsWith(month)) posts += ids.size;
    return posts;
  }
}

/** One meter per store: each world counts its own reads (src/worlds/). */
const meters = new WeakMap<PlatformContext['store'], PostReads>();

function readsOf(ctx: PlatformContext): PostReads {
  let reads = meters.get(ctx.store);
  if (!reads) meters.set(ctx.store, (reads = new PostReads(ctx)));
  return reads;
}

/** Counts the posts an app was shown (rendered for its caller, or sent on its stream). */
export function countPostsRead(ctx: PlatformContext, appId: string | undefined, posts: readonly { id: string }[]): void {
  if (!appId || posts.length === 0) return;
  readsOf(ctx).count(appId, posts.map((p) => p.id));
}

/** Writes the reads this process has counted and not yet written. */
export function flushPostReads(ctx: PlatformContext): Promise<void> {
  return readsOf(ctx).batches.flush();
}

/** The app's posts read this month: what GET /2/usage/posts reports as project_usage. */
export async function postsReadThisMonth(ctx: PlatformContext, appId: string): Promise<number> {
  return readsOf(ctx).used(appId, ctx.clock.now());
}

/** Whether the app is known, without a query, to be below its post cap (or to have none): the cap check's fast path. */
export function knownBelowPostCap(ctx: PlatformContext, app: Pick<AppRow, 'id' | 'tier'>): boolean {
  const cap = POST_CAPS[app.tier];
  if (cap === undefined) return true;
  const known = readsOf(ctx).known(app.id, ctx.clock.now());
  return known !== undefined && known < cap;
}

/**
 * The post cap check, before a request that reads posts: 429 usage-capped (Monthly, Product)
 * once the app has read its tier's posts this month. Near the cap the count is made exact first
 * (what this process counted is written, and the store read again).
 */
export async function checkPostCap(ctx: PlatformContext, app: Pick<AppRow, 'id' | 'owner_user_id' | 'tier'>): Promise<void> {
  const cap = POST_CAPS[app.tier];
  if (cap === undefined) return;
  const reads = readsOf(ctx);
  const now = ctx.clock.now();
  if ((await reads.used(app.id, now)) < cap) return;
  await reads.batches.flush();
  if ((await reads.used(app.id, now, true)) < cap) return;
  throw usageCapped(app, 'Monthly', 'Product');
}
