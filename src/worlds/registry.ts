import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { ProblemError, problems } from '../http/problems.js';
import { invalidParameter } from '../http/params.js';
import { worldDir } from '../platform/media/files.js';
import type { CredentialsFile } from '../seed/credentials.js';
import { rekeyDemoWorkspace, seedDemo } from '../seed/demo.js';
import { CREDENTIALS_STALE_MS, openStore, type DbOrTx, type Store } from '../store/store.js';
import { dumpStore, restoreStore, type StoreDump } from './dump.js';
import type { WorldScope } from './scope.js';
import { WORLD_ID } from './tags.js';
import { openWorld, type World, type WorldParts } from './world.js';

/**
 * The worlds of a Plaza (issue #36): made, listed, reset, snapshotted, restored and deleted by the
 * admin interface, each on a store of its own (a file beside the default store's on SQLite, a
 * database beside it on PostgreSQL), listed in the default store so every process on it sees them.
 *
 * A new world is a copy of a seed template (the demo workspace, or its first app and user only),
 * made once per Plaza and migration and copied whole: a file copy on SQLite, CREATE DATABASE ...
 * TEMPLATE on PostgreSQL. Its credentials are then minted anew, tagged with its id. What it holds
 * right after is recorded as its `@seed` snapshot, which reset restores.
 *
 * Snapshots are whole-store dumps (src/worlds/dump.ts) kept in the default store: the world's own
 * connections stay open while one is taken, and the same dump is the snapshot file a team shares.
 * A restore ends the world's streams and stops its workers, writes the dump back in one
 * transaction and starts them again, so nothing reads the log across the change.
 *
 * A world is opened on its first request and closed after worldIdleMs without one (when no stream
 * of it is open): a closed world costs no timer and no connection.
 */
export interface WorldListing {
  id: string;
  created_at: string;
  seed: string;
  snapshots: string[];
}

export type Seed = 'demo' | 'empty';
export const SEEDS: readonly Seed[] = ['demo', 'empty'];
const SEED_SNAPSHOT = '@seed';
/**
 * PostgreSQL: a world holds at most 3 connections, each let go after a second idle: sixteen busy
 * worlds and the default one stay well within a server's 100, and an idle world holds none.
 */
const WORLD_STORE = { maxConnections: 3, idleMs: 1_000 };
/** Snapshot names: what a file name or a URL segment can hold without escaping. */
export const SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * A snapshot written to a file: the world's store, its credentials (for the passwords they hold),
 * and the bytes of its media files (by file name), so a world made from the file on another
 * machine serves them from its own folder and address (adoptMedia).
 */
interface SnapshotFile {
  format: 'plaza-world-snapshot';
  seed: string;
  credentials: CredentialsFile;
  store: StoreDump;
  media?: Record<string, string>;
}

interface OpenWorld {
  world: World;
  store: Store;
  lastUsed: number;
  /** The listing's generation this process opened the world at, and when it last compared it. */
  generation: number;
  checkedAt: number;
}

export interface WorldsDeps {
  parts: WorldParts;
  scope: WorldScope;
  /** The default world's store, where the worlds are listed. */
  home: Store;
  /** The URLs a world's credentials carry (the listeners' and the proxy's). */
  urls: () => Pick<CredentialsFile, 'base_url' | 'ads_url' | 'ads_sandbox_url' | 'proxy_url' | 'ca_file' | 'node_preload'>;
}

export class Worlds {
  private readonly open = new Map<string, Promise<OpenWorld | undefined>>();
  private readonly templates = new Map<Seed, Promise<Template>>();
  /** Operations on one world wait for the one before (a restore and a request opening it, say). */
  private readonly queues = new Map<string, Promise<unknown>>();
  private sweeper?: NodeJS.Timeout;
  private closed = false;
  private readonly stores: WorldStores;

  /** Runs what a world starts inside it (src/worlds/scope.ts). */
  private readonly enter = <T>(world: World, fn: () => T): T => this.deps.scope.run(world, fn);

  constructor(private readonly deps: WorldsDeps) {
    this.stores = deps.home.dialect === 'postgres' ? new PostgresStores(deps.home, deps.parts.config.databaseUrl) : new SqliteStores(deps.parts.config.dataDir);
  }

