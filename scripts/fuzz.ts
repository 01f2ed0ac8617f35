/**
 * `npm run fuzz`: the long fuzz run of test/hardening/fuzz.ts (random values on top of the fixed
 * ones) against a fresh Plaza on a temporary store: SQLite, or a fresh PostgreSQL database next
 * to DATABASE_URL's when it is set (dropped afterwards). Options: `--rounds N` (default 5),
 * `--seed S` (default: from the time). Exits 1 on any failure.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startPlaza } from '../src/app.js';
import { OffsetClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { fuzzPlaza } from '../test/hardening/fuzz.js';
import type { TestPlaza } from '../test/support/server.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, seed: { type: 'string' } } });
const rounds = Number(values.rounds);
const firstSeed = values.seed ? Number(values.seed) : Date.now() % 1_000_000;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-fuzz-'));
const admin = process.env.DATABASE_URL;
let databaseUrl = path.join(dataDir, 'plaza.sqlite');
const dbName = `plaza_fuzz_${crypto.randomBytes(6).toString('hex')}`;
if (admin) {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${dbName}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${dbName}`;
  databaseUrl = url.toString();
}

const clock = new OffsetClock();
const config = loadConfig({ port: 0, adsPort: 0, adsSandboxPort: 0, proxyPort: 0, logLevel: 'silent', dataDir, databaseUrl, credentialsFile: path.join(dataDir, 'credentials.json') }, {});
const plaza = await startPlaza(config, { clock });
const target = Object.assign(plaza, { creds: plaza.credentials!, dataDir, databaseUrl }) as unknown as TestPlaza;

let failed = 0;
try {
  for (let round = 0; round < rounds; round++) {
    const seed = firstSeed + round;
    const started = Date.now();
    const report = await fuzzPlaza(target, clock, 'long', seed);
    console.log(`round ${round + 1}/${rounds} (seed ${seed}): ${report.operations} operations, ${report.requests} requests, ${report.failures.length} failures, ${((Date.now() - started) / 1000).toFixed(1)} s`);
    for (const f of report.failures) console.log(`  ${f}`);
    failed += report.failures.length;
  }
} finally {
  await plaza.close();
  if (admin) {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await client.end();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed > 0 ? 1 : 0);
