/**
 * A webhook receiver for the local demo (README "A webhook receiver in three commands"): it
 * listens on 127.0.0.1:PORT, answers Plaza's CRC challenge with the demo app's consumer secret,
 * registers itself (POST /2/webhooks), subscribes the first demo user (Account Activity, with
 * that user's OAuth 2.0 token), then prints every delivery with its signature checked.
 *
 *   npx tsx scripts/webhook-receiver.ts [port] [credentials file]
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';

const port = Number(process.argv[2] ?? 9000);
const creds = JSON.parse(fs.readFileSync(process.argv[3] ?? 'data/credentials.json', 'utf8'));
const app = creds.apps[0];
const user = creds.users[0];
const sign = (text: string) => `sha256=${createHmac('sha256', app.consumer_secret).update(text).digest('base64')}`;

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (req.method === 'GET') {
      // The CRC challenge: prove we hold the consumer secret.
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ response_token: sign(url.searchParams.get('crc_token') ?? '') }));
      return;
    }
    const raw = Buffer.concat(chunks).toString('utf8');
    const expected = Buffer.from(sign(raw));
    const got = Buffer.from(String(req.headers['x-twitter-webhooks-signature'] ?? ''));
    const ok = expected.length === got.length && timingSafeEqual(expected, got);
    process.stdout.write(`${ok ? 'signature ok' : 'BAD SIGNATURE'} delivery ${req.headers['x-plaza-delivery-id']}: ${raw}\n`);
    res.writeHead(ok ? 200 : 401).end();
  });
});

async function api(method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${creds.base_url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}

server.listen(port, '127.0.0.1', async () => {
  const url = `http://127.0.0.1:${port}/webhook`;
  let webhook = (await api('GET', '/2/webhooks', app.bearer_token)).body.data?.find((w: any) => w.url === url);
  if (!webhook) {
    const created = await api('POST', '/2/webhooks', app.bearer_token, { url });
    if (created.status !== 200) throw new Error(`could not register ${url}: ${JSON.stringify(created.body)}`);
    webhook = created.body.data;
  } else {
    await api('PUT', `/2/webhooks/${webhook.id}`, app.bearer_token);
  }
  const sub = await api('POST', `/2/account_activity/webhooks/${webhook.id}/subscriptions/all`, user.oauth2_access_token);
  if (sub.status !== 200) throw new Error(`could not subscribe @${user.username}: ${JSON.stringify(sub.body)}`);
  process.stdout.write(`webhook ${webhook.id} at ${url}; @${user.username}'s activity is delivered here (Ctrl-C to stop)\n`);
});
