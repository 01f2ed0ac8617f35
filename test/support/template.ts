import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { startPlaza, type Plaza } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { dropPostgresDatabase, freshPostgresDatabase } from './postgres.js';

/**
 * The demo workspace, seeded once per version of the sources and kind of store, that test servers
 * boot from instead of seeding their own (seeding costs most of a start). A template is a folder
 * holding what a seeded Plaza leaves in its data directory: the store (an SQLite file, or the name
 * of a PostgreSQL database that new ones are created from), the server secret, the credentials
 * file and the seeded media. Every copy is a store of its own, so no test sees another's writes.
 *
 * Templates are keyed by a hash of `src/` (migrations and seed included) and the store's kind; a
 * process that finds none builds one under a name of its own and renames it into place, so two
 * test files starting at once never share a half-built template (the later rename loses and its
 * work is dropped).
 */
export interface Template {
  dir: string;
  /** The PostgreSQL database copies are created from, or undefined for SQLite. */
  database?: string;
}

const ROOT = path.join(os.tmpdir(), 'plaza-test-templates');
const SQLITE_FILE = 'plaza.sqlite';
/** The data directory the template was seeded in: the paths of its media files start with it. */
const SEEDED_IN = 'seeded-in';

let building: Promise<Template> | undefined;

/** The template for this store kind (DATABASE_URL set: PostgreSQL), built on first use. */
export function demoTemplate(adminUrl: string | undefined): Promise<Template> {
  building ??= findOrBuild(adminUrl);
  return building;
}

/**
 * Makes `dataDir` a seeded Plaza's data directory and returns its store's URL: a copy of the
 * template's SQLite file, or a new PostgreSQL database created from the template's.
 */
export async function copyTemplate(template: Template, dataDir: string, adminUrl: string | undefined): Promise<string> {
  for (const entry of fs.readdirSync(template.dir)) {
    if (entry === 'database' || entry === SEEDED_IN) continue;
    fs.cpSync(path.join(template.dir, entry), path.join(dataDir, entry), { recursive: true });
  }
  if (!template.database) return path.join(dataDir, SQLITE_FILE);
  return freshPostgresDatabase(adminUrl!, 'plaza_test', template.database);
}

/**
 * The store names seeded media by where they were made: their files by a path in the template's
 * data directory, their URLs by the seeding server's address. Once a copy's server listens, this
 * names its own (as an operator who moved a data directory would).
 */
export async function rebaseMedia(template: Template, plaza: Plaza, dataDir: string): Promise<void> {
  const seeded = JSON.parse(fs.readFileSync(path.join(template.dir, SEEDED_IN), 'utf8')) as { dataDir: string; baseUrl: string };
  const base = plaza.urls.base_url;
  await sql`UPDATE media SET file_path = replace(file_path, ${seeded.dataDir}, ${dataDir}), url = replace(url, ${seeded.baseUrl}, ${base}), variants = replace(variants, ${seeded.baseUrl}, ${base})`.execute(plaza.ctx.store.db);
}

async function findOrBuild(adminUrl: string | undefined): Promise<Template> {
  const dir = path.join(ROOT, `${sourcesHash()}-${adminUrl ? 'postgres' : 'sqlite'}`);
  const found = read(dir);
  if (found) return found;
  fs.mkdirSync(ROOT, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(ROOT, 'building-'));
  const built = await build(scratch, adminUrl);
  try {
    fs.renameSync(scratch, dir);
  } catch (err) {
    // Another process renamed its template into place first: use that one, drop this one.
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
    if (built.database) await dropPostgresDatabase(databaseUrl(adminUrl!, built.database));
    fs.rmSync(scratch, { recursive: true, force: true });
    return read(dir)!;
  }
  removeOlder(dir, adminUrl);
  return { ...built, dir };
}

function read(dir: string): Template | undefined {
  if (!fs.existsSync(dir)) return undefined;
  const database = path.join(dir, 'database');
  return { dir, database: fs.existsSync(database) ? fs.readFileSync(database, 'utf8') : undefined };
}

/** Seeds a Plaza in `dir` (as the folder its data directory would be) and leaves the store there. */
async function build(dir: string, adminUrl: string | undefined): Promise<Omit<Template, 'dir'>> {
  const work = path.join(dir, 'seeding');
  fs.mkdirSync(work);
  const url = adminUrl ? await freshPostgresDatabase(adminUrl, 'plaza_template') : path.join(work, SQLITE_FILE);
  const plaza = await startPlaza(
    loadConfig({ port: 0, adsPort: 0, adsSandboxPort: 0, proxyPort: 0, logLevel: 'silent', dataDir: work, databaseUrl: url, credentialsFile: path.join(work, 'credentials.json') }, {}),
  );
  await plaza.close();
  fs.writeFileSync(path.join(dir, SEEDED_IN), JSON.stringify({ dataDir: work, baseUrl: plaza.urls.base_url }));
  for (const entry of fs.readdirSync(work)) {
    // SQLite: one consistent file with no log beside it, written by VACUUM INTO.
    if (entry.startsWith(SQLITE_FILE)) continue;
    fs.renameSync(path.join(work, entry), path.join(dir, entry));
  }
  if (adminUrl) {
    const database = new URL(url).pathname.slice(1);
    fs.writeFileSync(path.join(dir, 'database'), database);
    fs.rmSync(work, { recursive: true });
    return { database };
  }
  const sqlite = new SQLite(url);
  sqlite.prepare('VACUUM INTO ?').run(path.join(dir, SQLITE_FILE));
  sqlite.close();
  fs.rmSync(work, { recursive: true });
  return {};
}

/**
 * Templates of other versions of the sources, left by earlier runs: best effort, an hour on. Other
 * test processes build and rename folders here at the same time, so a folder seen by the listing
 * may be gone by the time it is looked at; that is skipped, never an error.
 */
function removeOlder(current: string, adminUrl: string | undefined): void {
  for (const entry of fs.readdirSync(ROOT)) {
    const dir = path.join(ROOT, entry);
    if (dir === current) continue;
    const stat = fs.statSync(dir, { throwIfNoEntry: false });
    if (!stat || Date.now() - stat.mtimeMs < 3_600_000) continue;
    const old = read(dir);
    fs.rmSync(dir, { recursive: true, force: true });
    if (old?.database && adminUrl) void dropPostgresDatabase(databaseUrl(adminUrl, old.database)).catch(() => {});
  }
}

function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * A hash of every file under src/ and of this one: any change to a migration, the seed or what it
 * calls, or to how templates are made, makes a new template.
 */
function sourcesHash(): string {
  const hash = crypto.createHash('sha256').update(fs.readFileSync(import.meta.filename));
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else hash.update(file).update(fs.readFileSync(file));
    }
  };
  walk(SRC);
  return hash.digest('hex').slice(0, 16);
}

const SRC = path.resolve(import.meta.dirname, '../../src');
