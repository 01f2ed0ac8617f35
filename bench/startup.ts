import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** How a compiled Plaza starts and how much memory it holds when idle (issue 8's targets). */
export interface StartupResult {
  firstStartMs: number;
  /** Idle RSS after the first start, which hashed the demo users' passwords (scrypt's memory stays with the process). */
  firstStartTreeMb: number;
  restartMs: number;
  coldStartTargetMs: number;
  coldStartPass: boolean;
  idleSeconds: number;
  nodeTreeMb: number;
  npmTreeMb: number;
  npmOwnMb: number;
  rssTargetMb: number;
  rssPass: boolean;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const COLD_START_TARGET_MS = 1000;
const RSS_TARGET_MB = 120;
const IDLE_SECONDS = 5;
const STARTUP_TIMEOUT_MS = 60_000;

const portsAndData = (dataDir: string) => ['--port', '0', '--ads-port', '0', '--ads-sandbox-port', '0', '--proxy-port', '0', '--data-dir', dataDir];
const serveArgs = (dataDir: string) => ['dist/main.js', 'serve', ...portsAndData(dataDir)];

/**
 * Builds dist/, then starts `node dist/main.js serve` on an empty store (which seeds the demo
 * workspace) and again on the same store, each time from process start to the first answer of a
 * post lookup; then the idle memory of that process tree, and of the tree `npm start` runs.
 */
export async function measureStartup(scratch: string): Promise<StartupResult> {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { stdio: 'inherit' });
  const dataDir = fs.mkdtempSync(path.join(scratch, 'startup-'));

  const first = await startAndAnswer(process.execPath, serveArgs(dataDir), dataDir);
  await idle();
  const firstStartTreeMb = treeRssMb(first.child.pid!);
  await stop(first.child);
  const restart = await startAndAnswer(process.execPath, serveArgs(dataDir), dataDir);
  await idle();
  const nodeTreeMb = treeRssMb(restart.child.pid!);
  await stop(restart.child);

  const npm = await startAndAnswer('npm', ['start', '--', ...portsAndData(dataDir)], dataDir);
  await idle();
  const npmTreeMb = treeRssMb(npm.child.pid!);
  const npmOwnMb = rssMb(npm.child.pid!);
  await stop(npm.child);

  return {
    firstStartMs: first.ms,
    firstStartTreeMb,
    restartMs: restart.ms,
    coldStartTargetMs: COLD_START_TARGET_MS,
    coldStartPass: restart.ms < COLD_START_TARGET_MS,
    idleSeconds: IDLE_SECONDS,
    nodeTreeMb,
    npmTreeMb,
    npmOwnMb,
    rssTargetMb: RSS_TARGET_MB,
    rssPass: nodeTreeMb < RSS_TARGET_MB,
  };
}

/** Starts the command and polls until Plaza has written its credentials and answered a post lookup with 200. */
async function startAndAnswer(command: string, args: string[], dataDir: string): Promise<{ child: ChildProcess; ms: number }> {
  const credentialsFile = path.join(dataDir, 'credentials.json');
  // Kept, as a restart finds it (it carries the demo passwords and tokens forward); the new
  // process's own version of it is the one written after it started.
  const previous = mtimeOf(credentialsFile);
  const started = performance.now();
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, LOG_LEVEL: 'warn' } });
  const deadline = started + STARTUP_TIMEOUT_MS;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited with ${child.exitCode}`);
    const answered = mtimeOf(credentialsFile) > previous && (await tryLookup(credentialsFile));
    if (answered) return { child, ms: Math.round(performance.now() - started) };
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  child.kill('SIGKILL');
  throw new Error(`${command} ${args.join(' ')} did not answer within ${STARTUP_TIMEOUT_MS} ms`);
}

async function tryLookup(credentialsFile: string): Promise<boolean> {
  let creds: { base_url: string; apps: Array<{ bearer_token: string }>; sample: { post_ids: string[] } };
  try {
    creds = JSON.parse(fs.readFileSync(credentialsFile, 'utf8'));
  } catch {
    return false;
  }
  try {
    const response = await fetch(`${creds.base_url}/2/posts/${creds.sample.post_ids[0]}`, { headers: { authorization: `Bearer ${creds.apps[0].bearer_token}` } });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

const mtimeOf = (file: string) => {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
};

const idle = () => new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));

/** SIGTERM, then wait for the exit (SIGKILL after 15 s). */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

function rssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

/** The RSS of a process and all its descendants (Linux /proc). */
function treeRssMb(root: number): number {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while we looked
    }
  }
  let total = 0;
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    total += rssMb(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}
