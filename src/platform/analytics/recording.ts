import type { PlatformContext } from '../context.js';
import type { PostRow } from '../posts/wire.js';
import { addHourlyImpressions } from './store.js';

const HOUR_MS = 60 * 60 * 1000;

/** The start of the UTC hour holding `at`, as stored. */
export const hourOf = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS).toISOString();

const ledgers = new WeakMap<PlatformContext, PendingImpressions>();

/**
 * The impression ledger's source: each post an answer lists in `data` for a signed-in user who is
 * not its author counts one impression in its hour's bucket (called where a lookup, timeline or
 * search renders its posts, with the rows it shows). App-only reads are no one's view and are not
 * counted. Counts are added up in memory and written at most once a second, one upsert per hour:
 * written per answer, concurrent timelines showing the same posts queued on the same rows' locks.
 * A reader of the ledger in this process flushes first (flushImpressions), so it sees every
 * impression this process counted; other processes' reach the ledger within a second. A failed
 * write is logged and never reaches a client.
 */
export function recordImpressions(ctx: PlatformContext, viewerId: string | undefined, posts: readonly PostRow[]): void {
  if (!viewerId || posts.length === 0) return;
  ledgerOf(ctx).add(viewerId, hourOf(ctx.clock.now()), posts);
}

/** Writes the impressions this process has counted and not yet written. */
export function flushImpressions(ctx: PlatformContext): Promise<void> {
  return ledgerOf(ctx).flush();
}

function ledgerOf(ctx: PlatformContext): PendingImpressions {
  let ledger = ledgers.get(ctx);
  if (!ledger) ledgers.set(ctx, (ledger = new PendingImpressions(ctx)));
  return ledger;
}

/** How long counted impressions may wait in memory before they are written. */
const FLUSH_MS = 1_000;

class PendingImpressions {
  /** hour -> post id -> impressions not yet written. */
  private pending = new Map<string, Map<string, number>>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly ctx: PlatformContext) {}

  add(viewerId: string, hour: string, posts: readonly PostRow[]): void {
    let counts = this.pending.get(hour);
    for (const post of posts) {
      if (post.author_id === viewerId) continue;
      if (!counts) this.pending.set(hour, (counts = new Map()));
      counts.set(post.id, (counts.get(post.id) ?? 0) + 1);
    }
    if (counts && !this.timer) {
      this.timer = setTimeout(() => void this.flush().catch((err: unknown) => this.ctx.log.error({ err }, 'impressions not recorded')), FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Writes what is pending, after any write already under way (one at a time, in order). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = new Map();
    const write = this.writing.catch(() => {}).then(async () => {
      for (const [hour, counts] of batch) if (counts.size > 0) await addHourlyImpressions(this.ctx.store.db, hour, counts);
    });
    this.writing = write;
    return write;
  }
}
