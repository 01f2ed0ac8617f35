/**
 * Activity streams under load (issue #10): STREAMS open GET /2/activity/stream connections held by
 * one Plaza process; its RSS must stay under 200 MB, and one event must reach all of them within
 * 200 ms. Plaza runs as a child process (the compiled `node dist/main.js serve`, built first, on a
 * temporary SQLite store) so its RSS is its own, read from /proc; the streams are real sockets from this process.
 *
 *   npx tsx bench/activity-streams.ts            (STREAMS=1000 by default; STREAMS=50 for a smoke run)
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { request, waitForCredentials } from './child-plaza.js';

const STREAMS = Number(process.env.STREAMS ?? 1000);
const RSS_LIMIT_MB = 200;
const REACH_LIMIT_MS = 200;
const ROUNDS = Number(process.env.ROUNDS ?? 5);

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-bench-activity-'));
  const credsFile = path.join(dir, 'credentials.json');
  const child = spawn(process.execPath, ['dist/main.js', 'serve', '--port', '0', '--ads-port', '0', '--ads-sandbox-port', '0', '--proxy-port', '0', '--db', path.join(dir, 'plaza.sqlite'), '--credentials-file', credsFile, '--data-dir', dir], {
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      PLAZA_ACTIVITY_STREAM_CONNECTIONS: String(STREAMS),
      PLAZA_MAX_CONNECTIONS_PER_ADDRESS: String(STREAMS + 100),
      PLAZA_RATE_LIMITS: 'off',
      PLAZA_ACTIVITY_KEEPALIVE_MS: '15000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const sockets: http.ClientRequest[] = [];
  try {
    const creds = await waitForCredentials(credsFile, child.pid!);
    const base: string = creds.base_url;
    const app = creds.apps[0];
    const user = creds.users.find((u: any) => u.username === 'dana');
    await request(base, 'POST', '/2/activity/subscriptions', app.bearer_token, { event_type: 'profile.update.bio', filter: { user_id: user.id } });

    const arrivals: number[][] = [];
    let round = 0;
    const opened: Promise<void>[] = [];
    for (let i = 0; i < STREAMS; i++) {
      opened.push(
        new Promise<void>((resolve, reject) => {
          const req = http.get(`${base}/2/activity/stream`, { headers: { authorization: `Bearer ${app.bearer_token}` }, agent: false }, (res) => {
            if (res.statusCode !== 200) return reject(new Error(`stream ${i}: ${res.statusCode}`));
            res.setEncoding('utf8');
            let buffer = '';
            res.on('data', (chunk: string) => {
              buffer += chunk;
              let at: number;
              while ((at = buffer.indexOf('\r\n')) >= 0) {
                const text = buffer.slice(0, at);
                buffer = buffer.slice(at + 2);
                if (text.startsWith('{"data"')) (arrivals[round] ??= []).push(performance.now());
              }
            });
            resolve();
          });
          req.on('error', reject);
          sockets.push(req);
        }),
      );
    }
    await Promise.all(opened);
    await new Promise((r) => setTimeout(r, 1000));
    const rssMb = readRssMb(child.pid!);

    const reach: number[] = [];
    for (round = 0; round < ROUNDS; round++) {
      arrivals[round] = [];
      const start = performance.now();
      await request(base, 'PATCH', '/2/users/me', user.oauth2_access_token, { description: `bench round ${round} ${Date.now()}` });
      const deadline = Date.now() + 10_000;
      while (arrivals[round].length < STREAMS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
      const got = arrivals[round];
      reach.push(got.length < STREAMS ? Infinity : Math.max(...got) - start);
    }
    const worst = Math.max(...reach);
    const result = {
      streams: STREAMS,
      rss_mb: Math.round(rssMb * 10) / 10,
      rss_ok: rssMb < RSS_LIMIT_MB,
      reach_all_ms: reach.map((ms) => Math.round(ms)),
      reach_ok: worst < REACH_LIMIT_MS,
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    for (const s of sockets) s.destroy();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function readRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
