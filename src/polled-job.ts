import type { CoreContext } from './context.js';

export interface PolledJob {
  /** Runs the job now, unless a run is under way. */
  kick(): void;
  /** Stops polling and waits for a run under way. */
  close(): Promise<void>;
}

/**
 * A background job run every `pollMs`, one run at a time; a failed run is logged as `failure`
 * and retried on the next poll.
 */
export function startPolledJob(ctx: CoreContext, failure: string, run: () => Promise<unknown>, pollMs: number): PolledJob {
  let running: Promise<void> | undefined;
  let stopped = false;
  const kick = () => {
    if (running || stopped) return;
    running = run()
      .then(() => undefined)
      .catch((err) => {
        if (!stopped) ctx.log.warn({ err }, `${failure}; retried on the next poll`);
      })
      .finally(() => (running = undefined));
  };
  const timer = setInterval(kick, pollMs);
  timer.unref();
  return {
    kick,
    async close() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
