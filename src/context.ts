import type { FastifyBaseLogger } from 'fastify';
import type { FaultBook } from './admin/faults.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { EventBus } from './events/bus.js';
import type { Problems } from './http/problems.js';
import type { Entities } from './platform/entities.js';
import type { StreamRuleBook } from './platform/stream-rules/book.js';
import type { StreamEngine } from './platform/streams/engine.js';
import type { IdGenerator } from './store/ids.js';
import type { Store } from './store/store.js';

/** What every route module and service is handed: built once in app.ts. */
export interface AppContext {
  config: Config;
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  problems: Problems;
  log: FastifyBaseLogger;
  /** Readers of posts, users and media, and what timelines and card URIs keep across requests (src/platform/entities.ts). */
  entities: Entities;
  /** Wakes the event log's consumers when it may have grown (src/events/bus.ts). */
  events: EventBus;
  /** The persistent streams of this process, on one reader of the event log (src/platform/streams/engine.ts). */
  streams: StreamEngine;
  /** Every app's filtered-stream rules, indexed once for the process (src/platform/stream-rules/book.ts). */
  streamRules: StreamRuleBook;
  /** The admin interface's injected faults, when it is on (src/admin/faults.ts). */
  faults?: FaultBook;
}
