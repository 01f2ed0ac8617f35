import { parseTrustedProxies } from './http/trusted-proxies.js';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** Everything Plaza needs to know from flags and the environment, in one typed object. */
export interface Config {
  host: string;
  port: number;
  adsPort: number;
  adsSandboxPort: number;
  /** The drop-in proxy's port (src/proxy/): CONNECT for the public platform's hosts, answered by Plaza. */
  proxyPort: number;
  /** A SQLite file path, ":memory:", or a postgres:// URL. */
  databaseUrl: string;
  dataDir: string;
  credentialsFile: string;
  /** Base of Problem `type` URIs: `{problemBase}/<name>`. */
  problemBase: string;
  /** Development mode lets plain-http callbacks and webhook URLs with ports through (the local demo). */
  development: boolean;
  /** Accepted skew of oauth_timestamp, in seconds, either way. */
  oauthTimestampWindowSeconds: number;
  /** How long a webhook CRC request may take, in milliseconds. */
  crcTimeoutMs: number;
  /** How long a webhook delivery may take before it counts as failed, in milliseconds (the reference's 10 s). */
  webhookTimeoutMs: number;
  /** Activity stream: the most time between two keep-alives (spec: at least every 20 s), in milliseconds. */
  activityKeepAliveMs: number;
  /** Activity stream: open connections one app may hold on one process. */
  activityStreamConnections: number;
  /** Activity stream: bytes a connection may have waiting for a reader before it is cut (SlowReader). */
  activityStreamBufferBytes: number;
  /** Activity stream: how often the event log is read when no wake-up came (the bus's safety net), in milliseconds. */
  activityPollMs: number;
  /** Filtered stream: rules an enterprise app may hold ("25,000 and more"; self-serve apps hold 1,000). */
  enterpriseStreamRules: number;
  /** Concurrent connections one self-serve (pay-per-use) app may hold to each persistent stream endpoint, across processes. */
  streamConnectionsSelfServe: number;
  /** Concurrent connections one enterprise app may hold to each persistent stream endpoint (each partition counted apart), across processes. */
  streamConnectionsEnterprise: number;
  /** An open connection record not refreshed for this long belongs to a process that died: it no longer counts, in milliseconds. */
  streamConnectionStaleMs: number;
  logLevel: string;
  redisUrl?: string;
  /** Seed the demo workspace into an empty store on start. */
  seedDemo: boolean;
  /** Serve the admin interface (/admin/... on the platform listener, opened by the admin token); --no-admin turns it off. */
  admin: boolean;
  /**
   * The server secret's file, when the operator names one (mode 0600, made on first start): it signs
   * cookies and CSRF tokens and derives app-only bearer tokens and the admin token. Processes that
   * share a store must then share this file. Named by no one, the secret is kept in the store
   * (made by the first process; src/auth/flows/server-secret.ts), and this path is only where an
   * older Plaza kept it, taken into the store once.
   */
  secretFile: string;
  /** Whether the operator named the secret file (then it is used; otherwise the secret is kept in the store). */
  secretFileConfigured: boolean;
  /** Requests per 15-minute window allowed to each OAuth step and sign-in page, per app or per client address. */
  oauthRateLimit: number;
  /** The platform interface's per-app and per-user rate limits (src/platform/rate-limits/): the public platform's published figures, or off. */
  platformRateLimits: 'published' | 'off';
  /** When set, /metrics answers anyone sending `Authorization: Bearer <token>`; unset, it answers loopback clients only. */
  metricsToken?: string;
  /** How long a client may take to send a request's headers, in milliseconds (slow-header clients are cut). */
  headersTimeoutMs: number;
  /** How long a client may take to send a whole request, in milliseconds. */
  requestTimeoutMs: number;
  /** Open connections one client address may hold on each listener; more are closed at once. */
  maxConnectionsPerAddress: number;
  /** Addresses and CIDR blocks of the proxies whose X-Forwarded-For is believed (src/http/trusted-proxies.ts); none by default. */
  trustProxy: string[];
  /**
   * The addresses clients reach the listeners at when that is not the process's own (a load
   * balancer's): written in the credentials file, printed, and the base of the demo's media URLs.
   */
  publicUrls: { platform?: string; ads?: string; adsSandbox?: string };
  /** How long the rest of a refused (413) body is read and dropped before the connection is closed, in milliseconds. */
  lingerMs: number;
  /** Bytes of log lines that may wait for a slow stdout reader before further lines are dropped (and counted). */
  logBufferBytes: number;
  /** On SIGTERM: how long the process answers /readyz 503 while still serving, so a load balancer stops sending to it, before it closes. */
  drainMs: number;
  /**
   * An S3-compatible bucket for media bytes, `s3://<bucket>[/<prefix>]` (src/platform/media/bucket.ts):
   * every process behind a balancer reaches it. Unset, media live in the store (PostgreSQL) or the
   * data directory (SQLite).
   */
  mediaBucket?: string;
  /** The bucket's store when it is not AWS's own (MinIO, Ceph, R2...): its http(s) address. */
  mediaEndpoint?: string;
  /** The bucket's region (AWS_REGION); us-east-1 when unset, which S3-compatible stores accept. */
  mediaRegion: string;
  /** How long a world other than the default one may go without a request before it is closed (reopened on the next), in milliseconds. */
  worldIdleMs: number;
}

