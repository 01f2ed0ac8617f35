/**
 * Webhook delivery under load (issue #10): signed deliveries to 10 local receivers must reach at
 * least 2,000 per second on SQLite, with p99 from the write's commit to the receiver's request
 * under 100 ms.
 *
 * Plaza runs in this process (startPlaza over a temporary SQLite store). The receivers are 10 HTTP
 * servers in a worker thread, so they do not share Plaza's event loop; each checks the signature
 * and reports when each delivery arrived. The writer appends `bench.webhook` events to the log in
 * small transactions at the target rate, each routed (by a router registered here, as the Account
 * Activity and Activity routers are) to every one of the 10 webhooks, and notes each commit time.
 *
 *   npx tsx bench/webhooks.ts            (BENCH_SECONDS=10, BENCH_WEBHOOK_RATE=2500 deliveries/s)
 *
 * It prints one JSON line with the verdict; the exit code is 0 whatever the verdict (a broken
 * setup exits non-zero).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { startPlaza } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { appendEvent } from '../src/events/log.js';
import { registerWebhookRouter } from '../src/events/webhook-routers.js';

const RECEIVERS = 10;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 2500);
const TARGET_PER_SECOND = 2000;
const TARGET_P99_MS = 100;
const TICK_MS = 50;

/** The receivers: plain node:http servers in a worker, answering 200 after checking the signature. */
const RECEIVER_SOURCE = `
const http = require('node:http');
const { createHmac } = require('node:crypto');
const { parentPort, workerData } = require('node:worker_threads');
const ports = [];
let arrivals = [];
let bad = 0;
let started = 0;
for (let i = 0; i < workerData.count; i++) {
  const server = http.createServer((req, res) => {
    if (req.method === 'GET') {
      const token = new URL(req.url, 'http://x').searchParams.get('crc_token') || '';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ response_token: 'sha256=' + createHmac('sha256', workerData.secret).update(token).digest('base64') }));
      return;
    }
    const at = Date.now();
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const sig = 'sha256=' + createHmac('sha256', workerData.secret).update(raw).digest('base64');
      if (sig !== req.headers['x-twitter-webhooks-signature']) bad++;
      try { arrivals.push([JSON.parse(raw).n, at]); } catch { bad++; }
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 60000;
  server.listen(0, '127.0.0.1', () => {
    ports[i] = server.address().port;
    if (++started === workerData.count) parentPort.postMessage({ ports });
  });
}
setInterval(() => {
  if (arrivals.length) { parentPort.postMessage({ arrivals, bad }); arrivals = []; }
}, 50);
`;

registerWebhookRouter(async (_ctx, _db, event) => {
  if (event.type !== 'bench.webhook') return [];
  const p = JSON.parse(event.payload) as { webhooks: string[]; n: number };
  return p.webhooks.map((webhookId) => ({ webhookId, body: { n: p.n, bench: true } }));
});

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-bench-webhooks-'));
  const config = loadConfig({ port: 0, adsPort: 0, adsSandboxPort: 0, proxyPort: 0, logLevel: 'warn', dataDir: dir, databaseUrl: path.join(dir, 'plaza.sqlite'), credentialsFile: path.join(dir, 'credentials.json') }, {});
  const plaza = await startPlaza(config);
  const app = plaza.credentials!.apps[0]!;
  await plaza.ctx.store.db.updateTable('apps').set({ tier: 'enterprise' }).where('id', '=', app.id).execute();
  const worker = new Worker(RECEIVER_SOURCE, { eval: true, workerData: { count: RECEIVERS, secret: app.consumer_secret } });
  const commits = new Map<number, number>();
  const latencies: number[] = [];
  let arrived = 0;
  let badSignatures = 0;
  let firstWrite = 0;
  let lastArrival = 0;
  try {
    const ports = await new Promise<number[]>((resolve) => worker.once('message', (m) => resolve(m.ports)));
    worker.on('message', (m: { arrivals?: Array<[number, number]>; bad?: number }) => {
      badSignatures = m.bad ?? badSignatures;
      for (const [n, at] of m.arrivals ?? []) {
        arrived++;
        lastArrival = Math.max(lastArrival, at);
        const committed = commits.get(n);
        if (committed !== undefined) latencies.push(at - committed);
      }
    });
    const webhooks: string[] = [];
    for (const port of ports) {
      const res = await fetch(`${plaza.urls.base_url}/2/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${app.bearer_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook` }),
      });
      const body = (await res.json()) as { data?: { id: string } };
      if (!body.data) throw new Error(`could not create a webhook: ${JSON.stringify(body)}`);
      webhooks.push(body.data.id);
    }

    // The writer: every TICK_MS one transaction with enough events to hold RATE deliveries/s.
    const eventsPerTick = Math.max(1, Math.round((RATE / RECEIVERS) * (TICK_MS / 1000)));
    let n = 0;
    firstWrite = Date.now();
    const until = firstWrite + SECONDS * 1000;
    while (Date.now() < until) {
      const tickStart = Date.now();
      const batch: number[] = [];
      await plaza.ctx.store.db.transaction().execute(async (tx) => {
        for (let i = 0; i < eventsPerTick; i++) {
          const id = n++;
          batch.push(id);
          await appendEvent(plaza.ctx, tx, { type: 'bench.webhook', subject: String(id), payload: { webhooks, n: id } });
        }
      });
      const committed = Date.now();
      for (const id of batch) commits.set(id, committed);
      const wait = TICK_MS - (Date.now() - tickStart);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    const expected = n * RECEIVERS;
    const drainBy = Date.now() + 30_000;
    while (arrived < expected && Date.now() < drainBy) await new Promise((r) => setTimeout(r, 50));
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
    const perSecond = arrived / ((lastArrival - firstWrite) / 1000);
    const result = {
      scenario: 'webhook deliveries, 10 receivers, SQLite',
      offered_per_second: RATE,
      delivered: arrived,
      expected,
      bad_signatures: badSignatures,
      deliveries_per_second: Math.round(perSecond),
      p50_ms: pct(50),
      p99_ms: pct(99),
      verdict: arrived === expected && badSignatures === 0 && perSecond >= TARGET_PER_SECOND && pct(99) < TARGET_P99_MS ? 'pass' : 'fail',
      targets: { deliveries_per_second: TARGET_PER_SECOND, p99_ms: TARGET_P99_MS },
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await worker.terminate();
    await plaza.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
