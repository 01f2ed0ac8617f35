/**
 * The lookup where users are (issue #33): GET /2/posts?ids= with a different random 100 of COUNT
 * seeded posts per request (every post field an app token may ask for; expansions author_id,
 * attachments.media_keys and referenced_posts.id), CONNECTIONS connections, against the plainest
 * server doing the same work: bench/bare-lookup.ts, a bare Fastify route in its own process reading
 * the same rows from the same store. Each alone, and while WRITES posts a second are written
 * through the interface. Targets: Plaza at least 1.0x the bare route, p99 at most 100 ms, Plaza's
 * RSS at most 250 MB after the run.
 *
 * Plaza runs as users run it: the compiled `node dist/main.js serve` on a new store (SQLite in a
 * temporary folder, or a new PostgreSQL database), filled by `plaza seed`.
 *
 *   npm run bench:lookup -- [--count 200000] [--store sqlite|postgres|both] [--seconds 20]
 *     [--warmup 5] [--connections 10] [--writes 30] [--profile]
 *
 * --profile: then Plaza is started again on the same store with Node's --cpu-prof and loaded alone
 * once more; the functions with the most self time are printed (not part of the figures).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import pg from 'pg';
import { waitForCredentials } from './child-plaza.js';
import { mulberry32 } from '../scripts/prng.js';
import { summarise, type ProfileNode } from './profile.js';
import { fieldNames } from '../src/http/fields.js';
import { postDeclaration } from '../src/platform/posts/wire.js';
import { dropPostgresDatabase, freshPostgresDatabase } from '../test/support/postgres.js';
import { flag } from './args.js';

const COUNT = Number(flag('count', '200000'));
const STORES = flag('store', 'both') === 'both' ? (['sqlite', 'postgres'] as const) : ([flag('store', 'sqlite')] as Array<'sqlite' | 'postgres'>);
const SECONDS = Number(flag('seconds', '20'));
const CONNECTIONS = Number(flag('connections', '10'));
const WARMUP = Number(flag('warmup', '5'));
const WRITES = Number(flag('writes', '30'));
const PROFILE = process.argv.includes('--profile');
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PER_REQUEST = 100;

/** Every post field but the metrics only a post's author may read (an app token is refused them). */
const FIELDS = fieldNames(postDeclaration).filter((f) => !['non_public_metrics', 'organic_metrics', 'promoted_metrics'].includes(f));
const EXPANSIONS = 'author_id,attachments.media_keys,referenced_posts.id';

interface Row {
  store: string;
  writes: boolean;
  server: 'plaza' | 'bare';
  rps: number;
  p99: number;
  errors: number;
  rssMb?: number;
  written?: number;
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function started(child: ChildProcess): Promise<string> {
  const lines = readline.createInterface({ input: child.stdout! });
  for await (const line of lines) if (line.startsWith('http://')) return line.trim();
  throw new Error('the bare route did not start');
}

/** The seeded posts' ids (public authors' live posts), read from the store. */
async function postIds(target: string): Promise<string[]> {
  const text = "select id from posts where source = 'Plaza seed' and deleted_at is null and superseded_by_id is null";
  if (!target.startsWith('postgres')) {
    const db = new Database(target, { readonly: true });
    try {
      return (db.prepare(text).all() as Array<{ id: string }>).map((r) => r.id);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  try {
    return (await client.query<{ id: string }>(text)).rows.map((r) => r.id);
  } finally {
    await client.end();
  }
}

/** Writes `perSecond` posts a second through the interface, by the demo users in turn, until stopped. */
let writes = 0;

function writer(base: string, tokens: string[], perSecond: number): { stop: () => Promise<{ written: number; failed: number }> } {
  let written = 0;
  let failed = 0;
  const inFlight = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const i = writes++;
    const p = fetch(`${base}/2/posts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens[i % tokens.length]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: `bench write ${i} while reading #lookup` }),
    })
      .then(async (res) => {
        const text = await res.text();
        if (res.status === 201) written++;
        else if (failed++ === 0) console.warn(`a write failed: ${res.status} ${text.slice(0, 300)}`);
      })
      .catch(() => void failed++)
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  }, 1000 / perSecond);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      return { written, failed };
    },
  };
}

