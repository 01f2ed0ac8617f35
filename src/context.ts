import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Problems } from './http/problems.js';
import type { Entities } from './platform/entities.js';
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
  /** Decoded posts, users and media kept across requests while current (src/platform/entities.ts). */
  entities: Entities;
}