  /** The world with this id, opened if it is not (undefined when there is none). */
  async get(id: string): Promise<World | undefined> {
    if (!WORLD_ID.test(id) || this.closed) return undefined;
    let opening = this.open.get(id);
    if (!opening) {
      opening = this.serially(id, () => this.openFromListing(id));
      this.open.set(id, opening);
      opening.then((o) => o ?? this.open.delete(id), () => this.open.delete(id));
    }
    const found = await opening;
    if (!found) return undefined;
    const now = Date.now();
    found.lastUsed = now;
    // Another process may have deleted, reset or restored the world: the listing says so, read at
    // most once a second (as another process's revoked token is seen, src/store/store.ts).
    if (now - found.checkedAt >= CREDENTIALS_STALE_MS) {
      found.checkedAt = now;
      const row = await this.deps.home.db.selectFrom('worlds').select('generation').where('id', '=', id).executeTakeFirst();
      if (!row || row.generation !== found.generation) {
        await this.serially(id, () => (this.open.get(id) === opening ? this.closeWorld(id) : Promise.resolve()));
        return row ? this.get(id) : undefined;
      }
    }
    return found.world;
  }

  async create(input: { seed?: string; snapshot_file?: string }): Promise<{ id: string; credentials: CredentialsFile }> {
    const file = input.snapshot_file === undefined ? undefined : readSnapshotFile(input.snapshot_file);
    const seed = input.seed ?? 'demo';
    if (!SEEDS.includes(seed as Seed)) throw invalidParameter('seed', [seed], `The \`seed\` body field value [${seed}] is not one of [${SEEDS.join(',')}]`);
    const id = `w${crypto.randomBytes(5).toString('hex')}`;
    const template = await this.template(file ? 'empty' : (seed as Seed));
    const url = await this.stores.copy(template.location, id);
    let store: Store | undefined;
    let world: World | undefined;
    try {
      store = await this.openWorldStore(id, url);
      world = await openWorld(this.deps.parts, id, store, url, this.enter);
      const opened = world;
      const fill = async () => {
        if (file) await restoreStore(store!, file.store);
        await adoptMedia(opened, this.deps.urls().base_url, file);
        return this.deps.scope.run(opened, () => rekeyDemoWorkspace(opened.ctx, file?.credentials ?? template.credentials));
      };
      // A file that parses but does not restore (another Plaza's newer store, rows that do not fit) is bad input.
      const credentials = file ? await fill().catch((err: Error) => Promise.reject(invalidParameter('snapshot_file', [input.snapshot_file!], `The \`snapshot_file\` [${input.snapshot_file}] could not be restored: ${err.message.slice(0, 200)}`))) : await fill();
      const now = new Date().toISOString();
      await this.deps.home.db.transaction().execute(async (tx) => {
        await tx.insertInto('worlds').values({ id, seed: file ? 'snapshot' : seed, store: url, credentials: JSON.stringify(credentials), generation: 0, created_at: now }).execute();
        await tx.insertInto('world_snapshots').values({ world_id: id, name: SEED_SNAPSHOT, dump: JSON.stringify(await dumpStore(store!)), created_at: now }).execute();
      });
      await world.start();
      this.open.set(id, Promise.resolve({ world, store, lastUsed: Date.now(), generation: 0, checkedAt: Date.now() }));
      this.sweepLater();
      return { id, credentials: this.withUrls(credentials) };
    } catch (err) {
      await world?.close();
      await store?.close();
      await this.stores.drop(url).catch(() => {});
      fs.rmSync(worldDir(this.deps.parts.config.dataDir, id), { recursive: true, force: true });
      throw err;
    }
  }

  list(): Promise<WorldListing[]> {
    return listWorlds(this.deps.home.db);
  }

  /** The world's credentials as POST /admin/worlds answered them. */
  async credentials(id: string): Promise<CredentialsFile> {
    const row = await this.listed(id);
    return this.withUrls(JSON.parse(row.credentials) as CredentialsFile);
  }

  async delete(id: string): Promise<void> {
    const row = await this.listed(id);
    await this.serially(id, async () => {
      await this.closeWorld(id);
      await this.deps.home.db.deleteFrom('worlds').where('id', '=', id).execute();
      await this.stores.drop(row.store);
      fs.rmSync(worldDir(this.deps.parts.config.dataDir, id), { recursive: true, force: true });
    });
  }

  async reset(id: string): Promise<void> {
    await this.restore(id, SEED_SNAPSHOT);
  }

