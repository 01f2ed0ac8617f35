import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';
import { LINGER_BYTES } from '../../src/http/server.js';
import { startTestPlaza, type TestPlaza } from '../support/server.js';

/**
 * Issue 34: a body over the limit gets its 413 answer read by the client (nginx's lingering
 * close): Plaza reads and drops the rest of the body, bounded, answers Connection: close, then closes.
 */

let plaza: TestPlaza;

before(async () => {
  plaza = await startTestPlaza();
});
after(() => plaza.close());

test('a body over the limit sent with Node\'s fetch: the client reads the 413 problem (not EPIPE or a reset), and the answer says Connection: close', async () => {
  const auth = `Bearer ${plaza.creds.users[0]!.oauth2_access_token}`;
  for (const size of [400_000, 8_000_000]) {
    const res = await fetch(`${plaza.urls.base_url}/2/posts`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify({ text: 'x'.repeat(size) }) });
    assert.equal(res.status, 413);
    assert.equal(res.headers.get('connection'), 'close');
    const body = await res.json();
    assert.equal(body.status, 413);
  }
  // The listener goes on answering.
  assert.equal((await fetch(`${plaza.urls.base_url}/healthz`)).status, 200);
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
