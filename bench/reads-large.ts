/**
 * Reads where users are (issue #33): three scenarios on a store of COUNT seeded posts, each
 * against the plainest server doing the same work (bench/bare-reads.ts, bare Fastify routes in
 * their own process reading the same store with plain SQL), each alone and while WRITES posts a
 * second are written through the interface. CONNECTIONS connections; every request differs.
 *
 * - lookup: GET /2/posts?ids= with a different random 100 posts (every post field an app token may
 *   ask for; expansions author_id, attachments.media_keys, referenced_posts.id), app token.
 * - home: GET /2/users/:id/timelines/reverse_chronological, pages of 100 (the first page, or one
 *   ending at a random post: until_id), of VIEWERS users who each follow FOLLOWS seeded authors,
 *   each request with its user's own token; expansion author_id.
 * - search: GET /2/posts/search/recent?query=<a word in about 1% of the posts>, pages of 100 (the
 *   first, or until_id a random post), app token; expansion author_id.
 *
 * Targets: Plaza at least 1.0x the bare route, p99 at most 100 ms, Plaza's RSS at most 250 MB
 * after the run. Plaza runs as users run it: the compiled `node dist/main.js serve` on a new store
 * (SQLite in a temporary folder, or a new PostgreSQL database), filled by `plaza seed`; the follows
 * are made through the admin interface (act as a person).
 *
 *   npm run bench:reads -- [--scenario lookup,home,search] [--count 200000] [--store sqlite|postgres|both]
 *     [--seconds 15] [--warmup 5] [--connections 10] [--writes 30] [--profile]
 *
 * --profile: then Plaza is started again on the same store with Node's --cpu-prof and loaded alone
 * with the first scenario once more; the functions with the most self time are printed (not part
 * of the figures).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import pg from 'pg';
import { request, waitForCredentials } from './child-plaza.js';
import { mulberry32 } from '../scripts/prng.js';
import { summarise, type ProfileNode } from './profile.js';
import { fieldNames } from '../src/http/fields.js';
import { postDeclaration } from '../src/platform/posts/wire.js';
import { dropPostgresDatabase, freshPostgresDatabase } from '../test/support/postgres.js';
import { flag } from './args.js';

const SCENARIOS = flag('scenario', 'lookup,home,search').split(',') as ScenarioName[];
const COUNT = Number(flag('count', '200000'));
const STORES = flag('store', 'both') === 'both' ? (['sqlite', 'postgres'] as const) : ([flag('store', 'sqlite')] as Array<'sqlite' | 'postgres'>);
const SECONDS = Number(flag('seconds', '20'));
const CONNECTIONS = Number(flag('connections', '10'));
const WARMUP = Number(flag('warmup', '5'));
const WRITES = Number(flag('writes', '30'));
const PROFILE = process.argv.includes('--profile');
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PER_REQUEST = 100;
const VIEWERS = 20;
const FOLLOWS = 200;

/** Every post field but the metrics only a post's author may read (an app token is refused them). */
const FIELDS = fieldNames(postDeclaration).filter((f) => !['non_public_metrics', 'organic_metrics', 'promoted_metrics'].includes(f));
const LOOKUP_EXPANSIONS = 'author_id,attachments.media_keys,referenced_posts.id';

type ScenarioName = 'lookup' | 'home' | 'search';

/** What a scenario's requests need, made once per store. */
interface Fixture {
  /** The seeded posts' ids. */
  ids: string[];
  /** The app-only token. */
  bearer: string;
  /** home: the viewers' ids and their own tokens. */
  viewers: Array<{ id: string; token: string }>;
  /** search: the word asked for, and the share of the seeded posts it occurs in. */
  word: string;
  share: number;
}

interface Scenario {
  title: (f: Fixture) => string;
  /** The next request: its path and token. */
  next: (f: Fixture, random: () => number) => { path: string; bearer: string };
  /** A full answer: a server that answered less would be measured doing less. */
  full: (body: any) => boolean;
}

