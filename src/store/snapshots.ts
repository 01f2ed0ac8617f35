import type pg from 'pg';

/**
 * A generation of a whole PostgreSQL database, read after the moment it is asked for: the text of
 * `pg_current_snapshot()` (the oldest transaction still running, the next one to start, those
 * running between). Two equal snapshots see exactly the same committed data: any transaction that
 * commits or starts writing between them changes the text. Transaction ids are the server's, so
 * a commit to another database of the same server changes it too (nothing is then served stale,
 * only read again). So what a process read after a snapshot
 * was taken, it may keep and serve, without asking again, to every response whose own snapshot has
 * the same text, whichever process wrote what before (the SQLite counterpart is data_version).
 */
export interface FreshGeneration {
  generation: string;
  /**
   * Whether an earlier read answered the same text, no commit having landed between two round trips:
   * worth filling what is kept under it (a store under constant writes changes it every turn).
   */
  settled: boolean;
}

/** Sent as it is: a text with nothing to plan, through the pool itself (no query builder to pass). */
const SNAPSHOT = 'select pg_current_snapshot()::text as s';

/**
 * The snapshots asked for by the responses of one turn of the event loop go out as one query, sent
 * after every one of them asked: a write committed before a response began is always seen by it.
 */
export class Snapshots {
  private waiting: Promise<FreshGeneration> | undefined;
  private last: FreshGeneration | undefined;
  /** Queries sent, and the one whose answer `last` is (answers on different connections may cross). */
  private sent = 0;
  private lastSent = 0;

  constructor(private readonly pool: pg.Pool) {}

  fresh(): Promise<FreshGeneration> {
    return (this.waiting ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.waiting = undefined;
      return this.read();
    }));
  }

  private async read(): Promise<FreshGeneration> {
    const sent = ++this.sent;
    const { rows } = await this.pool.query<{ s: string }>(SNAPSHOT);
    const text = rows[0]!.s;
    const last = this.last;
    // The same text object while it holds: kept texts and entries compare it by reference first.
    const answer = last && last.generation === text ? (last.settled ? last : { generation: last.generation, settled: true }) : { generation: text, settled: false };
    if (sent > this.lastSent) {
      this.last = answer;
      this.lastSent = sent;
    }
    return answer;
  }
}