  /** Records the world's whole state under `name` (replacing a snapshot of that name), and writes it to `file` when given. */
  async snapshot(id: string, name: string, file?: string): Promise<{ name: string; created_at: string }> {
    const row = await this.listed(id);
    const world = await this.get(id);
    if (!world) throw notFound('world', id);
    const dump = await dumpStore(world.ctx.store);
    const created_at = new Date().toISOString();
    const text = JSON.stringify(dump);
    // The file first: a path that cannot be written changes nothing.
    if (file) {
      const snapshot = { format: 'plaza-world-snapshot', seed: row.seed, credentials: JSON.parse(row.credentials) as CredentialsFile, store: dump, media: await mediaFilesOf(world, dump) } as const;
      writeSnapshotFile(file, snapshot);
    }
    await this.deps.home.db
      .insertInto('world_snapshots')
      .values({ world_id: id, name, dump: text, created_at })
      .onConflict((oc) => oc.columns(['world_id', 'name']).doUpdateSet({ dump: text, created_at }))
      .execute();
    return { name, created_at };
  }

  async snapshots(id: string): Promise<Array<{ name: string; created_at: string }>> {
    await this.listed(id);
    return this.deps.home.db.selectFrom('world_snapshots').select(['name', 'created_at']).where('world_id', '=', id).where('name', '!=', SEED_SNAPSHOT).orderBy('created_at').execute();
  }

  async deleteSnapshot(id: string, name: string): Promise<void> {
    await this.listed(id);
    const { numDeletedRows } = await this.deps.home.db.deleteFrom('world_snapshots').where('world_id', '=', id).where('name', '=', name).where('name', '!=', SEED_SNAPSHOT).executeTakeFirst();
    if (numDeletedRows === 0n) throw notFound('snapshot', name);
  }

  /** Brings the recorded state back: the world's streams end (operational disconnect), its workers restart on the restored log. */
  async restore(id: string, name: string): Promise<void> {
    await this.listed(id);
    const saved = await this.deps.home.db.selectFrom('world_snapshots').select('dump').where('world_id', '=', id).where('name', '=', name).executeTakeFirst();
    if (!saved) throw notFound('snapshot', name);
    const dump = JSON.parse(saved.dump) as StoreDump;
    await this.get(id);
    await this.serially(id, async () => {
      const current = await this.open.get(id);
      if (!current) throw notFound('world', id);
      await current.world.close();
      await restoreStore(current.store, dump);
      // Other processes holding the world open see the new generation and open it again.
      await this.deps.home.db.updateTable('worlds').set((eb) => ({ generation: eb('generation', '+', 1) })).where('id', '=', id).execute();
      const { generation, store: url } = await this.listed(id);
      const world = await openWorld(this.deps.parts, id, current.store, url, this.enter);
      await world.start();
      this.open.set(id, Promise.resolve({ world, store: current.store, lastUsed: Date.now(), generation, checkedAt: Date.now() }));
    });
  }

  /**
   * Another process changed this world (src/events/settings-bus.ts): its listing is compared again
   * at its next request (a reset, restore or deletion is seen at once), and if it is open here its
   * admin clock and faults are read again now.
   */
  async changedElsewhere(id: string): Promise<void> {
    const opening = this.open.get(id);
    if (!opening) return;
    const found = await opening.catch(() => undefined);
    if (!found) return;
    found.checkedAt = 0;
    found.store.changedElsewhere();
    await found.world.admin?.clock.refresh();
    await found.world.admin?.faults.refresh();
  }

  /** How many worlds other than the default one this process holds open (the others cost nothing). */
  openCount(): number {
    return this.open.size;
  }

  /** The worker number of ids changed (a lease lost and another taken): every open world takes it. */
  useWorker(worker: number): void {
    this.deps.parts.worker = worker;
    for (const opening of this.open.values()) void opening.then((o) => o?.world.ctx.ids.useWorker(worker), () => {});
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    await Promise.allSettled([...this.open.keys()].map((id) => this.closeWorld(id)));
  }

  private async openFromListing(id: string): Promise<OpenWorld | undefined> {
    const row = await this.deps.home.db.selectFrom('worlds').select(['store', 'generation']).where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const store = await this.openWorldStore(id, row.store);
    try {
      const world = await openWorld(this.deps.parts, id, store, row.store, this.enter);
      await world.start();
      this.sweepLater();
      return { world, store, lastUsed: Date.now(), generation: row.generation, checkedAt: Date.now() };
    } catch (err) {
      await store.close();
      throw err;
    }
  }