export interface ConfigOverrides extends Partial<Config> {}

export const DEFAULT_PROBLEM_BASE = 'https://api.twitter.com/2/problems';

/** Builds the one Config from flags (already parsed) and the environment, flags winning. */
export function loadConfig(flags: ConfigOverrides = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = flags.dataDir ?? env.PLAZA_DATA_DIR ?? path.resolve('data');
  const host = flags.host ?? env.PLAZA_HOST ?? '127.0.0.1';
  const config: Config = {
    host,
    port: flags.port ?? intFrom(env.PLAZA_PORT, 8080),
    adsPort: flags.adsPort ?? intFrom(env.PLAZA_ADS_PORT, 8081),
    adsSandboxPort: flags.adsSandboxPort ?? intFrom(env.PLAZA_ADS_SANDBOX_PORT, 8082),
    proxyPort: flags.proxyPort ?? intFrom(env.PLAZA_PROXY_PORT, 8083),
    databaseUrl: flags.databaseUrl ?? env.DATABASE_URL ?? path.join(dataDir, 'plaza.sqlite'),
    dataDir,
    credentialsFile: flags.credentialsFile ?? env.PLAZA_CREDENTIALS_FILE ?? path.join(dataDir, 'credentials.json'),
    // Written as the base of '<base>/<name>': a trailing slash is not doubled.
    problemBase: (flags.problemBase ?? env.PLAZA_PROBLEM_BASE ?? DEFAULT_PROBLEM_BASE).replace(/\/+$/, ''),
    // Development mode opens webhooks and OAuth steps to plain http and local addresses: the
    // default only while Plaza listens on loopback; elsewhere it must be asked for explicitly.
    development: flags.development ?? (env.PLAZA_DEVELOPMENT !== undefined && env.PLAZA_DEVELOPMENT !== '' ? env.PLAZA_DEVELOPMENT !== 'false' : isLoopbackHost(host)),
    oauthTimestampWindowSeconds: flags.oauthTimestampWindowSeconds ?? intFrom(env.PLAZA_OAUTH_WINDOW_SECONDS, 900),
    crcTimeoutMs: flags.crcTimeoutMs ?? intFrom(env.PLAZA_CRC_TIMEOUT_MS, 3000),
    webhookTimeoutMs: flags.webhookTimeoutMs ?? intFrom(env.PLAZA_WEBHOOK_TIMEOUT_MS, 10_000),
    activityKeepAliveMs: flags.activityKeepAliveMs ?? intFrom(env.PLAZA_ACTIVITY_KEEPALIVE_MS, 15_000),
    activityStreamConnections: flags.activityStreamConnections ?? intFrom(env.PLAZA_ACTIVITY_STREAM_CONNECTIONS, 10),
    activityStreamBufferBytes: flags.activityStreamBufferBytes ?? intFrom(env.PLAZA_ACTIVITY_STREAM_BUFFER_BYTES, 4 * 1024 * 1024),
    activityPollMs: flags.activityPollMs ?? intFrom(env.PLAZA_ACTIVITY_POLL_MS, 1_000),
    enterpriseStreamRules: flags.enterpriseStreamRules ?? intFrom(env.PLAZA_ENTERPRISE_STREAM_RULES, 25_000),
    streamConnectionsSelfServe: flags.streamConnectionsSelfServe ?? intFrom(env.PLAZA_STREAM_CONNECTIONS_SELF_SERVE, 1),
    streamConnectionsEnterprise: flags.streamConnectionsEnterprise ?? intFrom(env.PLAZA_STREAM_CONNECTIONS_ENTERPRISE, 2),
    streamConnectionStaleMs: flags.streamConnectionStaleMs ?? intFrom(env.PLAZA_STREAM_CONNECTION_STALE_MS, 10_000),
    logLevel: flags.logLevel ?? env.LOG_LEVEL ?? 'info',
    redisUrl: flags.redisUrl ?? env.REDIS_URL,
    seedDemo: flags.seedDemo ?? env.PLAZA_SEED_DEMO !== 'false',
    admin: flags.admin ?? env.PLAZA_ADMIN !== 'false',
    secretFile: flags.secretFile ?? env.PLAZA_SECRET_FILE ?? path.join(dataDir, 'server-secret'),
    secretFileConfigured: (flags.secretFile ?? env.PLAZA_SECRET_FILE) !== undefined,
    oauthRateLimit: flags.oauthRateLimit ?? intFrom(env.PLAZA_OAUTH_RATE_LIMIT, 450),
    platformRateLimits: flags.platformRateLimits ?? (env.PLAZA_RATE_LIMITS === 'off' ? 'off' : 'published'),
    metricsToken: flags.metricsToken ?? (env.PLAZA_METRICS_TOKEN || undefined),
    headersTimeoutMs: flags.headersTimeoutMs ?? intFrom(env.PLAZA_HEADERS_TIMEOUT_MS, 10_000),
    requestTimeoutMs: flags.requestTimeoutMs ?? intFrom(env.PLAZA_REQUEST_TIMEOUT_MS, 60_000),
    lingerMs: flags.lingerMs ?? intFrom(env.PLAZA_LINGER_MS, 10_000),
    maxConnectionsPerAddress: flags.maxConnectionsPerAddress ?? intFrom(env.PLAZA_MAX_CONNECTIONS_PER_ADDRESS, 256),
    trustProxy: flags.trustProxy ?? (env.PLAZA_TRUST_PROXY ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    publicUrls: {
      platform: withoutSlash(flags.publicUrls?.platform ?? (env.PLAZA_PUBLIC_URL || undefined)),
      ads: withoutSlash(flags.publicUrls?.ads ?? (env.PLAZA_PUBLIC_ADS_URL || undefined)),
      adsSandbox: withoutSlash(flags.publicUrls?.adsSandbox ?? (env.PLAZA_PUBLIC_ADS_SANDBOX_URL || undefined)),
    },
    logBufferBytes: flags.logBufferBytes ?? intFrom(env.PLAZA_LOG_BUFFER_BYTES, 8 * 1024 * 1024),
    worldIdleMs: flags.worldIdleMs ?? intFrom(env.PLAZA_WORLD_IDLE_MS, 5 * 60_000),
    drainMs: flags.drainMs ?? intFrom(env.PLAZA_DRAIN_MS, 3_000),
    mediaBucket: flags.mediaBucket ?? (env.PLAZA_MEDIA_BUCKET || undefined),
    mediaEndpoint: withoutSlash(flags.mediaEndpoint ?? (env.PLAZA_MEDIA_ENDPOINT || undefined)),
    mediaRegion: flags.mediaRegion ?? (env.AWS_REGION || 'us-east-1'),
  };
  return config;
}

/** Loopback listen addresses: 127.0.0.0/8, ::1 and the name localhost. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || /^::ffff:127\./.test(h);
}

function intFrom(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`expected a whole number, got "${value}"`);
  return n;
}

/** A start-up check that failed: one line naming what and where. */
export class StartupError extends Error {}

/**
 * What `plaza serve` checks before it writes anything (the store, the server secret, the
 * credentials file, uploads): the folders it will write to are writable, the store opens, and
 * the ports are free. Each failure is one line naming the path, URL or port.
 */
export async function checkStartable(config: Config): Promise<void> {
  const sqlite = !/^postgres(ql)?:\/\//.test(config.databaseUrl);
  const folders: Array<[string, string]> = [[config.dataDir, 'the data directory (--data-dir, PLAZA_DATA_DIR)']];
  if (sqlite && config.databaseUrl !== ':memory:') folders.push([path.dirname(path.resolve(config.databaseUrl)), `the folder of the SQLite store ${config.databaseUrl} (--db, DATABASE_URL)`]);
  if (config.seedDemo) folders.push([path.dirname(path.resolve(config.credentialsFile)), `the folder of the credentials file ${config.credentialsFile} (--credentials-file, PLAZA_CREDENTIALS_FILE)`]);
  if (config.secretFileConfigured && !fs.existsSync(config.secretFile)) folders.push([path.dirname(path.resolve(config.secretFile)), `the folder of the server secret ${config.secretFile} (PLAZA_SECRET_FILE)`]);
  for (const [folder, what] of folders) checkWritableFolder(path.resolve(folder), what);
  if (fs.existsSync(config.secretFile)) {
    try {
      fs.accessSync(config.secretFile, fs.constants.R_OK);
    } catch (err) {
      throw new StartupError(`cannot read the server secret ${config.secretFile}: ${(err as NodeJS.ErrnoException).code}`);
    }
  }
  for (const [key, what] of Object.entries(PUBLIC_URL_FLAGS) as Array<[keyof Config['publicUrls'], string]>) {
    const url = config.publicUrls[key];
    if (url !== undefined && !isBaseUrl(url)) throw new StartupError(`${what} must be an http:// or https:// address with no path, query or fragment (e.g. https://plaza.example.com), got ${JSON.stringify(url.slice(0, 200))}`);
  }
  try {
    parseTrustedProxies(config.trustProxy);
  } catch (err) {
    throw new StartupError((err as Error).message);
  }
  await checkPortsFree(config);
  if (sqlite) await checkSqliteOpens(config.databaseUrl);
  else await checkPostgresOpens(config.databaseUrl);
  await checkBucketOpens(config);
}

/** The media bucket, when one is named, is a well-formed s3:// URL on a reachable store that these credentials may read. */
async function checkBucketOpens(config: Config): Promise<void> {
  if (config.mediaBucket === undefined) {
    if (config.mediaEndpoint !== undefined) throw new StartupError('--media-endpoint (PLAZA_MEDIA_ENDPOINT) names a store for --media-bucket (PLAZA_MEDIA_BUCKET), which is not set');
    return;
  }
  if (config.mediaEndpoint !== undefined && !isBaseUrl(config.mediaEndpoint)) {
    throw new StartupError(`--media-endpoint (PLAZA_MEDIA_ENDPOINT) must be an http:// or https:// address with no path, query or fragment (e.g. http://127.0.0.1:9000), got ${JSON.stringify(config.mediaEndpoint.slice(0, 200))}`);
  }
  const { MediaBucket, MediaStoreUnreachable, parseBucketUrl } = await import('./platform/media/bucket.js');
  try {
    parseBucketUrl(config.mediaBucket);
  } catch (err) {
    throw new StartupError(`--media-bucket (PLAZA_MEDIA_BUCKET) ${(err as Error).message}`);
  }
  const bucket = new MediaBucket({ url: config.mediaBucket, endpoint: config.mediaEndpoint, region: config.mediaRegion });
  try {
    await bucket.reachable();
  } catch (err) {
    const where = config.mediaEndpoint ? ` at ${config.mediaEndpoint}` : '';
    const why = err instanceof MediaStoreUnreachable ? err.why : (err as Error).message;
    throw new StartupError(`cannot open the media bucket ${config.mediaBucket}${where} (--media-bucket, PLAZA_MEDIA_BUCKET): ${why}`);
  } finally {
    await bucket.close();
  }
}

const PUBLIC_URL_FLAGS = { platform: '--public-url (PLAZA_PUBLIC_URL)', ads: '--public-ads-url (PLAZA_PUBLIC_ADS_URL)', adsSandbox: '--public-ads-sandbox-url (PLAZA_PUBLIC_ADS_SANDBOX_URL)' } as const;

const withoutSlash = (url: string | undefined) => url?.replace(/\/+$/, '');

function isBaseUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && (url.pathname === '/' || url.pathname === '') && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** The folder, or the nearest existing folder above it (where it would be created), takes a new file. */
function checkWritableFolder(folder: string, what: string): void {
  let existing = folder;
  while (!fs.existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  const stat = fs.statSync(existing);
  if (!stat.isDirectory()) throw new StartupError(`${what} ${folder} cannot be created: ${existing} is a file, not a folder`);
  // A probe file, not access(2): it also catches read-only file systems, and root's permissions.
  const probe = path.join(existing, `.plaza-write-check-${process.pid}`);
  try {
    fs.writeFileSync(probe, '');
    fs.rmSync(probe, { force: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new StartupError(`${what} ${folder} is not writable (${code} on ${existing}): pick a writable one`);
  }
}

const PORT_FLAGS = { port: '--port, PLAZA_PORT', adsPort: '--ads-port, PLAZA_ADS_PORT', adsSandboxPort: '--ads-sandbox-port, PLAZA_ADS_SANDBOX_PORT', proxyPort: '--proxy-port, PLAZA_PROXY_PORT' } as const;

/** Each fixed port is distinct and free on the listen address (port 0 always is). */
async function checkPortsFree(config: Config): Promise<void> {
  const seen = new Map<number, string>();
  for (const key of Object.keys(PORT_FLAGS) as Array<keyof typeof PORT_FLAGS>) {
    const port = config[key];
    if (port === 0) continue;
    const other = seen.get(port);
    if (other) throw new StartupError(`cannot listen on ${config.host}:${port} twice (${other} and ${PORT_FLAGS[key]}): give each interface its own port`);
    seen.set(port, PORT_FLAGS[key]);
    await new Promise<void>((resolve, reject) => {
      const server = net.createServer();
      server.once('error', (err: NodeJS.ErrnoException) => {
        const why = err.code === 'EADDRINUSE' ? 'the port is already in use' : err.code === 'EACCES' ? 'permission denied' : err.code ?? err.message;
        reject(new StartupError(`cannot listen on ${config.host}:${port} (${PORT_FLAGS[key]}): ${why}; pick another port, or 0 for a free one`));
      });
      server.listen({ host: config.host, port, exclusive: true }, () => server.close(() => resolve()));
    });
  }
}

/** An existing SQLite file opens read-only and is a database; a missing one will be created in a writable folder. */
async function checkSqliteOpens(file: string): Promise<void> {
  if (file === ':memory:' || !fs.existsSync(file)) return;
  const { default: SQLite } = await import('better-sqlite3');
  try {
    const db = new SQLite(file, { readonly: true, fileMustExist: true });
    try {
      db.pragma('schema_version');
    } finally {
      db.close();
    }
  } catch (err) {
    throw new StartupError(`cannot open the SQLite store ${path.resolve(file)}: ${(err as Error).message}`);
  }
}

/** The PostgreSQL server answers a query; the URL is shown without its password. */
async function checkPostgresOpens(url: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (err) {
    const e = err as Error & { code?: string };
    const why = e instanceof AggregateError && !e.message ? e.errors.map((x: Error) => x.message).join('; ') : e.message;
    throw new StartupError(`cannot open the PostgreSQL store ${redactUrl(url)}: ${why || e.code}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}

/**
 * Every environment variable `loadConfig` reads, with its default and meaning: the one list that
 * `plaza --help`, each subcommand's help and the README's table are checked against (a test greps
 * this file for `env.` names and fails on one missing here).
 */
export const ENVIRONMENT: ReadonlyArray<{ name: string; default: string; what: string }> = [
  { name: 'DATABASE_URL', default: './data/plaza.sqlite', what: 'a SQLite file path or a postgres:// URL (--db wins)' },
  { name: 'REDIS_URL', default: 'unset', what: 'Redis for several processes: shared streams, wake-ups and webhook work' },
  { name: 'LOG_LEVEL', default: 'info', what: 'pino level: fatal, error, warn, info, debug, trace, silent' },
  { name: 'PLAZA_HOST', default: '127.0.0.1', what: 'address to listen on (--host wins)' },
  { name: 'PLAZA_PORT', default: '8080', what: 'platform interface port (--port wins; 0 picks a free one)' },
  { name: 'PLAZA_ADS_PORT', default: '8081', what: 'advertising interface port (--ads-port wins)' },
  { name: 'PLAZA_ADS_SANDBOX_PORT', default: '8082', what: 'advertising sandbox port (--ads-sandbox-port wins)' },
  { name: 'PLAZA_PROXY_PORT', default: '8083', what: 'the drop-in proxy for api.x.com and the other public hosts (--proxy-port wins)' },
  { name: 'PLAZA_DATA_DIR', default: './data', what: 'the SQLite store, uploads, server secret and credentials file (--data-dir wins)' },
  { name: 'PLAZA_CREDENTIALS_FILE', default: '<data dir>/credentials.json', what: 'where the demo credentials are written (--credentials-file wins)' },
  { name: 'PLAZA_SECRET_FILE', default: '(kept in the store)', what: 'a file for the server secret instead of the store (created on first start); processes sharing a store must then share it' },
  { name: 'PLAZA_SEED_DEMO', default: 'true', what: '"false" starts without the demo workspace (as --no-seed)' },
  { name: 'PLAZA_ADMIN', default: 'true', what: '"false" turns the admin interface (/admin/...) off (as --no-admin)' },
  { name: 'PLAZA_DEVELOPMENT', default: 'true on loopback', what: 'plain-http OAuth steps and local webhook URLs; "false" enforces HTTPS and public hosts' },
  { name: 'PLAZA_PROBLEM_BASE', default: 'https://api.twitter.com/2/problems', what: 'base of Problem type URIs' },
  { name: 'PLAZA_OAUTH_WINDOW_SECONDS', default: '900', what: 'accepted skew of oauth_timestamp, either way' },
  { name: 'PLAZA_OAUTH_RATE_LIMIT', default: '450', what: 'requests per 15 minutes to each OAuth step and sign-in page, per app or address' },
  { name: 'PLAZA_RATE_LIMITS', default: 'published', what: '"off" turns off the per-app and per-user limits of the /2/ operations' },
  { name: 'PLAZA_CRC_TIMEOUT_MS', default: '3000', what: 'how long a webhook CRC check may take' },
  { name: 'PLAZA_WEBHOOK_TIMEOUT_MS', default: '10000', what: 'how long a webhook delivery may take before it counts as failed' },
  { name: 'PLAZA_ACTIVITY_KEEPALIVE_MS', default: '15000', what: 'activity stream: most time between keep-alives' },
  { name: 'PLAZA_ACTIVITY_STREAM_CONNECTIONS', default: '10', what: 'activity stream: connections one app may hold per process' },
  { name: 'PLAZA_ACTIVITY_STREAM_BUFFER_BYTES', default: '4194304', what: 'stream bytes waiting for a slow reader before it is cut' },
  { name: 'PLAZA_ACTIVITY_POLL_MS', default: '1000', what: 'how often the event log is read when no wake-up came' },
  { name: 'PLAZA_ENTERPRISE_STREAM_RULES', default: '25000', what: 'filtered-stream rules an enterprise app may hold' },
  { name: 'PLAZA_STREAM_CONNECTIONS_SELF_SERVE', default: '1', what: 'connections a self-serve app may hold to each stream, across processes' },
  { name: 'PLAZA_STREAM_CONNECTIONS_ENTERPRISE', default: '2', what: 'connections an enterprise app may hold to each stream, across processes' },
  { name: 'PLAZA_STREAM_CONNECTION_STALE_MS', default: '10000', what: 'a stream connection is a lease its process renews every third of this; one not renewed this long (its process died) no longer counts' },
  { name: 'PLAZA_METRICS_TOKEN', default: 'unset', what: 'unset: /metrics answers loopback only; set: anyone sending it as a bearer token' },
  { name: 'PLAZA_HEADERS_TIMEOUT_MS', default: '10000', what: 'time a client may take to send request headers' },
  { name: 'PLAZA_REQUEST_TIMEOUT_MS', default: '60000', what: 'time a client may take to send a whole request' },
  { name: 'PLAZA_LINGER_MS', default: '10000', what: 'how long the rest of a body refused with 413 is read (up to 64 MB) before the connection closes' },
  { name: 'PLAZA_MAX_CONNECTIONS_PER_ADDRESS', default: '256', what: 'open connections per client address on each listener' },
  { name: 'PLAZA_TRUST_PROXY', default: 'unset', what: 'addresses and CIDR blocks of balancers whose X-Forwarded-For names the client (comma-separated)' },
  { name: 'PLAZA_PUBLIC_URL', default: 'unset', what: "the platform interface's address as clients reach it (a load balancer's): credentials files, printed links, media URLs" },
  { name: 'PLAZA_PUBLIC_ADS_URL', default: 'unset', what: "the advertising interface's address as clients reach it" },
  { name: 'PLAZA_PUBLIC_ADS_SANDBOX_URL', default: 'unset', what: "the advertising sandbox's address as clients reach it" },
  { name: 'PLAZA_LOG_BUFFER_BYTES', default: '8388608', what: 'log bytes waiting for a slow stdout before lines are dropped (and counted)' },
  { name: 'PLAZA_DRAIN_MS', default: '3000', what: 'on SIGTERM, how long /readyz answers 503 while requests are still served, before the process closes' },
  { name: 'PLAZA_MEDIA_BUCKET', default: 'unset', what: 'an S3-compatible bucket for media bytes, s3://<bucket>[/<prefix>] (--media-bucket wins); credentials from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY' },
  { name: 'PLAZA_MEDIA_ENDPOINT', default: 'AWS', what: "the bucket's store when it is not AWS: MinIO, Ceph, R2... (--media-endpoint wins)" },
  { name: 'AWS_REGION', default: 'us-east-1', what: "the media bucket's region" },
  { name: 'PLAZA_WORLD_IDLE_MS', default: '300000', what: 'a world other than the default one is closed after this long without a request (reopened on the next)' },
];

/** The "Environment:" part of a command's --help, for the named variables (all of them by default). */
export function environmentHelp(names?: readonly string[]): string {
  const rows = names ? ENVIRONMENT.filter((e) => names.includes(e.name)) : ENVIRONMENT;
  const width = Math.max(...rows.map((e) => e.name.length));
  return `\nEnvironment:\n${rows.map((e) => `  ${e.name.padEnd(width)}  ${e.what} (default: ${e.default})`).join('\n')}\n`;
}
