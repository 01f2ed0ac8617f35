import type pg from 'pg';

/**
 * Named statements on PostgreSQL: the hot reads whose planning costs about as much as running
 * them (a timeline page over a user's follows plans in some 0.3 ms and runs in less). Kysely sends
 * every query unnamed, so PostgreSQL parses and plans it again each time; a text marked here is
 * sent as a named statement instead, which each connection parses once and whose plan PostgreSQL
 * then keeps (a generic plan, once it costs no more than the custom ones).
 *
 * Only fixed texts are marked, by the few places that write them (each a shape out of a small,
 * bounded set); a connection keeps every statement it prepared until it closes, so a text built
 * from a value (an IN list of varying length) must never be marked.
 */
const names = new Map<string, string>();

/** Marks `text` to be sent as a named statement on PostgreSQL; returns it. */
export function preparedOnPostgres(text: string): string {
  if (!names.has(text)) names.set(text, `plaza_${names.size + 1}`);
  return text;
}

/** Sends the marked texts of every client of `pool` as named statements. */
export function nameMarkedStatements(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const query = client.query;
    // Kysely's PostgreSQL driver calls query(text, values); everything else passes as it is.
    client.query = function (this: pg.PoolClient, ...args: unknown[]) {
      const name = typeof args[0] === 'string' && Array.isArray(args[1]) ? names.get(args[0]) : undefined;
      if (name) return (query as (...a: unknown[]) => unknown).call(this, { name, text: args[0], values: args[1] }, ...args.slice(2));
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof client.query;
  });
}
