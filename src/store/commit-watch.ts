import { InsertQueryNode, TableNode, type DatabaseConnection, type Driver } from 'kysely';

/**
 * Tells when rows written to one table have committed (the event log's: its readers are woken
 * then, src/events/bus.ts): after the commit of a transaction that inserted into it, or right
 * after a lone INSERT outside a transaction. A transaction rolled back, or a commit that failed,
 * says nothing. It wraps the store's Kysely driver, so a writer calls nothing to be heard.
 */
export class CommitWatch {
  private readonly listeners = new Set<() => void>();
  /** The open transactions, by connection: whether each inserted into the table yet. */
  private readonly open = new WeakMap<DatabaseConnection, { wrote: boolean }>();
  private readonly watched = new WeakSet<DatabaseConnection>();

  constructor(private readonly table: string) {}

  /** Calls `listener` after each such commit; returns the unsubscribe. */
  on(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** The driver, with its connections, transactions and commits watched (wrapped in place). */
  wrap(driver: Driver): Driver {
    const acquire = driver.acquireConnection.bind(driver);
    const begin = driver.beginTransaction.bind(driver);
    const commit = driver.commitTransaction.bind(driver);
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.acquireConnection = async () => this.watch(await acquire());
    driver.beginTransaction = async (connection, settings) => {
      await begin(connection, settings);
      this.open.set(connection, { wrote: false });
    };
    driver.commitTransaction = async (connection) => {
      const transaction = this.open.get(connection);
      this.open.delete(connection);
      await commit(connection);
      if (transaction?.wrote) this.fire();
    };
    driver.rollbackTransaction = async (connection) => {
      this.open.delete(connection);
      await rollback(connection);
    };
    return driver;
  }

  /** Each connection once (drivers hand out the same connection object again): its INSERTs into the table are noted. */
  private watch(connection: DatabaseConnection): DatabaseConnection {
    if (this.watched.has(connection)) return connection;
    this.watched.add(connection);
    const execute = connection.executeQuery.bind(connection);
    connection.executeQuery = async <R>(query: Parameters<DatabaseConnection['executeQuery']>[0]) => {
      const result = await execute<R>(query);
      if (InsertQueryNode.is(query.query) && this.insertsHere(query.query)) {
        const transaction = this.open.get(connection);
        if (transaction) transaction.wrote = true;
        else this.fire();
      }
      return result;
    };
    return connection;
  }

  private insertsHere(node: InsertQueryNode): boolean {
    return node.into !== undefined && TableNode.is(node.into) && node.into.table.identifier.name === this.table;
  }

  private fire(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // A listener's failure is its own; the commit happened.
      }
    }
  }
}
