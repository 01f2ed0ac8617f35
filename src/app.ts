import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildAds } from './ads/app.js';
import { startAdmin, type Admin } from './admin/index.js';
import { systemClock, type Clock } from './clock.js';
import type { PlatformContext } from './platform/context.js';
import { Worlds } from './worlds/registry.js';
import { WorldScope } from './worlds/scope.js';
import { DEFAULT_WORLD } from './worlds/tags.js';
import { openWorld, type World, type WorldParts } from './worlds/world.js';
import { checkStartable, StartupError, type Config } from './config.js';
import { MediaBucket } from './platform/media/bucket.js';
import { Readiness, registerReadyz } from './http/health.js';
import { createLogger } from './http/log.js';
import { Metrics } from './http/metrics.js';
import type { Listener } from './http/server.js';
import { buildPlatform } from './platform/app.js';
import { readCredentials, writeCredentials, type CredentialsFile } from './seed/credentials.js';
import { demoCredentials, demoWorkspace, seedDemo } from './seed/demo.js';
import { leaseWorker, NoFreeWorker, type WorkerLease } from './store/worker-lease.js';
import { loadServerSecret } from './auth/flows/server-secret.js';
import { createSettingsBus } from './events/settings-bus.js';
import { openStore, type Store } from './store/store.js';
import { openAuthority } from './proxy/authority.js';
import { writeNodePreload } from './proxy/node-preload.js';
import { createProxy } from './proxy/server.js';

export interface Plaza {
  /** The context the listeners are handed: the default world's outside a request of another world (src/worlds/scope.ts). */
  ctx: PlatformContext;
  /** The worlds made through the admin interface (src/worlds/registry.ts). */
  worlds: Worlds;
  platform: Listener;
  ads: Listener;
  adsSandbox: Listener;
  /** Where clients reach the listeners: the public URLs where configured, else the listeners' own. */
  urls: { base_url: string; ads_url: string; ads_sandbox_url: string };
  /** The listeners' own addresses. */
  listening: { base_url: string; ads_url: string; ads_sandbox_url: string };
  /** The drop-in proxy (src/proxy/): its address, the certificate clients trust, and the Node preload that uses both. */
  dropIn: { proxy_url: string; ca_file: string; node_preload: string };
  /** The demo workspace's credentials, as written to the credentials file (none when another process's file holds them). */
  credentials?: CredentialsFile;
  /** The admin token (src/admin/), unless the admin interface is off. */
  adminToken?: string;
  /** What /readyz reports: store migrated, demo seeded, credentials written, workers started. */
  readiness: Readiness;
  close(): Promise<void>;
}

