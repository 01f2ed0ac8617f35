/** What the benchmarks that run Plaza as a child process share (bench/streams.ts, bench/activity-streams.ts). */
import fs from 'node:fs';

/** Waits for the child's credentials file to name its bound address (the child is ready then). */
export async function waitForCredentials(file: string, pid: number): Promise<any> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (fs.existsSync(file)) {
      try {
        const creds = JSON.parse(fs.readFileSync(file, 'utf8'));
        if (creds.base_url && !creds.base_url.endsWith(':0')) return creds;
      } catch {
        // being written
      }
    }
    if (!fs.existsSync(`/proc/${pid}`)) throw new Error('plaza exited');
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('plaza did not start');
}

/** A JSON request with a bearer token; anything but a 2xx fails the run. */
export async function request(base: string, method: string, p: string, bearer: string, body: unknown): Promise<void> {
  const res = await fetch(`${base}${p}`, { method, headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
}
