/**
 * Plaza's benchmark (`npm run bench`, see bench/README.md).
 *
 * Each scenario seeds what it needs into a real Plaza (started on port 0 over a temporary store:
 * SQLite, then PostgreSQL when one is reachable), names the varied requests a population of
 * clients would send and checks a sample of their answers. The run then loads Plaza with those
 * requests and, as a baseline, a bare Fastify route that returns a body of the same size,
 * precomputed, so the ratio shows what Plaza's own work (auth, queries, field selection,
 * expansions, serialization) costs over an HTTP round trip of the same size. It also profiles the
 * heaviest read, and measures a compiled Plaza's cold start and idle memory.
 *
 * The load generator (autocannon) runs in a worker thread, so it does not share the server's
 * event loop. Every target is on 127.0.0.1. The exit code is 0 whatever the verdict: this is a
 * measurement; only a broken setup (an answer that fails its check) exits non-zero.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { execFileSync } from 'node:child_process';
import type { Plaza } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { dropPostgresDatabase, freshPostgresDatabase } from '../test/support/postgres.js';
import { profileWhile, type ProfileSummary } from './profile.js';
import { measureStartup, type StartupResult } from './startup.js';
import { settled, scenarios, type Bench, type Scenario } from './scenarios.js';

// ---------------------------------------------------------------------------------------------
// Settings

const CONNECTIONS = 10;
const SECONDS = positiveNumber('BENCH_SECONDS', 10);
const WARMUP_SECONDS = positiveNumber('BENCH_WARMUP_SECONDS', Math.min(2, SECONDS));
const HOST = '127.0.0.1';
const HERE = path.dirname(fileURLToPath(import.meta.url));
const README = path.join(HERE, 'README.md');
const PICK_PATH = path.join(HERE, 'pick-path.cjs');
const RESULTS_START = '<!-- bench:latest-results:start -->';
const RESULTS_END = '<!-- bench:latest-results:end -->';
/** The PostgreSQL server whose scratch database the second pass uses; BENCH_POSTGRES_URL=off skips it. */
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The scenario whose Plaza side is CPU-profiled (on SQLite). */
const PROFILED = process.env.BENCH_PROFILE ?? 'posts-lookup-100';
/** The store whose pass is profiled (BENCH_PROFILE_STORE=postgres to see the other). */
const PROFILED_STORE = process.env.BENCH_PROFILE_STORE ?? 'sqlite';

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number of seconds, got "${raw}"`);
  return n;
}

type StoreName = 'sqlite' | 'postgres';

// ---------------------------------------------------------------------------------------------
// Measuring

interface Measurement {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /**
   * CPU time of this process's main thread (where Plaza and the bare route both run; autocannon
   * has its own thread) per request answered in the measured window, in µs: steadier than the
   * rate on a shared machine, where the rate also moves with what else runs.
   */
  cpuPerRequestUs?: number;
}

/** Runs autocannon against `url` for `seconds`; with `requestsFile`, each request takes the next of its paths. */
function cannon(url: string, headers: Record<string, string>, seconds: number, requestsFile?: string): Promise<Measurement> {
  const target = new URL(url);
  if (target.hostname !== HOST) throw new Error(`refusing to load ${target.hostname}: the benchmark only targets ${HOST}`);
  // Read by bench/pick-path.cjs in autocannon's worker, which gets a copy of the environment.
  if (requestsFile) process.env.PLAZA_BENCH_REQUESTS = requestsFile;
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const instance = autocannon(
      {
        url,
        headers,
        connections: CONNECTIONS,
        duration: seconds,
        timeout: 10,
        workers: 1,
        ...(requestsFile ? { requests: [{ setupRequest: PICK_PATH as never }] } : {}),
      },
      (err: unknown, result: autocannon.Result) => {
        clearTimeout(timer);
        if (err) return reject(err instanceof Error ? err : new Error(String(err)));
        resolve({
          requestsPerSecond: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          total: result.requests.total,
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
        });
      },
    );
    timer = setTimeout(() => {
      instance.stop();
      reject(new Error(`autocannon against ${target.pathname} did not finish within ${seconds + 30} s`));
    }, (seconds + 30) * 1000);
  });
}

async function measure(label: string, url: string, headers: Record<string, string>, requestsFile?: string): Promise<Measurement> {
  process.stdout.write(`  ${label}: warm-up ${WARMUP_SECONDS} s, `);
  await cannon(url, headers, WARMUP_SECONDS, requestsFile);
  process.stdout.write(`measuring ${SECONDS} s... `);
  const before = mainThreadCpuUs();
  const m = await cannon(url, headers, SECONDS, requestsFile);
  if (m.total > 0) m.cpuPerRequestUs = (mainThreadCpuUs() - before) / m.total;
  process.stdout.write(`${m.requestsPerSecond.toFixed(1)} req/s, ${m.cpuPerRequestUs?.toFixed(1) ?? '-'} µs of CPU per request\n`);
  return m;
}

/** The main thread's user and system CPU time so far, in µs (/proc counts it in ticks of 10 ms). */
function mainThreadCpuUs(): number {
  const fields = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/**
 * A bare Fastify 5 instance, no logger, answering one route with a precomputed JSON body; with
 * `workUs`, after that many µs of busy work per request (the calibration).
 */
async function startBare(body: string, workUs = 0): Promise<{ url: string; close(): Promise<void> }> {
  const app = Fastify({ logger: false });
  app.get('/bare', (_request, reply) => {
    if (workUs > 0) busyFor(workUs);
    reply.type('application/json; charset=utf-8').send(body);
  });
  await app.listen({ host: HOST, port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the bare route has no TCP address');
  return { url: `http://${HOST}:${address.port}/bare`, close: () => app.close() };
}

