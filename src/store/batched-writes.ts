/**
 * What a process counts on the read path and writes later: added up in memory, written at most
 * FLUSH_MS after the first addition, one write at a time and in order. A reader in this process
 * flushes first (flush()) to see everything counted here; other processes' counts reach the store
 * within FLUSH_MS. A failed write is handed to `onError` (logged) and never reaches a client.
 *
 * The impression ledger (platform/analytics/recording.ts) and the posts each app read
 * (platform/usage/post-reads.ts) are kept this way: written per answer, every read would be a write.
 */
export class BatchedWrites<B> {
  private pending: B;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** Batches taken from `pending` whose write has not finished. */
  private readonly underWay = new Set<B>();

  constructor(
    private readonly empty: () => B,
    private readonly write: (batch: B) => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {
    this.pending = empty();
  }

  /** The batch to add to; `added()` after adding schedules its write. */
  get current(): B {
    return this.pending;
  }

  /** The batches counted and not yet written: the current one and those being written. */
  unwritten(): B[] {
    return [this.pending, ...this.underWay];
  }

  added(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush().catch(this.onError), FLUSH_MS);
    this.timer.unref();
  }

  /** Writes what is pending, after any write already under way. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = this.empty();
    this.underWay.add(batch);
    return this.serial(() => this.write(batch)).finally(() => this.underWay.delete(batch));
  }

  /** Runs `work` once the writes under way are done, and before any write begun after it: no write overlaps it. */
  serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.writing.catch(() => {}).then(work);
    this.writing = run.then(
      () => {},
      () => {},
    );
    return run;
  }
}

/** How long counted figures may wait in memory before they are written. */
export const FLUSH_MS = 1_000;
