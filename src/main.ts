import fs from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import { addAdminCommands } from './admin/cli.js';
import { addProxyCommands } from './proxy/cli.js';
import { addWorldCommands } from './worlds/cli.js';
import type { Plaza } from './app.js';
import { environmentHelp, loadConfig, StartupError, type Config, type ConfigOverrides } from './config.js';

/** A TCP port: digits only (no "", "1e3", "0x50" or " 80"), 0 to 65535; 0 picks a free one. */
function parsePort(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) throw new InvalidArgumentError('expected a port from 0 to 65535 (0 picks a free one).');
  return Number(value);
}

/** How long in-flight requests may take to finish after SIGINT or SIGTERM before their connections are cut. */
const SHUTDOWN_GRACE_MS = 3_000;
/** After this, the process exits even if something still holds it open. */
const SHUTDOWN_DEADLINE_MS = 10_000;

/** package.json's version: one folder up from src/main.ts and from the bundled dist/main.js alike. */
function packageVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

const program = new Command()
  .name('plaza')
  .description('A self-hostable server for the platform interface v2 and the advertising interface v12.')
  .version(packageVersion(), '-V, --version', 'print the version and exit')
  .addHelpText('after', environmentHelp());

program
  .command('serve')
  .description('Start the platform, ads and ads sandbox listeners; seed the demo workspace into an empty store.')
  .option('--port <port>', 'platform interface port (0 picks a free one)', parsePort)
  .option('--ads-port <port>', 'advertising interface port (0 picks a free one)', parsePort)
  .option('--ads-sandbox-port <port>', 'advertising sandbox port (0 picks a free one)', parsePort)
  .option('--proxy-port <port>', "the drop-in proxy's port: CONNECT for api.x.com and the other public hosts (0 picks a free one)", parsePort)
  .option('--host <host>', 'address to listen on')
  .option('--db <url>', 'a SQLite file path or a postgres:// URL (DATABASE_URL also works)')
  .option('--data-dir <dir>', 'where the SQLite store, uploads and the credentials file live')
  .option('--credentials-file <file>', 'where to write the demo credentials')
  .option('--no-seed', 'do not create the demo workspace')
  .option('--no-admin', 'serve no admin interface (/admin/...: act as a person, move the clock, inject faults)')
  .option('--trust-proxy <cidrs>', "balancers whose X-Forwarded-For names the client: addresses or CIDR blocks, comma-separated (PLAZA_TRUST_PROXY)")
  .option('--public-url <url>', "the platform interface's address as clients reach it, e.g. a load balancer's (PLAZA_PUBLIC_URL): credentials files, printed links, media URLs")
  .option('--public-ads-url <url>', "the advertising interface's address as clients reach it (PLAZA_PUBLIC_ADS_URL)")
  .option('--public-ads-sandbox-url <url>', "the advertising sandbox's address as clients reach it (PLAZA_PUBLIC_ADS_SANDBOX_URL)")
  .option('--media-bucket <url>', 'keep media bytes in an S3-compatible bucket, s3://<bucket>[/<prefix>], which every process reaches (PLAZA_MEDIA_BUCKET)')
  .option('--media-endpoint <url>', "the bucket's store when it is not AWS, e.g. http://127.0.0.1:9000 for MinIO (PLAZA_MEDIA_ENDPOINT)")
  // serve reads every variable of src/config.ts.
  .addHelpText('after', environmentHelp())
  .action(async (opts) => {
    const flags: ConfigOverrides = {
      port: opts.port,
      adsPort: opts.adsPort,
      adsSandboxPort: opts.adsSandboxPort,
      proxyPort: opts.proxyPort,
      host: opts.host,
      databaseUrl: opts.db,
      dataDir: opts.dataDir,
      credentialsFile: opts.credentialsFile,
      seedDemo: opts.seed === false ? false : undefined,
      admin: opts.admin === false ? false : undefined,
      trustProxy: opts.trustProxy === undefined ? undefined : String(opts.trustProxy).split(',').map((s: string) => s.trim()).filter(Boolean),
      publicUrls: { platform: opts.publicUrl, ads: opts.publicAdsUrl, adsSandbox: opts.publicAdsSandboxUrl },
      mediaBucket: opts.mediaBucket,
      mediaEndpoint: opts.mediaEndpoint,
    };

    // Signals are handled from the start: one that arrives while the store migrates or the demo
    // workspace is seeded stops Plaza as soon as it is up; a second one exits at once.
    let plaza: Plaza | undefined;
    let stopping: string | undefined;
    const stop = async (signal: string) => {
      if (stopping) {
        process.stderr.write(`plaza: ${signal} again, exiting without waiting for shutdown\n`);
        process.exit(1);
      }
      stopping = signal;
      if (plaza) await shutDown(plaza, signal);
    };
    process.on('SIGINT', () => void stop('SIGINT'));
    process.on('SIGTERM', () => void stop('SIGTERM'));

    let config: Config;
    try {
      config = loadConfig(Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined)));
      // Loaded here, not at the top: the whole server is a few seconds of imports that a bad flag or --help need not wait for.
      const { startPlaza } = await import('./app.js');
      plaza = await startPlaza(config);
    } catch (err) {
      process.stderr.write(`plaza serve: ${startFailure(err, flags)}\n`);
      process.exit(1);
    }
    if (stopping) return shutDown(plaza, stopping);
    process.stdout.write(banner(plaza, config));
  });

