import assert from 'node:assert/strict';
import http from 'node:http';
import { after, test } from 'node:test';
import { parseTrustedProxies } from '../../src/http/trusted-proxies.js';
import { StartupError, loadConfig, checkStartable } from '../../src/config.js';
import { call, startTestPlaza } from '../support/server.js';
import { eventually } from '../support/wait.js';

/**
 * Issue #37 item 5, "Behind a balancer every client has the balancer's address": X-Forwarded-For
 * is believed from the configured proxies only (--trust-proxy, PLAZA_TRUST_PROXY), and every
 * per-address rule then applies to the client's address: the sign-in and OAuth step limits, the
 * connections a client may hold, who may read /metrics.
 */
const agents: http.Agent[] = [];
after(() => agents.forEach((a) => a.destroy()));

test('--trust-proxy takes addresses and CIDR blocks, IPv4 and IPv6 (an IPv4 peer on a dual-stack socket too); anything else stops the start naming the entry', async () => {
  const trusted = parseTrustedProxies(['10.0.0.0/8', '127.0.0.1', 'fd00::/8'])!;
  for (const yes of ['10.1.2.3', '127.0.0.1', '::ffff:127.0.0.1', 'fd12::1']) assert.ok(trusted.trusts(yes), yes);
  for (const no of ['11.0.0.1', '127.0.0.2', '::1', 'fe80::1', '', undefined, 'nonsense']) assert.ok(!trusted.trusts(no), String(no));
  assert.equal(parseTrustedProxies([]), undefined);
  for (const bad of ['10.0.0.0/33', 'example.com', '10.0.0.1/8/1', '::1/129', '1.2.3']) {
    assert.throws(() => parseTrustedProxies([bad]), new RegExp(bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')));
    await assert.rejects(checkStartable(loadConfig({ trustProxy: [bad], port: 0, adsPort: 0, adsSandboxPort: 0, proxyPort: 0 }, {})), (err: Error) => err instanceof StartupError && err.message.includes('--trust-proxy'));
  }
});

test('--public-url (and the ads ones) takes an http or https address with no path; anything else stops the start naming the flag', async () => {
  const config = (platform: string, env: NodeJS.ProcessEnv = {}) => loadConfig({ publicUrls: { platform }, port: 0, adsPort: 0, adsSandboxPort: 0, proxyPort: 0 }, env);
  for (const bad of ['plaza.example.com', 'ftp://plaza.example.com', 'https://plaza.example.com/api', 'https://plaza.example.com/?a=1', 'https://user:pw@plaza.example.com']) {
    await assert.rejects(checkStartable(config(bad)), (err: Error) => err instanceof StartupError && err.message.includes('--public-url'), bad);
  }
  assert.equal(config('https://plaza.example.com/').publicUrls.platform, 'https://plaza.example.com', 'written as a base: no trailing slash');
  assert.equal(loadConfig({}, { PLAZA_PUBLIC_ADS_URL: 'https://ads.example.com' }).publicUrls.ads, 'https://ads.example.com');
});

test('without --trust-proxy X-Forwarded-For is ignored: a client cannot claim another address', async () => {
  const plaza = await startTestPlaza({ oauthRateLimit: 2 });
  // /metrics answers loopback: the header naming an outside address changes nothing.
  assert.equal((await call(plaza.urls.base_url, '/metrics', { headers: { 'x-forwarded-for': '203.0.113.9' } })).status, 200);
  // The sign-in page's limit is the socket's: two "different" forwarded clients share it.
  const statuses = [];
  for (const client of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) statuses.push((await call(plaza.urls.base_url, '/login', { headers: { 'x-forwarded-for': client } })).status);
  assert.deepEqual(statuses, [200, 200, 429]);
});

test('behind a trusted balancer the forwarded address is the client\'s: /metrics, the sign-in limits and the per-address cap follow it', async () => {
  const plaza = await startTestPlaza({ oauthRateLimit: 2, trustProxy: ['127.0.0.1', '::1'], maxConnectionsPerAddress: 3 });
  const from = (client: string) => ({ headers: { 'x-forwarded-for': client } });
  // /metrics: the client is outside, whatever socket the balancer uses.
  assert.equal((await call(plaza.urls.base_url, '/metrics', from('203.0.113.9'))).status, 404);
  assert.equal((await call(plaza.urls.base_url, '/metrics', from('127.0.0.1'))).status, 200);
  // The sign-in page's limit: each forwarded client has its own window.
  const login = async (client: string) => (await call(plaza.urls.base_url, '/login', from(client))).status;
  assert.deepEqual([await login('203.0.113.1'), await login('203.0.113.1'), await login('203.0.113.1')], [200, 200, 429]);
  assert.equal(await login('203.0.113.2'), 200);
  // The balancer's own connections are not capped at 3: it carries many clients.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 10 });
  agents.push(agent);
  const healthz = (client: string) =>
    new Promise<number>((resolve, reject) => {
      http.get(`${plaza.urls.base_url}/healthz`, { agent, headers: { 'x-forwarded-for': client } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      }).on('error', reject);
    });
  const many = await Promise.all(Array.from({ length: 8 }, (_, i) => healthz(`198.51.100.${i + 1}`)));
  assert.deepEqual(many, Array(8).fill(200));
  // One forwarded client may hold at most 3 requests open: a fourth is refused in the interface's shape.
  // Held open: bodies announced and never sent.
  const held: http.ClientRequest[] = [];
  for (let i = 0; i < 3; i++) {
    const req = http.request(`${plaza.urls.base_url}/2/posts`, { method: 'POST', agent: false, headers: { 'x-forwarded-for': '192.0.2.50', 'content-type': 'application/json', 'content-length': '1000' } });
    req.on('error', () => undefined);
    req.flushHeaders();
    held.push(req);
  }
  await eventually(async () => (await call(plaza.urls.base_url, '/2/users/me', from('192.0.2.50'))).status === 429, 'the fourth request of the client to be refused');
  const refused = await call(plaza.urls.base_url, '/2/users/me', from('192.0.2.50'));
  assert.equal(refused.status, 429);
  assert.match(refused.text, /requests open already/);
  assert.equal((await call(plaza.urls.base_url, '/healthz', from('192.0.2.51'))).status, 200);
  for (const req of held) req.destroy();
  await eventually(async () => (await call(plaza.urls.base_url, '/2/users/me', from('192.0.2.50'))).status === 401, 'the client\'s requests to be counted out once they end');
});
