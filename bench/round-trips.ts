/**
 * Round trips to PostgreSQL per request, for each scenario of bench/scenarios.ts: a count, not a
 * time, so it means the same on a busy machine. Each scenario's paths are asked one at a time twice
 * (the second pass shows what the entity cache saves), then ten at a time (what concurrent requests
 * share); the table gives queries per request for each pass.
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

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-trips-'));
  const databaseUrl = await freshPostgresDatabase(POSTGRES_URL, 'plaza_trips');
  const plaza = await startPlaza(
    loadConfig({ host: '127.0.0.1', port: 0, adsPort: 0, adsSandboxPort: 0, logLevel: 'warn', dataDir, databaseUrl, credentialsFile: path.join(dataDir, 'credentials.json'), platformRateLimits: 'off' }, {}),
  );
  try {
    const bench: Bench = { plaza, credentials: plaza.credentials! };
    const base = plaza.urls.base_url;
    const rows: string[] = ['| Scenario | Queries per request, first pass | second pass | third, 10 at a time |', '| --- | ---: | ---: | ---: |'];
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
      rows.push(`| ${s.name} | ${first.toFixed(2)} | ${second.toFixed(2)} | ${concurrent.toFixed(2)} |`);
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