/** The human part of stdout: where each interface is and, with the demo workspace, a curl line that works. */
function banner(plaza: Plaza, config: Config): string {
  const { urls, credentials } = plaza;
  const lines = [
    `Plaza is running.`,
    `  platform interface v2:  ${urls.base_url}`,
    `  advertising interface:  ${urls.ads_url}`,
    `  advertising sandbox:    ${urls.ads_sandbox_url}`,
    `  drop-in proxy:          ${plaza.dropIn.proxy_url}`,
    `  proxy certificate:      ${plaza.dropIn.ca_file}`,
    `  store:                  ${plaza.ctx.store.dialect}`,
  ];
  const { listening } = plaza;
  if (listening.base_url !== urls.base_url || listening.ads_url !== urls.ads_url || listening.ads_sandbox_url !== urls.ads_sandbox_url) {
    lines.push(`  this process listens on: ${listening.base_url} (platform), ${listening.ads_url} (ads), ${listening.ads_sandbox_url} (ads sandbox)`);
  }
  if (plaza.adminToken) lines.push(`  admin interface:        /admin/... on the platform interface, with Authorization: Bearer ${plaza.adminToken}`);
  const postId = credentials?.sample.post_ids[0];
  if (credentials && postId) {
    lines.push(`  credentials:            ${config.credentialsFile}`, '', 'Try:');
    lines.push(
      `  curl -H "Authorization: Bearer ${credentials.apps[0].bearer_token}" "${urls.base_url}/2/posts/${postId}?post.fields=created_at,author_id,attachments&expansions=attachments.media_keys,author_id"`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Closes the listeners (in-flight requests finish; after a grace period their connections are cut) and the store, then exits 0. */
async function shutDown(plaza: Plaza, signal: string): Promise<never> {
  // First stop being ready and keep serving while a load balancer notices (its health checks see
  // /readyz answer 503), then close: requests finish, streams end with an operational disconnect.
  plaza.readiness.stopping = true;
  const drainMs = plaza.ctx.config.drainMs;
  if (drainMs > 0) {
    plaza.ctx.log.info({ signal, drainMs }, 'draining: /readyz answers 503 while requests are still served');
    await new Promise((resolve) => setTimeout(resolve, drainMs));
  }
  plaza.ctx.log.info({ signal }, 'shutting down');
  const grace = setTimeout(() => {
    plaza.ctx.log.warn({ graceMs: SHUTDOWN_GRACE_MS }, 'requests still running after the grace period; closing their connections');
    for (const listener of [plaza.platform, plaza.ads, plaza.adsSandbox]) listener.server.closeAllConnections();
  }, SHUTDOWN_GRACE_MS);
  const deadline = setTimeout(() => {
    plaza.ctx.log.error({ deadlineMs: SHUTDOWN_DEADLINE_MS }, 'shutdown did not finish; exiting anyway');
    process.exit(1);
  }, SHUTDOWN_DEADLINE_MS);
  grace.unref();
  deadline.unref();
  try {
    await plaza.close();
  } catch (err) {
    plaza.ctx.log.error({ err }, 'shutdown failed');
    process.exit(1);
  }
  plaza.ctx.log.info({ signal }, 'stopped');
  process.exit(0);
}

/** Connection refused, unknown host, no such database, authentication failed, too many connections. */
const DATABASE_UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', '3D000', '28P01', '28000', '53300']);

/** One line on why Plaza could not start. */
function startFailure(err: unknown, flags: ConfigOverrides): string {
  if (err instanceof StartupError) return err.message;
  const e = err as NodeJS.ErrnoException & { address?: string; port?: number };
  if (e?.code === 'EADDRINUSE') return `cannot listen on ${e.address ?? flags.host ?? '127.0.0.1'}:${e.port ?? '?'}: the port is already in use (pick another with --port, --ads-port, --ads-sandbox-port, or 0 for a free one)`;
  if (e?.code === 'EADDRNOTAVAIL' || e?.code === 'EACCES') return `cannot listen on ${e.address ?? flags.host ?? '?'}:${e.port ?? '?'}: ${e.code}`;
  // A store that cannot be reached surfaces as a failed migration; name the real cause.
  for (let cause: unknown = err; cause; cause = (cause as { cause?: unknown }).cause) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && DATABASE_UNREACHABLE.has(code)) return `cannot open the database: ${describe(cause)}`;
  }
  return describe(err);
}

/** An error's message; an AggregateError (a refused connection to every address of a host) may have none of its own. */
function describe(err: unknown): string {
  if (err instanceof AggregateError && !err.message) return err.errors.map(describe).join('; ');
  return err instanceof Error ? err.message || err.name : String(err);
}

// users, apps, tokens: the admin interface of a running Plaza (src/admin/cli.ts).
addAdminCommands(program);
// ca, doctor: the drop-in proxy's certificate and preload, and whether clients reach Plaza through it (src/proxy/cli.ts).
addProxyCommands(program);
addWorldCommands(program);

await program.parseAsync(process.argv);