  private openWorldStore(id: string, url: string): Promise<Store> {
    return openStore(url, (err) => this.deps.parts.log.warn({ err, world: id }, 'a database connection of a world failed'), WORLD_STORE);
  }

  private async closeWorld(id: string): Promise<void> {
    const opening = this.open.get(id);
    this.open.delete(id);
    const found = await opening?.catch(() => undefined);
    if (!found) return;
    await found.world.close();
    await found.store.close();
  }

  /** Closes the worlds no request has used for worldIdleMs and that have no stream open. */
  private sweepLater(): void {
    if (this.sweeper) return;
    const idleMs = this.deps.parts.config.worldIdleMs;
    this.sweeper = setInterval(() => {
      for (const [id, opening] of this.open) {
        void opening.then((o) => {
          if (!o || Date.now() - o.lastUsed < idleMs || o.world.ctx.streams.count(() => true) > 0) return;
          return this.serially(id, () => this.closeWorld(id));
        });
      }
      if (this.open.size === 0) {
        clearInterval(this.sweeper);
        this.sweeper = undefined;
      }
    }, Math.max(1_000, Math.floor(idleMs / 2)));
    this.sweeper.unref();
  }

  private serially<T>(id: string, work: () => Promise<T>): Promise<T> {
    const before = this.queues.get(id) ?? Promise.resolve();
    const next = before.then(work, work);
    const settled = next.catch(() => {});
    this.queues.set(id, settled);
    void settled.then(() => this.queues.get(id) === settled && this.queues.delete(id));
    return next;
  }

  private async listed(id: string) {
    const row = WORLD_ID.test(id) ? await this.deps.home.db.selectFrom('worlds').selectAll().where('id', '=', id).executeTakeFirst() : undefined;
    if (!row) throw notFound('world', id);
    return row;
  }

  private withUrls(credentials: CredentialsFile): CredentialsFile {
    return { ...credentials, ...this.deps.urls() };
  }

  /** The seed template: built once per Plaza and migration, in a world of its own that never serves a request. */
  private template(seed: Seed): Promise<Template> {
    let building = this.templates.get(seed);
    if (!building) {
      building = this.stores.template(seed, async (url) => {
        const store = await openStore(url);
        const world = await openWorld(this.deps.parts, `seed-${seed}`, store, url, this.enter);
        try {
          return await seedDemo(world.ctx, { minimal: seed === 'empty' });
        } finally {
          await world.close();
          await store.close();
        }
      });
      this.templates.set(seed, building);
      building.catch(() => this.templates.delete(seed));
    }
    return building;
  }
}

/** The worlds listed in the default world's store (the admin interface's list, and the console's). */
export async function listWorlds(db: DbOrTx): Promise<WorldListing[]> {
  const worlds = await db.selectFrom('worlds').select(['id', 'created_at', 'seed']).orderBy('created_at').orderBy('id').execute();
  const snapshots = await db.selectFrom('world_snapshots').select(['world_id', 'name']).where('name', '!=', SEED_SNAPSHOT).orderBy('created_at').execute();
  return worlds.map((w) => ({ ...w, snapshots: snapshots.filter((s) => s.world_id === w.id).map((s) => s.name) }));
}

const notFound = (what: 'world' | 'snapshot', id: string) =>
  new ProblemError(404, problems.aboutBlank(404, 'Not Found', `No ${what} ${JSON.stringify(id)}${what === 'world' ? ' (GET /admin/worlds lists them)' : ''}.`));

/**
 * Snapshot files are named by absolute paths on Plaza's machine (the CLI and the helpers make them
 * absolute): a relative one would depend on the server's working directory.
 */
function absolute(name: 'file' | 'snapshot_file', file: string): string {
  if (!path.isAbsolute(file) || file.includes('\u0000')) throw invalidParameter(name, [file], `The \`${name}\` [${file}] must be an absolute path on Plaza's machine`);
  return file;
}

