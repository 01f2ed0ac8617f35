import { DeleteQueryNode, InsertQueryNode, RawNode, SelectQueryNode, TableNode, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';

/**
 * Counts the writes made through one Kysely instance: every query that is not a SELECT (or a raw
 * statement that reads) bumps the count, once before it runs and once after, so a reader that
 * compares the count before and after its own reads knows whether a write overlapped them.
 */
export class WriteCounter implements KyselyPlugin {
  private count = 0;
  private readonly pending = new WeakSet<object>();

  /** `bookkeeping`: tables no answer shows (replay-protection nonces), whose writes change nothing a reader sees. */
  constructor(private readonly bookkeeping: ReadonlySet<string> = new Set()) {}

  get writes(): number {
    return this.count;
  }

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (isWrite(node) && !this.onlyBookkeeping(node)) {
      this.count++;
      this.pending.add(queryId);
    }
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.pending.delete(queryId)) this.count++;
    return result;
  }

  private onlyBookkeeping(node: RootOperationNode): boolean {
    const tables = InsertQueryNode.is(node) ? [node.into] : DeleteQueryNode.is(node) ? node.from.froms : [];
    return tables.length > 0 && tables.every((t) => t !== undefined && TableNode.is(t) && this.bookkeeping.has(t.table.identifier.name));
  }
}

const READING = /^\s*(select|with|pragma|explain|show)\b/i;

function isWrite(node: RootOperationNode): boolean {
  if (SelectQueryNode.is(node)) return false;
  if (RawNode.is(node)) return !READING.test(node.sqlFragments[0] ?? '');
  return true;
}