/** Keeps the thread busy for `us` µs of wall time (the calibration's stand-in for a route's work). */
function busyFor(us: number): void {
  const end = process.hrtime.bigint() + BigInt(Math.round(us * 1000));
  while (process.hrtime.bigint() < end);
}

/** Busy work per request, in µs, that the calibration adds to the bare route. */
const CALIBRATION_WORK_US = [5, 10, 20];

interface Calibration {
  bodyBytes: number;
  bare: Measurement;
  rows: Array<{ workUs: number; measured: Measurement; ratio: number }>;
}

/**
 * What a ratio to the bare route leaves for a route's own work on this machine: the bare route
 * answering a post-by-id sized body, and the same route after 5, 10 and 20 µs of busy work per
 * request, each against the plain one in the same run. The load and the body are post-by-id's.
 */
async function calibrate(): Promise<Calibration> {
  console.log('\ncalibration: the bare route with a fixed amount of busy work per request, against itself');
  // post-by-id's answer: 154 bytes, the text padded to make it so.
  const shaped = (text: string) => JSON.stringify({ data: { edit_history_post_ids: ['1861000000000000001'], id: '1861000000000000001', text } });
  const body = shaped('x'.repeat(154 - Buffer.byteLength(shaped(''))));
  const run = async (label: string, workUs: number) => {
    const server = await startBare(body, workUs);
    try {
      return await measure(label, server.url, {});
    } finally {
      await server.close();
    }
  };
  const bare = await run('bare        ', 0);
  const rows: Calibration['rows'] = [];
  for (const workUs of CALIBRATION_WORK_US) {
    const measured = await run(`bare + ${String(workUs).padStart(2)} µs`, workUs);
    rows.push({ workUs, measured, ratio: measured.requestsPerSecond / bare.requestsPerSecond });
  }
  return { bodyBytes: Buffer.byteLength(body), bare, rows };
}

function calibrationLines(c: Calibration): string[] {
  return [
    `Calibration (what a ratio leaves for a route's own work here): the bare route with busy work added to each request, against the plain bare route in the same run, ${c.bodyBytes}-byte body, the same load.`,
    '',
    '| Busy work per request | Requests/s | CPU µs/request | Ratio to the bare route |',
    '| ---: | ---: | ---: | ---: |',
    `| none | ${rps(c.bare)} | ${cpu(c.bare)} | 1.00 |`,
    ...c.rows.map((r) => `| ${r.workUs} µs | ${rps(r.measured)} | ${cpu(r.measured)} | ${r.ratio.toFixed(2)} |`),
  ];
}

interface ScenarioResult {
  scenario: Scenario;
  store: StoreName;
  distinctPaths: number;
  bodyBytes: number;
  plaza: Measurement;
  bare: Measurement;
  ratio: number;
  /** None for a reference scenario, which passes whenever its measurement is valid. */
  target: number | undefined;
  pass: boolean;
  notes: string[];
  profile?: ProfileSummary;
}

/** Up to `count` items spread evenly over `items`. */
const spread = <T>(items: readonly T[], count: number): T[] => (items.length <= count ? [...items] : Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)]));

