import http from 'node:http';
import type { AddressInfo } from 'node:net';

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
