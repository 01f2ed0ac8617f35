/**
 * `npm run bench:processes`: several Plaza processes as one (issue #37), on PostgreSQL and Redis
 * behind HAProxy, as docs/deploy.md runs them.
 *
 * For one, two and three processes (each `plaza serve` in its own process and data directory, a
 * fresh database each time), through HAProxy (leastconn):
 *   - a write burst: WRITERS clients each posting as fast as answers come (POST /2/posts as the demo
 *     users, every text different) for SECONDS; posts per second, and their p50/p99;
 *   - at the same time, READERS clients reading single posts (GET /2/posts/:id, a different post
 *     each time: the demo's and those just written); reads per second and their p50/p99, which
 *     the global lock of the event log held up to about a second before (issue #37 item 2);
 *   - CPU: Plaza's (its processes' user+system time) and PostgreSQL's (every postgres process)
 *     per request, read from /proc before and after;
 *   - after WARMUP_REQUESTS requests per process unmeasured: V8 optimises a function after it has
 *     run many times, so a process's CPU per request falls for its first ten thousand or so
 *     requests (2.5 ms to 1.3 ms, one process at 300 requests a second); warmed for a time
 *     instead, three processes each took a third of the requests and were measured colder than one;
 *   - then one reader alone, and the same reader while posts are sent at PACED_RATE a second on
 *     a timer (what writes cost a read, apart from a saturated machine's queue);
 *   - then Plaza's CPU per request at one paced load (posts and reads on a timer), and with one
 *     process at a half and a third of it: what a request costs a process that takes a third of
 *     the load, whether the other two thirds go to other processes or nowhere;
 *   - then posts sent to the first process only: the CPU the other processes spend on them.
 * The clients run in this process (fetch, closed loop): on this 2-core machine they share the
 * cores with Plaza, PostgreSQL, Redis and HAProxy, so throughput cannot grow with processes here;
 * the figures to read are the write rate (no longer capped by a lock), the read p99 during the
 * burst, and CPU per request, from which a bigger machine's cost can be read off.
 * Printed as a table; bench/README.md keeps the figures of the last run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { CredentialsFile } from '../src/seed/credentials.js';
import { startChildPlaza, type ChildPlaza } from '../test/support/child-plaza.js';
import { freePort, startHaproxy, type Balancer } from '../test/support/haproxy.js';
import { dropPostgresDatabase, freshPostgresDatabase } from '../test/support/postgres.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WRITERS = Number(process.env.BENCH_WRITERS ?? 16);
const READERS = Number(process.env.BENCH_READERS ?? 4);
const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TICKS = 100; // USER_HZ on Linux
/** Which process counts to run (`BENCH_PROCESSES=1,3`); Node options for the Plaza processes only (`BENCH_PLAZA_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'`). */
const COUNTS = (process.env.BENCH_PROCESSES ?? '1,2,3').split(',').map(Number);
const PLAZA_NODE_ARGS = process.env.BENCH_PLAZA_NODE_ARGS?.split(' ').filter(Boolean);
/** The paced phase: posts per second sent on a timer, as a steady stream of users would, not as fast as answers come. */
const PACED_RATE = Number(process.env.BENCH_PACED_RATE ?? 100);
const PACED_SECONDS = Number(process.env.BENCH_PACED_SECONDS ?? 5);
const WARMUP_REQUESTS = Number(process.env.BENCH_WARMUP_REQUESTS ?? 10_000);

/**
 * user+system CPU seconds of the processes whose pid is given, or whose name is `comm`, with what
 * their children that ended spent (PostgreSQL's backends that closed, reaped by the postmaster):
 * without it a backend closing during a phase made PostgreSQL's CPU negative.
 */
