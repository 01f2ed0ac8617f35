import path from 'node:path';

/** Everything Plaza needs to know from flags and the environment, in one typed object. */
export interface Config {
  host: string;
  port: number;
  adsPort: number;
  adsSandboxPort: number;
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
  /**
   * The server secret (created on first start, mode 0600): signs cookies and CSRF tokens and derives
   * app-only bearer tokens, so the store itself never holds a usable token. Processes that share a
   * store must share this file.
   */
  secretFile: string;
  /** Requests per 15-minute window allowed to each OAuth step and sign-in page, per app or per client address. */
  oauthRateLimit: number;
  /** When set, /metrics answers anyone sending `Authorization: Bearer <token>`; unset, it answers loopback clients only. */
  metricsToken?: string;
  /** How long a client may take to send a request's headers, in milliseconds (slow-header clients are cut). */
  headersTimeoutMs: number;
  /** How long a client may take to send a whole request, in milliseconds. */
  requestTimeoutMs: number;
  /** Open connections one client address may hold on each listener; more are closed at once. */
  maxConnectionsPerAddress: number;
  /** Bytes of log lines that may wait for a slow stdout reader before further lines are dropped (and counted). */
  logBufferBytes: number;
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
    databaseUrl: flags.databaseUrl ?? env.DATABASE_URL ?? path.join(dataDir, 'plaza.sqlite'),
    dataDir,
    credentialsFile: flags.credentialsFile ?? env.PLAZA_CREDENTIALS_FILE ?? path.join(dataDir, 'credentials.json'),
    problemBase: flags.problemBase ?? env.PLAZA_PROBLEM_BASE ?? DEFAULT_PROBLEM_BASE,
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
    streamConnectionStaleMs: flags.streamConnectionStaleMs ?? intFrom(env.PLAZA_STREAM_CONNECTION_STALE_MS, 60_000),
    logLevel: flags.logLevel ?? env.LOG_LEVEL ?? 'info',
    redisUrl: flags.redisUrl ?? env.REDIS_URL,
    seedDemo: flags.seedDemo ?? env.PLAZA_SEED_DEMO !== 'false',
    secretFile: flags.secretFile ?? env.PLAZA_SECRET_FILE ?? path.join(dataDir, 'server-secret'),
    oauthRateLimit: flags.oauthRateLimit ?? intFrom(env.PLAZA_OAUTH_RATE_LIMIT, 450),
    metricsToken: flags.metricsToken ?? (env.PLAZA_METRICS_TOKEN || undefined),
    headersTimeoutMs: flags.headersTimeoutMs ?? intFrom(env.PLAZA_HEADERS_TIMEOUT_MS, 10_000),
    requestTimeoutMs: flags.requestTimeoutMs ?? intFrom(env.PLAZA_REQUEST_TIMEOUT_MS, 60_000),
    maxConnectionsPerAddress: flags.maxConnectionsPerAddress ?? intFrom(env.PLAZA_MAX_CONNECTIONS_PER_ADDRESS, 256),
    logBufferBytes: flags.logBufferBytes ?? intFrom(env.PLAZA_LOG_BUFFER_BYTES, 8 * 1024 * 1024),
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
