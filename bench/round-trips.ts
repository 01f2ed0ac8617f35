/**
 * Round trips to PostgreSQL per request, for each scenario of bench/scenarios.ts: a count, not a
 * time, so it means the same on a busy machine. Each scenario's paths are asked one at a time twice
 * (the second pass shows what the entity cache saves), then ten at a time (what concurrent requests
 * share); the table gives queries per request for each pass. Then every path of the scenario is
 * asked in turn, ten at a time, CPU_REQUESTS times in all, and the table gives the CPU time
 * PostgreSQL's processes spent per request (read from /proc, where there is one): a local server's
 * cost of Plaza's queries, which throughput on a shared 2-core machine shows only roughly.
 *
 *   npx tsx bench/round-trips.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startPlaza } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { dropPostgresDatabase, freshPostgresDatabase } from '../test/support/postgres.js';
import { scenarios, settled, type Bench } from './scenarios.js';

const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SAMPLE = Number(process.env.ROUND_TRIPS_SAMPLE ?? 30);
/** The third pass asks this many at once, as the bench's connections do. */
const CONCURRENCY = 10;
/** Requests of the CPU measure (ROUND_TRIPS_CPU_REQUESTS). */
const CPU_REQUESTS = Number(process.env.ROUND_TRIPS_CPU_REQUESTS ?? 2000);

let queries = 0;
const texts = new Map<string, number>();
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  queries++;
  const first = args[0] as { text?: string } | string;
  const text = (typeof first === 'string' ? first : (first?.text ?? '')).replace(/\s+/g, ' ').slice(0, 140);
  texts.set(text, (texts.get(text) ?? 0) + 1);
  return (original as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

/** CPU time of this machine's PostgreSQL processes so far, in ms (undefined without /proc). */
function postgresCpuMs(): number | undefined {
  if (!fs.existsSync('/proc/self/stat')) return undefined;
  const ticksPerSecond = 100; // USER_HZ, 100 on Linux
  let ticks = 0;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    if (!stat.includes(' (postgres) ')) continue;
    // After the command's closing parenthesis: state is field 3, utime 14 and stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / ticksPerSecond;
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-trips-'));
  const databaseUrl = await freshPostgresDatabase(POSTGRES_URL, 'plaza_trips');
  const plaza = await startPlaza(
    loadConfig({ host: '127.0.0.1', port: 0, adsPort: 0, adsSandboxPort: 0, proxyPort: 0, logLevel: 'warn', dataDir, databaseUrl, credentialsFile: path.join(dataDir, 'credentials.json'), platformRateLimits: 'off' }, {}),
  );
  try {
    const bench: Bench = { plaza, credentials: plaza.credentials! };
    const base = plaza.urls.base_url;
    const rows: string[] = ['| Scenario | Queries per request, first pass | second pass | third, 10 at a time | PostgreSQL CPU per request |', '| --- | ---: | ---: | ---: | ---: |'];
    for (const s of scenarios) {
      const state = await s.setup(bench);
      await settled(bench);
      const req = await s.requests(bench, state);
      const paths = req.paths.slice(0, SAMPLE);
      const ask = async (p: string) => {
        const headers = { ...req.headers, ...(req.authorizationByPath?.[p] ? { authorization: req.authorizationByPath[p] } : {}) };
        const res = await fetch(base + p, { headers });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${s.name}: ${p} answered ${res.status}`);
      };
      /** Asks every path, `concurrency` at a time; queries per request. */
      const pass = async (concurrency: number) => {
        const before = queries;
        texts.clear();
        for (let i = 0; i < paths.length; i += concurrency) await Promise.all(paths.slice(i, i + concurrency).map(ask));
        return (queries - before) / paths.length;
      };
      const first = await pass(1);
      const second = await pass(1);
      const secondTexts = [...texts].sort((a, b) => b[1] - a[1]);
      const concurrent = await pass(CONCURRENCY);
      const cpuBefore = postgresCpuMs();
      let next = 0;
      const asker = async () => {
        while (next < CPU_REQUESTS) await ask(req.paths[next++ % req.paths.length]);
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, asker));
      const cpuAfter = postgresCpuMs();
      const cpu = cpuBefore === undefined || cpuAfter === undefined ? 'n/a' : `${Math.round(((cpuAfter - cpuBefore) * 1000) / CPU_REQUESTS)} µs`;
      rows.push(`| ${s.name} | ${first.toFixed(2)} | ${second.toFixed(2)} | ${concurrent.toFixed(2)} | ${cpu} |`);
      if (process.env.ROUND_TRIPS_VERBOSE) {
        console.log(`-- ${s.name}, second pass`);
        for (const [t, n] of secondTexts) console.log(`${(n / paths.length).toFixed(2)}  ${t}`);
      }
    }
    console.log(rows.join('\n'));
  } finally {
    await plaza.close();
    await dropPostgresDatabase(databaseUrl);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
