import type { PlatformContext } from '../platform/context.js';
import { announceDueBroadcasts } from '../platform/broadcasts/service.js';
import { runPeriodicCrcs } from '../platform/webhooks/lifecycle.js';
import { deliverDue } from './delivery.js';
import { fanOutOnce, initFanOut } from './fanout.js';
import { pruneDeliveries } from './outbox.js';
import { finishReplayJobs } from './replay.js';
// The routers this process fans out with register themselves when imported.
import '../platform/account-activity/router.js';

/** The safety net under the bus: how often the log and the outbox are read without a wake-up. */
const POLL_MS = 1_000;
/** How soon the fan-out looks again at events still held back, by how many looks in a row found them so. */
const HELD_RETRY_MS = [5, 25, 100, 400];
/** Settled outbox rows are kept this long (replay reaches back 24 h). */
const KEEP_DELIVERIES_MS = 48 * 60 * 60 * 1000;

/** Runs `task` one at a time; a run asked for while one is going happens right after it. */
class SingleFlight {
  private running: Promise<void> | undefined;
  private again = false;
  constructor(private readonly task: () => Promise<void>, private readonly onError: (err: unknown) => void) {}

  run(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.task();
        } catch (err) {
          this.onError(err);
        }
      } while (this.again);
    })().finally(() => (this.running = undefined));
  }

  async idle(): Promise<void> {
    while (this.running) await this.running;
  }
}

export interface EventWorkers {
  /** Fan out and deliver now (tests and the bench use it instead of waiting for the poll). */
  kick(): void;
  close(): Promise<void>;
}

/**
 * The webhook side of the event pipeline in this process: fan-out from the log into the outbox
 * (woken by the bus, polled as a safety net), delivery of due outbox rows (retries fall due by the
 * injected clock, which the poll reads), periodic CRCs, replay completion and outbox pruning; and
 * the broadcast coordinator's announcements of starts and ends, which fall due the same way.
 */
export async function startEventWorkers(ctx: PlatformContext): Promise<EventWorkers> {
  await initFanOut(ctx);
  let stopped = false;
  const onError = (err: unknown) => {
    if (!stopped) ctx.log.warn({ err }, 'webhook worker step failed; retried on the next poll');
  };
  // Two delivery lanes: one can claim and send new rows while the other waits on slow receivers
  // (claims are exclusive, so the lanes never send one row twice).
  const lanes = [0, 1].map(
    (lane) =>
      new SingleFlight(async () => {
        await deliverDue(ctx, () => stopped);
        if (lane === 0) await finishReplayJobs(ctx);
      }, onError),
  );
  const deliver = { run: () => lanes.forEach((l) => l.run()), idle: () => Promise.all(lanes.map((l) => l.idle())) };
  // Each batch fanned out into deliveries is delivered at once, while the next batch is read.
  // Events that an older transaction still holds back are looked at again soon (5, 25, 100 then
  // 400 ms), not only at the next commit or poll: the transaction holding them may append nothing,
  // and so wake no one when it ends.
  let again: NodeJS.Timeout | undefined;
  let retries = 0;
  const fanOut = new SingleFlight(async () => {
    while (!stopped) {
      const { events, deliveries, held } = await fanOutOnce(ctx);
      if (deliveries > 0) deliver.run();
      if (events === 0) {
        retries = held ? retries + 1 : 0;
        if (held && !again && !stopped) {
          again = setTimeout(() => {
            again = undefined;
            fanOut.run();
          }, HELD_RETRY_MS[Math.min(retries, HELD_RETRY_MS.length) - 1]);
          again.unref();
        }
        break;
      }
    }
  }, onError);
  const crc = new SingleFlight(async () => void (await runPeriodicCrcs(ctx)), onError);
  // The broadcast coordinator: starts and ends fall due by the injected clock, which the poll reads.
  const broadcasts = new SingleFlight(async () => void (await announceDueBroadcasts(ctx)), onError);
  let lastPrune = 0;
  const prune = new SingleFlight(async () => {
    const now = ctx.clock.now().getTime();
    if (now - lastPrune < 10 * 60 * 1000) return;
    lastPrune = now;
    await pruneDeliveries(ctx.store.db, new Date(now - KEEP_DELIVERIES_MS).toISOString());
  }, onError);

  // This process fans out what it appended (and whatever else is in the log then); another
  // process's appends are its own to fan out, and the poll covers one that died first.
  const unsubscribe = ctx.events.onOwnAppend(() => fanOut.run());
  const tick = () => {
    fanOut.run();
    deliver.run();
    crc.run();
    prune.run();
    broadcasts.run();
  };
  const timer = setInterval(tick, POLL_MS);
  timer.unref();
  tick();

  return {
    kick: tick,
    async close() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(again);
      unsubscribe();
      await Promise.all([fanOut.idle(), deliver.idle(), crc.idle(), prune.idle(), broadcasts.idle()]);
    },
  };
}
