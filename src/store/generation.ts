import { AliasNode, ColumnNode, DeleteQueryNode, InsertQueryNode, RawNode, SelectQueryNode, TableNode, UpdateQueryNode, type KyselyPlugin, type OperationNode, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';

/**
 * Counts the writes made through one Kysely instance, in all and per table: every query that is
 * not a SELECT (or a raw statement that reads) bumps the counts, once before it runs and once
 * after, so a reader that compares a count before and after its own reads knows whether a write
 * overlapped them. A write whose tables cannot be told (raw SQL, a DELETE, whose cascades reach
 * other tables) counts against every table. An UPDATE that sets only a table's counters
 * (COUNTER_COLUMNS: a user's post count after a post) counts against `<table>.counters`, not the
 * table: what is kept by a table's count (who a token belongs to) shows no counter.
 */
export class WriteCounter implements KyselyPlugin {
  private count = 0;
  /** Writes that may have touched any table. */
  private everywhere = 0;
  private readonly perTable = new Map<string, number>();
  private readonly pending = new Map<object, string[] | undefined>();

  /** `bookkeeping`: tables no answer shows (replay-protection nonces), whose writes change nothing a reader sees. */
  constructor(private readonly bookkeeping: ReadonlySet<string> = new Set()) {}

  get writes(): number {
    return this.count;
  }

  /** A number that changes whenever `table` may have changed through this instance. */
  writesTo(table: string): number {
    return this.everywhere + (this.perTable.get(table) ?? 0);
  }

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (isWrite(node)) {
      const tables = writtenTables(node, this.bookkeeping);
      if (tables && tables.every((t) => this.bookkeeping.has(t))) return node;
      this.bump(tables);
      this.pending.set(queryId, tables);
    }
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.pending.has(queryId)) {
      this.bump(this.pending.get(queryId));
      this.pending.delete(queryId);
    }
    return result;
  }

  private bump(tables: string[] | undefined): void {
    this.count++;
    if (!tables) this.everywhere++;
    else for (const t of tables) this.perTable.set(t, (this.perTable.get(t) ?? 0) + 1);
  }
}

const READING = /^\s*(select|with|pragma|explain|show)\b/i;

function isWrite(node: RootOperationNode): boolean {
  if (SelectQueryNode.is(node)) return false;
  if (RawNode.is(node)) return !READING.test(node.sqlFragments[0] ?? '');
  return true;
}

/** A raw UPDATE or INSERT names the table it writes first (triggers write only derived search indexes, which no cached read shows). */
const RAW_WRITE = /^\s*(?:update|insert\s+into)\s+"?([A-Za-z_][A-Za-z0-9_]*)"?\s/i;

/** The tables a write changes; undefined when that cannot be told for sure. */
function writtenTables(node: RootOperationNode, bookkeeping: ReadonlySet<string>): string[] | undefined {
  if (RawNode.is(node)) {
    const table = RAW_WRITE.exec(node.sqlFragments[0] ?? '')?.[1];
    return table ? [table] : undefined;
  }
  if (InsertQueryNode.is(node)) return tableName(node.into);
  if (DeleteQueryNode.is(node)) {
    // A DELETE's cascades may reach any table, except from bookkeeping tables, which nothing references.
    const names = node.from.froms.map((f) => tableName(f)?.[0]);
    return names.every((n) => n !== undefined && bookkeeping.has(n)) ? (names as string[]) : undefined;
  }
  if (UpdateQueryNode.is(node) && node.table && !node.from && !node.joins?.length) {
    const names = tableName(node.table);
    const counters = names && COUNTER_COLUMNS[names[0]!];
    const columns = node.updates?.map((u) => (ColumnNode.is(u.column) ? u.column.column.name : '')) ?? [];
    if (counters && columns.length > 0 && columns.every((c) => counters.has(c))) return [`${names[0]}.counters`];
    return names;
  }
  return undefined;
}

/** Columns that count what other rows say (kept in step with them by the writes of those rows). */
const COUNTER_COLUMNS: Record<string, ReadonlySet<string>> = {
  users: new Set(['followers_count', 'following_count', 'post_count', 'listed_count', 'like_count', 'media_count', 'most_recent_post_id']),
};

function tableName(node: OperationNode | undefined): string[] | undefined {
  if (!node) return undefined;
  if (TableNode.is(node)) return [node.table.identifier.name];
  if (AliasNode.is(node) && TableNode.is(node.node)) return [node.node.table.identifier.name];
  return undefined;
}
