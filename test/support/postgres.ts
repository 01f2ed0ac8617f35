import crypto from 'node:crypto';
import pg from 'pg';

/**
 * A new PostgreSQL database next to `adminUrl`'s, empty or a copy of `template`; drop it with
 * dropPostgresDatabase.
 */
export async function freshPostgresDatabase(adminUrl: string, prefix = 'plaza_test', template?: string): Promise<string> {
  const name = `${prefix}_${crypto.randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a database made by freshPostgresDatabase, ending whatever connections it still has. */
export async function dropPostgresDatabase(url: string): Promise<void> {
  const admin = new URL(url);
  const name = admin.pathname.slice(1);
  admin.pathname = '/postgres';
  await adminQuery(admin.toString(), `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