function readSnapshotFile(file: string): SnapshotFile {
  let parsed: SnapshotFile;
  try {
    parsed = JSON.parse(fs.readFileSync(absolute('snapshot_file', file), 'utf8')) as SnapshotFile;
  } catch (err) {
    if (err instanceof ProblemError) throw err;
    // The reason, never the parser's message: it would quote the file, which may be anything.
    const reason = (err as NodeJS.ErrnoException).code ?? 'not JSON';
    throw invalidParameter('snapshot_file', [file], `The \`snapshot_file\` [${file}] could not be read as a snapshot (${reason})`);
  }
  if (parsed?.format !== 'plaza-world-snapshot' || parsed.store?.format !== 'plaza-store-dump') {
    throw invalidParameter('snapshot_file', [file], `The \`snapshot_file\` [${file}] is not a Plaza world snapshot (written by POST /admin/worlds/{id}/snapshots with a file)`);
  }
  return parsed;
}

/** The media files a dump's rows name that are kept (on this machine, or in the world's store): file name to bytes (base64). */
async function mediaFilesOf(world: World, dump: StoreDump): Promise<Record<string, string>> {
  const media = dump.tables.media;
  const at = media?.columns.indexOf('file_path') ?? -1;
  const blobs = world.ctx.media;
  const files: Record<string, string> = {};
  for (const row of at >= 0 ? media!.rows : []) {
    const location = row[at];
    const bytes = typeof location === 'string' ? await blobs.read(location) : undefined;
    // Named by the file's own name, whatever kept it (a path's last part, or the name after `store:`).
    if (bytes) files[path.basename(location as string).replace(/^store:/, '')] = bytes.toString('base64');
  }
  return files;
}

/**
 * The media of a world copied from elsewhere (a seed template, a snapshot file) become its own:
 * the URLs Plaza serves them at name this Plaza's address and the world (mediaFileUrl), and the
 * files a snapshot file carries go to the world's folder. (The seed template's files stay where
 * the template put them, shared by every world copied from it, read only.)
 */
