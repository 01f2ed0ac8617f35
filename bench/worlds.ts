/**
 * `npm run bench:worlds`: what worlds cost (issue #36), on SQLite and then PostgreSQL.
 *
 * Plaza runs in this process (startPlaza, the default configuration, a temporary store). For each
 * store it measures, through the admin interface as a test suite calls it:
 *   - the first world's creation, which builds the seed template (once per Plaza and migration);
 *   - create, reset, snapshot and restore: 20 of each on demo-seeded worlds, p50 and p95;
 *   - the 16-worker scenario (test/support/world-scenario.ts: ~50 requests, a stream that
 *     receives its own post, a webhook delivery): one worker alone, then 16 at once, each in its
 *     own world, the wall time of each and their ratio. The clients run on a thread of their own
 *     (bench/world-clients.ts), as a test suite's workers are processes of their own;
 *   - 100 idle worlds: the process's RSS (after a full GC) before making them and once all have
 *     been closed for idleness (PLAZA_WORLD_IDLE_MS is 3 s here, 5 minutes by default);
 *   - what worlds cost the default world: its lookups per second (5 posts with their authors,
 *     autocannon on a thread of its own, 10 connections) before any world served a request, and after
 *     (Node 20 tracks async context for every promise once a world has been entered).
 * Targets (the issue's): SQLite create < 100 ms, reset/snapshot/restore < 50 ms; PostgreSQL < 500
 * ms each; 16 workers <= 2x one; 100 idle worlds <= 300 MB. Printed as a table; bench/README.md
 * keeps the figures of the last run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { startPlaza, type Plaza } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { CredentialsFile } from '../src/seed/credentials.js';
import { Worker } from 'node:worker_threads';
import { call } from '../test/support/server.js';
import { dropPostgresDatabase, freshPostgresDatabase } from '../test/support/postgres.js';

const ROUNDS = 20;
const READ_SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const IDLE_WORLDS = Number(process.env.BENCH_IDLE_WORLDS ?? 100);
const IDLE_MS = 3_000;

interface Figures {
  store: string;
  template: number;
  create: number[];
  reset: number[];
  snapshot: number[];
  restore: number[];
  alone: number;
  sixteen: number;
  rssBeforeMb: number;
  rssAfterMb: number;
  /** The default world's lookups per second before any other world served a request, and after. */
  readsBefore: number;
  readsAfter: number;
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
const timed = async (work: () => Promise<unknown>) => {
  const t = performance.now();
  await work();
  return performance.now() - t;
};
const rssMb = async () => {
  for (let i = 0; i < 3; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().rss / 1024 / 1024;
};

async function measure(store: string, databaseUrl: string, dir: string): Promise<Figures> {
  const config = loadConfig(
    // Rate limits off: the read figures below load one app far past its windows.
    { port: 0, adsPort: 0, adsSandboxPort: 0, proxyPort: 0, logLevel: 'warn', platformRateLimits: 'off', dataDir: dir, databaseUrl, credentialsFile: path.join(dir, 'credentials.json'), worldIdleMs: IDLE_MS },
    {},
  );
  const plaza: Plaza = await startPlaza(config);
  try {
    const admin = async (method: string, p: string, body?: unknown) => {
      const res = await call(plaza.urls.base_url, p, { method, auth: { bearer: plaza.adminToken! }, ...(body === undefined ? {} : { body }) });
      if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${res.text.slice(0, 300)}`);
      return res;
    };
    const create = async () => (await admin('POST', '/admin/worlds', { seed: 'demo' })).body.data as { id: string; credentials: CredentialsFile };
    // The default world's reads, before a world is used (the process never enters one) and after.
    const lookups = async () => {
      const token = plaza.credentials!.apps[0]!.bearer_token;
      const ids = plaza.credentials!.sample.post_ids.slice(0, 5).join(',');
      await autocannon({ url: `${plaza.urls.base_url}/2/posts?ids=${ids}&expansions=author_id`, headers: { authorization: `Bearer ${token}` }, connections: 10, duration: 2, workers: 1 } as autocannon.Options);
      const r = await autocannon({ url: `${plaza.urls.base_url}/2/posts?ids=${ids}&expansions=author_id`, headers: { authorization: `Bearer ${token}` }, connections: 10, duration: READ_SECONDS, workers: 1 } as autocannon.Options);
      if (r.non2xx > 0) throw new Error(`${r.non2xx} lookups were refused`);
      return r.requests.average;
    };
    const readsBefore = await lookups();
    const template = await timed(create);
    const made: Array<{ id: string; credentials: CredentialsFile }> = [];
    const createMs: number[] = [];
    for (let i = 0; i < ROUNDS; i++) createMs.push(await timed(async () => made.push(await create())));
    const world = made[0]!;
    // A world with some writes of its own, so snapshots and restores carry more than the seed.
    const ada = world.credentials.users.find((u) => u.username === 'ada')!;
    for (let i = 0; i < 20; i++) await call(plaza.urls.base_url, '/2/posts', { method: 'POST', auth: { bearer: ada.oauth2_access_token }, body: { text: `bench post ${i}` } });
    const snapshotMs: number[] = [];
    for (let i = 0; i < ROUNDS; i++) snapshotMs.push(await timed(() => admin('POST', `/admin/worlds/${world.id}/snapshots`, { name: `s${i}` })));
    const restoreMs: number[] = [];
    for (let i = 0; i < ROUNDS; i++) restoreMs.push(await timed(() => admin('POST', `/admin/worlds/${world.id}/snapshots/s${i}/restore`)));
    const resetMs: number[] = [];
    for (let i = 0; i < ROUNDS; i++) resetMs.push(await timed(() => admin('POST', `/admin/worlds/${world.id}/reset`)));
    const readsAfter = await lookups();
    for (const w of made) await admin('DELETE', `/admin/worlds/${w.id}`);

    const alone = await create();
    const aloneRun = await clients(plaza, [alone]);
    const sixteenWorlds: Array<{ id: string; credentials: CredentialsFile }> = [];
    for (let i = 0; i < 16; i++) sixteenWorlds.push(await create());
    const sixteenRun = await clients(plaza, sixteenWorlds);
    if (aloneRun.foreign + sixteenRun.foreign > 0) throw new Error(`the workers saw ${aloneRun.foreign + sixteenRun.foreign} lines of other worlds`);
    const [aloneMs, sixteenMs] = [aloneRun.ms, sixteenRun.ms];
    for (const w of [alone, ...sixteenWorlds]) await admin('DELETE', `/admin/worlds/${w.id}`);

    const rssBeforeMb = await rssMb();
    const idle = [];
    for (let i = 0; i < IDLE_WORLDS; i++) idle.push(await create());
    // Each is closed once it has gone IDLE_MS without a request (checked every IDLE_MS / 2).
    const deadline = Date.now() + IDLE_MS * 4 + 10_000;
    while (plaza.worlds.openCount() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    if (plaza.worlds.openCount() > 0) throw new Error(`${plaza.worlds.openCount()} worlds still open after they went idle`);
    const rssAfterMb = await rssMb();
    for (const w of idle) await admin('DELETE', `/admin/worlds/${w.id}`);
    return { store, template, create: createMs, reset: resetMs, snapshot: snapshotMs, restore: restoreMs, alone: aloneMs, sixteen: sixteenMs, rssBeforeMb, rssAfterMb, readsBefore, readsAfter };
  } finally {
    await plaza.close();
  }
}

/** Runs one scenario per world at once on the clients' thread (bench/world-clients.ts). */
function clients(plaza: Plaza, worlds: Array<{ id: string; credentials: CredentialsFile }>): Promise<{ ms: number; foreign: number }> {
  // The thread loads TypeScript as this process does, through tsx's loader.
  const source = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(new URL('./world-clients.ts', import.meta.url).href)}); })`;
  const worker = new Worker(source, { eval: true, workerData: { baseUrl: plaza.urls.base_url, adminToken: plaza.adminToken, worlds } });
  return new Promise((resolve, reject) => {
    worker.once('message', (m: { ms: number; foreign: number }) => void worker.terminate().then(() => resolve(m)));
    worker.once('error', reject);
  });
}

async function postgresUrl(): Promise<string | undefined> {
  const admin = process.env.BENCH_POSTGRES_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new pg.Client({ connectionString: admin });
  try {
    await client.connect();
    await client.end();
    return admin;
  } catch {
    return undefined;
  }
}

const results: Figures[] = [];
{
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-bench-worlds-'));
  try {
    results.push(await measure('SQLite', path.join(dir, 'plaza.sqlite'), dir));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
const adminUrl = await postgresUrl();
if (adminUrl) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-bench-worlds-'));
  const url = await freshPostgresDatabase(adminUrl, 'plaza_bench');
  try {
    results.push(await measure('PostgreSQL', url, dir));
  } finally {
    // The worlds' databases and seed templates are named after the bench's: dropped with it.
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    const name = new URL(url).pathname.slice(1);
    const kin = await client.query<{ datname: string }>('select datname from pg_database where datname like $1', [`${name}_%`]);
    await client.end();
    for (const { datname } of kin.rows) await dropPostgresDatabase(url.replace(name, datname));
    await dropPostgresDatabase(url);
    fs.rmSync(dir, { recursive: true, force: true });
  }
} else {
  console.log('PostgreSQL: not reachable, skipped');
}

const ms = (x: number) => `${x.toFixed(0)} ms`;
console.log(`\n| | ${results.map((r) => r.store).join(' | ')} |`);
console.log(`|---|${results.map(() => '---').join('|')}|`);
const row = (name: string, f: (r: Figures) => string) => console.log(`| ${name} | ${results.map(f).join(' | ')} |`);
row('first world (builds the seed template)', (r) => ms(r.template));
for (const op of ['create', 'reset', 'snapshot', 'restore'] as const) row(`${op} p50 / p95 (of ${ROUNDS})`, (r) => `${ms(pct(r[op], 50))} / ${ms(pct(r[op], 95))}`);
row('scenario, one worker alone', (r) => ms(r.alone));
row('scenario, 16 workers at once', (r) => `${ms(r.sixteen)} (${(r.sixteen / r.alone).toFixed(2)}x)`);
row('default world lookups/s: no world used / after', (r) => `${r.readsBefore.toFixed(0)} / ${r.readsAfter.toFixed(0)} (${(((r.readsAfter - r.readsBefore) / r.readsBefore) * 100).toFixed(0)}%)`);
row(`RSS before / after ${IDLE_WORLDS} idle worlds`, (r) => `${r.rssBeforeMb.toFixed(0)} / ${r.rssAfterMb.toFixed(0)} MB (+${(r.rssAfterMb - r.rssBeforeMb).toFixed(0)} MB)`);
