import type { FastifyBaseLogger } from 'fastify';
import { startWorldAdmin, type WorldAdmin } from '../admin/index.js';
import { AdjustableClock, type Clock } from '../clock.js';
import type { Config } from '../config.js';
import { createEventBus, type EventBus } from '../events/bus.js';
import { startEventWorkers, type EventWorkers } from '../events/workers.js';
import type { PlatformContext } from '../platform/context.js';
import { createEntities } from '../platform/entities.js';
import { openMediaBlobs, type MediaBlobs } from '../platform/media/blobs.js';
import type { MediaBucket } from '../platform/media/bucket.js';
import { mediaDir } from '../platform/media/files.js';
import { startUploadSweeper } from '../platform/media/sweeper.js';
import { DEFAULT_WORLD } from './tags.js';
import { flushImpressions } from '../platform/analytics/recording.js';
import { flushPostReads } from '../platform/usage/post-reads.js';
import { startTermHourCounter } from '../platform/search/term-hours.js';
import { StreamRuleBook } from '../platform/stream-rules/book.js';
import { StreamEngine } from '../platform/streams/engine.js';
import { IdGenerator } from '../store/ids.js';
import type { Store } from '../store/store.js';

/**
 * A world (issue #36): one store and the context built on it, with what serves that store in this
 * process: its clock, ids, entity readers, stream engine and rule book, the admin interface's clock
 * control and fault book, and (once started) its webhook workers. The default world is the one the
 * credentials file describes; the others are made by the admin interface (src/worlds/registry.ts).
 */
export interface World {
  id: string;
  ctx: PlatformContext;
  /** The admin interface's clock control and fault book for this world (when the admin interface is on). */
  admin?: WorldAdmin;
  /** Starts the webhook workers (the default world's after its seed, so the seed's events are not news). */
  start(): Promise<void>;
  /** Ends its streams (each with its OperationalDisconnect line) and stops its workers; the store is its opener's to close. */
  close(): Promise<void>;
}

export interface WorldParts {
  config: Config;
  log: FastifyBaseLogger;
  /** What the world's clock reads when no admin setting moves it: real time, or a test's clock. */
  baseClock: Clock;
  /** The worker number of this process's ids (leased from the default store). */
  worker: number;
  /** The operator's media bucket, when one is configured: the default world's media bytes live there. */
  mediaBucket?: MediaBucket;
}

/**
 * Builds the world on an open, migrated store. `enter` runs what the world starts (its timers, its
 * connections) inside it (WorldScope.run), so they serve it and no other; the default world needs none.
 */
export async function openWorld(
  parts: WorldParts,
  id: string,
  store: Store,
  databaseUrl: string,
  enter: <T>(world: World, fn: () => T) => T = (_world, fn) => fn(),
): Promise<World> {
  const { config, log } = parts;
  const clock = new AdjustableClock(parts.baseClock);
  const ctx: PlatformContext = {
    world: id,
    // Set just below: the engine and book are handed the context they belong to.
    streams: undefined as unknown as StreamEngine,
    streamRules: undefined as unknown as StreamRuleBook,
    faults: undefined,
    config,
    store,
    clock,
    ids: new IdGenerator(clock, parts.worker),
    log,
    entities: createEntities(store),
    // Set just below, from the world's id and media folder.
    media: undefined as unknown as MediaBlobs,
    // Made inside the world (below): its Redis wake-ups then run in it.
    events: undefined as unknown as EventBus,
  };
  ctx.media = openMediaBlobs({ store, mediaDir: mediaDir(ctx), bucket: id === DEFAULT_WORLD ? parts.mediaBucket : undefined });
  let stopWatchingCommits = () => {};
  let workers: EventWorkers | undefined;
  let termHours: { close(): Promise<void> } | undefined;
  let uploads: { close(): Promise<void> } | undefined;
  let closed = false;
  const world: World = {
    id,
    ctx,
    async start() {
      if (workers || closed) return;
      await enter(world, async () => {
        workers = await startEventWorkers(ctx);
        termHours = startTermHourCounter(ctx);
        uploads = startUploadSweeper(ctx);
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      await ctx.streams.close();
      ctx.streamRules.close();
      world.admin?.close();
      await workers?.close();
      await termHours?.close();
      await uploads?.close();
      // What was counted on the read path and not yet written goes to the store before it closes.
      await Promise.allSettled([flushPostReads(ctx), flushImpressions(ctx)]);
      stopWatchingCommits();
      await ctx.events.close();
    },
  };
  await enter(world, async () => {
    ctx.events = createEventBus({ redisUrl: config.redisUrl, databaseUrl, onError: (err) => log.warn({ err }, 'the event bus lost Redis; consumers fall back on polling') });
    // Each commit that appended to the log wakes its consumers, here and in the other processes.
    stopWatchingCommits = store.onEventsCommitted(() => ctx.events.committed());
    ctx.streams = new StreamEngine(ctx);
    ctx.streamRules = new StreamRuleBook(ctx);
    try {
      if (config.admin) world.admin = await startWorldAdmin(ctx);
    } catch (err) {
      ctx.streamRules.close();
      stopWatchingCommits();
      await ctx.events.close();
      throw err;
    }
  });
  return world;
}
