// Local HTTP servers standing in for what Plaza calls: an app's webhook receiver, and a plain receiver
// whose answer a test sets.
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A webhook receiver as an app would run it: answers the CRC challenge with the consumer secret,
 * records every delivery (raw body and headers), and answers each path with the status the test
 * chose. Tests wait on it with a bounded timeout, never a fixed sleep.
 */
export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: any;
  at: number;
  /** The status answered; 'held' while the receiver holds the request unanswered. */
  answered: number | 'held';
}

export class WebhookReceiver {
  /** The consumer secret that signs CRC answers (and checks delivery signatures). */
  secret = '';
  /** Per path: the status to answer deliveries with (default 200), 'redirect', or 'hold' (no answer until dropHeld). */
  readonly status = new Map<string, number | 'redirect' | 'hold'>();
  private held: http.ServerResponse[] = [];
  /** Paths whose CRC answer is signed with a wrong key. */
  readonly wrongCrc = new Set<string>();
  /** Per path: a status the CRC challenge is answered with instead of the token (a receiver that is down). */
  readonly crcStatus = new Map<string, number>();
  readonly deliveries: Received[] = [];
  readonly crcs: string[] = [];
  private waiters: Array<() => void> = [];
  private readonly server = http.createServer((req, res) => this.answer(req, res));
  base = '';

  async start(): Promise<this> {
    this.server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Drops every held request unanswered (its sender sees the connection close). */
  dropHeld(): void {
    for (const res of this.held.splice(0)) res.destroy();
  }

  url(name: string): string {
    return `${this.base}/${name}`;
  }

  on(path: string): Received[] {
    return this.deliveries.filter((d) => d.path === `/${path}`);
  }

  /** Resolves when `check()` holds, re-checked on every request; rejects after `timeoutMs`. */
  async until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    if (check()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const waiter = () => {
        if (!check()) return;
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve();
      };
      this.waiters.push(waiter);
    });
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', this.base);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'GET') {
        const token = url.searchParams.get('crc_token') ?? '';
        this.crcs.push(url.pathname);
        const down = this.crcStatus.get(url.pathname.slice(1));
        if (down !== undefined) {
          res.writeHead(down).end();
          for (const w of [...this.waiters]) w();
          return;
        }
        const key = this.wrongCrc.has(url.pathname.slice(1)) ? 'wrong-key' : this.secret;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ response_token: `sha256=${createHmac('sha256', key).update(token).digest('base64')}` }));
      } else {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = JSON.parse(raw);
        } catch {
          body = undefined;
        }
        const status = this.status.get(url.pathname.slice(1)) ?? 200;
        this.deliveries.push({ path: url.pathname, headers: req.headers, raw, body, at: Date.now(), answered: status === 'hold' ? 'held' : status === 'redirect' ? 302 : status });
        if (status === 'hold') this.held.push(res);
        else if (status === 'redirect') res.writeHead(302, { location: `${this.base}/elsewhere` }).end();
        else res.writeHead(status).end();
      }
      for (const w of [...this.waiters]) w();
    });
  }
}

export function signatureOf(raw: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(raw).digest('base64')}`;
}

export interface Hit {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local HTTP receiver on port 0 whose answer the test sets; every request is kept. */
export class Receiver {
  readonly hits: Hit[] = [];
  answer: (hit: Hit, res: http.ServerResponse) => void = (_hit, res) => res.writeHead(200).end('ok');
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hit = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      this.hits.push(hit);
      this.answer(hit, res);
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  url(p = '/hook'): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${p}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
