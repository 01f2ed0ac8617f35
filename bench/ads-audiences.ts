/**
 * Custom audience batches and keyword insights (issue #14), standalone: `npm run
 * bench:ads-audiences -- [--count 1000000] [--store sqlite|postgres|both] [--requests 50]`.
 *
 * For each store: a real Plaza (startPlaza, port 0) on a temporary store, seeded with `--count`
 * posts over 10 days by src/seed/posts.ts, then, over loopback with OAuth 1.0a:
 * - POST custom_audiences/:id/users with 2,500 operations of 11 users each (email and phone
 *   hashes: 27,500 records, 55,000 identifiers, about 4.8 MB), validated and applied end to end, target < 1 s; the
 *   process's resident memory after ten batches against after the first shows it stays flat;
 * - GET insights/keywords/search over the last 7 days at HOUR granularity, target median < 200 ms.
 * The first answers are checked (counts equal to the records sent; 168 or 169 buckets).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import v8 from 'node:v8';
import vm from 'node:vm';
import path from 'node:path';
import { sql } from 'kysely';
import OAuth from 'oauth-1.0a';
import { startPlaza, type Plaza } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { dropPostgresDatabase, freshPostgresDatabase } from '../test/support/postgres.js';
import { seedingProgress } from '../src/admin/progress.js';
import { seedPosts } from '../src/seed/posts.js';
import { flag } from './args.js';

const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
// A full collection on demand, so memory is compared as live objects, not as what V8 and SQLite's
// mapped pages happen to hold.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
function heapAfterGc(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

const COUNT = Number(flag('count', '1000000'));
const STORES = flag('store', 'both') === 'both' ? (['sqlite', 'postgres'] as const) : ([flag('store', 'sqlite')] as Array<'sqlite' | 'postgres'>);
const REQUESTS = Number(flag('requests', '50'));
const BATCHES = 10;
/** Users per operation: 2,500 operations of 11 users (an email and a phone hash each) are about 4.8 MB. */
const USERS_PER_OPERATION = 11;

const sha = (t: string) => crypto.createHash('sha256').update(t).digest('hex');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function signer(plaza: Plaza) {
  const app = plaza.credentials!.apps[0];
  const user = plaza.credentials!.users.find((u) => u.username === 'ada')!;
  const oauth = new OAuth({ consumer: { key: app.consumer_key, secret: app.consumer_secret }, signature_method: 'HMAC-SHA1', hash_function: (b, k) => crypto.createHmac('sha1', k).update(b).digest('base64') });
  return { account: user.ads_account_ids[0], sign: (method: string, url: string) => oauth.toHeader(oauth.authorize({ url, method }, { key: user.access_token, secret: user.access_token_secret })).Authorization };
}

function batchBody(round: number): string {
  let n = 0;
  return JSON.stringify(
    Array.from({ length: 2500 }, () => ({
      operation_type: 'Update',
      params: { users: Array.from({ length: USERS_PER_OPERATION }, () => ((n += 1), { email: [sha(`user${round}-${n}@example.com`)], phone_number: [sha(`+1555${round}${n}`)] })) },
    })),
  );
}

