import { AsyncLocalStorage } from 'node:async_hooks';
import type { PlatformContext } from '../platform/context.js';
import type { World } from './world.js';

/**
 * Which world the code running now serves. A request's world is entered once its credentials are
 * read (src/worlds/routing.ts); everything it awaits, and every timer and connection a world opens
 * for itself, runs in it. Outside any world (start-up, the default world's own requests) the
 * default world is current, so a Plaza that makes no other world never enters one (Node 20's
 * async context costs every promise something once it is in use).
 *
 * The listeners are handed `ctx`, whose every field is the current world's: routes and services
 * read `ctx.store`, `ctx.clock`... as they always did and reach the right world without knowing
 * that there are several. What belongs to one world and outlives a request (its stream engine, rule
 * book, event workers) is built by src/worlds/world.ts on that world's own context.
 */
export class WorldScope {
  private readonly current = new AsyncLocalStorage<World>();
  /** The context the listeners are handed: each field read is the current world's. */
  readonly ctx: PlatformContext;

  constructor(readonly home: World) {
    const ctx = {} as Record<string, unknown>;
    for (const key of Object.keys(home.ctx)) {
      Object.defineProperty(ctx, key, {
        enumerable: true,
        get: () => (this.world().ctx as unknown as Record<string, unknown>)[key],
        set: (value: unknown) => void ((this.world().ctx as unknown as Record<string, unknown>)[key] = value),
      });
    }
    this.ctx = ctx as unknown as PlatformContext;
  }

  /** The world of the code running now. */
  world(): World {
    return this.current.getStore() ?? this.home;
  }

  /** Runs `fn`, and all it starts, in `world`. */
  run<T>(world: World, fn: () => T): T {
    return world === this.home && this.current.getStore() === undefined ? fn() : this.current.run(world, fn);
  }
}