const untilSome = (f: Fixture, random: () => number) => (random() < 0.5 ? '' : `&until_id=${f.ids[Math.floor(random() * f.ids.length)]}`);
const pageFields = `max_results=${PER_REQUEST}&post.fields=${FIELDS.join(',')}&expansions=author_id`;

const SCENARIO: Record<ScenarioName, Scenario> = {
  lookup: {
    title: () => `GET /2/posts?ids= (${PER_REQUEST} random of ${COUNT} posts; ${LOOKUP_EXPANSIONS}; ${FIELDS.length} post fields)`,
    next: (f, random) => {
      const picked = new Set<string>();
      while (picked.size < PER_REQUEST) picked.add(f.ids[Math.floor(random() * f.ids.length)]);
      return { path: `/2/posts?ids=${[...picked].join(',')}&post.fields=${FIELDS.join(',')}&expansions=${LOOKUP_EXPANSIONS}`, bearer: f.bearer };
    },
    full: (body) => body.data?.length === PER_REQUEST && body.includes?.users?.length > 0,
  },
  home: {
    title: () => `GET /2/users/:id/timelines/reverse_chronological (pages of ${PER_REQUEST}, half from a random until_id; ${VIEWERS} users following ${FOLLOWS} of the seeded authors each; author_id; ${FIELDS.length} post fields; ${COUNT} posts)`,
    next: (f, random) => {
      const viewer = f.viewers[Math.floor(random() * f.viewers.length)];
      return { path: `/2/users/${viewer.id}/timelines/reverse_chronological?${pageFields}${untilSome(f, random)}`, bearer: viewer.token };
    },
    full: (body) => body.data?.length > 0 && body.includes?.users?.length > 0,
  },
  search: {
    title: (f) => `GET /2/posts/search/recent?query=${f.word} (in ${(f.share * 100).toFixed(1)}% of ${COUNT} posts; pages of ${PER_REQUEST}, half from a random until_id; author_id; ${FIELDS.length} post fields)`,
    next: (f, random) => ({ path: `/2/posts/search/recent?query=${encodeURIComponent(f.word)}&${pageFields}${untilSome(f, random)}`, bearer: f.bearer }),
    full: (body) => body.data?.length > 0 && body.includes?.users?.length > 0,
  },
};