async function runStore(store: 'sqlite' | 'postgres', scratch: string): Promise<string[]> {
  const dataDir = fs.mkdtempSync(path.join(scratch, `${store}-`));
  const databaseUrl = store === 'sqlite' ? path.join(dataDir, 'plaza.sqlite') : await freshPostgresDatabase(POSTGRES_URL, 'plaza_bench_audiences');
  let plaza: Plaza | undefined;
  try {
    plaza = await startPlaza(loadConfig({ host: '127.0.0.1', port: 0, adsPort: 0, adsSandboxPort: 0, proxyPort: 0, logLevel: 'warn', dataDir, databaseUrl, credentialsFile: path.join(dataDir, 'credentials.json') }, {}));
    const seeded = await seedPosts(plaza.ctx.store.db, { dialect: store, count: COUNT, users: Math.max(50, Math.min(1000, Math.floor(COUNT / 1000))), days: 10, now: plaza.ctx.clock.now(), progress: seedingProgress(`${store}: seeding ${COUNT} posts`, { stream: process.stderr }) });
    await sql`analyze`.execute(plaza.ctx.store.db);
    const { account, sign } = signer(plaza);
    const ads = plaza.urls.ads_url;
    const send = async (method: string, p: string, body?: string) => {
      const url = `${ads}${p}`;
      const res = await fetch(url, { method, headers: { authorization: sign(method, url), ...(body ? { 'content-type': 'application/json' } : {}) }, body });
      const json = (await res.json()) as any;
      if (res.status !== 200) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
      return json;
    };
    const lines: string[] = [];

    const audience = (await send('POST', `/12/accounts/${account}/custom_audiences?name=bench`)).data.id;
    const times: number[] = [];
    let firstRss = 0;
    let firstHeap = 0;
    for (let round = 0; round < BATCHES; round++) {
      const body = batchBody(round);
      const t = process.hrtime.bigint();
      const res = await send('POST', `/12/accounts/${account}/custom_audiences/${audience}/users`, body);
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
      process.stderr.write(`${store}: batch ${round + 1} of ${BATCHES}: ${times.at(-1)!.toFixed(0)} ms\n`);
      if (res.data[0].success_count !== 2500 * USERS_PER_OPERATION || res.data[0].total_count !== 2500 * USERS_PER_OPERATION) throw new Error(`batch counts ${JSON.stringify(res.data)}`);
      if (round === 0) firstRss = process.memoryUsage().rss;
      if (round === 0) firstHeap = heapAfterGc();
      if (round === 0) lines.push(`| ${store} | users batch body | ${(body.length / 1e6).toFixed(2)} MB | | |`);
    }
    const rssGrowth = (process.memoryUsage().rss - firstRss) / 1e6;
    const heapGrowth = (heapAfterGc() - firstHeap) / 1e6;
    lines.push(`| ${store} | users batch, 2,500 operations | median ${median(times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms | < 1000 ms | ${Math.max(...times) < 1000 ? 'ok' : 'MISSED'} |`);
    lines.push(`| ${store} | resident memory, batch 10 against batch 1 | ${rssGrowth >= 0 ? '+' : ''}${rssGrowth.toFixed(0)} MB | | |`);
    // What a leak would show: the JavaScript heap still live after a full collection.
    lines.push(`| ${store} | JavaScript heap after a full GC, batch 10 against batch 1 | ${heapGrowth >= 0 ? '+' : ''}${heapGrowth.toFixed(1)} MB | flat (< 5 MB) | ${heapGrowth < 5 ? 'ok' : 'MISSED'} |`);

    const end = plaza.ctx.clock.now();
    const start = new Date(end.getTime() - 7 * 24 * 3600_000);
    const words = seeded.words.slice(0, 200);
    const insight: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const q = `granularity=HOUR&keywords=${encodeURIComponent(words[i % words.length])}&start_time=${start.toISOString()}&end_time=${end.toISOString()}`;
      const t = process.hrtime.bigint();
      const res = await send('GET', `/12/insights/keywords/search?${q}`);
      insight.push(Number(process.hrtime.bigint() - t) / 1e6);
      if (res.data.post_volume.length < 168) throw new Error(`${res.data.post_volume.length} buckets`);
    }
    lines.push(`| ${store} | keyword insights, ${COUNT} posts, 7 days by HOUR | median ${median(insight).toFixed(0)} ms | < 200 ms | ${median(insight) < 200 ? 'ok' : 'MISSED'} |`);
    return lines;
  } finally {
    await plaza?.close();
    if (store === 'postgres') await dropPostgresDatabase(databaseUrl);
  }
}

async function main(): Promise<void> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-bench-audiences-'));
  try {
    const lines = ['| store | measure | result | target | |', '| --- | --- | --- | --- | --- |'];
    for (const store of STORES) lines.push(...(await runStore(store, scratch)));
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
