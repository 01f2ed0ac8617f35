import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { LINGER_BYTES } from '../../src/http/server.js';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { eventually } from '../support/wait.js';

/**
 * Issue 34: a body over the limit gets its 413 answer read by the client (nginx's lingering
 * close): Plaza answers, reads and drops the rest of the body, bounded, and keeps the connection.
 */

let plaza: TestPlaza;

before(async () => {
  // A client that never stops sending is cut after lingerMs: 3 s here, not 10 (the other tests' bodies arrive well within it).
  plaza = await startTestPlaza({ lingerMs: 3_000 });
});
after(() => plaza.close());

test('a body over the limit sent with Node\'s fetch: the client reads the 413 problem (not EPIPE or a reset)', async () => {
  const auth = `Bearer ${plaza.creds.users[0]!.oauth2_access_token}`;
  for (const size of [400_000, 8_000_000]) {
    const res = await fetch(`${plaza.urls.base_url}/2/posts`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify({ text: 'x'.repeat(size) }) });
    assert.equal(res.status, 413);
    const body = await res.json();
    assert.equal(body.status, 413);
  }
  // The listener goes on answering.
  assert.equal((await fetch(`${plaza.urls.base_url}/healthz`)).status, 200);
});

test('a client still sending a refused body after the 413 may send it all: the connection stays open while it does (it would otherwise see EPIPE)', async () => {
  const { hostname, port } = new URL(plaza.urls.base_url);
  const socket = net.connect(Number(port), hostname);
  await new Promise((resolve) => socket.once('connect', resolve));
  const size = 6 * 1024 * 1024;
  socket.write(`POST /2/posts HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`);
  let answer = '';
  socket.on('data', (d: Buffer) => (answer += d.toString('latin1')));
  let failed: Error | undefined;
  socket.on('error', (err) => (failed = err));
  // The answer comes before the body is sent; then the rest is written, a chunk a turn.
  await eventually(() => answer.includes('\r\n\r\n'), 'the 413 answer');
  assert.match(answer, /^HTTP\/1\.1 413 /);
  const chunk = Buffer.alloc(1024 * 1024, 'x');
  for (let sent = 0; sent < size; sent += chunk.length) {
    if (!socket.write(chunk.subarray(0, Math.min(chunk.length, size - sent)))) await new Promise((resolve) => socket.once('drain', resolve));
  }
  // The connection, the body read, still answers.
  socket.write(`GET /healthz HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
  await eventually(() => /HTTP\/1\.1 200 /.test(answer), 'the next answer on the same connection');
  assert.equal(failed, undefined);
  socket.destroy();
});

test('a refused body that never ends is read only up to the bound: the client has its 413, then the connection is closed', async () => {
  const { hostname, port } = new URL(plaza.urls.base_url);
  const chunk = Buffer.alloc(1024 * 1024, 'x');
  const result = await new Promise<{ status: number; written: number }>((resolve, reject) => {
    let status = 0;
    let written = 0;
    const req = http.request({ host: hostname, port, method: 'POST', path: '/2/posts', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } });
    req.on('response', (res) => {
      status = res.statusCode!;
      res.resume();
    });
    // The client would send forever: the server's close ends it.
    const pump = () => {
      while (!req.destroyed && req.write(chunk)) written += chunk.length;
      if (!req.destroyed) req.once('drain', pump);
    };
    req.on('error', () => resolve({ status, written }));
    req.on('close', () => resolve({ status, written }));
    req.on('socket', (socket) => socket.on('close', () => resolve({ status, written })));
    setImmediate(pump);
    setTimeout(() => reject(new Error('the connection was not closed')), 30_000).unref();
  });
  assert.equal(result.status, 413);
  assert.ok(result.written <= LINGER_BYTES + 64 * 1024 * 1024, `the client could write ${result.written} bytes`);
});