function cpuSeconds(select: { pids?: number[]; comm?: string }): number {
  let ticks = 0;
  const pids = select.pids ?? fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number);
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      if (select.comm && comm !== select.comm) continue;
      const fields = stat.slice(close + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // gone
    }
  }
  return ticks / TICKS;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Row {
  processes: number;
  writes: number;
  writeP50: number;
  writeP99: number;
  reads: number;
  readP50: number;
  readP99: number;
  failures: number;
  plazaCpuMs: number;
  pgCpuMs: number;
  /** One reader alone, then the same reader during writes paced at PACED_RATE posts/s (sent on time, not on answers). */
  quietReadP99: number;
  pacedReadP50: number;
  pacedReadP99: number;
  pacedWrites: number;
  pacedPlazaCpuMs: number;
  pacedPgCpuMs: number;
  /** CPU ms of the processes that took no request, per post written through the first one. */
  bystanderCpuMs: number;
  /** Plaza's CPU ms per request at a paced load (posts/s; reads at twice that): the whole load, and with one process a half and a third of it. */
  loadPerProcess: Array<{ rate: number; cpuMs: number }>;
}

async function run(processes: number): Promise<Row> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-bench-procs-'));
  const database = await freshPostgresDatabase(ADMIN_URL, 'plaza_bench');
  const port = await freePort();
  const balancer = `http://127.0.0.1:${port}`;
  const env = { REDIS_URL, PLAZA_TRUST_PROXY: '127.0.0.1', PLAZA_PUBLIC_URL: balancer, PLAZA_RATE_LIMITS: 'off', PLAZA_DRAIN_MS: '0', LOG_LEVEL: 'warn' };
  const plazas: ChildPlaza[] = [];
  let haproxy: Balancer | undefined;
  try {
    plazas.push(await startChildPlaza({ db: database, dataDir: path.join(root, 'p0'), env, timeoutMs: 120_000, nodeArgs: PLAZA_NODE_ARGS }));
    for (let i = 1; i < processes; i++) plazas.push(await startChildPlaza({ db: database, dataDir: path.join(root, `p${i}`), env, timeoutMs: 120_000, nodeArgs: PLAZA_NODE_ARGS }));
    haproxy = await startHaproxy(root, port, plazas.map((p) => p.baseUrl), { balance: 'leastconn', checkMs: 1000 });
    const creds = JSON.parse(fs.readFileSync(path.join(root, 'p0', 'credentials.json'), 'utf8')) as CredentialsFile;
    const writers = creds.users.filter((u) => u.oauth2_access_token).map((u) => u.oauth2_access_token);
    const bearer = creds.apps[0]!.bearer_token;
    const postIds = [...creds.sample.post_ids];

    const writeTimes: number[] = [];
    const readTimes: number[] = [];
    let failures = 0;
    let n = 0;
    /** One post as writer `w`; its time goes into `times`. */
    const post = async (w: number, times: number[], to = balancer) => {
      const started = performance.now();
      const res = await fetch(`${to}/2/posts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${writers[w % writers.length]}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text: `bench post ${w} ${n++} ${Date.now()}` }),
      }).catch(() => undefined);
      const body = res ? await res.text() : '';
      if (res?.status !== 201) {
        failures++;
        return;
      }
      times.push(performance.now() - started);
      postIds.push((JSON.parse(body) as { data: { id: string } }).data.id);
    };
    /** Reads single posts, a different one each time, until `until`; times into `times`. */
    const reader = async (r: number, until: number | (() => boolean), times: number[]) => {
      const going = typeof until === 'number' ? () => performance.now() < until : until;
      let i = r;
      while (going()) {
        const id = postIds[(i += 7919) % postIds.length];
        const started = performance.now();
        const res = await fetch(`${balancer}/2/posts/${id}?post.fields=created_at,author_id,public_metrics&expansions=author_id`, { headers: { authorization: `Bearer ${bearer}` } }).catch(() => undefined);
        await res?.arrayBuffer();
        if (res?.status !== 200) failures++;
        else times.push(performance.now() - started);
      }
    };
    const writer = async (w: number, until: number | (() => boolean), times: number[]) => {
      const going = typeof until === 'number' ? () => performance.now() < until : until;
      while (going()) await post(w, times);
    };
    const burst = (until: number | (() => boolean), writes: number[], reads: number[]) =>
      Promise.all([...Array.from({ length: WRITERS }, (_, w) => writer(w, until, writes)), ...Array.from({ length: READERS }, (_, r) => reader(r, until, reads))]);
    // Unmeasured: a process's first requests (code compiled and optimised, pool connections
    // opened, statements prepared) are not what a running deployment sees. Counted, not timed,
    // so that each process has served as many whatever the number of processes.
    const warm: number[] = [];
    await burst(() => warm.length < WARMUP_REQUESTS * processes, warm, warm);
    const plazaCpu0 = cpuSeconds({ pids: plazas.map((p) => p.child.pid!) });
    const pgCpu0 = cpuSeconds({ comm: 'postgres' });
    await burst(performance.now() + SECONDS * 1000, writeTimes, readTimes);
    const plazaCpu = cpuSeconds({ pids: plazas.map((p) => p.child.pid!) }) - plazaCpu0;
    const pgCpu = cpuSeconds({ comm: 'postgres' }) - pgCpu0;
    writeTimes.sort((a, b) => a - b);
    readTimes.sort((a, b) => a - b);

    // One reader with no writes; then the same reader while posts arrive at PACED_RATE a second.
    const quiet: number[] = [];
    await reader(1, performance.now() + PACED_SECONDS * 1000, quiet);
    quiet.sort((a, b) => a - b);
    const paced: number[] = [];
    const pacedWrites: number[] = [];
    const pacedPlaza0 = cpuSeconds({ pids: plazas.map((p) => p.child.pid!) });
    const pacedPg0 = cpuSeconds({ comm: 'postgres' });
    const pacedEnd = performance.now() + PACED_SECONDS * 1000;
    const sent: Array<Promise<void>> = [];
    const pacer = (async () => {
      const start = performance.now();
      for (let k = 0; performance.now() < pacedEnd; k++) {
        sent.push(post(k, pacedWrites));
        const next = start + ((k + 1) * 1000) / PACED_RATE;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
      }
    })();
    await Promise.all([pacer, reader(2, pacedEnd, paced)]);
    await Promise.all(sent);
    const pacedRequests = pacedWrites.length + paced.length;
    const pacedPlazaCpu = cpuSeconds({ pids: plazas.map((p) => p.child.pid!) }) - pacedPlaza0;
    const pacedPgCpu = cpuSeconds({ comm: 'postgres' }) - pacedPg0;
    paced.sort((a, b) => a - b);

    // What the others spend on one process's writes: posts sent to the first process alone.
    const bystanders = async () => {
      if (plazas.length < 2) return Number.NaN;
      const others = plazas.slice(1).map((p) => p.child.pid!);
      const cpu0 = cpuSeconds({ pids: others });
      const written: number[] = [];
      const end = performance.now() + PACED_SECONDS * 1000;
      const all: Array<Promise<void>> = [];
      for (let k = 0, start = performance.now(); performance.now() < end; k++) {
        all.push(post(k, written, plazas[0]!.baseUrl));
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + ((k + 1) * 1000) / PACED_RATE - performance.now())));
      }
      await Promise.all(all);
      return ((cpuSeconds({ pids: others }) - cpu0) * 1000) / written.length;
    };
    /**
     * Plaza's CPU per request with posts at `rate` a second and single-post reads at twice that,
     * both sent on a timer through the balancer: the same load whatever the number of processes.
     */
    const pacedCpu = async (rate: number) => {
      const pids = plazas.map((p) => p.child.pid!);
      const cpu0 = cpuSeconds({ pids });
      const written: number[] = [];
      let reads = 0;
      const all: Array<Promise<void>> = [];
      const read1 = async (i: number) => {
        const res = await fetch(`${balancer}/2/posts/${postIds[(i * 7919) % postIds.length]}?post.fields=created_at,author_id,public_metrics&expansions=author_id`, { headers: { authorization: `Bearer ${bearer}` } }).catch(() => undefined);
        await res?.arrayBuffer();
        if (res?.status === 200) reads++;
        else failures++;
      };
      const end = performance.now() + PACED_SECONDS * 1000;
      for (let k = 0, start = performance.now(); performance.now() < end; k++) {
        all.push(k % 3 === 0 ? post(k, written) : read1(k));
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + ((k + 1) * 1000) / (3 * rate) - performance.now())));
      }
      await Promise.all(all);
      return ((cpuSeconds({ pids }) - cpu0) * 1000) / (written.length + reads);
    };
    const loadPerProcess = [{ rate: PACED_RATE, cpuMs: await pacedCpu(PACED_RATE) }];
    if (processes === 1) for (const share of [2, 3]) loadPerProcess.push({ rate: PACED_RATE / share, cpuMs: await pacedCpu(PACED_RATE / share) });
    const requests = writeTimes.length + readTimes.length;
    return {
      loadPerProcess,
      processes,
      writes: writeTimes.length / SECONDS,
      writeP50: percentile(writeTimes, 50),
      writeP99: percentile(writeTimes, 99),
      reads: readTimes.length / SECONDS,
      readP50: percentile(readTimes, 50),
      readP99: percentile(readTimes, 99),
      failures,
      plazaCpuMs: (plazaCpu * 1000) / requests,
      pgCpuMs: (pgCpu * 1000) / requests,
      quietReadP99: percentile(quiet, 99),
      pacedReadP50: percentile(paced, 50),
      pacedReadP99: percentile(paced, 99),
      pacedWrites: pacedWrites.length / PACED_SECONDS,
      pacedPlazaCpuMs: (pacedPlazaCpu * 1000) / pacedRequests,
      pacedPgCpuMs: (pacedPgCpu * 1000) / pacedRequests,
      bystanderCpuMs: await bystanders(),
    };
  } finally {
    await haproxy?.close();
    await Promise.all(plazas.map((p) => p.stop()));
    await dropPostgresDatabase(database);
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const rows: Row[] = [];
for (const processes of COUNTS) {
  rows.push(await run(processes));
  const r = rows.at(-1)!;
  process.stderr.write(`${processes} process(es): ${r.writes.toFixed(0)} posts/s, reads p99 ${r.readP99.toFixed(1)} ms\n`);
}
const f = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '-');
console.log(`\n${SECONDS} s each, ${WRITERS} writers and ${READERS} readers through HAProxy, PostgreSQL and Redis on this machine (${os.cpus().length} cores)\n`);
console.log('| processes | posts/s | post p50 / p99 ms | reads/s | read p50 / p99 ms (during the burst) | failed | Plaza CPU ms/request | PostgreSQL CPU ms/request |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(`| ${r.processes} | ${f(r.writes, 0)} | ${f(r.writeP50)} / ${f(r.writeP99)} | ${f(r.reads, 0)} | ${f(r.readP50)} / ${f(r.readP99)} | ${r.failures} | ${f(r.plazaCpuMs, 2)} | ${f(r.pgCpuMs, 2)} |`);
}
console.log(`\nOne reader alone for ${PACED_SECONDS} s, then the same reader while posts are sent at ${PACED_RATE}/s (on a timer, not on answers):\n`);
console.log('| processes | read p99 ms, no writes | posts/s answered | read p50 / p99 ms during the paced writes | Plaza CPU ms/request | PostgreSQL CPU ms/request | CPU ms of the other processes per post sent to one |');
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.processes} | ${f(r.quietReadP99)} | ${f(r.pacedWrites, 0)} | ${f(r.pacedReadP50)} / ${f(r.pacedReadP99)} | ${f(r.pacedPlazaCpuMs, 2)} | ${f(r.pacedPgCpuMs, 2)} | ${f(r.bystanderCpuMs, 3)} |`);
console.log(`\nPlaza's CPU per request at a paced load (posts at the rate given, single-post reads at twice it, ${PACED_SECONDS} s each, through the balancer):\n`);
console.log('| processes | posts/s + reads/s | requests/s each process takes | Plaza CPU ms/request |');
console.log('|---|---|---|---|');
for (const r of rows) for (const l of r.loadPerProcess) console.log(`| ${r.processes} | ${f(l.rate, 0)} + ${f(2 * l.rate, 0)} | ${f((3 * l.rate) / r.processes, 0)} | ${f(l.cpuMs, 2)} |`);
process.exit(0);
