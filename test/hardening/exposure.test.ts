import assert from 'node:assert/strict';
import dns from 'node:dns/promises';
import net from 'node:net';
import os from 'node:os';
import { after, before, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { metricsAccess } from '../../src/http/server.js';
import { refusedAddress, refusedDestination } from '../../src/platform/webhooks/url-policy.js';
import { call, startTestPlaza, type TestPlaza } from '../support/server.js';
import { assertPlatformError } from './shapes.js';
import { fixtures } from '../support/fixtures.js';

/**
 * The exposure items of issue #9: webhook URLs that reach the host's own network, a CRC answer
 * that works as a port scanner, /metrics open to everyone, and slow or greedy clients.
 */

let plaza: TestPlaza;
let f: ReturnType<typeof fixtures>;
const sockets = new Set<net.Socket>();
const servers = new Set<net.Server>();

before(async () => {
  plaza = await startTestPlaza({ crcTimeoutMs: 300 });
  f = fixtures(plaza);
});

after(async () => {
  for (const s of sockets) s.destroy();
  for (const s of servers) await new Promise((r) => s.close(r));
});

/** A non-loopback address of this machine, for requests that must not come from loopback. */
function externalAddress(): string | undefined {
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) if (!a.internal && a.family === 'IPv4') return a.address;
  }
  return undefined;
}

test('development mode is the default only while Plaza listens on loopback; on any other address it is off unless PLAZA_DEVELOPMENT says so', () => {
  assert.equal(loadConfig({}, {}).development, true);
  for (const host of ['127.0.0.1', '::1', 'localhost', '127.0.0.2']) assert.equal(loadConfig({ host }, {}).development, true, host);
  for (const host of ['0.0.0.0', '::', '192.0.2.2', 'plaza.example']) assert.equal(loadConfig({ host }, {}).development, false, host);
  assert.equal(loadConfig({ host: '0.0.0.0' }, { PLAZA_DEVELOPMENT: 'true' }).development, true);
  assert.equal(loadConfig({ host: '127.0.0.1' }, { PLAZA_DEVELOPMENT: 'false' }).development, false);
  assert.equal(loadConfig({}, { PLAZA_HOST: '0.0.0.0' }).development, false);
});

test('in development mode POST /2/webhooks refuses link-local and unspecified addresses (169.254.169.254 included) before any request is sent', async () => {
  for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[::ffff:169.254.169.254]/', 'http://0.0.0.0:9/hook', 'http://[fe80::1]/hook']) {
    const res = await f.send('POST', '/2/webhooks', { auth: f.appAuth, body: { url } });
    assertPlatformError(res, 400, url);
    assert.match(res.body.errors[0].message, /^UrlValidationFailed/, `${url}: ${res.text}`);
  }
});

test('in production mode a webhook host name is resolved and every address it resolves to must be public', async () => {
  const name = os.hostname();
  const addresses = await dns.lookup(name, { all: true }).catch(() => []);
  assert.ok(addresses.length > 0 && addresses.every((a) => refusedAddress(a.address, { development: false })), `${name} resolves to a local address on this machine`);
  const strict = await startTestPlaza({ development: false, crcTimeoutMs: 300 });
  const s = fixtures(strict);
  const res = await s.send('POST', '/2/webhooks', { auth: s.appAuth, body: { url: `https://${name}/hook` } });
  assertPlatformError(res, 400);
  assert.match(res.body.errors[0].message, /^UrlValidationFailed/, res.text);
  assert.equal(await refusedDestination('localhost', { development: false }), 'is not a public address');
  assert.equal(await refusedDestination('8.8.8.8', { development: false }), undefined);
  assert.match((await refusedDestination('[::ffff:10.0.0.1]', { development: false })) ?? '', /not a public/);
});

test('the CRC failure of POST /2/webhooks reads the same for a closed port, a silent open port and a port that is not HTTP', async () => {
  const closed = await freePort();
  const silent = await tcpServer((socket) => sockets.add(socket));
  const notHttp = await tcpServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n'));
  const messages: string[] = [];
  for (const port of [closed, silent, notHttp]) {
    const url = `http://127.0.0.1:${port}/hook`;
    const res = await f.send('POST', '/2/webhooks', { auth: f.appAuth, body: { url } });
    assertPlatformError(res, 400, url);
    messages.push(res.body.errors[0].message.replace(url, 'URL'));
  }
  for (const socket of sockets) socket.destroy();
  assert.equal(new Set(messages).size, 1, messages.join('\n'));
});

