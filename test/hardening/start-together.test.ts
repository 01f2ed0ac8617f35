import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { CredentialsFile } from '../../src/seed/credentials.js';
import { plazaArgs } from '../support/cli.js';
import { dropPostgresDatabase, freshPostgresDatabase } from '../support/postgres.js';
import { call } from '../support/server.js';
import { eventually } from '../support/wait.js';

/**
 * Issue #37 item 4, "Starting together breaks": three processes started at the same moment on one
 * empty store and one data directory all come up. Migrations run once (a run that raced another
 * is tried again), one seeds the demo workspace and the others go on as later processes do, and
 * the server secret is made by one and kept in the store, so processes on different machines (here:
 * data directories) take the same admin token and bearer tokens; `--public-url` puts the
 * balancer's address in the credentials file and the printed links.
 */
const children: ChildProcess[] = [];
const PUBLIC = 'http://plaza.example.test';
let root: string;
let database: string | undefined;
after(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await Promise.all(children.map((c) => (c.exitCode !== null || c.signalCode !== null ? undefined : new Promise((resolve) => c.once('exit', resolve)))));
  if (database) await dropPostgresDatabase(database);
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

test('three processes started at once on an empty store all come up, on one workspace and one server secret (from the store: each has its own data directory), and print the --public-url', { timeout: 120_000 }, async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-together-'));
  database = process.env.DATABASE_URL ? await freshPostgresDatabase(process.env.DATABASE_URL) : undefined;
  const db = database ?? path.join(root, 'plaza.sqlite');
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'DATABASE_URL' && !k.startsWith('PLAZA_')));
  const runs = [0, 1, 2].map((i) => {
    const child = spawn(
      process.execPath,
      plazaArgs('serve', '--port', '0', '--ads-port', '0', '--ads-sandbox-port', '0', '--proxy-port', '0', '--data-dir', path.join(root, `d${i}`), '--db', db, '--credentials-file', path.join(root, `credentials-${i}.json`), '--public-url', PUBLIC, '--public-ads-url', `${PUBLIC}:8081/`),
      { env: { ...env, LOG_LEVEL: 'warn', PLAZA_DRAIN_MS: '0' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    const run = { child, out: '', err: '' };
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (run.out += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (run.err += chunk));
    return run;
  });
  const bases: string[] = [];
  for (const run of runs) {
    const base = await eventually(() => {
      if (run.child.exitCode !== null) assert.fail(`a process exited (${run.child.exitCode}): ${run.err}`);
      return /this process listens on:\s+(\S+)/.exec(run.out)?.[1];
    }, () => `every process to be up: ${run.err}`, 90_000);
    bases.push(base);
  }
  // One of them seeded and wrote its credentials file; the others wrote none.
  const written = [0, 1, 2].map((i) => path.join(root, `credentials-${i}.json`)).filter((f) => fs.existsSync(f));
  assert.equal(written.length, 1, `credentials files: ${written.join(', ')}`);
  const creds = JSON.parse(fs.readFileSync(written[0]!, 'utf8')) as CredentialsFile;
  assert.equal(creds.base_url, PUBLIC, 'the balancer\'s address in the credentials file');
  assert.equal(creds.ads_url, `${PUBLIC}:8081`);
  assert.notEqual(creds.ads_sandbox_url, `${PUBLIC}:8081`, 'a listener without a public URL keeps its own');
  for (const run of runs) assert.match(run.out, new RegExp(`platform interface v2:\\s+${PUBLIC.replace(/\./g, '\\.')}\\n`));
  // Every process is ready, and takes the same workspace's bearer token and admin token (one server secret, from the store).
  for (const base of bases) {
    assert.equal((await call(base, '/readyz')).status, 200, base);
    const read = await call(base, `/2/posts/${creds.sample.post_ids[0]}`, { auth: { bearer: creds.apps[0]!.bearer_token } });
    assert.equal(read.status, 200, `${base}: ${read.text}`);
    const admin = await call(base, '/admin/apps', { auth: { bearer: creds.admin_token! } });
    assert.equal(admin.status, 200, `${base}: ${admin.text}`);
  }
  for (let i = 0; i < 3; i++) assert.equal(fs.existsSync(path.join(root, `d${i}`, 'server-secret')), false, 'no secret file: the secret is in the store');
  for (const run of runs) run.child.kill('SIGTERM');
  for (const run of runs) {
    const code = run.child.exitCode ?? (await new Promise<number | null>((resolve) => run.child.once('exit', (c) => resolve(c))));
    assert.equal(code, 0, run.err);
  }
});
