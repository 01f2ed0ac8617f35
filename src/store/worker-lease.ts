import crypto from 'node:crypto';
import os from 'node:os';
import type { Db } from './store.js';

/**
 * A process's worker number (the 10 bits of an id that tell processes apart: src/store/ids.ts),
 * leased from the store so that no two live processes on one store hold the same one (issue 37:
 * drawn at random, two processes of three drew alike and 1.3% of their writes collided). The
 * lease is taken at start (a free number, or one whose lease expired: its process died), renewed
 * every RENEW_MS, and given back at close. A process that could not renew in time (paused, or cut
 * from the store) and finds its number taken leases another and uses it from then on.
 *
 * Lease times are wall time, not the injected clock: they are about processes, not the platform.
 */
export const WORKERS = 1024;
export const LEASE_MS = 60_000;
const RENEW_MS = 20_000;

export interface WorkerLease {
  /** The number held now (it changes only if the lease was lost and another taken). */
  readonly worker: number;
  close(): Promise<void>;
}

export class NoFreeWorker extends Error {}

/** Takes a free worker number, or throws NoFreeWorker when all are held by live processes. */
async function take(db: Db, holder: string): Promise<number> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const now = new Date();
    const held = new Set(
      (await db.selectFrom('worker_leases').select('worker').where('expires_at', '>', now.toISOString()).execute()).map((r) => Number(r.worker)),
    );
    if (held.size >= WORKERS) break;
    // From a random place, so processes starting together try different numbers first.
    const start = crypto.randomInt(WORKERS);
    for (let i = 0; i < WORKERS; i++) {
      const worker = (start + i) % WORKERS;
      if (held.has(worker)) continue;
      const expires_at = new Date(now.getTime() + LEASE_MS).toISOString();
      const result = await db
        .insertInto('worker_leases')
        .values({ worker, holder, expires_at })
        .onConflict((oc) => oc.column('worker').doUpdateSet({ holder, expires_at }).where('worker_leases.expires_at', '<=', now.toISOString()))
        .executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0) === 1) return worker;
      // Taken meanwhile by another process: try the next.
    }
  }
  throw new NoFreeWorker(`every one of the ${WORKERS} worker numbers is held by a live process on this store`);
}

/**
 * Leases a worker number; `onChange` hears of a new one taken after the lease was lost.
 * `log` hears of renewals that failed (the store unreachable): the number is kept meanwhile.
 */
export async function leaseWorker(
  db: Db,
  onChange: (worker: number) => void,
  log: (err: unknown, message: string) => void,
  { renewMs = RENEW_MS }: { renewMs?: number } = {},
): Promise<WorkerLease> {
  const holder = `${os.hostname()}:${process.pid}:${crypto.randomBytes(6).toString('hex')}`;
  let worker = await take(db, holder);
  let renewing: Promise<void> = Promise.resolve();
  const renew = async () => {
    const expires_at = new Date(Date.now() + LEASE_MS).toISOString();
    const result = await db.updateTable('worker_leases').set({ expires_at }).where('worker', '=', worker).where('holder', '=', holder).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) return;
    worker = await take(db, holder);
    onChange(worker);
  };
  const timer = setInterval(() => {
    renewing = renew().catch((err: unknown) => log(err, 'the worker number lease was not renewed'));
  }, renewMs);
  timer.unref();
  return {
    get worker() {
      return worker;
    },
    async close() {
      clearInterval(timer);
      await renewing;
      await db.deleteFrom('worker_leases').where('worker', '=', worker).where('holder', '=', holder).execute();
    },
  };
}
