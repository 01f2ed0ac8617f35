import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import type { CredentialsFile } from '../../src/seed/credentials.js';
import { call } from '../support/server.js';
import { plazaArgs } from '../support/cli.js';
import { eventually } from '../support/wait.js';
import { freePort } from '../support/haproxy.js';

/**
 * `plaza` as a newcomer runs it (a child process each): its help, its version, its start-up
 * failures, and the readiness a script can wait for before reading the credentials file.
 */

const repo = fileURLToPath(new URL('../..', import.meta.url));
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-newcomer-'));
const children = new Set<ChildProcess>();
const servers = new Set<net.Server>();

after(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  fs.rmSync(root, { recursive: true, force: true });
});

interface Run {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
}

function plaza(args: string[]): Run {
  // No DATABASE_URL or PLAZA_* of the test's own: the flags say everything.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'DATABASE_URL' && !k.startsWith('PLAZA_')));
  const child = spawn(process.execPath, plazaArgs(...args), { cwd: repo, env: { ...env, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exited };
}

/** The exit code, failing (and killing the child) if it has not exited within `ms`. */
async function exitWithin(run: Run, ms: number): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      run.child.kill('SIGKILL');
      reject(new Error(`still running after ${ms} ms\nstdout:\n${run.out()}\nstderr:\n${run.err()}`));
    }, ms);
  });
  try {
    return await Promise.race([run.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The names of every environment variable src/config.ts reads. */
function configEnvironment(): string[] {
  const source = fs.readFileSync(path.join(repo, 'src/config.ts'), 'utf8');
  return [...new Set([...source.matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]))].sort();
}

test('`plaza --help` and `plaza serve --help` list every environment variable src/config.ts reads, each with its default', async () => {
  const names = configEnvironment();
  assert.ok(names.length >= 25 && names.includes('PLAZA_SECRET_FILE') && names.includes('DATABASE_URL'), names.join(' '));
  for (const args of [['--help'], ['serve', '--help']]) {
    const run = plaza(args);
    assert.equal(await exitWithin(run, 60_000), 0, run.err());
    const help = run.out();
    assert.match(help, /\nEnvironment:\n/);
    for (const name of names) assert.match(help, new RegExp(`\\n  ${name} +\\S.*\\(default: [^)]+\\)`), `${args.join(' ')} lists ${name}`);
  }
});

test('`plaza --version` prints the version of package.json', async () => {
  const run = plaza(['--version']);
  assert.equal(await exitWithin(run, 60_000), 0);
  const { version } = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { version: string };
  assert.equal(run.out().trim(), version);
});

/** A port some other program holds. */
async function takenPort(): Promise<number> {
  const server = net.createServer();
  servers.add(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

/** Files and folders under `dir`, or [] when it does not exist. */
const contents = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }) : []);

test('start-up on a taken port fails at once with one line naming the address, port and flag, before writing anything (no data folder, store or secret)', async () => {
  const port = await takenPort();
  const dataDir = path.join(root, 'taken', 'data');
  const run = plaza(['serve', '--port', String(port), '--ads-port', '0', '--ads-sandbox-port', '0', '--proxy-port', '0', '--data-dir', dataDir]);
  assert.equal(await exitWithin(run, 30_000), 1);
  const lines = run.err().trim().split('\n');
  assert.equal(lines.length, 1, run.err());
  assert.equal(lines[0], `plaza serve: cannot listen on 127.0.0.1:${port} (--port, PLAZA_PORT): the port is already in use; pick another port, or 0 for a free one`);
  assert.equal(fs.existsSync(dataDir), false, 'nothing written');
});

test('start-up with a data directory that cannot be written fails with one line naming the path, before writing anything', async () => {
  const file = path.join(root, 'not-a-folder');
  fs.writeFileSync(file, 'a file where a folder should be');
  for (const dataDir of [path.join(file, 'data'), '/proc/plaza-data']) {
    const run = plaza(['serve', '--port', '0', '--ads-port', '0', '--ads-sandbox-port', '0', '--proxy-port', '0', '--data-dir', dataDir]);
    assert.equal(await exitWithin(run, 30_000), 1);
    const lines = run.err().trim().split('\n');
    assert.equal(lines.length, 1, run.err());
    assert.ok(lines[0].startsWith(`plaza serve: the data directory (--data-dir, PLAZA_DATA_DIR) ${dataDir} `), lines[0]);
    assert.match(lines[0], /is a file, not a folder|is not writable/);
  }
  assert.equal(fs.readFileSync(file, 'utf8'), 'a file where a folder should be');
});

test('start-up with a store that cannot be opened names it (a SQLite file that is not a database; a PostgreSQL server that refuses), before writing anything', async () => {
  const dataDir = path.join(root, 'bad-store');
  fs.mkdirSync(dataDir);
  const notDb = path.join(dataDir, 'plaza.sqlite');
  fs.writeFileSync(notDb, 'this is not a database, not even close to one; it is long enough to have a header though');
  const sqlite = plaza(['serve', '--port', '0', '--ads-port', '0', '--ads-sandbox-port', '0', '--proxy-port', '0', '--data-dir', dataDir]);
  assert.equal(await exitWithin(sqlite, 30_000), 1);
  assert.equal(sqlite.err().trim(), `plaza serve: cannot open the SQLite store ${notDb}: file is not a database`);
  const port = await freePort();
  const pg = plaza(['serve', '--port', '0', '--ads-port', '0', '--ads-sandbox-port', '0', '--proxy-port', '0', '--data-dir', dataDir, '--db', `postgres://plaza:secret@127.0.0.1:${port}/plaza`]);
  assert.equal(await exitWithin(pg, 30_000), 1);
  assert.match(pg.err().trim(), new RegExp(`^plaza serve: cannot open the PostgreSQL store postgres://plaza:\\*\\*\\*@127\\.0\\.0\\.1:${port}/plaza: .*ECONNREFUSED`));
  assert.doesNotMatch(pg.err(), /secret/);
  assert.deepEqual(contents(dataDir), ['plaza.sqlite'], 'no secret, credentials or uploads written');
});

test('a script that waits for /readyz (200) can read the credentials file at once; /healthz answers too', async () => {
  const port = await freePort();
  const dataDir = path.join(root, 'ready');
  const run = plaza(['serve', '--port', String(port), '--ads-port', '0', '--ads-sandbox-port', '0', '--proxy-port', '0', '--data-dir', dataDir]);
  const base = `http://127.0.0.1:${port}`;
  await eventually(async () => {
    const status = await call(base, '/readyz').then((r) => r.status, () => 0);
    assert.ok(status === 0 || status === 503 || status === 200, `readyz answered ${status}`);
    assert.equal(run.child.exitCode, null, `plaza exited\n${run.err()}`);
    return status === 200;
  }, () => `/readyz to answer 200\n${run.err()}`, 60_000);
  const creds = JSON.parse(fs.readFileSync(path.join(dataDir, 'credentials.json'), 'utf8')) as CredentialsFile;
  assert.equal(creds.base_url, base);
  assert.equal(creds.users[0].tokens.length, 2);
  assert.equal((await call(base, '/healthz')).status, 200);
  run.child.kill('SIGTERM');
  assert.equal(await exitWithin(run, 15_000), 0);
});
