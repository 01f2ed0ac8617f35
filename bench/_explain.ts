import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startPlaza } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { dropPostgresDatabase, freshPostgresDatabase } from '../test/support/postgres.js';
import { scenarios, settled, type Bench } from './scenarios.js';
const captured: Array<{ text: string; values: unknown[] }> = [];
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0] as any;
  const text = typeof first === 'string' ? first : first?.text;
  const values = typeof first === 'string' ? (args[1] as unknown[]) : first?.values;
  if (text && /^select/i.test(text)) captured.push({ text, values: values ?? [] });
  return (original as any).apply(this, args);
} as any;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-x-'));
const databaseUrl = await freshPostgresDatabase('postgres://postgres@127.0.0.1:5432/postgres', 'plaza_x');
const plaza = await startPlaza(loadConfig({ host: '127.0.0.1', port: 0, adsPort: 0, adsSandboxPort: 0, proxyPort: 0, logLevel: 'warn', dataDir, databaseUrl, credentialsFile: path.join(dataDir, 'credentials.json'), platformRateLimits: 'off' }, {}));
try {
  const bench: Bench = { plaza, credentials: plaza.credentials! };
  const want = (process.env.X_SCENARIO ?? 'home-timeline-100').split(',');
  for (const s of scenarios) {
    const state = await s.setup(bench);
    await settled(bench);
    if (!want.includes(s.name)) continue;
    const req = await s.requests(bench, state);
    for (const p of req.paths.slice(0, 3)) {
      const headers = { ...req.headers, ...(req.authorizationByPath?.[p] ? { authorization: req.authorizationByPath[p] } : {}) };
      captured.length = 0;
      await (await fetch(plaza.urls.base_url + p, { headers })).arrayBuffer();
      captured.length = 0;
      await (await fetch(plaza.urls.base_url + p, { headers })).arrayBuffer();
      const client = new pg.Client(databaseUrl); await client.connect();
      fs.writeFileSync('/tmp/exp/q-' + s.name + '.json', JSON.stringify(captured));
      for (const q of [...captured]) {
        const r = await client.query({ text: 'explain (analyze, buffers) ' + q.text, values: q.values as any[] });
        console.log('=== ' + q.text.replace(/\s+/g, ' ').slice(0, 120));
        console.log(r.rows.map((x: any) => x['QUERY PLAN']).join('\n'));
      }
      await client.end();
      break;
    }
  }
} finally { await plaza.close(); if (!process.env.X_KEEP) await dropPostgresDatabase(databaseUrl); else console.log('KEPT ' + databaseUrl); }
