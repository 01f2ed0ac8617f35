/**
 * Plaza's HTTP benchmark (`npm run bench`, see bench/README.md).
 *
 * Each scenario seeds what it needs into a real Plaza (started on port 0 over a temporary SQLite
 * store), names one request, and checks the answer once. The run then measures that request
 * against Plaza and, as a baseline, against a bare Fastify route that returns the very body Plaza
 * answered, precomputed, so the ratio shows what Plaza's own work (auth, queries, field
 * selection, expansions, serialization) costs over an HTTP round trip of the same size.
 *
 * The load generator (autocannon) runs in a worker thread, so it does not share the server's
 * event loop. Every target is on 127.0.0.1. The exit code is 0 whatever the verdict: this is a
 * measurement; only a broken setup (a scenario whose check fails) exits non-zero.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { startPlaza, type Plaza } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { DEFAULT_TARGET_RATIO, scenarios, type Bench, type Scenario } from './scenarios.js';

// ---------------------------------------------------------------------------------------------
// Settings

const CONNECTIONS = 10;
const SECONDS = positiveNumber('BENCH_SECONDS', 10);
const WARMUP_SECONDS = positiveNumber('BENCH_WARMUP_SECONDS', Math.min(2, SECONDS));
const HOST = '127.0.0.1';
const README = path.join(path.dirname(fileURLToPath(import.meta.url)), 'README.md');
const RESULTS_START = '<!-- bench:latest-results:start -->';
const RESULTS_END = '<!-- bench:latest-results:end -->';

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number of seconds, got "${raw}"`);
  return n;
}

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
}

/** Runs autocannon against `url` for `seconds`, stopping it if it overruns. */
function cannon(url: string, headers: Record<string, string>, seconds: number): Promise<Measurement> {
  const target = new URL(url);
  if (target.hostname !== HOST) throw new Error(`refusing to load ${target.hostname}: the benchmark only targets ${HOST}`);
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const instance = autocannon(
      { url, headers, connections: CONNECTIONS, duration: seconds, timeout: 10, workers: 1 },
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

async function measure(label: string, url: string, headers: Record<string, string>): Promise<Measurement> {
  process.stdout.write(`  ${label}: warm-up ${WARMUP_SECONDS} s, `);
  await cannon(url, headers, WARMUP_SECONDS);
  process.stdout.write(`measuring ${SECONDS} s... `);
  const m = await cannon(url, headers, SECONDS);
  process.stdout.write(`${m.requestsPerSecond.toFixed(1)} req/s\n`);
  return m;
}

/** A bare Fastify 5 instance, no logger, answering one route with a precomputed JSON body. */
async function startBare(body: string): Promise<{ url: string; close(): Promise<void> }> {
  const app = Fastify({ logger: false });
  app.get('/bare', (_request, reply) => {
    reply.type('application/json; charset=utf-8').send(body);
  });
  await app.listen({ host: HOST, port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the bare route has no TCP address');
  return { url: `http://${HOST}:${address.port}/bare`, close: () => app.close() };
}

interface ScenarioResult {
  scenario: Scenario;
  bodyBytes: number;
  plaza: Measurement;
  /** The same request with Cache-Control: no-cache: every answer computed afresh (informational, not judged). */
  fresh: Measurement;
  bare: Measurement;
  ratio: number;
  target: number;
  pass: boolean;
  notes: string[];
}

async function runScenario(bench: Bench, s: Scenario): Promise<ScenarioResult> {
  console.log(`\n${s.name}: ${s.description}`);
  const state = await s.setup(bench);
  const req = s.request(bench, state);
  const url = `${bench.plaza.urls.base_url}${req.path}`;

  // The first answer: checked, and captured as the bare route's body.
  const response = await fetch(url, { headers: req.headers });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // left as text; the check reports it
  }
  const problems = req.check(response.status, parsed);
  if (problems.length > 0) throw new Error(`${s.name}: the answer is not the expected one:\n  - ${problems.join('\n  - ')}`);
  const bodyBytes = Buffer.byteLength(text);
  console.log(`  checked: ${response.status}, ${bodyBytes} body bytes`);

  const plaza = await measure('plaza', url, req.headers);
  const fresh = await measure('fresh', url, { ...req.headers, 'cache-control': 'no-cache' });
  const bareServer = await startBare(text);
  let bare: Measurement;
  try {
    bare = await measure('bare ', bareServer.url, {});
  } finally {
    await bareServer.close();
  }

  const notes: string[] = [];
  for (const [label, m] of [['plaza', plaza], ['plaza no-cache', fresh], ['bare', bare]] as const) {
    if (m.non2xx > 0 || m.errors > 0) notes.push(`${label}: ${m.non2xx} non-2xx answers, ${m.errors} errors (${m.timeouts} timeouts) of ${m.total} requests`);
  }
  const target = s.targetRatio ?? DEFAULT_TARGET_RATIO;
  const ratio = bare.requestsPerSecond > 0 ? plaza.requestsPerSecond / bare.requestsPerSecond : 0;
  const valid = plaza.non2xx === 0 && plaza.errors === 0 && plaza.total > 0 && bare.total > 0;
  if (!valid) notes.push('the measurement is not valid (errors or no answers): counted as FAIL');
  return { scenario: s, bodyBytes, plaza, fresh, bare, ratio, target, pass: valid && ratio >= target, notes };
}

// ---------------------------------------------------------------------------------------------
// Reporting

const rps = (m: Measurement) => m.requestsPerSecond.toFixed(1);
const ms = (n: number) => `${n} ms`;

function table(results: ScenarioResult[]): string[][] {
  const rows = [['Scenario', 'Target', 'Requests/s', 'Latency p50', 'Latency p99', 'Body bytes']];
  for (const r of results) {
    rows.push([r.scenario.name, 'plaza', rps(r.plaza), ms(r.plaza.p50), ms(r.plaza.p99), String(r.bodyBytes)]);
    rows.push([r.scenario.name, 'plaza, no-cache', rps(r.fresh), ms(r.fresh.p50), ms(r.fresh.p99), String(r.bodyBytes)]);
    rows.push([r.scenario.name, 'bare Fastify', rps(r.bare), ms(r.bare.p50), ms(r.bare.p99), String(r.bodyBytes)]);
  }
  return rows;
}

function verdictLine(r: ScenarioResult): string {
  return `${r.scenario.name}: plaza/bare = ${r.ratio.toFixed(2)} (target >= ${r.target.toFixed(2)}): ${r.pass ? 'PASS' : 'FAIL'}`;
}

function printConsole(results: ScenarioResult[]): void {
  const rows = table(results);
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r: string[]) => r.map((cell, c) => (c >= 2 ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ');
  console.log(`\n${line(rows[0])}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const r of rows.slice(1)) console.log(line(r));
  console.log('');
  for (const r of results) {
    console.log(`${r.pass ? 'PASS' : 'FAIL'}  ${verdictLine(r)}`);
    for (const note of r.notes) console.log(`      ${note}`);
  }
  const failed = results.filter((r) => !r.pass).length;
  console.log(`\nVerdict: ${failed === 0 ? 'PASS' : `FAIL (${failed} of ${results.length} scenarios below target)`}`);
}

function environment(): { date: string; node: string; cpu: string; cores: number } {
  const cpus = os.cpus();
  return { date: new Date().toISOString(), node: process.version, cpu: cpus[0]?.model.trim() ?? 'unknown', cores: cpus.length };
}

function markdown(results: ScenarioResult[]): string {
  const env = environment();
  const rows = table(results);
  const lines = [
    `Run ${env.date} on Node ${env.node}, CPU ${env.cpu} (${env.cores} cores); ${CONNECTIONS} connections, ` +
      `${SECONDS} s per target after a ${WARMUP_SECONDS} s warm-up.`,
    '',
    `| ${rows[0].join(' | ')} |`,
    `|${rows[0].map((_, c) => (c >= 2 ? ' ---: ' : ' --- ')).join('|')}|`,
    ...rows.slice(1).map((r) => `| ${r.join(' | ')} |`),
    '',
    ...results.map((r) => `- **${r.pass ? 'PASS' : 'FAIL'}** ${verdictLine(r)}${r.notes.length ? ` (${r.notes.join('; ')})` : ''}`),
  ];
  return lines.join('\n');
}

/** Rewrites the "Latest results" section of bench/README.md (between its markers). */
function writeReadme(results: ScenarioResult[]): void {
  const block = `${RESULTS_START}\n${markdown(results)}\n${RESULTS_END}`;
  let text = fs.existsSync(README) ? fs.readFileSync(README, 'utf8') : '# Plaza benchmark\n';
  const start = text.indexOf(RESULTS_START);
  const end = text.indexOf(RESULTS_END);
  if (start >= 0 && end > start) text = `${text.slice(0, start)}${block}${text.slice(end + RESULTS_END.length)}`;
  else text = `${text.trimEnd()}\n\n## Latest results\n\n${block}\n`;
  fs.writeFileSync(README, text);
  console.log(`\nWrote the latest results to ${path.relative(process.cwd(), README)}`);
}

// ---------------------------------------------------------------------------------------------
// Main

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-bench-'));
  let plaza: Plaza | undefined;
  try {
    plaza = await startPlaza(
      loadConfig(
        {
          host: HOST,
          port: 0,
          adsPort: 0,
          adsSandboxPort: 0,
          logLevel: 'warn',
          dataDir,
          databaseUrl: path.join(dataDir, 'plaza.sqlite'),
          credentialsFile: path.join(dataDir, 'credentials.json'),
        },
        {},
      ),
    );
    if (!plaza.credentials) throw new Error('Plaza started without the demo workspace');
    const bench: Bench = { plaza, credentials: plaza.credentials };
    const env = environment();
    console.log(`Plaza benchmark: Node ${env.node}, ${env.cpu} (${env.cores} cores), ${CONNECTIONS} connections, ${SECONDS} s per target`);

    const results: ScenarioResult[] = [];
    for (const s of scenarios) results.push(await runScenario(bench, s));
    printConsole(results);
    writeReadme(results);
  } finally {
    await plaza?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// A hard bound on the whole run, in case something hangs; unref'd so it never holds the process.
const budgetMs = (scenarios.length * 3 * (SECONDS + WARMUP_SECONDS + 60) + 120) * 1000;
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