async function runScenario(bench: Bench, s: Scenario, store: StoreName, scratch: string): Promise<ScenarioResult> {
  console.log(`\n${s.name} (${store}): ${s.description}`);
  const state = await s.setup(bench);
  await settled(bench);
  const req = await s.requests(bench, state);
  const headersOf = (p: string) => (req.authorizationByPath?.[p] ? { ...req.headers, authorization: req.authorizationByPath[p] } : req.headers);

  // A sample of the answers is checked; the first is the bare route's body.
  let firstBody = '';
  for (const p of spread(req.paths, 20)) {
    const response = await fetch(`${bench.plaza.urls.base_url}${p}`, { headers: headersOf(p) });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // left as text; the check reports it
    }
    const problems = req.check(p, response.status, parsed);
    if (problems.length > 0) throw new Error(`${s.name}: the answer to ${p.slice(0, 120)} is not the expected one:\n  - ${problems.join('\n  - ')}`);
    firstBody ||= text;
  }
  const bodyBytes = Buffer.byteLength(firstBody);
  const distinctPaths = new Set(req.paths).size;
  console.log(`  checked a sample of ${Math.min(20, req.paths.length)} answers; ${distinctPaths} distinct requests, ${bodyBytes} body bytes`);

  const requestsFile = path.join(scratch, `${s.name}-${store}.json`);
  fs.writeFileSync(requestsFile, JSON.stringify({ paths: req.paths, authorizationByPath: req.authorizationByPath }));
  const url = `${bench.plaza.urls.base_url}${req.paths[0]}`;
  let profile: ProfileSummary | undefined;
  let plaza: Measurement;
  if (s.name === PROFILED && store === PROFILED_STORE) {
    plaza = await measure('plaza', url, req.headers, requestsFile);
    process.stdout.write('  profiling another run... ');
    const profiled = await profileWhile(() => cannon(url, req.headers, Math.min(SECONDS, 5), requestsFile));
    profile = profiled.summary;
    process.stdout.write('done\n');
  } else {
    plaza = await measure('plaza', url, req.headers, requestsFile);
  }
  const bareServer = await startBare(firstBody);
  let bare: Measurement;
  try {
    bare = await measure('bare ', bareServer.url, {});
  } finally {
    await bareServer.close();
  }

  const notes: string[] = [];
  for (const [label, m] of [['plaza', plaza], ['bare', bare]] as const) {
    if (m.non2xx > 0 || m.errors > 0) notes.push(`${label}: ${m.non2xx} non-2xx answers, ${m.errors} errors (${m.timeouts} timeouts) of ${m.total} requests`);
  }
  const target = s.targetRatio?.[store];
  const ratio = bare.requestsPerSecond > 0 ? plaza.requestsPerSecond / bare.requestsPerSecond : 0;
  const valid = plaza.non2xx === 0 && plaza.errors === 0 && plaza.total > 0 && bare.total > 0;
  if (!valid) notes.push('the measurement is not valid (errors or no answers): counted as FAIL');
  return { scenario: s, store, distinctPaths, bodyBytes, plaza, bare, ratio, target, pass: valid && (target === undefined || ratio >= target), notes, profile };
}

// ---------------------------------------------------------------------------------------------
// Reporting

const rps = (m: Measurement) => m.requestsPerSecond.toFixed(1);
const ms = (n: number) => `${n} ms`;
const cpu = (m: Measurement) => m.cpuPerRequestUs?.toFixed(1) ?? '-';

function table(results: ScenarioResult[]): string[][] {
  const rows = [['Scenario', 'Store', 'Target', 'Distinct requests', 'Requests/s', 'CPU µs/request', 'Latency p50', 'Latency p99', 'Body bytes']];
  for (const r of results) {
    rows.push([r.scenario.name, r.store, 'plaza', String(r.distinctPaths), rps(r.plaza), cpu(r.plaza), ms(r.plaza.p50), ms(r.plaza.p99), String(r.bodyBytes)]);
    rows.push([r.scenario.name, r.store, 'bare Fastify', '1', rps(r.bare), cpu(r.bare), ms(r.bare.p50), ms(r.bare.p99), String(r.bodyBytes)]);
  }
  return rows;
}

const verdict = (r: ScenarioResult) => (!r.pass ? 'FAIL' : r.target === undefined ? 'REFERENCE' : 'PASS');

function verdictLine(r: ScenarioResult): string {
  const against = r.target === undefined ? 'a reference, no target' : `target >= ${r.target.toFixed(2)}`;
  return `${r.scenario.name} on ${r.store}: plaza/bare = ${r.ratio.toFixed(2)} (${against})`;
}

