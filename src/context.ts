import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { EventBus } from './events/bus.js';
import type { IdGenerator } from './store/ids.js';
import type { Store } from './store/store.js';

/**
 * The core context: what every layer may be handed, built once in app.ts. It knows no resource;
 * the platform interface's context (src/platform/context.ts) adds what its resources share.
 */
export interface CoreContext {
  /** The world this context serves (src/worlds/): `default`, or a world of the admin interface's. */
  world: string;
  config: Config;
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  log: FastifyBaseLogger;
  /** Wakes the event log's consumers when it may have grown (src/events/bus.ts). */
  events: EventBus;
}
