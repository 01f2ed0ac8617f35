import dns from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Where Plaza may send a request on an app's behalf (webhook CRCs and deliveries): the one place
 * this rule lives. Production mode: public addresses only, every address a name resolves to
 * checked, at connection time too (a name that later resolves elsewhere is refused when the
 * connection is made). Development mode (the local demo, listening on loopback) also lets
 * loopback and private addresses through, so a webhook can live on the developer's machine; link-
 * local and unspecified addresses (cloud metadata at 169.254.169.254, 0.0.0.0) never pass.
 */
export interface DestinationPolicy {
  development: boolean;
}

const NEVER = new BlockList();
NEVER.addSubnet('0.0.0.0', 8, 'ipv4');
NEVER.addSubnet('169.254.0.0', 16, 'ipv4');
NEVER.addSubnet('224.0.0.0', 3, 'ipv4');
NEVER.addSubnet('::', 128, 'ipv6');
NEVER.addSubnet('fe80::', 10, 'ipv6');
NEVER.addSubnet('ff00::', 8, 'ipv6');

/** Not public, but allowed in development mode: loopback, private, carrier-grade NAT, unique local. */
const LOCAL = new BlockList();
for (const [net, prefix] of [['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['192.0.0.0', 24], ['198.18.0.0', 15]] as const) {
  LOCAL.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [['::1', 128], ['fc00::', 7], ['64:ff9b::', 96]] as const) LOCAL.addSubnet(net, prefix, 'ipv6');

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is judged as the IPv4 address it carries. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } | undefined {
  const host = address.replace(/^\[|\]$/g, '').toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(host);
  if (mapped) return { address: mapped[1], family: 'ipv4' };
  const family = isIP(host);
  if (family === 0) return undefined;
  return { address: host, family: family === 4 ? 'ipv4' : 'ipv6' };
}

/** Why Plaza may not connect to this IP address under `policy`, or undefined when it may. */
export function refusedAddress(address: string, policy: DestinationPolicy): string | undefined {
  const ip = unmapped(address);
  if (!ip) return 'is not an IP address';
  if (NEVER.check(ip.address, ip.family)) return 'is a link-local, multicast or unspecified address';
  if (!policy.development && LOCAL.check(ip.address, ip.family)) return 'is not a public address';
  return undefined;
}

/** Names that are loopback by definition (RFC 6761), whatever a resolver says. */
const isLocalName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/**
 * Why a URL's host may not be contacted under `policy`, or undefined when it may: a literal
 * address is checked as it is, a name by every address it resolves to (a name that does not
 * resolve is refused too: nothing could be checked).
 */
export async function refusedDestination(hostname: string, policy: DestinationPolicy): Promise<string | undefined> {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(host) || unmapped(host)) return refusedAddress(host, policy);
  if (isLocalName(host) && !policy.development) return 'is not a public address';
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch {
    return 'does not resolve';
  }
  if (addresses.length === 0) return 'does not resolve';
  for (const { address } of addresses) {
    const why = refusedAddress(address, policy);
    if (why) return `resolves to ${address}, which ${why}`;
  }
  return undefined;
}

/**
 * A `lookup` for http(s).request and net.connect that refuses, at connection time, any address
 * the policy refuses: the name is resolved once and the connection goes to an address that was
 * checked (no second resolution an attacker's DNS could answer differently).
 */
export function policyLookup(policy: DestinationPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as dns.LookupAddress[];
      const refused = list.map((a) => refusedAddress(a.address, policy)).find((why) => why !== undefined);
      if (refused || list.length === 0) {
        const error = Object.assign(new Error(`refused destination ${hostname}: ${refused ?? 'does not resolve'}`), { code: 'EREFUSEDDESTINATION' });
        return callback(error, '', 0);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}
