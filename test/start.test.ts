import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { eventually } from './support/wait.js';

/**
 * `npm start` as a supervisor runs it: the README's start command builds dist/ and runs the
 * compiled server, and a signal to whichever process of that tree stops the server cleanly,
 * leaving nothing behind holding the ports.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STARTED_WITHIN_MS = 90_000;
const STOPPED_WITHIN_MS = 15_000;

const children: ChildProcess[] = [];
const dirs: string[] = [];
after(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Starts `npm start` on a fresh data folder (SQLite, ports picked by the system) and waits for its credentials file. */
async function npmStart(): Promise<{ npm: ChildProcess; server: number; baseUrl: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-start-'));
  dirs.push(dataDir);
  const npm = spawn('npm', ['start', '--', '--port', '0', '--ads-port', '0', '--ads-sandbox-port', '0', '--proxy-port', '0', '--data-dir', dataDir, '--db', path.join(dataDir, 'plaza.sqlite')], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn' },
  });
  children.push(npm);
  let stderr = '';
  npm.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const credentials = path.join(dataDir, 'credentials.json');
  const baseUrl = await eventually(() => {
    if (npm.exitCode !== null) throw new Error(`npm start exited with ${npm.exitCode}: ${stderr}`);
    try {
      return (JSON.parse(fs.readFileSync(credentials, 'utf8')) as { base_url?: string }).base_url || undefined;
    } catch {
      return undefined;
    }
  }, 'the credentials file', STARTED_WITHIN_MS);
  const server = childrenOf(npm.pid!).find((pid) => commandOf(pid).includes('dist/main.js'));
  assert.ok(server, `no server process under npm (${childrenOf(npm.pid!).map(commandOf).join('; ')})`);
  return { npm, server, baseUrl };
}

test('npm start runs the compiled server directly under npm: SIGTERM to the npm process (as a supervisor sends it) stops the server, which exits cleanly', async () => {
  const { npm, server, baseUrl } = await npmStart();
  assert.equal((await fetch(`${baseUrl}/healthz`)).status, 200);
  const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
  process.kill(npm.pid!, 'SIGTERM');
  await eventually(() => !alive(server), 'the server process to exit', STOPPED_WITHIN_MS);
  await exited;
  await assert.rejects(fetch(`${baseUrl}/healthz`), 'nothing listens on the port any more');
});

test('SIGTERM to the server process itself stops it, and npm start ends with it', async () => {
  const { npm, server } = await npmStart();
  const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
  process.kill(server, 'SIGTERM');
  await eventually(() => !alive(server), 'the server process to exit', STOPPED_WITHIN_MS);
  assert.equal(await exited, 0, 'the server shut down cleanly, so npm start exits 0');
});

function alive(pid: number): boolean {
  try {
    const state = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    return state !== 'Z';
  } catch {
    return false;
  }
}

function childrenOf(parent: number): number[] {
  return fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e)).map(Number).filter((pid) => {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent;
    } catch {
      return false;
    }
  });
}

function commandOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}
