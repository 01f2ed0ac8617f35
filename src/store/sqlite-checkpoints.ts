import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/**
 * Checkpoints of an SQLite file in WAL mode, off the event loop.
 *
 * SQLite's own automatic checkpoint runs inside the COMMIT that takes the write-ahead log past
 * 1,000 pages, on the committing connection: better-sqlite3 is synchronous, so the request that
 * commits a large write (a 2,500-operation audience batch: some 0.3 s of its 0.8 s) and every
 * request queued behind it wait for pages to be copied into the database file. Here the server's
 * connection leaves that to a second connection on a worker thread, which copies the log's pages
 * while the event loop serves requests (WAL mode lets a checkpoint run beside readers and a
 * writer). The worker starts only when the log first outgrows {@link LOG_BYTES}: a store that
 * sees small writes never starts one, and an idle server holds no extra thread.
 */

/** The log's size from which the worker copies it (SQLite's default threshold, 1,000 pages of 4 KiB). */
const LOG_BYTES = 4 * 1024 * 1024;
/** How often the log's size is looked at. */
const WATCH_MS = 250;
/**
 * Should the worker stall, the server's connection still checkpoints a log this long (in pages)
 * itself, so the file cannot grow without bound.
 */
const FALLBACK_PAGES = 65_536;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.module);
const db = new SQLite(workerData.file, { fileMustExist: true });
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  let error;
  try {
    // PASSIVE: copies what no reader still needs, never waits for a lock, never blocks a writer.
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) {
    error = String(err && err.message ? err.message : err);
  }
  parentPort.postMessage({ error });
});
`;

export interface BackgroundCheckpoints {
  /** Resolves once a checkpoint is done (starting the worker if needed); for tests. */
  now(): Promise<void>;
  /** Starts a checkpoint if the log has outgrown its threshold; cheap (one stat) otherwise. */
  afterCommit(): void;
  /** The checkpoint under way, if any: a transaction begun after it starts the log over. */
  running(): Promise<void> | undefined;
  /** Stops watching and closes the worker's connection; call before closing the server's. */
  close(): Promise<void>;
}

/** Moves the checkpoints of `file` (opened as `sqlite`, in WAL mode) to a worker thread. */
export function checkpointInBackground(sqlite: SQLite.Database, file: string, onError: (err: Error) => void = () => {}): BackgroundCheckpoints {
  sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_PAGES}`);
  // Once a checkpoint has copied the whole log, the next writer starts it over and cuts the file
  // back to this size, so the size watched below means pages not yet copied.
  sqlite.pragma(`journal_size_limit = ${LOG_BYTES}`);
  const wal = `${file}-wal`;
  let worker: Worker | undefined;
  let exited: Promise<void> | undefined;
  let running: Promise<void> | undefined;
  let closed = false;
  let failed = false;

  // Should the worker fail (its thread ends, its connection cannot open), the server's connection
  // takes its checkpoints back, as SQLite does by default.
  const giveUp = (err: Error) => {
    if (closed || failed) return;
    failed = true;
    clearInterval(timer);
    sqlite.pragma('wal_autocheckpoint = 1000');
    onError(err);
  };

  // What ends the checkpoint under way: the worker's answer, or the worker's end.
  let settle: ((message?: { error?: string }) => void) | undefined;

  const checkpoint = (): Promise<void> => {
    if (running) return running;
    if (failed || closed) return Promise.resolve();
    if (!worker) {
      const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { module: createRequire(import.meta.url).resolve('better-sqlite3'), file } });
      w.unref();
      exited = new Promise((resolve) => w.once('exit', () => resolve()));
      w.on('message', (message: { error?: string }) => settle?.(message));
      w.on('error', (err) => giveUp(err));
      w.on('exit', (code) => {
        settle?.();
        giveUp(new Error(`the checkpoint worker ended (exit code ${code})`));
      });
      worker = w;
    }
    const w = worker;
    running = new Promise<void>((resolve) => {
      settle = (message) => {
        settle = undefined;
        running = undefined;
        w.unref();
        if (message?.error) onError(new Error(`background checkpoint: ${message.error}`));
        resolve();
      };
      // Held open while it works (a caller may be waiting); idle, it keeps no process alive.
      w.ref();
      w.postMessage('checkpoint');
    });
    return running;
  };

  /** Starts a checkpoint when none runs and the log, `size` bytes, has outgrown its threshold. */
  const ifDue = (size: number) => {
    if (!running && !closed && !failed && size > LOG_BYTES) void checkpoint();
  };

  // Writes outside a transaction (a single statement) have no commit to look after them.
  const timer = setInterval(() => {
    if (!running && !closed) fs.stat(wal, (err, stats) => !err && ifDue(stats.size));
  }, WATCH_MS);
  timer.unref();

  return {
    now: () => checkpoint(),
    afterCommit: () => {
      if (running || closed || failed) return;
      const stats = fs.statSync(wal, { throwIfNoEntry: false });
      if (stats) ifDue(stats.size);
    },
    running: () => running,
    close: async () => {
      closed = true;
      clearInterval(timer);
      await running;
      if (worker) {
        worker.ref();
        worker.postMessage('close');
        await exited;
      }
    },
  };
}
