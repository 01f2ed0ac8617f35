import http from 'node:http';

/**
 * A client of GET /2/activity/stream over a real socket: collects the lines (keep-alives as empty
 * lines), and waits for what a test expects with a bounded time-out, never a fixed sleep.
 */
export class StreamClient {
  status = 0;
  headers: http.IncomingHttpHeaders = {};
  raw = '';
  ended = false;
  private request?: http.ClientRequest;
  private response?: http.IncomingMessage;
  private waiters: Array<() => void> = [];

  static async open(baseUrl: string, path: string, bearer: string): Promise<StreamClient> {
    const client = new StreamClient();
    await new Promise<void>((resolve, reject) => {
      const req = http.get(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${bearer}` }, agent: false }, (res) => {
        client.status = res.statusCode ?? 0;
        client.headers = res.headers;
        client.response = res;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          client.raw += chunk;
          client.poke();
        });
        const done = () => {
          client.ended = true;
          client.poke();
        };
        res.on('end', done);
        res.on('close', done);
        resolve();
      });
      client.request = req;
      req.on('error', (err) => {
        client.ended = true;
        client.poke();
        reject(err);
      });
    });
    return client;
  }

  /** Complete lines so far, keep-alives included as ''. */
  lines(): string[] {
    const parts = this.raw.split('\r\n');
    parts.pop();
    return parts;
  }

  /** Parsed JSON lines (events and error messages). */
  messages(): any[] {
    return this.lines().filter((l) => l.length > 0).map((l) => JSON.parse(l));
  }

  events(): any[] {
    return this.messages().filter((m) => m.data);
  }

  keepAlives(): number {
    return this.lines().filter((l) => l.length === 0).length;
  }

  private poke(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Resolves when `check` holds; fails after `timeoutMs`. */
  async until(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; got: ${this.raw.slice(-2000)}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.response?.destroy();
    this.request?.destroy();
  }
}
