import { startPolledJob, type PolledJob } from '../../polled-job.js';
import type { DbOrTx } from '../../store/store.js';
import { expiredOpenChatMedia, moveChatMedia } from '../chats/store.js';
import type { PlatformContext } from '../context.js';
import { expiredOpenUploads, moveUpload } from './store.js';

/** How often each process looks for uploads that expired open (they refuse further segments from the moment they expire; this frees their space). */
const SWEEP_MS = 60_000;
/** Batches of 100 a sweep at most; the next sweep takes the rest. */
const BATCHES = 10;
const BATCH = 100;

/** The two kinds of chunked upload (media, chat media): where each finds its sessions that ran out open, and how one is marked expired. */
const KINDS: Array<{ expiredOpen(db: DbOrTx, now: string, limit: number): Promise<Array<{ id: string }>>; markExpired(db: DbOrTx, id: string): Promise<boolean> }> = [
  { expiredOpen: expiredOpenUploads, markExpired: (db, id) => moveUpload(db, id, 'uploading', 'expired') },
  { expiredOpen: expiredOpenChatMedia, markExpired: (db, id) => moveChatMedia(db, id, 'uploading', { state: 'expired' }) },
];

/**
 * Frees what chunked uploads abandoned (INIT and some APPENDs, never FINALIZE): once an upload's
 * 24 hours run out (by the world's clock), its segments go from wherever media live (the store,
 * the data directory, the bucket), then the session says so (`expired`; APPEND, FINALIZE and
 * STATUS refuse it as expired, as they did before: `uploadExpired`). Segments first, so a failure
 * (the bucket out of reach) leaves the session to the next sweep. Every process sweeps; two that
 * meet the same upload both remove its segments, which is harmless.
 */
export function startUploadSweeper(ctx: PlatformContext): PolledJob {
  return startPolledJob(ctx, 'freeing expired uploads failed', () => sweepExpiredUploads(ctx), SWEEP_MS);
}

/** One sweep: media uploads, then chat media uploads, BATCHES batches of each at most. */
export async function sweepExpiredUploads(ctx: PlatformContext): Promise<void> {
  for (const kind of KINDS) {
    for (let i = 0; i < BATCHES; i++) {
      const expired = await kind.expiredOpen(ctx.store.db, ctx.clock.now().toISOString(), BATCH);
      for (const { id } of expired) {
        await ctx.media.dropUpload(id);
        await kind.markExpired(ctx.store.db, id);
      }
      if (expired.length < BATCH) break;
    }
  }
}
