import http from 'node:http';
import type net from 'node:net';
import tls from 'node:tls';
import type { Logger } from 'pino';
import { PUBLIC_HOSTS } from '../http/dialect/hosts.js';
import type { Authority } from './authority.js';

/**
 * The drop-in proxy (issue 35): an HTTP proxy that answers for the public platform's hosts and
 * nothing else, so a program that calls https://api.x.com reaches Plaza with two environment
 * variables and no code change.
 *
 * - `CONNECT api.x.com:443` (or another listed host): 200, then TLS is terminated here with the
 *   host's certificate from Plaza's authority, and the connection is handed to the listener the
 *   host stands for (platform, ads, ads sandbox) as if it had arrived there: keep-alive, streams,
 *   uploads and backpressure are that listener's own. Requests carry the public host in Host, so
 *   they are in the tweet dialect (src/http/dialect/hosts.ts).
 * - `CONNECT api.x.com:80` (how undici tunnels http:// URLs): the same, without TLS.
 * - A plain `http://api.x.com/...` request (absolute form) is handed to that listener the same way.
 * - Anything else is refused: 403 with the hosts Plaza answers for, logged. Plaza never tunnels
 *   elsewhere.
 */
export interface ProxyTargets {
  platform: http.Server;
  ads: http.Server;
  adsSandbox: http.Server;
}

const TARGET_BY_HOST = new Map<string, keyof ProxyTargets>(
  (Object.entries(PUBLIC_HOSTS) as Array<[keyof ProxyTargets, readonly string[]]>).flatMap(([target, hosts]) => hosts.map((h) => [h, target] as [string, keyof ProxyTargets])),
);
export const PROXIED_HOSTS: readonly string[] = [...TARGET_BY_HOST.keys()];

function refusal(what: string): string {
  return JSON.stringify({
    title: 'Forbidden',
    detail: `Plaza's proxy answers only for the public platform's hosts (${PROXIED_HOSTS.join(', ')}), through CONNECT (ports 443 and 80) or as http:// URLs; it does not tunnel to ${what}.`,
    hosts: PROXIED_HOSTS,
    status: 403,
  });
}

/** "host:port" of a CONNECT request's target; undefined when it is not one. */
function authorityOf(target: string): { host: string; port: number } | undefined {
  const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(target);
  return m ? { host: m[1]!.toLowerCase(), port: Number(m[2]) } : undefined;
}

export function createProxy(authority: Authority, targets: ProxyTargets, log: Logger): http.Server {
  const server = http.createServer((req, res) => {
    let url: URL | undefined;
    try {
      url = /^https?:\/\//i.test(req.url ?? '') ? new URL(req.url!) : undefined;
    } catch {
      url = undefined;
    }
    const target = url && url.protocol === 'http:' ? TARGET_BY_HOST.get(url.hostname) : undefined;
    if (!url || !target) {
      log.warn({ url: url ? `${url.protocol}//${url.host}` : req.url?.slice(0, 200), client: req.socket.remoteAddress }, 'proxy: request refused');
      const body = url ? refusal(`${url.protocol}//${url.host}`) : refusal('a path: this port is a proxy (send absolute http:// URLs or CONNECT)');
      res.writeHead(url ? 403 : 400, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    req.url = `${url.pathname}${url.search}`;
    req.headers.host = url.host;
    targets[target].emit('request', req, res);
  });

  server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const to = authorityOf(req.url ?? '');
    const target = to && (to.port === 443 || to.port === 80) ? TARGET_BY_HOST.get(to.host) : undefined;
    if (!to || !target) {
      log.warn({ connect: req.url?.slice(0, 200), client: socket.remoteAddress }, 'proxy: CONNECT refused');
      const body = refusal(req.url?.slice(0, 200) ?? 'nowhere');
      socket.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
      return;
    }
    if (to.port === 80) {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) socket.unshift(head);
      targets[target].emit('connection', socket);
      return;
    }
    authority.contextFor(to.host).then(
      (secureContext) => {
        if (socket.destroyed) return;
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) socket.unshift(head);
        const secure = new tls.TLSSocket(socket, { isServer: true, secureContext, ALPNProtocols: ['http/1.1'] });
        secure.on('error', () => secure.destroy());
        targets[target].emit('connection', secure);
      },
      (err: unknown) => {
        log.error({ err, host: to.host }, 'proxy: no certificate for the host');
        socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
      },
    );
  });
  return server;
}
