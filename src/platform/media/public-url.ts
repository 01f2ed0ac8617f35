import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PlatformContext } from '../context.js';

/**
 * Where the platform listener can be reached, for media URLs written outside a request (the demo
 * seed runs after the listeners are up). Uploads use the address the client called instead.
 */
/** Keyed by the configuration, which every world of a Plaza shares (src/worlds/world.ts). */
const listeners = new WeakMap<PlatformContext['config'], Server>();

export function registerPlatformServer(ctx: PlatformContext, server: Server): void {
  listeners.set(ctx.config, server);
}

export function platformBaseUrl(ctx: PlatformContext): string {
  if (ctx.config.publicUrls.platform !== undefined) return ctx.config.publicUrls.platform;
  const address = listeners.get(ctx.config)?.address() as AddressInfo | string | null | undefined;
  if (!address || typeof address === 'string') return `http://${ctx.config.host}:${ctx.config.port}`;
  // A wildcard address is reachable on loopback, as the credentials file records it.
  const unspecified = address.address === '0.0.0.0' || address.address === '::';
  const host = unspecified ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
