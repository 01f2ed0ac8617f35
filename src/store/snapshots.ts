import type pg from 'pg';

/**
 * A generation of a whole PostgreSQL database, read after the moment it is asked for: the text of
 * `pg_current_snapshot()` (the oldest transaction still running, the next one to start, those
 * running between). Two equal snapshots see exactly the same committed data: any transaction that
 * commits or starts writing between them changes the text. So what a process read after a
 * snapshot was taken, it may keep and serve, without asking again, to every response whose own
 * snapshot has the same text, whichever process wrote what before (the SQLite counterpart is
 * data_version). Transaction ids are the server's: a commit to another database of the same
 * server changes the text too (nothing is then served stale, only read again).
 */
export interface FreshGeneration {
  generation: string;
  /**
   * Whether the same text has held for SETTLED_MS at least (read then and now, no commit between):
   * worth filling what costs more to fill than to ask for once (a timeline's kept lists). A store
   * written more often than that keeps answering those by its own queries.
   */
  settled: boolean;
}

/**
 * How long a generation must have held before it counts as settled. Under a commit every 5 ms,
 * refilling the kept lists of timelines for each new text had cut their rate to a third.
 */
export const SETTLED_MS = 100;

/** Sent as it is: a text with nothing to plan (no query builder to pass). */
const SNAPSHOT = 'select pg_current_snapshot()::text as s';

/** Runs the snapshot's query and answers its text. */
export type SnapshotQuery = () => Promise<string>;

/**
 * One connection of the pool kept for the generation's query, checked out once rather than for
 * each query: the pool's checkout and release (their events, a turn of the event loop) cost
 * post-by-id on PostgreSQL about 8% of its CPU per request, at one generation query for every few
 * requests. A connection that fails is handed back to the pool to be destroyed, reported, and
 * the next query checks out another.
 */
export class SnapshotConnection {
  private client: Promise<pg.PoolClient> | undefined;
  private held: pg.PoolClient | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly onError: (err: Error) => void = () => {},
  ) {}

  readonly query: SnapshotQuery = async () => {
    const client = await (this.client ??= this.checkOut());
    try {
      const { rows } = await client.query<{ s: string }>(SNAPSHOT);
      return rows[0]!.s;
    } catch (err) {
      this.drop(client, err as Error);
      throw err;
    }
  };

  /** Hands the connection back to the pool (before the pool ends: an ending pool waits for it). */
  async close(): Promise<void> {
    const pending = this.client;
    this.client = undefined;
    const client = pending && (await pending.catch(() => undefined));
    if (client && this.held === client) {
      this.held = undefined;
      client.release();
    }
  }

  private checkOut(): Promise<pg.PoolClient> {
    const pending = this.pool.connect().then((client) => {
      this.held = client;
      // Checked out, its errors are its own (the pool listens only to idle ones): unheard, a
      // connection the server ends would end the process.
      client.on('error', (err: Error) => {
        this.drop(client, err);
        this.onError(err);
      });
      return client;
    });
    pending.catch(() => {
      if (this.client === pending) this.client = undefined;
    });
    return pending;
  }

  private drop(client: pg.PoolClient, err: Error): void {
    if (this.held !== client) return;
    this.held = undefined;
    this.client = undefined;
    client.release(err);
  }
}

/**
 * The snapshots asked for by the responses of one turn of the event loop go out as one query, sent
 * after every one of them asked: a write committed before a response began is always seen by it.
 * At most one such query is in flight: responses that ask while one is wait for its answer and
 * share the next query, sent then (the one in flight may have been sent before they began). Under
 * load that is one round trip to the server per round trip, whatever the rate of responses; an
 * idle server's response still waits for one round trip only.
 */
export class Snapshots {
  /** The next query's answer, shared by every response that asks until it is sent. */
  private waiting: Promise<FreshGeneration> | undefined;
  /** The query in flight, settled either way once its answer (or failure) is in. */
  private inFlight: Promise<unknown> = Promise.resolve();
  private last: FreshGeneration | undefined;
  /** When `last`'s text was first answered (wall time: a cache's heuristic, not a rule of the interface). */
  private since = 0;

  constructor(
    private readonly query: SnapshotQuery,
    private readonly now: () => number = Date.now,
  ) {}

  fresh(): Promise<FreshGeneration> {
    return (this.waiting ??= this.next());
  }

  private async next(): Promise<FreshGeneration> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    await this.inFlight;
    this.waiting = undefined;
    const answer = this.read();
    this.inFlight = answer.catch(() => undefined);
    return answer;
  }

  private async read(): Promise<FreshGeneration> {
    const text = await this.query();
    const last = this.last;
    const now = this.now();
    if (last && last.generation === text) {
      // The same text object while it holds: entries compare it by reference first.
      if (!last.settled && now - this.since >= SETTLED_MS) this.last = { generation: last.generation, settled: true };
    } else {
      this.last = { generation: text, settled: false };
      this.since = now;
    }
    return this.last!;
  }
}
