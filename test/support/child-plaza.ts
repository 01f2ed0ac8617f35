import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { plazaArgs } from './cli.js';

/**
 * A real Plaza process (`plaza serve`, test/support/cli.ts) on a given store, for the tests
 * that need a second process or a kill -9. `stop()` always ends it; tests call it in `after`.
 */
export interface ChildPlaza {
  child: ChildProcess;
  baseUrl: string;
  /** What it printed so far: its start-up lines on stdout, its log (at LOG_LEVEL) on both. */
  output(): string;
  /** kill -9: no shutdown, no chance to finish anything. */
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, '../..');

export async function startChildPlaza(opts: { db: string; dataDir: string; credentialsFile?: string; env?: Record<string, string | undefined>; timeoutMs?: number; nodeArgs?: string[] }): Promise<ChildPlaza> {
  const child = spawn(
    process.execPath,
    [...(opts.nodeArgs ?? []), ...plazaArgs('serve', '--port', '0', '--ads-port', '0', '--ads-sandbox-port', '0', '--proxy-port', '0', '--db', opts.db, '--data-dir', opts.dataDir, '--credentials-file', opts.credentialsFile ?? path.join(opts.dataDir, 'credentials.json'))],
    { cwd: ROOT, env: { ...process.env, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the child Plaza did not start within ${opts.timeoutMs ?? 60_000} ms: ${err}`)), opts.timeoutMs ?? 60_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      // Its own address: the platform line's, or with a public URL (a balancer's) on that line, its "listens on" line's.
      const own = opts.env?.PLAZA_PUBLIC_URL ? /this process listens on:\s+(\S+)/.exec(out) : /platform interface v2:\s+(\S+)/.exec(out);
      if (own) {
        clearTimeout(timer);
        resolve(own[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the child Plaza exited (${code}) before it started: ${err}`));
    });
  }).catch(async (e) => {
    child.kill('SIGKILL');
    await exited;
    throw e;
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    baseUrl,
    output: () => `${out}${err}`,
    async kill9() {
      if (running()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (running()) child.kill('SIGTERM');
      const timer = setTimeout(() => running() && child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
