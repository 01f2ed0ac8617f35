import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import type { CredentialsFile } from '../src/seed/credentials.js';
import { call, dropPostgresDatabase, freshPostgresDatabase, oauth1Header } from './support/server.js';
import { plazaArgs } from './support/cli.js';

/**
 * `plaza serve` as a user runs it: the real CLI in a child process, on port 0, with a temporary
 * data folder (and, when DATABASE_URL is set, a fresh PostgreSQL database passed with --db).
 * One process serves the checks of the first start, a second one those of a later start.
 */

const repo = fileURLToPath(new URL('..', import.meta.url));
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-cli-'));
const dataDir = path.join(root, 'data');
const credentialsFile = path.join(root, 'creds.json');
let databaseUrl: string | undefined;
const children = new Set<ChildProcess>();

before(async () => {
  if (process.env.DATABASE_URL) databaseUrl = await freshPostgresDatabase(process.env.DATABASE_URL, 'plaza_cli');
});

after(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (databaseUrl) await dropPostgresDatabase(databaseUrl);
  fs.rmSync(root, { recursive: true, force: true });
});

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

class Serve {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  readonly exited: Promise<Exit>;
  private readonly waiters = new Set<() => void>();

  constructor(args: string[]) {
    // The child gets no DATABASE_URL or PLAZA_* settings of its own: the flags say everything.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'DATABASE_URL' && !k.startsWith('PLAZA_')));
    this.child = spawn(process.execPath, plazaArgs('serve', ...args), {
      cwd: repo,
      env: { ...env, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(this.child);
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stdout += chunk;
      for (const wake of this.waiters) wake();
    });
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
      for (const wake of this.waiters) wake();
    });
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
    this.exited.then(() => {
      for (const wake of this.waiters) wake();
    });
  }

  /** Waits until `check` returns something, failing with the output so far after `ms` or when the process exits. */
  async until<T>(what: string, check: () => T | undefined, ms = 30_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = check();
      if (found !== undefined) return found;
      if (this.child.exitCode !== null || this.child.signalCode !== null || Date.now() > deadline) {
        assert.fail(`${what}: not seen (exit ${this.child.exitCode ?? this.child.signalCode})\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`);
      }
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, 100);
        this.waiters.add(wake);
      });
    }
  }

  /** The banner: the three URLs and the curl line, once Plaza is up. */
  async banner(): Promise<{ base_url: string; ads_url: string; ads_sandbox_url: string; curl: string; lines: string[] }> {
    return this.until('the banner', () => {
      const lines = this.stdout.split('\n');
      const start = lines.indexOf('Plaza is running.');
      const end = lines.findIndex((l) => l.startsWith('  curl '));
      if (start < 0 || end < 0) return undefined;
      const url = (label: string) => lines.find((l) => l.startsWith(`  ${label}`))?.split(/\s+/).pop() ?? '';
      return {
        base_url: url('platform interface v2:'),
        ads_url: url('advertising interface:'),
        ads_sandbox_url: url('advertising sandbox:'),
        curl: lines[end].trim(),
        lines: lines.slice(start, end + 1),
      };
    });
  }

  /** The stdout lines that are not the banner, each parsed as JSON (it fails on one that is not). */
  logLines(banner: string[]): Array<Record<string, any>> {
    const skip = new Set(banner);
    // Complete lines only: the last piece is empty or still being written.
    return this.stdout
      .split('\n')
      .slice(0, -1)
      .filter((line) => line !== '' && !skip.has(line))
      .map((line) => {
        try {
          return JSON.parse(line) as Record<string, any>;
        } catch {
          return assert.fail(`a stdout line that is neither JSON nor the banner: ${line}`);
        }
      });
  }

  /** Sends `signal` and returns the exit and how long it took. */
  async stop(signal: NodeJS.Signals): Promise<Exit & { ms: number }> {
    const started = Date.now();
    this.child.kill(signal);
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still running 10 s after ${signal}\n${this.stdout}\n${this.stderr}`)), 10_000).unref());
    const exit = await Promise.race([this.exited, timeout]);
    return { ...exit, ms: Date.now() - started };
  }
}

const serveArgs = () => [
  '--port', '0', '--ads-port', '0', '--ads-sandbox-port', '0', '--proxy-port', '0',
  '--data-dir', dataDir, '--credentials-file', credentialsFile,
  ...(databaseUrl ? ['--db', databaseUrl] : []),
];

const portOf = (url: string) => Number(new URL(url).port);
const readCreds = () => JSON.parse(fs.readFileSync(credentialsFile, 'utf8')) as CredentialsFile;

/** True when nothing accepts connections on the port any more. */
function refused(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

const oauth1 = (creds: CredentialsFile, user: CredentialsFile['users'][number]) => ({
  consumer_key: creds.apps[0].consumer_key,
  consumer_secret: creds.apps[0].consumer_secret,
  token: user.access_token,
  token_secret: user.access_token_secret,
});

let first: Serve;
let firstBanner: Awaited<ReturnType<Serve['banner']>>;
let creds: CredentialsFile;

test('the first start on an empty store seeds the demo workspace and writes the credentials file exactly per the contract, with the real ports', async () => {
  assert.equal(fs.existsSync(credentialsFile), false);
  first = new Serve(serveArgs());
  firstBanner = await first.banner();
  creds = readCreds();

  assert.deepEqual(Object.keys(creds).sort(), ['admin_token', 'ads_sandbox_url', 'ads_url', 'apps', 'base_url', 'ca_file', 'node_preload', 'proxy_url', 'sample', 'users']);
  // The drop-in proxy (issue 35): its address, the certificate to trust, the Node preload; absolute paths.
  assert.match(creds.proxy_url!, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.ok(path.isAbsolute(creds.ca_file!) && fs.existsSync(creds.ca_file!), 'ca_file');
  assert.ok(path.isAbsolute(creds.node_preload!) && fs.existsSync(creds.node_preload!), 'node_preload');
  assert.equal(new Set([creds.base_url, creds.ads_url, creds.ads_sandbox_url, creds.proxy_url!].map(portOf)).size, 4);
  for (const key of ['base_url', 'ads_url', 'ads_sandbox_url'] as const) {
    assert.match(creds[key], /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(portOf(creds[key]) > 0, `${key} has a real port`);
    assert.equal(creds[key], firstBanner[key], `${key} is the printed one`);
  }
  assert.equal(new Set([creds.base_url, creds.ads_url, creds.ads_sandbox_url].map(portOf)).size, 3);

  assert.equal(creds.apps.length, 2);
  assert.equal(creds.apps[0].tier, 'pro');
  assert.equal(creds.apps[1].tier, 'enterprise');
  const appKeys = ['bearer_token', 'callback_urls', 'client_id', 'client_secret', 'consumer_key', 'consumer_secret', 'dialect', 'id', 'name', 'tier'];
  for (const app of creds.apps) {
    assert.deepEqual(Object.keys(app).sort(), appKeys);
    for (const key of appKeys.filter((k) => k !== 'callback_urls')) assert.ok(typeof (app as any)[key] === 'string' && (app as any)[key].length > 0, `app ${key}`);
    assert.ok(app.callback_urls.length > 0 && app.callback_urls.every((u) => typeof u === 'string'));
  }
  assert.notEqual(creds.apps[0].id, creds.apps[1].id);

  const userKeys = ['access_token', 'access_token_secret', 'ads_account_ids', 'id', 'oauth2_access_token', 'oauth2_refresh_token', 'password', 'tokens', 'username'];
  assert.ok(creds.users.length >= 3);
  for (const user of creds.users) {
    assert.deepEqual(Object.keys(user).sort(), userKeys);
    for (const key of userKeys.filter((k) => k !== 'ads_account_ids' && k !== 'tokens')) assert.ok(typeof (user as any)[key] === 'string' && (user as any)[key].length > 0, `user ${user.username} ${key}`);
    assert.ok(Array.isArray(user.ads_account_ids) && user.ads_account_ids.every((id) => typeof id === 'string'));
  }
  assert.deepEqual(Object.keys(creds.sample).sort(), ['media_keys', 'post_ids']);
  assert.ok(creds.sample.post_ids.length >= 3);
  assert.ok(creds.sample.media_keys.length >= 1);

  // The file holds every secret of the workspace: only its owner may read it.
  if (process.platform !== 'win32') assert.equal(fs.statSync(credentialsFile).mode & 0o777, 0o600);
});

test('sample.post_ids name at least one post with media attached, one reply and one quote', async () => {
  const res = await call(creds.base_url, `/2/posts?ids=${creds.sample.post_ids.join(',')}&post.fields=attachments,referenced_posts`, { auth: { bearer: creds.apps[0].bearer_token } });
  assert.equal(res.status, 200);
  const posts: Array<{ id: string; attachments?: { media_keys?: string[] }; referenced_posts?: Array<{ type: string }> }> = res.body.data;
  // Every sample post exists; one the app alone may not read (a protected author's) is withheld, not missing.
  const withheld: Array<{ resource_id: string; type: string }> = res.body.errors ?? [];
  assert.deepEqual([...posts.map((p) => p.id), ...withheld.map((e) => e.resource_id)].sort(), [...creds.sample.post_ids].sort());
  for (const e of withheld) assert.match(e.type, /not-authorized-for-resource$/);
  const withMedia = posts.filter((p) => (p.attachments?.media_keys ?? []).length > 0);
  assert.ok(withMedia.length >= 1, 'a post with media');
  assert.ok(withMedia.some((p) => p.attachments!.media_keys!.some((k) => creds.sample.media_keys.includes(k))), 'sample.media_keys are attached to a sample post');
  assert.ok(posts.some((p) => p.referenced_posts?.some((r) => r.type === 'replied_to')), 'a reply');
  assert.ok(posts.some((p) => p.referenced_posts?.some((r) => r.type === 'quoted')), 'a quote');
});

test('every user of the file exists, and among them are one with a paid subscription, one protected and one verified', async () => {
  const ids = creds.users.map((u) => u.id);
  const res = await call(creds.base_url, `/2/users?ids=${ids.join(',')}&user.fields=subscription_type,protected,verified`, { auth: { bearer: creds.apps[0].bearer_token } });
  assert.equal(res.status, 200);
  const users: Array<{ id: string; username: string; subscription_type?: string; protected?: boolean; verified?: boolean }> = res.body.data;
  assert.deepEqual(users.map((u) => u.id).sort(), [...ids].sort());
  for (const u of users) assert.equal(u.username, creds.users.find((c) => c.id === u.id)!.username);
  assert.ok(users.some((u) => u.subscription_type !== undefined && u.subscription_type !== 'None'), 'a paid subscription');
  assert.ok(users.some((u) => u.protected === true), 'a protected account');
  assert.ok(users.some((u) => u.verified === true), 'a verified account');
});

test("every user's OAuth 1.0a and OAuth 2.0 tokens in the file work, as that user, for apps[0]; both apps' bearer tokens work", async () => {
  const me = `${creds.base_url}/2/users/me`;
  for (const user of creds.users) {
    const viaOAuth2 = await call(creds.base_url, '/2/users/me', { auth: { bearer: user.oauth2_access_token } });
    assert.equal(viaOAuth2.status, 200, `${user.username} OAuth 2.0`);
    assert.equal(viaOAuth2.body.data.id, user.id);
    const viaOAuth1 = await call(creds.base_url, '/2/users/me', { headers: { authorization: oauth1Header(oauth1(creds, user), 'GET', me) } });
    assert.equal(viaOAuth1.status, 200, `${user.username} OAuth 1.0a`);
    assert.equal(viaOAuth1.body.data.id, user.id);
  }
  for (const app of creds.apps) {
    const res = await call(creds.base_url, `/2/posts/${creds.sample.post_ids[0]}`, { auth: { bearer: app.bearer_token } });
    assert.equal(res.status, 200, app.tier);
  }
});

test('it prints the three URLs, the drop-in proxy\'s and its certificate, and one curl line, and that exact line run by a shell prints a JSON body with data', async () => {
  assert.deepEqual(
    firstBanner.lines.filter((l) => /https?:\/\//.test(l) && !l.includes('curl')).map((l) => l.split(/\s+/).pop()),
    [creds.base_url, creds.ads_url, creds.ads_sandbox_url, creds.proxy_url],
  );
  assert.ok(firstBanner.lines.includes(`  proxy certificate:      ${creds.ca_file}`));
  assert.equal(first.stdout.split('\n').filter((l) => /^\s*curl /.test(l)).length, 1);
  const out = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
    const sh = spawn('sh', ['-c', firstBanner.curl], { stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    sh.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    sh.once('error', reject);
    sh.once('exit', (code) => resolve({ code, stdout }));
  });
  assert.equal(out.code, 0);
  const body = JSON.parse(out.stdout);
  assert.ok(body.data, `a body with data: ${out.stdout}`);
  assert.equal(body.data.id, creds.sample.post_ids[0]);
});

test('every listener answers GET /healthz 200; the platform answers GET /metrics in Prometheus text with per-route counts and latency histograms', async () => {
  for (const url of [creds.base_url, creds.ads_url, creds.ads_sandbox_url]) {
    const res = await call(url, '/healthz');
    assert.equal(res.status, 200, url);
    assert.deepEqual(res.body, { status: 'ok' });
  }
  assert.equal((await call(creds.base_url, `/2/posts/${creds.sample.post_ids[1]}`, { auth: { bearer: creds.apps[0].bearer_token } })).status, 200);
  const metrics = await call(creds.base_url, '/metrics');
  assert.equal(metrics.status, 200);
  assert.match(metrics.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  const lines = metrics.text.split('\n');
  const about = (name: string) => lines.filter((l) => l.startsWith(`${name}{`) && l.includes('listener="platform"') && l.includes('route="/2/posts/:id"'));
  assert.ok(about('plaza_http_requests_total').some((l) => l.includes('method="GET"') && l.includes('status="200"') && / [1-9]\d*$/.test(l)), 'a counter line for /2/posts/:id');
  assert.ok(about('plaza_http_request_duration_seconds_bucket').length > 1, 'histogram buckets for /2/posts/:id');
  assert.ok(about('plaza_http_request_duration_seconds_count').some((l) => / [1-9]\d*$/.test(l)));
  assert.ok(about('plaza_http_request_duration_seconds_sum').length === 1);
});

test('logs on stdout are JSON lines carrying the request id (reqId) that the response sends as x-request-id; Authorization header values never appear in them', async () => {
  const ada = creds.users[0];
  const secrets: string[] = [];
  const sent: string[] = [];
  const send = async (url: string, p: string, authorization: string) => {
    secrets.push(authorization);
    const res = await call(url, p, { headers: { authorization } });
    const id = res.headers.get('x-request-id');
    assert.ok(id, 'x-request-id');
    sent.push(id);
    return res;
  };
  await send(creds.base_url, `/2/posts/${creds.sample.post_ids[0]}`, `Bearer ${creds.apps[0].bearer_token}`);
  await send(creds.base_url, '/2/users/me', `Bearer ${ada.oauth2_access_token}`);
  const signed = oauth1Header(oauth1(creds, ada), 'GET', `${creds.base_url}/2/users/me`);
  await send(creds.base_url, '/2/users/me', signed);
  secrets.push(/oauth_signature="([^"]+)"/.exec(signed)![1]);
  // Refused ones are logged too (with the reason), still without the header.
  const bogus = `plaza-bogus-${crypto.randomBytes(8).toString('hex')}`;
  assert.equal((await send(creds.base_url, '/2/users/me', `Bearer ${bogus}`)).status, 401);
  secrets.push(bogus);
  const forged = signed.replace(/oauth_signature="[^"]+"/, 'oauth_signature="Zm9yZ2VkLXNpZ25hdHVyZQ%3D%3D"');
  assert.equal((await send(creds.base_url, '/2/users/me', forged)).status, 401);
  await send(creds.ads_url, '/12/accounts', oauth1Header(oauth1(creds, ada), 'GET', `${creds.ads_url}/12/accounts`));
  // A secret a client puts in the query string is redacted from the logged URL.
  const inQuery = `plaza-query-${crypto.randomBytes(8).toString('hex')}`;
  await send(creds.base_url, `/2/users/me?access_token=${inQuery}&code=${inQuery}`, `Bearer ${ada.oauth2_access_token}`);
  secrets.push(inQuery);
  secrets.push(creds.apps[0].bearer_token, ada.oauth2_access_token, ada.access_token_secret, creds.apps[0].consumer_secret);

  // Each request's "request completed" line arrives once its response is on the wire.
  const logs = await first.until('a completion line for each request', () => {
    const parsed = first.logLines(firstBanner.lines);
    return sent.every((id) => parsed.some((l) => l.reqId === id && l.msg === 'request completed')) ? parsed : undefined;
  });
  for (const line of logs) {
    assert.equal(typeof line.level, 'number');
    assert.equal(typeof line.time, 'number');
    assert.equal(typeof line.msg, 'string');
  }
  for (const id of sent) {
    const mine = logs.filter((l) => l.reqId === id);
    assert.ok(mine.some((l) => l.msg === 'incoming request' && typeof l.req?.url === 'string'), `incoming request ${id}`);
    assert.ok(mine.some((l) => l.msg === 'request completed' && typeof l.res?.statusCode === 'number'), `request completed ${id}`);
  }
  assert.ok(logs.some((l) => l.req?.url === '/2/users/me?access_token=[Redacted]&code=[Redacted]'), 'the query secret is logged redacted');
  const text = first.stdout.split('\n').filter((l) => l.startsWith('{')).join('\n') + first.stderr;
  for (const secret of secrets) assert.equal(text.includes(secret), false, `a secret in the logs: ${secret}`);
});

test('SIGTERM makes it exit with code 0 within 5 s, and its ports close', async () => {
  // A kept-alive idle connection must not hold shutdown up.
  await call(creds.base_url, '/healthz');
  const exit = await first.stop('SIGTERM');
  assert.deepEqual({ code: exit.code, signal: exit.signal }, { code: 0, signal: null }, first.stderr);
  assert.ok(exit.ms < 5000, `exited after ${exit.ms} ms`);
  for (const url of [creds.base_url, creds.ads_url, creds.ads_sandbox_url]) assert.equal(await refused(url), true, `${url} closed`);
  assert.equal(first.stderr, '');
});

let second: Serve;

test('a later start on the same store reuses it (same apps, users and sample posts; the tokens written before still work) and rewrites the file with the new ports', async () => {
  const before = creds;
  second = new Serve(serveArgs());
  const banner = await second.banner();
  const after = readCreds();

  for (const key of ['base_url', 'ads_url', 'ads_sandbox_url'] as const) {
    assert.equal(after[key], banner[key], `${key} is the new one`);
    assert.ok(portOf(after[key]) > 0);
  }
  assert.deepEqual(after.apps.map((a) => [a.id, a.tier]), before.apps.map((a) => [a.id, a.tier]));
  assert.deepEqual(after.users.map((u) => [u.id, u.username]), before.users.map((u) => [u.id, u.username]));
  assert.deepEqual(after.sample, before.sample);
  // Nothing in the file changed but the URLs: the same secrets, each still working.
  assert.deepEqual({ ...after, base_url: '', ads_url: '', ads_sandbox_url: '', proxy_url: '' }, { ...before, base_url: '', ads_url: '', ads_sandbox_url: '', proxy_url: '' });

  const me = `${after.base_url}/2/users/me`;
  for (const user of after.users) {
    const viaOAuth2 = await call(after.base_url, '/2/users/me', { auth: { bearer: user.oauth2_access_token } });
    assert.equal(viaOAuth2.status, 200, `${user.username} OAuth 2.0`);
    assert.equal(viaOAuth2.body.data.id, user.id);
    const viaOAuth1 = await call(after.base_url, '/2/users/me', { headers: { authorization: oauth1Header(oauth1(after, user), 'GET', me) } });
    assert.equal(viaOAuth1.status, 200, `${user.username} OAuth 1.0a`);
    assert.equal(viaOAuth1.body.data.id, user.id);
  }
  for (const app of after.apps) assert.equal((await call(after.base_url, `/2/posts/${after.sample.post_ids[0]}`, { auth: { bearer: app.bearer_token } })).status, 200);
  // The refresh token written before is live too: it buys a new pair.
  const ada = after.users[0];
  const refreshed = await call(after.base_url, '/2/oauth2/token', {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${after.apps[0].client_id}:${after.apps[0].client_secret}`).toString('base64')}` },
    form: { grant_type: 'refresh_token', refresh_token: ada.oauth2_refresh_token },
  });
  assert.equal(refreshed.status, 200, refreshed.text);
  assert.equal(typeof refreshed.body.access_token, 'string');
});

test('SIGINT makes it exit with code 0 within 5 s, and its ports close', async () => {
  const urls = readCreds();
  const exit = await second.stop('SIGINT');
  assert.deepEqual({ code: exit.code, signal: exit.signal }, { code: 0, signal: null }, second.stderr);
  assert.ok(exit.ms < 5000, `exited after ${exit.ms} ms`);
  for (const url of [urls.base_url, urls.ads_url, urls.ads_sandbox_url]) assert.equal(await refused(url), true, `${url} closed`);
});

test('bad flags (--port abc, --port 70000) exit non-zero with a message naming the flag and value, and start nothing', async () => {
  const cases = ['abc', '70000'].map((value) => {
    const dir = path.join(root, `bad-${value}`);
    const serve = new Serve(['--port', value, '--ads-port', '0', '--ads-sandbox-port', '0', '--proxy-port', '0', '--data-dir', dir, '--credentials-file', path.join(dir, 'creds.json'), ...(databaseUrl ? ['--db', databaseUrl] : [])]);
    return { value, dir, serve };
  });
  for (const { value, dir, serve } of cases) {
    const exit = await serve.exited;
    assert.notEqual(exit.code, 0, `--port ${value}`);
    assert.equal(exit.signal, null);
    assert.match(serve.stderr, new RegExp(`--port.*'${value}'.*expected a port from 0 to 65535`));
    assert.equal(serve.stdout, '', 'nothing logged or printed');
    assert.equal(fs.existsSync(dir), false, 'no data folder, store or credentials file');
  }
});

