import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CredentialsFile } from '../../src/seed/credentials.js';
import { dropPostgresDatabase } from '../support/server.js';
import { copyTemplate, demoTemplate } from '../support/template.js';
import { plazaArgs } from '../support/cli.js';
import { eventually } from '../support/wait.js';

/**
 * `plaza serve` in a real child process (`plaza serve --port 0 ...`, test/support/cli.ts), on a
 * store that outlives it: a SQLite file in a temp folder, or a PostgreSQL database when
 * DATABASE_URL is set. The real ports come from the credentials file it writes.
 */
const repo = fileURLToPath(new URL('../..', import.meta.url));

export interface ChildStore {
  root: string;
  db: string;
  credentialsFile: string;
  dispose(): Promise<void>;
}

/** A store holding the demo workspace, copied from the run's template (test/support/template.ts). */
export async function childStore(): Promise<ChildStore> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-hardening-'));
  const adminUrl = process.env.DATABASE_URL;
  const db = await copyTemplate(await demoTemplate(adminUrl), root, adminUrl);
  // A start is ready once it has written the credentials file (startPlazaChild): the copy is older.
  fs.utimesSync(path.join(root, 'credentials.json'), 0, 0);
  return {
    root,
    db,
    credentialsFile: path.join(root, 'credentials.json'),
    async dispose() {
      if (db.startsWith('postgres')) await dropPostgresDatabase(db);
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

export interface PlazaChild {
  child: ChildProcess;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The credentials file of this start (written once the listeners are up). */
  ready(ms?: number): Promise<CredentialsFile>;
  /** Waits for the exit, at most `ms`; undefined when the process is still running then. */
  exitWithin(ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null } | undefined>;
  kill(): void;
}

/**
 * Starts Plaza. `stdout: 'stalled'` gives it a pipe nobody reads (the parent never takes a byte),
 * `'gone'` one whose reader has closed; `'read'` drains it.
 */
export function startPlazaChild(store: ChildStore, o: { stdout: 'read' | 'stalled' | 'gone'; env?: Record<string, string> }): PlazaChild {
  // A later start on the same store rewrites the credentials file (same secrets, new ports):
  // this start is ready when the file is newer than it.
  const spawnedAt = Date.now();
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'DATABASE_URL' && !k.startsWith('PLAZA_')));
  const child = spawn(
    process.execPath,
    plazaArgs('serve', '--port', '0', '--ads-port', '0', '--ads-sandbox-port', '0', '--proxy-port', '0', '--data-dir', store.root, '--credentials-file', store.credentialsFile, '--db', store.db),
    { cwd: repo, env: { ...env, LOG_LEVEL: 'info', PLAZA_DRAIN_MS: '0', ...o.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  if (o.stdout === 'read') child.stdout!.resume();
  else if (o.stdout === 'stalled') child.stdout!.pause();
  else child.stdout!.destroy();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return {
    child,
    stderr: () => stderr,
    exited,
    async ready(ms = 60_000) {
      return eventually(() => {
        if (child.exitCode !== null || child.signalCode !== null) assert.fail(`plaza exited before it was up (${child.exitCode ?? child.signalCode}): ${stderr}`);
        if (!fs.existsSync(store.credentialsFile) || fs.statSync(store.credentialsFile).mtimeMs < spawnedAt - 5) return undefined;
        try {
          return JSON.parse(fs.readFileSync(store.credentialsFile, 'utf8')) as CredentialsFile;
        } catch {
          return undefined; // written right now: read it again
        }
      }, () => `plaza to be up: ${stderr}`, ms);
    },
    async exitWithin(ms) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
      const result = await Promise.race([exited, late]);
      clearTimeout(timer);
      return result;
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
