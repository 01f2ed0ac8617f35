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
}

export interface ConfigOverrides extends Partial<Config> {}

export const DEFAULT_PROBLEM_BASE = 'https://api.twitter.com/2/problems';

/** Builds the one Config from flags (already parsed) and the environment, flags winning. */
export function loadConfig(flags: ConfigOverrides = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = flags.dataDir ?? env.PLAZA_DATA_DIR ?? path.resolve('data');
  const config: Config = {
    host: flags.host ?? env.PLAZA_HOST ?? '127.0.0.1',
    port: flags.port ?? intFrom(env.PLAZA_PORT, 8080),
    adsPort: flags.adsPort ?? intFrom(env.PLAZA_ADS_PORT, 8081),
    adsSandboxPort: flags.adsSandboxPort ?? intFrom(env.PLAZA_ADS_SANDBOX_PORT, 8082),
    databaseUrl: flags.databaseUrl ?? env.DATABASE_URL ?? path.join(dataDir, 'plaza.sqlite'),
    dataDir,
    credentialsFile: flags.credentialsFile ?? env.PLAZA_CREDENTIALS_FILE ?? path.join(dataDir, 'credentials.json'),
    problemBase: flags.problemBase ?? env.PLAZA_PROBLEM_BASE ?? DEFAULT_PROBLEM_BASE,
    development: flags.development ?? env.PLAZA_DEVELOPMENT !== 'false',
    oauthTimestampWindowSeconds: flags.oauthTimestampWindowSeconds ?? intFrom(env.PLAZA_OAUTH_WINDOW_SECONDS, 900),
    crcTimeoutMs: flags.crcTimeoutMs ?? intFrom(env.PLAZA_CRC_TIMEOUT_MS, 3000),
    logLevel: flags.logLevel ?? env.LOG_LEVEL ?? 'info',
    redisUrl: flags.redisUrl ?? env.REDIS_URL,
    seedDemo: flags.seedDemo ?? env.PLAZA_SEED_DEMO !== 'false',
    secretFile: flags.secretFile ?? env.PLAZA_SECRET_FILE ?? path.join(dataDir, 'server-secret'),
    oauthRateLimit: flags.oauthRateLimit ?? intFrom(env.PLAZA_OAUTH_RATE_LIMIT, 450),
  };
  return config;
}

function intFrom(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`expected a whole number, got "${value}"`);
  return n;
}
