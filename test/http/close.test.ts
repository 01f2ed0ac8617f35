import http from 'node:http';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { Metrics } from '../../src/http/metrics.js';
import { createListener } from '../../src/http/server.js';

test('a listener that closes while an answer is still being written ends that keep-alive connection once the answer is done, not after the keep-alive time-out', async () => {
  const app = await createListener(loadConfig({ logLevel: 'silent' }, {}), new Metrics(), 'test');
  const body = new PassThrough();
  app.get('/file', (_request, reply) => reply.type('application/octet-stream').send(body));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  const agent = new http.Agent({ keepAlive: true });
  try {
    const request = http.get({ host: '127.0.0.1', port: address.port, path: '/file', agent });
    // Node sends an answer's head with its first bytes.
    body.write('first bytes');
    const [response] = (await once(request, 'response')) as [http.IncomingMessage];
    const socket = request.socket!;
    // Bounded (the keep-alive time-out is 72 s); the timer also keeps the loop alive, as the agent
    // unrefs the sockets it keeps.
    const ended = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the connection was still open 5 s after its answer')), 5_000);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    const closed = app.close();
    // The answer ends after the close began.
    body.end('last bytes');
    response.resume();
    await once(response, 'end');
    await ended;
    await closed;
  } finally {
    agent.destroy();
  }
});
