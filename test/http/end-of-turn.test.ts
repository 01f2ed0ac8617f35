import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { Metrics } from '../../src/http/metrics.js';
import { createListener } from '../../src/http/server.js';

test('an answer is not written when its handler sends it but at the end of the turn of the event loop, each with its own body and status', async () => {
  const app = await createListener(loadConfig({ logLevel: 'silent' }, {}), new Metrics(), 'test');
  const endedAtSend: boolean[] = [];
  const endedInCheckPhase: boolean[] = [];
  app.get('/answer/:n', (request, reply) => {
    const { n } = request.params as { n: string };
    reply.code(n === '2' ? 201 : 200).send({ n });
    endedAtSend.push(reply.raw.writableEnded);
    // Scheduled after the answer's own wait began: it runs once the answer has left.
    setImmediate(() => endedInCheckPhase.push(reply.raw.writableEnded));
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no TCP address');
    const base = `http://127.0.0.1:${address.port}`;
    const answers = await Promise.all(
      ['1', '2', '3'].map(async (n) => {
        const res = await fetch(`${base}/answer/${n}`);
        return [res.status, await res.json()];
      }),
    );
    assert.deepEqual(answers, [[200, { n: '1' }], [201, { n: '2' }], [200, { n: '3' }]]);
    assert.deepEqual(endedAtSend, [false, false, false], 'nothing is written while the turn runs');
    assert.deepEqual(endedInCheckPhase, [true, true, true], 'written in that turn');
  } finally {
    await app.close();
  }
});