async function load(url: string, bearer: string, ids: string[], seed: number): Promise<{ rps: number; p99: number; errors: number }> {
  const random = mulberry32(seed);
  const path = () => {
    const picked = new Set<string>();
    while (picked.size < PER_REQUEST) picked.add(ids[Math.floor(random() * ids.length)]);
    return `/2/posts?ids=${[...picked].join(',')}&post.fields=${FIELDS.join(',')}&expansions=${EXPANSIONS}`;
  };
  // Each answer is checked: a server that answered less would be measured doing less.
  const sample = await fetch(`${url}${path()}`, { headers: { authorization: `Bearer ${bearer}` } });
  const body = (await sample.json()) as any;
  if (sample.status !== 200 || body.data?.length !== PER_REQUEST || !body.includes?.users?.length) throw new Error(`${url}: ${sample.status} ${JSON.stringify(body).slice(0, 300)}`);
  const run = (duration: number) =>
    autocannon({ url, connections: CONNECTIONS, duration, headers: { authorization: `Bearer ${bearer}` }, requests: [{ method: 'GET', setupRequest: (req: any) => ({ ...req, path: path() }) }] });
  // Warmed first (the store's pages, the JIT, each server's own state), then measured.
  await run(WARMUP);
  const result = await run(SECONDS);
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

/** Stops a child (SIGTERM: Plaza closes its store and, under --cpu-prof, writes its profile) and waits for its exit. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill();
  await exited;
}

async function benchStore(store: 'sqlite' | 'postgres', rows: Row[]): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `plaza-bench-lookup-${store}-`));
  const target = store === 'sqlite' ? path.join(dir, 'plaza.sqlite') : await freshPostgresDatabase(POSTGRES_URL, 'plaza_bench');
  const credsFile = path.join(dir, 'credentials.json');
  const serve = (nodeOptions: string[] = []) =>
    spawn(process.execPath, [...nodeOptions, 'dist/main.js', 'serve', '--port', '0', '--ads-port', '0', '--ads-sandbox-port', '0', '--db', target, '--credentials-file', credsFile, '--data-dir', dir], {
      env: { ...process.env, LOG_LEVEL: 'warn', PLAZA_RATE_LIMITS: 'off' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  let plaza = serve();
  let bare: ChildProcess | undefined;
  /** Plaza again on the same store, under Node's profiler, loaded alone; its hottest functions printed. */
  async function profiled(bearer: string, ids: string[]): Promise<void> {
    await stop(plaza);
    // The restart reuses the file's tokens and writes it again with its own addresses: until then, none.
    fs.writeFileSync(credsFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(credsFile, 'utf8')), base_url: 'http://127.0.0.1:0' }));
    const profileDir = path.join(dir, 'profile');
    plaza = serve(['--cpu-prof', '--cpu-prof-dir', profileDir]);
    const creds = await waitForCredentials(credsFile, plaza.pid!);
    const started = performance.now();
    await load(creds.base_url, bearer, ids, 0);
    const seconds = (performance.now() - started) / 1000;
    await stop(plaza);
    const [file] = fs.readdirSync(profileDir);
    const { nodes } = JSON.parse(fs.readFileSync(path.join(profileDir, file), 'utf8')) as { nodes: ProfileNode[] };
    const summary = summarise(nodes, seconds, 20);
    console.log(`\n${store}: Plaza's hottest functions by self time (of its busy samples, the whole life of the profiled process):`);
    for (const f of summary.top) console.log(`  ${f.percent.toFixed(1).padStart(5)}%  ${f.name}  ${f.where}`);
  }
  try {
    const creds = await waitForCredentials(credsFile, plaza.pid!);
    const seededAt = performance.now();
    execFileSync(process.execPath, ['dist/main.js', 'seed', '--posts', String(COUNT), '--users', String(Math.max(50, COUNT / 100)), '--seed', '1', '--credentials-file', credsFile], { stdio: 'inherit' });
    console.log(`${store}: ${COUNT} posts seeded in ${((performance.now() - seededAt) / 1000).toFixed(0)} s`);
    const ids = await postIds(target);
    bare = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-lookup.ts', target], { stdio: ['ignore', 'pipe', 'inherit'] });
    const bareUrl = await started(bare);
    const bearer: string = creds.apps[1].bearer_token;
    const tokens: string[] = creds.users.map((u: any) => u.oauth2_access_token).filter(Boolean);
    for (const writes of [false, true]) {
      for (const server of ['plaza', 'bare'] as const) {
        const w = writes ? writer(creds.base_url, tokens, WRITES) : undefined;
        const measured = await load(server === 'plaza' ? creds.base_url : bareUrl, bearer, ids, rows.length + 1);
        const done = await w?.stop();
        if (done?.failed) console.warn(`${done.failed} writes failed`);
        rows.push({ store, writes, server, ...measured, rssMb: server === 'plaza' ? rssMb(plaza.pid!) : rssMb(bare.pid!), written: done?.written });
        console.log(JSON.stringify(rows.at(-1)));
      }
    }
    if (PROFILE) await profiled(bearer, ids);
  } finally {
    bare?.kill();
    await stop(plaza);
    if (store === 'postgres') await dropPostgresDatabase(target);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  const rows: Row[] = [];
  const load0 = os.loadavg()[0];
  for (const store of STORES) await benchStore(store, rows);
  console.log(`\nGET /2/posts?ids= (${PER_REQUEST} random of ${COUNT} posts; ${EXPANSIONS}; ${FIELDS.length} post fields), ${CONNECTIONS} connections, ${SECONDS} s each; load average ${load0.toFixed(2)} at the start, ${os.loadavg()[0].toFixed(2)} at the end\n`);
  console.log('| Store | Writes | Plaza req/s | Bare route req/s | Ratio | Plaza p99 ms | Bare p99 ms | Plaza RSS MB | Errors |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const store of STORES) {
    for (const writes of [false, true]) {
      const p = rows.find((r) => r.store === store && r.writes === writes && r.server === 'plaza')!;
      const b = rows.find((r) => r.store === store && r.writes === writes && r.server === 'bare')!;
      const w = writes ? `${WRITES}/s (${p.written} + ${b.written} written)` : 'none';
      console.log(`| ${store} | ${w} | ${p.rps.toFixed(0)} | ${b.rps.toFixed(0)} | ${(p.rps / b.rps).toFixed(2)} | ${p.p99} | ${b.p99} | ${p.rssMb!.toFixed(0)} | ${p.errors + b.errors} |`);
    }
  }
}

await main();