test('/metrics answers loopback clients; to others it is not there, unless a token is configured, which then is required', async () => {
  assert.equal(metricsAccess(undefined, '127.0.0.1', undefined), 'allowed');
  assert.equal(metricsAccess(undefined, '::1', undefined), 'allowed');
  assert.equal(metricsAccess(undefined, '::ffff:127.0.0.1', undefined), 'allowed');
  assert.equal(metricsAccess(undefined, '192.0.2.7', undefined), 'hidden');
  assert.equal(metricsAccess('s3cret', '192.0.2.7', 'Bearer s3cret'), 'allowed');
  assert.equal(metricsAccess('s3cret', '127.0.0.1', undefined), 'unauthorized');
  assert.equal(metricsAccess('s3cret', '127.0.0.1', 'Bearer wrong!'), 'unauthorized');

  const external = externalAddress();
  assert.ok(external, 'this machine has a non-loopback IPv4 address');
  const open = await startTestPlaza({ host: '0.0.0.0' });
  const url = (base: string) => base.replace('127.0.0.1', external);
  assertPlatformError(await call(url(open.urls.base_url), '/metrics'), 404);
  assert.equal((await call(url(open.urls.ads_url), '/metrics')).status, 404);
  assert.equal((await call(url(open.urls.base_url), '/healthz')).status, 200);
  assert.equal((await call(open.urls.base_url, '/metrics')).status, 200);

  const guarded = await startTestPlaza({ host: '0.0.0.0', metricsToken: 'metrics-token-1' });
  assertPlatformError(await call(url(guarded.urls.base_url), '/metrics'), 401);
  assert.equal((await call(guarded.urls.base_url, '/metrics')).status, 401);
  const allowed = await call(url(guarded.urls.base_url), '/metrics', { headers: { authorization: 'Bearer metrics-token-1' } });
  assert.equal(allowed.status, 200);
  assert.match(allowed.text, /^# TYPE plaza_http_requests_total counter$/m);
});

test('a client that sends its headers slowly (slowloris) is cut off after the headers time-out', async () => {
  const quick = await startTestPlaza({ headersTimeoutMs: 500 });
  const socket = net.connect(Number(new URL(quick.urls.base_url).port), '127.0.0.1');
  sockets.add(socket);
  let answer = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
  socket.on('error', () => undefined);
  await new Promise((r) => socket.once('connect', r));
  socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
  // One more header line every 100 ms keeps the connection busy, never finishing the request.
  const drip = setInterval(() => socket.writable && socket.write(`X-Drip: ${Date.now()}\r\n`), 100);
  const started = Date.now();
  const closed = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 5000);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  clearInterval(drip);
  socket.destroy();
  assert.ok(closed, 'the connection was still open after 5 s');
  assert.ok(Date.now() - started < 3000, `closed after ${Date.now() - started} ms`);
  assert.match(answer, /^HTTP\/1\.1 408 /);
  assert.match(answer, /application\/problem\+json/);
});

test('one client address may hold at most maxConnectionsPerAddress connections per listener; more are closed at once', async () => {
  const capped = await startTestPlaza({ maxConnectionsPerAddress: 3 });
  const port = Number(new URL(capped.urls.base_url).port);
  const held = await Promise.all([1, 2, 3].map(() => connect(port)));
  const extra = await connect(port);
  const closed = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 3000);
    extra.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  assert.ok(closed, 'the fourth connection was closed');
  held[0].destroy();
  await new Promise((r) => held[0].once('close', r));
  // The server sees the close asynchronously: a bounded retry until a slot is free again.
  const deadline = Date.now() + 3000;
  let status = 0;
  while (Date.now() < deadline && status !== 200) status = await rawGet(port).catch(() => 0);
  // Closed here, not after the file: the server's own cleanup waits for its connections.
  for (const socket of [...held, extra]) socket.destroy();
  assert.equal(status, 200);
});

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
    sockets.add(socket);
    socket.on('error', reject);
  });
}

/** GET /healthz on a fresh connection: its status code. */
function rawGet(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    sockets.add(socket);
    let data = '';
    socket.setEncoding('utf8').on('data', (c: string) => {
      data += c;
      const m = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (m) {
        socket.destroy();
        resolve(Number(m[1]));
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error('closed without an answer')));
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function tcpServer(onConnection: (socket: net.Socket) => void): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer(onConnection);
    servers.add(server);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
  });
}
