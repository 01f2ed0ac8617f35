import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CredentialsFile } from '../../src/seed/credentials.js';
import { call, startTestPlaza, type TestPlaza } from '../support/server.js';
import { worldScenario } from '../support/world-scenario.js';

/**
 * Issue #36's "16 workers": each in a world of its own, all at once against one Plaza, running
 * the scenario of test/support/world-scenario.ts (posts, a like through the enterprise app, a
 * follow, a search, a stream that receives its own post, a webhook delivery). Every scenario
 * succeeds and sees nothing of the other worlds. (How long it takes beside one worker alone is
 * bench/worlds.ts's to measure, not a test's.)
 */
let plaza: TestPlaza;
before(async () => {
  plaza = await startTestPlaza({ activityPollMs: 100, activityKeepAliveMs: 2_000 });
});
after(() => plaza.close());

const admin = (method: string, path: string, body?: unknown) => call(plaza.urls.base_url, path, { method, auth: { bearer: plaza.adminToken! }, ...(body === undefined ? {} : { body }) });

test('16 workers, each in its own world, run the scenario at once against one Plaza: every scenario sees only its own world', async () => {
  const worlds: Array<{ id: string; credentials: CredentialsFile }> = [];
  for (let i = 0; i < 16; i++) {
    const res = await admin('POST', '/admin/worlds', { seed: 'demo' });
    assert.equal(res.status, 201, res.text);
    worlds.push(res.body.data);
  }
  const results = await Promise.all(worlds.map((w) => worldScenario(w, admin)));
  for (const [i, r] of results.entries()) {
    assert.deepEqual(r.foreign, [], `world ${worlds[i]!.id} saw other worlds`);
    assert.ok(r.requests >= 50, `${r.requests} requests`);
  }
  for (const w of worlds) assert.equal((await admin('DELETE', `/admin/worlds/${w.id}`)).status, 200);
});
