import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** A port nothing listens on now (taken and given back at once). */
/**
 * A port free now, for a process that must be told its port before it starts. Taken below the
 * kernel's ephemeral range (/proc/sys/net/ipv4/ip_local_port_range), which every server listening
 * on port 0 and every outgoing connection draw from: a port from that range, free when asked, was
 * at times taken by another test's server before the process started, and answered for it.
 */
export async function freePort(): Promise<number> {
  let low = 32768;
  try {
    low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || low;
  } catch {
    // not Linux: the usual start of the range
  }
  for (;;) {
    const port = 10_000 + Math.floor(Math.random() * Math.max(1, low - 10_000));
    const server = net.createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!bound) continue;
    await new Promise((resolve) => server.close(resolve));
    return port;
  }
}

export interface Balancer {
  url: string;
  close(): Promise<void>;
}

/**
 * Debian's HAProxy in front of Plaza platform listeners, configured as docs/deploy.md shows
 * (health checks on /readyz, forwarded addresses, no delay for stream lines), with the check
 * interval given (fall 2, rise 1), on `port` (a freePort, taken before the backends start when
 * they must know the balancer's address). Resolves once it answers /readyz through a backend.
 */
export async function startHaproxy(folder: string, port: number, backends: readonly string[], opts: { balance: 'roundrobin' | 'leastconn'; checkMs: number }): Promise<Balancer> {
  const url = `http://127.0.0.1:${port}`;
  const cfg = path.join(folder, 'haproxy.cfg');
  fs.writeFileSync(
    cfg,
    [
      'global', '    maxconn 4000',
      'defaults', '    mode http', '    option forwardfor', '    option http-no-delay',
      '    timeout connect 2s', '    timeout client 60s', '    timeout server 60s', '    timeout tunnel 60s',
      'frontend platform', `    bind 127.0.0.1:${port}`, '    default_backend plaza',
      'backend plaza', `    balance ${opts.balance}`, '    option httpchk GET /readyz', '    http-check expect status 200',
      // A check waits for /readyz up to 3 s (it answers within about a second even when a
      // dependency hangs): without it HAProxy waits only `inter`, and a process busy with a burst
      // of writes would be taken out for answering its check in more than a few hundred ms.
      '    timeout check 3s',
      `    default-server inter ${opts.checkMs}ms fall 2 rise 1`,
      ...backends.map((b, i) => `    server p${i} ${new URL(b).host} check`),
      '',
    ].join('\n'),
  );
  const child = spawn(fs.existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy', ['-f', cfg, '-db'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  const deadline = Date.now() + 20_000;
  for (;;) {
    if ((await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200) return { url, close };
    if (child.exitCode !== null || Date.now() > deadline) {
      await close();
      throw new Error(`HAProxy did not answer through a backend: ${err}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
