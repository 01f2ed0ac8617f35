import net from 'node:net';

/**
 * The balancers and proxies whose X-Forwarded-For Plaza believes (`--trust-proxy CIDR,...`, issue
 * #37): behind them, every rule kept per client address (sign-in and OAuth step limits, the
 * connections a client may hold, who may read /metrics) applies to the client's address as they
 * forwarded it. From anyone else the header is ignored, so no client can claim another's address.
 * Node's own BlockList matches the addresses; an IPv4 peer seen on a dual-stack socket
 * (`::ffff:10.0.0.5`) is matched as IPv4.
 */
export interface TrustedProxies {
  /** Whether a peer's address is one of the trusted proxies. */
  trusts(address: string | undefined): boolean;
}

/** Parses `10.0.0.0/8,127.0.0.1,::1` (addresses or CIDR blocks); throws naming the entry that is neither. */
export function parseTrustedProxies(entries: readonly string[]): TrustedProxies | undefined {
  if (entries.length === 0) return undefined;
  const list = new net.BlockList();
  for (const raw of entries) {
    const entry = raw.trim();
    const [address, prefix, extra] = entry.split('/');
    const family = net.isIP(address ?? '');
    const bits = prefix === undefined ? undefined : Number(prefix);
    const max = family === 4 ? 32 : 128;
    if (!family || extra !== undefined || (prefix !== undefined && (!/^\d{1,3}$/.test(prefix) || bits! > max))) {
      throw new Error(`--trust-proxy: "${entry}" is not an IP address or a CIDR block (such as 10.0.0.0/8 or ::1)`);
    }
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(address!, type);
    else list.addSubnet(address!, bits, type);
  }
  return {
    trusts(peer) {
      if (!peer) return false;
      const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(peer)?.[1];
      const address = mapped ?? peer;
      const family = net.isIP(address);
      return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}