/** The address a client can use for a listener: a wildcard address is reachable on loopback. */
function urlOfAddress(address: AddressInfo): string {
  const unspecified = address.address === '0.0.0.0' || address.address === '::';
  const host = unspecified ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/**
 * The demo workspace's credentials: the store's (reusing the file's secrets) or, on an empty store,
 * a new workspace's. Processes started together on one new store (issue #37) may both find none:
 * the one whose seed fails (on the store's unique keys, or waiting for the other's transaction)
 * goes on as a second process does once the other's workspace is there (within five seconds).
 */
async function seedOrReuse(ctx: PlatformContext, store: Store, credentialsFile: string): Promise<CredentialsFile | undefined> {
  const reuse = async () => {
    const workspace = await demoWorkspace(store.db);
    return workspace ? demoCredentials(ctx, workspace, readCredentials(credentialsFile)) : undefined;
  };
  if (await demoWorkspace(store.db)) return reuse();
  try {
    return await seedDemo(ctx);
  } catch (err) {
    for (let waited = 0; waited < 5_000; waited += 250) {
      if (await demoWorkspace(store.db).catch(() => undefined)) return reuse();
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw err;
  }
}

/** The composition root: one store, one context, three listeners and the drop-in proxy. */
export async function startPlaza(config: Config, deps: { clock?: Clock } = {}): Promise<Plaza> {
  // The same bounded, never-blocking destination as the listeners' loggers (src/http/log.ts).
  const log = createLogger({ level: config.logLevel }, config.logBufferBytes);
  // Before anything is written: writable folders, free ports, a store that opens (src/config.ts).
  await checkStartable(config);
  const readiness = new Readiness();
  const store = await openStore(config.databaseUrl, (err) => log.warn({ err }, 'a database connection failed; the store goes on without it'));
  // The worker number of this process's ids, unique among the live processes on the store.
  let worlds: Worlds | undefined;
  let lease: WorkerLease;
  let home: World;
  try {
    lease = await leaseWorker(store.db, (worker) => worlds?.useWorker(worker), (err, message) => log.warn({ err }, message));
  } catch (err) {
    await store.close();
    throw err instanceof NoFreeWorker ? new StartupError(err.message) : err;
  }
  try {
    await loadServerSecret(store.db, config);
  } catch (err) {
    await lease.close().catch(() => {});
    await store.close();
    throw err;
  }
  // The default world: the store the configuration names. Every reader of time holds its adjustable clock.
  // The operator's media bucket, when one is named: the default world's media bytes live there.
  const mediaBucket = config.mediaBucket ? new MediaBucket({ url: config.mediaBucket, endpoint: config.mediaEndpoint, region: config.mediaRegion }) : undefined;
  const parts: WorldParts = { config, log, baseClock: deps.clock ?? systemClock, worker: lease.worker, mediaBucket };
  try {
    home = await openWorld(parts, DEFAULT_WORLD, store, config.databaseUrl);
  } catch (err) {
    await lease.close().catch(() => {});
    await store.close();
    throw err;
  }
  // The listeners' context: each field is the current world's (src/worlds/scope.ts).
  const scope = new WorldScope(home);
  const ctx = scope.ctx;
  let urls = { base_url: '', ads_url: '', ads_sandbox_url: '' };
  let listening = urls;
  let dropIn = { proxy_url: '', ca_file: '', node_preload: '' };
  worlds = new Worlds({ parts, scope, home: store, urls: () => ({ ...urls, ...dropIn }) });
  const routing = { scope, worlds };
  // Admin changes reach the other processes at once: each reads the changed world's settings again.
  const settings = createSettingsBus({ redisUrl: config.redisUrl, databaseUrl: config.databaseUrl, onError: (err) => log.warn({ err }, 'admin changes lost Redis; other processes see them at their next poll') });
  settings.onChange(async (id) => {
    if (id !== DEFAULT_WORLD) return worlds!.changedElsewhere(id);
    store.changedElsewhere();
    await home.admin?.clock.refresh();
    await home.admin?.faults.refresh();
  });
  const metrics = new Metrics();
  const platform = await buildPlatform(ctx, metrics, routing);
  const ads = await buildAds(ctx, metrics, 'production', routing);
  const adsSandbox = await buildAds(ctx, metrics, 'sandbox', routing);
  const listeners = [platform, ads, adsSandbox];
  // Made (the first time) off the event loop while the rest starts.
  const authority = openAuthority(config.dataDir);
  authority.catch(() => {});
  let proxy: http.Server | undefined;
  for (const listener of listeners) registerReadyz(listener, readiness);
  // Ready only while the store (and Redis and the media bucket, when configured) answers.
  readiness.depend('store', () => store.reachable());
  if (config.redisUrl) readiness.depend('redis', () => home.ctx.events.reachable());
  if (mediaBucket) readiness.depend('media', () => mediaBucket.reachable());
  readiness.mark('store_migrated');
  let credentials: CredentialsFile | undefined;
  const urlOf = (l: Listener) => urlOfAddress(l.server.address() as AddressInfo);
  let admin: Admin | undefined;
  try {
    if (config.admin) admin = await startAdmin(ctx, platform, { adminOf: () => scope.world().admin!, worldId: () => scope.world().id, worlds, settings });
    await platform.listen({ host: config.host, port: config.port });
    await ads.listen({ host: config.host, port: config.adsPort });
    await adsSandbox.listen({ host: config.host, port: config.adsSandboxPort });
    listening = { base_url: urlOf(platform), ads_url: urlOf(ads), ads_sandbox_url: urlOf(adsSandbox) };
    const pub = config.publicUrls;
    urls = { base_url: pub.platform ?? listening.base_url, ads_url: pub.ads ?? listening.ads_url, ads_sandbox_url: pub.adsSandbox ?? listening.ads_sandbox_url };
    const opened = await authority;
    proxy = createProxy(opened, { platform: platform.server, ads: ads.server, adsSandbox: adsSandbox.server }, log);
    await new Promise<void>((resolve, reject) => {
      proxy!.once('error', reject);
      proxy!.listen({ host: config.host, port: config.proxyPort }, () => resolve());
    });
    const proxyUrl = urlOfAddress(proxy.address() as AddressInfo);
    dropIn = { proxy_url: proxyUrl, ca_file: opened.caFile, node_preload: writeNodePreload(config.dataDir, proxyUrl, opened.caFile) };
    if (config.seedDemo) {
      const secrets = await seedOrReuse(ctx, store, config.credentialsFile);
      if (secrets) {
        credentials = { ...secrets, ...urls, ...dropIn, ...(admin ? { admin_token: admin.token } : {}) };
        writeCredentials(config.credentialsFile, credentials);
      } else {
        log.warn(
          { credentialsFile: config.credentialsFile },
          "no credentials file written: this store's demo tokens were minted by the process that seeded it; pass that process's file with --credentials-file to have it reused",
        );
      }
    }
    readiness.mark('demo_seeded');
    readiness.mark('credentials_written');
  } catch (err) {
    proxy?.close();
    await Promise.allSettled(listeners.map((l) => l.close()));
    await home.close();
    await settings.close();
    await mediaBucket?.close();
    await lease.close().catch(() => {});
    await store.close();
    throw err;
  }
  // Webhook fan-out and delivery: after the seed, so a fresh store's own seed events are not news.
  await home.start();
  readiness.mark('workers_started');

  let closed = false;
  return {
    ctx,
    worlds,
    platform,
    ads,
    adsSandbox,
    urls,
    listening,
    dropIn,
    credentials,
    adminToken: admin?.token,
    readiness,
    async close() {
      if (closed) return;
      closed = true;
      readiness.stopping = true;
      // Streams end first, each with its OperationalDisconnect line, so no listener waits on them.
      await home.ctx.streams.close();
      await worlds.close();
      // Its connections were handed to the listeners, which close them.
      proxy?.close();
      await Promise.allSettled(listeners.map((l) => l.close()));
      await home.close();
      await settings.close();
      await mediaBucket?.close();
      await lease.close().catch((err: unknown) => log.warn({ err }, 'the worker number lease was not given back; it expires by itself'));
      await store.close();
    },
  };
}