async function adoptMedia(world: World, baseUrl: string, file: SnapshotFile | undefined): Promise<void> {
  const blobs = world.ctx.media;
  const db = world.ctx.store.db;
  const served = /https?:\/\/[^/\s"]+\/media\/(?:w[0-9a-z]{10}~)?/g;
  const adopt = (text: string | null) => text?.replace(served, `${baseUrl}/media/${world.id}~`) ?? null;
  for (const row of await db.selectFrom('media').select(['media_key', 'file_path', 'url', 'preview_image_url', 'variants']).execute()) {
    const name = row.file_path ? path.basename(row.file_path).replace(/^store:/, '') : undefined;
    // Only plain file names the snapshot itself carries: nothing a file says is used as a path.
    const bytes = name && /^[\w.-]+$/.test(name) ? file?.media?.[name] : undefined;
    const kept = bytes !== undefined ? await blobs.put(name!, Buffer.from(bytes, 'base64')) : row.file_path;
    await db
      .updateTable('media')
      .set({ file_path: kept, url: adopt(row.url), preview_image_url: adopt(row.preview_image_url), variants: adopt(row.variants) ?? row.variants })
      .where('media_key', '=', row.media_key)
      .execute();
  }
}

/**
 * Writes a new file, never over an existing one (whatever it is): a snapshot is written where
 * nothing was, in a folder that exists.
 */
function writeSnapshotFile(file: string, snapshot: SnapshotFile): void {
  try {
    fs.writeFileSync(absolute('file', file), JSON.stringify(snapshot), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if (err instanceof ProblemError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const reason = code === 'EEXIST' ? 'there is a file there already: a snapshot is never written over one' : code === 'ENOENT' ? 'its folder does not exist' : code;
    throw invalidParameter('file', [file], `The \`file\` [${file}] could not be written (${reason})`);
  }
}

interface Template {
  /** A file (SQLite) or a database name (PostgreSQL) that new worlds' stores are copied from. */
  location: string;
  credentials: CredentialsFile;
}

/** Where worlds' stores are made, copied from and dropped, for each kind of store. */
interface WorldStores {
  /** The seed template, built with `seed` (handed the new store's URL) when it is not there yet. */
  template(seed: Seed, build: (url: string) => Promise<CredentialsFile>): Promise<Template>;
  /** A new store for world `id`, a copy of the template; answers its URL. */
  copy(location: string, id: string): Promise<string>;
  drop(url: string): Promise<void>;
}

/** The migration a template was made at: a later Plaza makes its own. */
const migrationTag = async (): Promise<string> => {
  const { migrations } = await import('../store/migrations/index.js');
  return Object.keys(migrations).sort().at(-1)!.slice(0, 4);
};

/** SQLite: `${dataDir}/worlds/<id>/store.sqlite`, copied from `${dataDir}/worlds/seed-<seed>-<migration>.sqlite`. */
class SqliteStores implements WorldStores {
  constructor(private readonly dataDir: string) {}

  async template(seed: Seed, build: (url: string) => Promise<CredentialsFile>): Promise<Template> {
    const file = path.join(this.dataDir, 'worlds', `seed-${seed}-${await migrationTag()}.sqlite`);
    const credentialsFile = `${file}.json`;
    if (fs.existsSync(file) && fs.existsSync(credentialsFile)) return { location: file, credentials: JSON.parse(fs.readFileSync(credentialsFile, 'utf8')) as CredentialsFile };
    const building = `${file}.${process.pid}.building`;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const credentials = await build(building);
    // One file with no log beside it: its own copy is a consistent store.
    const SQLite = (await import('better-sqlite3')).default;
    const db = new SQLite(building);
    const packed = `${file}.${process.pid}.packed`;
    db.prepare('VACUUM INTO ?').run(packed);
    db.close();
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${building}${suffix}`, { force: true });
    fs.writeFileSync(credentialsFile, JSON.stringify(credentials), { mode: 0o600 });
    fs.renameSync(packed, file);
    return { location: file, credentials };
  }

  async copy(location: string, id: string): Promise<string> {
    const dir = worldDir(this.dataDir, id);
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'store.sqlite');
    fs.copyFileSync(location, file);
    return file;
  }

  async drop(url: string): Promise<void> {
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${url}${suffix}`, { force: true });
  }
}

/** PostgreSQL: a database per world beside the default one, made with CREATE DATABASE ... TEMPLATE. */
class PostgresStores implements WorldStores {
  private readonly prefix: string;

  constructor(
    private readonly home: Store,
    private readonly homeUrl: string,
  ) {
    // Names stay within PostgreSQL's 63 bytes and start with the default database's name, so what
    // removes that database's kin (a test run's clean-up) finds them.
    this.prefix = new URL(homeUrl).pathname.slice(1).replace(/[^A-Za-z0-9_]/g, '_').slice(0, 36);
  }

  async template(seed: Seed, build: (url: string) => Promise<CredentialsFile>): Promise<Template> {
    const name = `${this.prefix}_seed_${seed}_${await migrationTag()}`;
    const found = await this.home.db.selectFrom('settings').select('value').where('key', '=', `world_template:${name}`).executeTakeFirst();
    if (found && (await this.exists(name))) return { location: name, credentials: JSON.parse(found.value) as CredentialsFile };
    const building = `${name}_${crypto.randomBytes(3).toString('hex')}`;
    await sql.raw(`create database "${building}"`).execute(this.home.db);
    try {
      const credentials = await build(this.urlOf(building));
      try {
        await sql.raw(`alter database "${building}" rename to "${name}"`).execute(this.home.db);
      } catch (err) {
        // Another process renamed its template into place first: that one is used.
        if (!(await this.exists(name))) throw err;
        await this.dropDatabase(building);
        const theirs = await this.home.db.selectFrom('settings').select('value').where('key', '=', `world_template:${name}`).executeTakeFirst();
        if (theirs) return { location: name, credentials: JSON.parse(theirs.value) as CredentialsFile };
      }
      const value = JSON.stringify(credentials);
      await this.home.db.insertInto('settings').values({ key: `world_template:${name}`, value }).onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute();
      return { location: name, credentials };
    } catch (err) {
      await this.dropDatabase(building).catch(() => {});
      throw err;
    }
  }

  async copy(location: string, id: string): Promise<string> {
    const name = `${this.prefix}_${id}`;
    await sql.raw(`create database "${name}" template "${location}"`).execute(this.home.db);
    return this.urlOf(name);
  }

  async drop(url: string): Promise<void> {
    await this.dropDatabase(new URL(url).pathname.slice(1));
  }

  private async dropDatabase(name: string): Promise<void> {
    await sql.raw(`drop database if exists "${name}" with (force)`).execute(this.home.db);
  }

  private async exists(name: string): Promise<boolean> {
    const { rows } = await sql<{ one: number }>`select 1 as one from pg_database where datname = ${name}`.execute(this.home.db);
    return rows.length > 0;
  }

  private urlOf(name: string): string {
    const url = new URL(this.homeUrl);
    url.pathname = `/${name}`;
    return url.toString();
  }
}
