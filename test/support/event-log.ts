import type { Db } from '../../src/store/store.js';
import { sequenceEvents } from '../../src/events/log.js';

/**
 * The store, once every event committed so far has its place in the log. On PostgreSQL an event
 * is written without a `seq` and placed by the next reader (src/events/log.ts); a test that reads
 * the `events` table in `seq` order places them first, as the log's own readers do.
 */
export async function withEventsPlaced(db: Db): Promise<Db> {
  await sequenceEvents(db);
  return db;
}
