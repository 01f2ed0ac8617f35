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
 *     per request, read from /proc before and after.
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

/** user+system CPU seconds of the processes whose pid is given, or whose name is `comm`. */
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
      ticks += Number(fields[11]) + Number(fields[12]);
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
    plazas.push(await startChildPlaza({ db: database, dataDir: path.join(root, 'p0'), env, timeoutMs: 120_000 }));
    for (let i = 1; i < processes; i++) plazas.push(await startChildPlaza({ db: database, dataDir: path.join(root, `p${i}`), env, timeoutMs: 120_000 }));
    haproxy = await startHaproxy(root, port, plazas.map((p) => p.baseUrl), { balance: 'leastconn', checkMs: 1000 });
    const creds = JSON.parse(fs.readFileSync(path.join(root, 'p0', 'credentials.json'), 'utf8')) as CredentialsFile;
    const writers = creds.users.filter((u) => u.oauth2_access_token).map((u) => u.oauth2_access_token);
    const bearer = creds.apps[0]!.bearer_token;
    const postIds = [...creds.sample.post_ids];

    const writeTimes: number[] = [];
    const readTimes: number[] = [];
    let failures = 0;
    let n = 0;
    const deadline = performance.now() + SECONDS * 1000;
    const plazaCpu0 = cpuSeconds({ pids: plazas.map((p) => p.child.pid!) });
    const pgCpu0 = cpuSeconds({ comm: 'postgres' });
    const writer = async (w: number) => {
      while (performance.now() < deadline) {
        const started = performance.now();
        const res = await fetch(`${balancer}/2/posts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${writers[w % writers.length]}`, 'content-type': 'application/json' },
          body: JSON.stringify({ text: `bench post ${w} ${n++} ${Date.now()}` }),
        }).catch(() => undefined);
        const body = res ? await res.text() : '';
        if (res?.status !== 201) {
          failures++;
          continue;
        }
        writeTimes.push(performance.now() - started);
        postIds.push((JSON.parse(body) as { data: { id: string } }).data.id);
      }
    };
    const reader = async (r: number) => {
      let i = r;
      while (performance.now() < deadline) {
        const id = postIds[(i += 7919) % postIds.length];
        const started = performance.now();
        const res = await fetch(`${balancer}/2/posts/${id}?post.fields=created_at,author_id,public_metrics&expansions=author_id`, { headers: { authorization: `Bearer ${bearer}` } }).catch(() => undefined);
        await res?.arrayBuffer();
        if (res?.status !== 200) failures++;
        else readTimes.push(performance.now() - started);
      }
    };
    await Promise.all([...Array.from({ length: WRITERS }, (_, w) => writer(w)), ...Array.from({ length: READERS }, (_, r) => reader(r))]);
    const plazaCpu = cpuSeconds({ pids: plazas.map((p) => p.child.pid!) }) - plazaCpu0;
    const pgCpu = cpuSeconds({ comm: 'postgres' }) - pgCpu0;
    writeTimes.sort((a, b) => a - b);
    readTimes.sort((a, b) => a - b);
    const requests = writeTimes.length + readTimes.length;
    return {
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
    };
  } finally {
    await haproxy?.close();
    await Promise.all(plazas.map((p) => p.stop()));
    await dropPostgresDatabase(database);
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const rows: Row[] = [];
for (const processes of [1, 2, 3]) {
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
process.exit(0);
