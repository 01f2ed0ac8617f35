import type { CoreContext } from '../../context.js';
import type { MatchablePost } from '../../query/index.js';
import { parseQuery } from '../../query/parse.js';
import type { DbOrTx, Store } from '../../store/store.js';
import { RuleIndex } from './index.js';
import { ruleSetOf, ruleVersions } from './store.js';

export interface MatchingRule {
  id: string;
  tag?: string;
}

/** One app's rules at one version, indexed. */
export interface RuleSet {
  version: number;
  index: RuleIndex;
  /** The wire form of each rule, built once: what match() hands out. */
  wire: Map<string, MatchingRule>;
}

/** Reads and indexes the app's rules through `db` (a transaction reads through itself). */
export async function loadRuleSet(ctx: Pick<CoreContext, 'log'>, db: DbOrTx, appId: string): Promise<RuleSet> {
  const { version, rules } = await ruleSetOf(db, appId);
  const index = new RuleIndex();
  const wire = new Map<string, MatchingRule>();
  for (const r of rules) {
    try {
      index.add({ id: r.id, tag: r.tag ?? undefined, ast: parseQuery(r.value) });
    } catch (err) {
      // Every stored rule was valid when added; one the grammar now refuses matches nothing.
      ctx.log.warn({ err, rule_id: r.id }, 'stream rule book: a stored rule no longer parses');
      continue;
    }
    wire.set(r.id, r.tag === null ? { id: r.id } : { id: r.id, tag: r.tag });
  }
  return { version, index, wire };
}

/** The rules of `set` the post matches, in rule id order. */
export function matchRuleSet(set: RuleSet, post: MatchablePost): MatchingRule[] {
  if (set.index.size === 0) return [];
  return set.index.match(post).map((r) => set.wire.get(r.id)!);
}

/** The books of each store in this process, told at once of a change made through this process. */
const booksOfStore = new WeakMap<Store, Set<StreamRuleBook>>();

/**
 * Says that the app's rule set changed (after the changing transaction committed): every rule book
 * of this process reloads it and tells its listeners. Books of other processes learn of it from
 * the version their next ensure() reads, or from the event the change appended (their bus wakes).
 */
export function announceRuleChange(ctx: Pick<CoreContext, 'store'>, appId: string): void {
  for (const book of booksOfStore.get(ctx.store) ?? []) book.changed(appId);
}

/**
 * One per process (created in the composition root): every app's active rules, indexed, shared by
 * every connection. Each app's set is loaded on first ensure() and reloaded when its version in
 * the store (stream_rule_versions, bumped by every change) moves.
 */
export class StreamRuleBook {
  private readonly sets = new Map<string, RuleSet>();
  private readonly listeners = new Set<(appId: string) => void>();
  /** Loads run one at a time, in order, so a slower older load never replaces a newer set. */
  private queue: Promise<void> = Promise.resolve();
  private checkQueued = false;
  /** Listening to the log's wake-ups while anyone listens to changes (nothing to check for otherwise). */
  private unsubscribe: (() => void) | undefined;
  private closed = false;

  constructor(private readonly ctx: CoreContext) {
    let books = booksOfStore.get(ctx.store);
    if (!books) booksOfStore.set(ctx.store, (books = new Set()));
    books.add(this);
  }

  /**
   * Loads or refreshes the rule sets of these apps from the store; resolves when they are current.
   * It reads through ctx.store.db (one query for the versions, one load per changed set): do not
   * await it inside a transaction of a SQLite store, whose one connection the transaction holds.
   */
  ensure(appIds: readonly string[]): Promise<void> {
    return this.enqueue(() => this.refresh(appIds));
  }

  /** The app's rules that the post matches, in rule id order (synchronous; after ensure). */
  match(appId: string, post: MatchablePost): MatchingRule[] {
    const set = this.sets.get(appId);
    return set ? matchRuleSet(set, post) : [];
  }

  /** How many rules of the app are loaded (for tests and metrics). */
  size(appId: string): number {
    return this.sets.get(appId)?.index.size ?? 0;
  }

  /** Called after an app's rule set changed (added/deleted rules), in this process or another. */
  onChange(listener: (appId: string) => void): () => void {
    this.listeners.add(listener);
    // Another process's change appends an event; its wake-up (Redis) tells the loaded sets to check.
    this.unsubscribe ??= this.ctx.events.onAppend(() => this.scheduleCheck());
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size > 0) return;
      this.unsubscribe?.();
      this.unsubscribe = undefined;
    };
  }

  close(): void {
    this.closed = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.listeners.clear();
    this.sets.clear();
    booksOfStore.get(this.ctx.store)?.delete(this);
  }

  /** A change made through this process (announceRuleChange): reload the app if loaded, then tell. */
  changed(appId: string): void {
    if (this.closed) return;
    void this.enqueue(async () => {
      if (this.sets.has(appId)) await this.refresh([appId], true);
      else this.emit([appId]);
    });
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    const run = this.queue.then(work);
    this.queue = run.catch((err: unknown) => this.ctx.log.error({ err }, 'stream rule book: loading rules failed'));
    return run;
  }

  /** Reloads the sets whose stored version differs from the loaded one; tells listeners of those that changed. */
  private async refresh(appIds: readonly string[], announce = false): Promise<void> {
    if (this.closed || appIds.length === 0) return;
    const versions = await ruleVersions(this.ctx.store.db, appIds);
    const changed: string[] = [];
    for (const [appId, version] of versions) {
      const current = this.sets.get(appId);
      if (current && current.version === version) continue;
      await this.load(appId);
      if (current) changed.push(appId);
    }
    if (announce) for (const id of appIds) if (!changed.includes(id)) changed.push(id);
    this.emit(changed);
  }

  private async load(appId: string): Promise<void> {
    const set = await loadRuleSet(this.ctx, this.ctx.store.db, appId);
    if (!this.closed) this.sets.set(appId, set);
  }

  private emit(appIds: readonly string[]): void {
    for (const appId of appIds) {
      for (const listener of [...this.listeners]) {
        try {
          listener(appId);
        } catch (err) {
          this.ctx.log.error({ err }, 'stream rule book: a change listener failed');
        }
      }
    }
  }

  /** After a wake-up of the event bus: the loaded sets check their versions (one query, coalesced). */
  private scheduleCheck(): void {
    if (this.closed || this.checkQueued || this.sets.size === 0 || this.listeners.size === 0) return;
    this.checkQueued = true;
    void this.enqueue(async () => {
      this.checkQueued = false;
      await this.refresh([...this.sets.keys()]);
    });
  }
}
