import crypto from 'node:crypto';
import pg from 'pg';

/**
 * Set by scripts/test.mjs for a whole run: the run's test databases carry its name and are dropped
 * together when it ends. A DROP DATABASE waits for a checkpoint of the whole server, which stalls
 * every other test's writes while it flushes them; one per test file added minutes to a run.
 */
const RUN = process.env.PLAZA_TEST_RUN;

/**
 * A new PostgreSQL database next to `adminUrl`'s, empty or a copy of `template`; drop it with
 * dropPostgresDatabase. In a run of npm test its commits do not wait for the disk
 * (synchronous_commit off): a test's store outlives no crash of the server, and every write is
 * still seen in the order it was committed. The benchmarks' stores keep the server's setting.
 */
export async function freshPostgresDatabase(adminUrl: string, prefix = 'plaza_test', template?: string): Promise<string> {
  const name = `${prefix}_${RUN && prefix === 'plaza_test' ? `${RUN}_` : ''}${crypto.randomBytes(6).toString('hex')}`;
  const create = `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`;
  await adminQuery(adminUrl, ...(RUN ? [create, `ALTER DATABASE ${name} SET synchronous_commit = off`] : [create]));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a database made by freshPostgresDatabase, ending whatever connections it still has (in a run of npm test, when the run ends). */
export async function dropPostgresDatabase(url: string): Promise<void> {
  const admin = new URL(url);
  const name = admin.pathname.slice(1);
  if (RUN && name.startsWith(`plaza_test_${RUN}_`)) return;
  admin.pathname = '/postgres';
  await adminQuery(admin.toString(), `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

async function adminQuery(url: string, ...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const text of statements) await client.query(text);
  } finally {
    await client.end();
  }
}
