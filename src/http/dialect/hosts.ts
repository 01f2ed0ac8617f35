import type { IncomingMessage } from 'node:http';

/**
 * The public platform's host names, by the listener each stands for. A request that arrives for
 * one of them (its Host header names it: a client pointed at Plaza by a proxy or a hosts-file
 * entry) speaks the public platform's names throughout (issue 34).
 */
export const PUBLIC_HOSTS = {
  platform: ['api.x.com', 'api.twitter.com', 'upload.x.com', 'upload.twitter.com'],
  ads: ['ads-api.x.com', 'ads-api.twitter.com'],
  adsSandbox: ['ads-api-sandbox.x.com', 'ads-api-sandbox.twitter.com'],
} as const;

const ALL = new Set<string>(Object.values(PUBLIC_HOSTS).flat());
const ADS = new Set<string>([...PUBLIC_HOSTS.ads, ...PUBLIC_HOSTS.adsSandbox]);

/** The host a request was sent to, lowercase and without its port. */
function hostOf(req: IncomingMessage): string {
  const host = req.headers.host ?? '';
  const end = host.startsWith('[') ? host.indexOf(']') + 1 : host.lastIndexOf(':');
  return (end > 0 ? host.slice(0, end) : host).toLowerCase();
}

/** Whether the request was sent to one of the public platform's host names. */
export function sentToPublicHost(req: IncomingMessage): boolean {
  return ALL.has(hostOf(req));
}

/** Whether the request was sent to one of the public Ads API's host names (production or sandbox). */
export function sentToPublicAdsHost(req: IncomingMessage): boolean {
  return ADS.has(hostOf(req));
}