function startupLines(s: StartupResult): string[] {
  return [
    `- **${s.coldStartPass ? 'PASS' : 'FAIL'}** cold start of \`node dist/main.js serve\` on an existing store, process start to the first answer of GET /2/posts/{id}: ${s.restartMs} ms (target < ${s.coldStartTargetMs} ms); on an empty store, with the demo seed: ${s.firstStartMs} ms`,
    `- **${s.rssPass ? 'PASS' : 'FAIL'}** idle RSS of the whole process tree, ${s.idleSeconds} s after the first answer: \`node dist/main.js serve\` ${s.nodeTreeMb.toFixed(1)} MB (target < ${s.rssTargetMb} MB); \`npm start\` ${s.npmTreeMb.toFixed(1)} MB (npm itself ${s.npmOwnMb.toFixed(1)} MB of it); after the first start, which seeded the demo workspace, ${s.firstStartTreeMb.toFixed(1)} MB`,
  ];
}

function profileLines(p: ProfileSummary): string[] {
  return [
    `CPU profile of Plaza's main thread during ${p.seconds.toFixed(1)} s of \`${PROFILED}\` on ${PROFILED_STORE === 'sqlite' ? 'SQLite' : 'PostgreSQL'} (${p.samples} samples; self time, top ${p.top.length}):`,
    '',
    '| Self % | Function | Where |',
    '| ---: | --- | --- |',
    ...p.top.map((f) => `| ${f.percent.toFixed(1)} | \`${f.name}\` | ${f.where} |`),
  ];
}