interface Row {
  scenario: ScenarioName;
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

/** Rows read from the store (no placeholders). */
async function storeRows<T>(target: string, text: string): Promise<T[]> {
  if (!target.startsWith('postgres')) {
    const db = new Database(target, { readonly: true });
    try {
      return db.prepare(text).all() as T[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

const SEEDED = "source = 'Plaza seed' and deleted_at is null and superseded_by_id is null";

/** The word of the seeded posts whose share of them is nearest 1% (counted over a sample of 20,000). */
async function wordNearOnePercent(target: string): Promise<{ word: string; share: number }> {
  const texts = await storeRows<{ text: string }>(target, `select text from posts where ${SEEDED} order by id limit 20000`);
  const counts = new Map<string, number>();
  for (const { text } of texts) for (const w of new Set(text.toLowerCase().split(/[^a-z0-9]+/).filter((x) => x.length > 2))) counts.set(w, (counts.get(w) ?? 0) + 1);
  const [word, n] = [...counts].sort((a, b) => Math.abs(a[1] / texts.length - 0.01) - Math.abs(b[1] / texts.length - 0.01))[0];
  return { word, share: n / texts.length };
}

/** VIEWERS seeded authors, each following FOLLOWS others (through the admin interface), with tokens of the enterprise app. */
async function viewersFollowing(creds: any, target: string, random: () => number): Promise<Fixture['viewers']> {
  const authors = (await storeRows<{ id: string }>(target, "select id from users where username like 'seed_user_%' order by id")).map((u) => u.id);
  const viewers: Fixture['viewers'] = [];
  for (const id of authors.slice(0, VIEWERS)) {
    const res = await fetch(`${creds.base_url}/admin/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${creds.admin_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ user: id, app: creds.apps[1].id }),
    });
    if (res.status !== 201) throw new Error(`POST /admin/tokens: ${res.status} ${await res.text()}`);
    viewers.push({ id, token: ((await res.json()) as any).data.oauth2_access_token });
    const followed = new Set<string>();
    while (followed.size < Math.min(FOLLOWS, authors.length - 1)) {
      const other = authors[Math.floor(random() * authors.length)];
      if (other !== id) followed.add(other);
    }
    const list = [...followed];
    for (let i = 0; i < list.length; i += 20) {
      await Promise.all(list.slice(i, i + 20).map((target_user_id) => request(creds.base_url, 'POST', `/admin/users/${id}/following`, creds.admin_token, { target_user_id })));
    }
  }
  return viewers;
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

async function load(url: string, scenario: Scenario, fixture: Fixture, seed: number): Promise<{ rps: number; p99: number; errors: number }> {
  const random = mulberry32(seed);
  // The first answer is checked whole: a server that answered less would be measured doing less.
  const first = scenario.next(fixture, mulberry32(0));
  const sample = await fetch(`${url}${first.path}`, { headers: { authorization: `Bearer ${first.bearer}` } });
  const body = (await sample.json()) as any;
  if (sample.status !== 200 || !scenario.full(body)) throw new Error(`${url}${first.path.slice(0, 100)}: ${sample.status} ${JSON.stringify(body).slice(0, 300)}`);
  const run = (duration: number) =>
    autocannon({
      url,
      connections: CONNECTIONS,
      duration,
      requests: [
        {
          method: 'GET',
          setupRequest: (req: any) => {
            const { path, bearer } = scenario.next(fixture, random);
            return { ...req, path, headers: { ...req.headers, authorization: `Bearer ${bearer}` } };
          },
        },
      ],
    });
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
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `plaza-bench-reads-${store}-`));
  const target = store === 'sqlite' ? path.join(dir, 'plaza.sqlite') : await freshPostgresDatabase(POSTGRES_URL, 'plaza_bench');
  const credsFile = path.join(dir, 'credentials.json');
  const serve = (nodeOptions: string[] = []) =>
    spawn(process.execPath, [...nodeOptions, 'dist/main.js', 'serve', '--port', '0', '--ads-port', '0', '--ads-sandbox-port', '0', '--proxy-port', '0', '--db', target, '--credentials-file', credsFile, '--data-dir', dir], {
      env: { ...process.env, LOG_LEVEL: 'warn', PLAZA_RATE_LIMITS: 'off' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  let plaza = serve();
  let bare: ChildProcess | undefined;
  /** Plaza again on the same store, under Node's profiler, loaded alone; its hottest functions printed. */
  async function profiled(fixture: Fixture): Promise<void> {
    await stop(plaza);
    // The restart reuses the file's tokens and writes it again with its own addresses: until then, none.
    fs.writeFileSync(credsFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(credsFile, 'utf8')), base_url: 'http://127.0.0.1:0' }));
    const profileDir = path.join(dir, 'profile');
    plaza = serve(['--cpu-prof', '--cpu-prof-dir', profileDir]);
    const creds = await waitForCredentials(credsFile, plaza.pid!);
    const started = performance.now();
    await load(creds.base_url, SCENARIO[SCENARIOS[0]], fixture, 0);
    const seconds = (performance.now() - started) / 1000;
    await stop(plaza);
    const [file] = fs.readdirSync(profileDir);
    const { nodes } = JSON.parse(fs.readFileSync(path.join(profileDir, file), 'utf8')) as { nodes: ProfileNode[] };
    const summary = summarise(nodes, seconds, 20);
    console.log(`\n${store}, ${SCENARIOS[0]}: Plaza's hottest functions by self time (of its busy samples, the whole life of the profiled process):`);
    for (const f of summary.top) console.log(`  ${f.percent.toFixed(1).padStart(5)}%  ${f.name}  ${f.where}`);
  }
  try {
    const creds = await waitForCredentials(credsFile, plaza.pid!);
    const seededAt = performance.now();
    execFileSync(process.execPath, ['dist/main.js', 'seed', '--posts', String(COUNT), '--users', String(Math.max(50, COUNT / 100)), '--seed', '1', '--credentials-file', credsFile], { stdio: 'inherit' });
    console.log(`${store}: ${COUNT} posts seeded in ${((performance.now() - seededAt) / 1000).toFixed(0)} s`);
    const random = mulberry32(7);
    const fixture: Fixture = {
      ids: (await storeRows<{ id: string }>(target, `select id from posts where ${SEEDED}`)).map((r) => r.id),
      bearer: creds.apps[1].bearer_token,
      viewers: SCENARIOS.includes('home') ? await viewersFollowing(creds, target, random) : [],
      ...(SCENARIOS.includes('search') ? await wordNearOnePercent(target) : { word: '', share: 0 }),
    };
    titles.search ??= SCENARIO.search.title(fixture);
    bare = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-reads.ts', target], { stdio: ['ignore', 'pipe', 'inherit'] });
    const bareUrl = await started(bare);
    const tokens: string[] = creds.users.map((u: any) => u.oauth2_access_token).filter(Boolean);
    for (const scenario of SCENARIOS) {
      for (const writes of [false, true]) {
        for (const server of ['plaza', 'bare'] as const) {
          const w = writes ? writer(creds.base_url, tokens, WRITES) : undefined;
          const measured = await load(server === 'plaza' ? creds.base_url : bareUrl, SCENARIO[scenario], fixture, rows.length + 1);
          const done = await w?.stop();
          if (done?.failed) console.warn(`${done.failed} writes failed`);
          rows.push({ scenario, store, writes, server, ...measured, rssMb: server === 'plaza' ? rssMb(plaza.pid!) : rssMb(bare.pid!), written: done?.written });
          console.log(JSON.stringify(rows.at(-1)));
        }
      }
    }
    if (PROFILE) await profiled(fixture);
  } finally {
    bare?.kill();
    await stop(plaza);
    if (store === 'postgres') await dropPostgresDatabase(target);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Per scenario, the line that says what its table measured (the search word is known once a store is seeded). */
const titles: Partial<Record<ScenarioName, string>> = {};

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  const rows: Row[] = [];
  const load0 = os.loadavg()[0];
  for (const store of STORES) await benchStore(store, rows);
  console.log(`\n${CONNECTIONS} connections, ${SECONDS} s each after ${WARMUP} s of warm-up; load average ${load0.toFixed(2)} at the start, ${os.loadavg()[0].toFixed(2)} at the end`);
  for (const scenario of SCENARIOS) {
    console.log(`\n${scenario}: ${titles[scenario] ?? SCENARIO[scenario].title({} as Fixture)}\n`);
    console.log('| Store | Writes | Plaza req/s | Bare route req/s | Ratio | Plaza p99 ms | Bare p99 ms | Plaza RSS MB | Errors |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const store of STORES) {
      for (const writes of [false, true]) {
        const p = rows.find((r) => r.scenario === scenario && r.store === store && r.writes === writes && r.server === 'plaza')!;
        const b = rows.find((r) => r.scenario === scenario && r.store === store && r.writes === writes && r.server === 'bare')!;
        const w = writes ? `${WRITES}/s (${p.written} + ${b.written} written)` : 'none';
        console.log(`| ${store} | ${w} | ${p.rps.toFixed(0)} | ${b.rps.toFixed(0)} | ${(p.rps / b.rps).toFixed(2)} | ${p.p99} | ${b.p99} | ${p.rssMb!.toFixed(0)} | ${p.errors + b.errors} |`);
      }
    }
  }
}

await main();
