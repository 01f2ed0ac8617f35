import type { PlatformContext } from '../context.js';
import type { PostRow } from '../posts/wire.js';
import { BatchedWrites } from '../../store/batched-writes.js';
import { addHourlyImpressions } from './store.js';

const HOUR_MS = 60 * 60 * 1000;

/** The start of the UTC hour holding `at`, as stored. */
export const hourOf = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS).toISOString();

/** One ledger per store: each world's counts go to its own (src/worlds/). */
const ledgers = new WeakMap<PlatformContext['store'], BatchedWrites<Map<string, Map<string, number>>>>();

/**
 * The impression ledger's source: each post an answer lists in `data` for a signed-in user who is
 * not its author counts one impression in its hour's bucket (called where a lookup, timeline or
 * search renders its posts, with the rows it shows). App-only reads are no one's view and are not
 * counted. Counts are kept as BatchedWrites keeps them (one upsert per hour, at most once a
 * second): written per answer, concurrent timelines showing the same posts queued on the same
 * rows' locks. A reader of the ledger flushes first (flushImpressions).
 */
export function recordImpressions(ctx: PlatformContext, viewerId: string | undefined, posts: readonly PostRow[]): void {
  if (!viewerId || posts.length === 0) return;
  const ledger = ledgerOf(ctx);
  const hour = hourOf(ctx.clock.now());
  let counts = ledger.current.get(hour);
  for (const post of posts) {
    if (post.author_id === viewerId) continue;
    if (!counts) ledger.current.set(hour, (counts = new Map()));
    counts.set(post.id, (counts.get(post.id) ?? 0) + 1);
  }
  if (counts) ledger.added();
}

/** Writes the impressions this process has counted and not yet written. */
export function flushImpressions(ctx: PlatformContext): Promise<void> {
  return ledgerOf(ctx).flush();
}

function ledgerOf(ctx: PlatformContext): BatchedWrites<Map<string, Map<string, number>>> {
  const store = ctx.store;
  let ledger = ledgers.get(store);
  if (!ledger) {
    ledger = new BatchedWrites(
      () => new Map(),
      async (batch) => {
        for (const [hour, counts] of batch) if (counts.size > 0) await addHourlyImpressions(store.db, hour, counts);
      },
      (err) => ctx.log.error({ err }, 'impressions not recorded'),
    );
    ledgers.set(store, ledger);
  }
  return ledger;
}
