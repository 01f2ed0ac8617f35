import { startPolledJob, type PolledJob } from '../../polled-job.js';
import { closeExpiredChatMedia } from '../chats/media.js';
import type { PlatformContext } from '../context.js';
import { closeExpiredUploads } from './service.js';

/** How often each process looks for uploads that expired open (they refuse further segments from the moment they expire; this frees their space). */
const SWEEP_MS = 60_000;
/** Batches of 100 a sweep at most; the next sweep takes the rest. */
const BATCHES = 10;

/**
 * Frees what chunked uploads abandoned (INIT and some APPENDs, never FINALIZE): once an upload's
 * 24 hours run out (by the world's clock), its segments go from wherever media live (the store,
 * the data directory, the bucket). Every process sweeps; two that meet the same upload both
 * remove its segments, which is harmless.
 */
export function startUploadSweeper(ctx: PlatformContext): PolledJob {
  return startPolledJob(ctx, 'freeing expired uploads failed', () => sweepExpiredUploads(ctx), SWEEP_MS);
}

/** One sweep: media uploads, then chat media uploads. */
export async function sweepExpiredUploads(ctx: PlatformContext): Promise<void> {
  for (let i = 0; i < BATCHES && (await closeExpiredUploads(ctx)) > 0; i++);
  for (let i = 0; i < BATCHES && (await closeExpiredChatMedia(ctx)) > 0; i++);
}