function printConsole(results: ScenarioResult[], startup?: StartupResult, calibration?: Calibration): void {
  const rows = table(results);
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r: string[]) => r.map((cell, c) => (c >= 3 ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ');
  console.log(`\n${line(rows[0])}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const r of rows.slice(1)) console.log(line(r));
  console.log('');
  for (const r of results) {
    console.log(`${verdict(r)}  ${verdictLine(r)}`);
    for (const note of r.notes) console.log(`      ${note}`);
  }
  if (startup) for (const l of startupLines(startup)) console.log(l.replace(/\*\*/g, ''));
  if (calibration) console.log(`\n${calibrationLines(calibration).join('\n')}`);
  const profiled = results.find((r) => r.profile);
  if (profiled?.profile) console.log(`\n${profileLines(profiled.profile).join('\n')}`);
  const failed = results.filter((r) => !r.pass).length + (startup && !(startup.coldStartPass && startup.rssPass) ? 1 : 0);
  console.log(`\nVerdict: ${failed === 0 ? 'PASS' : `FAIL (${failed} below target)`}`);
}

function environment(): { date: string; node: string; cpu: string; cores: number } {
  const cpus = os.cpus();
  return { date: new Date().toISOString(), node: process.version, cpu: cpus[0]?.model.trim() ?? 'unknown', cores: cpus.length };
}

function markdown(results: ScenarioResult[], startup: StartupResult | undefined, skipped: string[], calibration?: Calibration): string {
  const env = environment();
  const rows = table(results);
  const profiled = results.find((r) => r.profile);
  const lines = [
    `Run ${env.date} on Node ${env.node}, CPU ${env.cpu} (${env.cores} cores); ${CONNECTIONS} connections, ` +
      `${SECONDS} s per target after a ${WARMUP_SECONDS} s warm-up.`,
    '',
    `| ${rows[0].join(' | ')} |`,
    `|${rows[0].map((_, c) => (c >= 3 ? ' ---: ' : ' --- ')).join('|')}|`,
    ...rows.slice(1).map((r) => `| ${r.join(' | ')} |`),
    '',
    ...results.map((r) => `- **${verdict(r)}** ${verdictLine(r)}${r.notes.length ? ` (${r.notes.join('; ')})` : ''}`),
    ...(startup ? startupLines(startup) : []),
    ...skipped.map((s) => `- skipped: ${s}`),
    ...(calibration ? ['', ...calibrationLines(calibration)] : []),
    ...(profiled?.profile ? ['', ...profileLines(profiled.profile)] : []),
  ];
  return lines.join('\n');
}

/** Rewrites the "Latest results" section of bench/README.md (between its markers). */
function writeReadme(text: string): void {
  const block = `${RESULTS_START}\n${text}\n${RESULTS_END}`;
  let readme = fs.existsSync(README) ? fs.readFileSync(README, 'utf8') : '# Plaza benchmark\n';
  const start = readme.indexOf(RESULTS_START);
  const end = readme.indexOf(RESULTS_END);
  if (start >= 0 && end > start) readme = `${readme.slice(0, start)}${block}${readme.slice(end + RESULTS_END.length)}`;
  else readme = `${readme.trimEnd()}\n\n## Latest results\n\n${block}\n`;
  fs.writeFileSync(README, readme);
  console.log(`\nWrote the latest results to ${path.relative(process.cwd(), README)}`);
}

// ---------------------------------------------------------------------------------------------
// Main

/**
 * The Plaza that is measured: the compiled build users run (`npm start` runs dist/), built first;
 * BENCH_SOURCE=src measures the TypeScript sources as tsx runs them (tsx keeps function names by
 * wrapping every closure it creates, which costs a read path a few per cent).
 */
async function loadStartPlaza(): Promise<typeof import('../src/app.js').startPlaza> {
  if (process.env.BENCH_SOURCE === 'src') return (await import('../src/app.js')).startPlaza;
  execFileSync(process.execPath, [path.join(path.dirname(fileURLToPath(import.meta.url)), '../scripts/build.mjs')], { stdio: 'inherit' });
  // Profiles name the TypeScript source of compiled code (bench/profile.ts reads the source maps).
  process.setSourceMapsEnabled(true);
  const compiled: string = '../dist/app.js';
  return ((await import(compiled)) as typeof import('../src/app.js')).startPlaza;
}

/** One Plaza on a fresh store of the given engine, every scenario measured against it. */
async function runStore(store: StoreName, scratch: string): Promise<ScenarioResult[]> {
  const dataDir = fs.mkdtempSync(path.join(scratch, `${store}-`));
  const databaseUrl = store === 'sqlite' ? path.join(dataDir, 'plaza.sqlite') : await freshPostgresDatabase(POSTGRES_URL, 'plaza_bench');
  let plaza: Plaza | undefined;
  try {
    const startPlaza = await loadStartPlaza();
    plaza = await startPlaza(
      loadConfig(
        // Rate limits off: the demo workspace's few tokens would spend the published windows in a
        // second, and what is measured is the read pipeline, not the limiter's refusals.
        { host: HOST, port: 0, adsPort: 0, adsSandboxPort: 0, proxyPort: 0, logLevel: 'warn', dataDir, databaseUrl, credentialsFile: path.join(dataDir, 'credentials.json'), platformRateLimits: 'off' },
        {},
      ),
    );
    if (!plaza.credentials) throw new Error('Plaza started without the demo workspace');
    const bench: Bench = { plaza, credentials: plaza.credentials };
    const results: ScenarioResult[] = [];
    const picked = process.env.BENCH_SCENARIOS?.split(',');
    for (const s of scenarios) if (!picked || picked.includes(s.name)) results.push(await runScenario(bench, s, store, scratch));
    return results;
  } finally {
    await plaza?.close();
    if (store === 'postgres') await dropPostgresDatabase(databaseUrl);
  }
}

async function postgresReachable(): Promise<string | undefined> {
  if (POSTGRES_URL === 'off') return 'PostgreSQL pass (BENCH_POSTGRES_URL=off)';
  try {
    const url = await freshPostgresDatabase(POSTGRES_URL, 'plaza_bench_probe');
    await dropPostgresDatabase(url);
    return undefined;
  } catch (err) {
    return `PostgreSQL pass (${POSTGRES_URL} unreachable: ${err instanceof Error ? err.message : String(err)})`;
  }
}

async function main(): Promise<void> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-bench-'));
  try {
    const env = environment();
    console.log(`Plaza benchmark: Node ${env.node}, ${env.cpu} (${env.cores} cores), ${CONNECTIONS} connections, ${SECONDS} s per target`);
    const only = process.env.BENCH_ONLY?.split(',');
    const skipped: string[] = [];
    const results: ScenarioResult[] = [];
    if (!only || only.includes('sqlite')) results.push(...(await runStore('sqlite', scratch)));
    if (!only || only.includes('postgres')) {
      const why = await postgresReachable();
      if (why) skipped.push(why);
      else results.push(...(await runStore('postgres', scratch)));
    }
    let calibration: Calibration | undefined;
    if (!only || only.includes('calibration')) calibration = await calibrate();
    let startup: StartupResult | undefined;
    if (!only || only.includes('startup')) {
      console.log('\nStartup: building dist/ and starting a compiled Plaza');
      startup = await measureStartup(scratch);
    }
    printConsole(results, startup, calibration);
    if (!only && !process.env.BENCH_SCENARIOS) writeReadme(markdown(results, startup, skipped, calibration));
    else console.log('\nBENCH_ONLY is set: bench/README.md is left as it is.');
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

// A hard bound on the whole run, in case something hangs; unref'd so it never holds the process.
const budgetMs = ((2 * scenarios.length * 2 + CALIBRATION_WORK_US.length + 1) * (SECONDS + WARMUP_SECONDS + 60) + 300) * 1000;
setTimeout(() => {
  console.error(`\nThe benchmark overran its ${budgetMs / 1000} s budget; stopping.`);
  process.exit(2);
}, budgetMs).unref();

try {
  await main();
} catch (err) {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
}
