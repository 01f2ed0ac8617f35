import assert from 'node:assert/strict';
import { StreamClient } from '../../support/streams.js';
import type { TestPlaza } from '../../support/server.js';
import { fixtures } from '../../support/fixtures.js';

/** Shared helpers of the stream tests: open streams (closed after each test), add rules, post. */
export function streamFixtures(plaza: TestPlaza) {
  const g = fixtures(plaza);
  const clients: StreamClient[] = [];
  return {
    g,
    clients,
    async open(path: string, bearer = plaza.creds.apps[0].bearer_token): Promise<StreamClient> {
      const client = await StreamClient.open(plaza.urls.base_url, path, bearer);
      clients.push(client);
      return client;
    },
    closeAll(): void {
      for (const c of clients.splice(0)) c.close();
    },
    async addRules(rules: Array<{ value: string; tag?: string }>, bearer = plaza.creds.apps[0].bearer_token) {
      const res = await g.send('POST', '/2/posts/search/stream/rules', { auth: { bearer }, body: { add: rules } });
      assert.equal(res.status, 200, res.text);
      return res.body.data as Array<{ id: string; value: string; tag?: string }>;
    },
    async deleteAllRules(bearer = plaza.creds.apps[0].bearer_token) {
      const res = await g.send('POST', '/2/posts/search/stream/rules?delete_all=true', { auth: { bearer }, body: {} });
      assert.ok(res.status === 200, res.text);
    },
    async post(username: string, text: string, extra: Record<string, unknown> = {}) {
      const res = await g.send('POST', '/2/posts', { auth: await g.enterpriseAs(username), body: { text, ...extra } });
      assert.equal(res.status, 201, res.text);
      return res.body.data as { id: string; text: string };
    },
    /** Kills every connection of both demo apps, so each test starts with its allowance free. */
    async killAll(): Promise<void> {
      for (const app of plaza.creds.apps) {
        const res = await g.send('DELETE', '/2/connections/all', { auth: { bearer: app.bearer_token } });
        assert.equal(res.status, 200, res.text);
      }
    },
  };
}
