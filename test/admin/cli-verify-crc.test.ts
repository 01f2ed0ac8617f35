import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { plazaCli } from '../support/cli.js';
import { Receiver } from '../support/receivers.js';

/**
 * `plaza verify-crc URL [--app ID]` (issue #17 "The CLI"): a CRC challenge as the platform sends
 * it, and exactly what is wrong with the answer.
 */
let plaza: TestPlaza;
let file: string;
const receiver = new Receiver();

before(async () => {
  await receiver.start();
  plaza = await startTestPlaza();
  file = path.join(plaza.dataDir, 'credentials.json');
  const app = plaza.creds.apps[0]!;
  const userSecret = plaza.creds.users[0]!.tokens.find((t) => t.app_id === app.id)!.access_token_secret;
  const token = (crc: string, key: string) => `sha256=${createHmac('sha256', key).update(crc).digest('base64')}`;
  receiver.answer = (hit, res) => {
    const url = new URL(hit.url, 'http://x');
    const crc = url.searchParams.get('crc_token') ?? '';
    const json = (body: unknown, type = 'application/json') => res.writeHead(200, { 'content-type': type }).end(JSON.stringify(body));
    switch (url.pathname) {
      case '/good':
        return json({ response_token: token(crc, app.consumer_secret) });
      case '/bearer':
        return json({ response_token: token(crc, app.bearer_token) });
      case '/user-secret':
        return json({ response_token: token(crc, userSecret) });
      case '/missing':
        return res.writeHead(404).end('not here');
      case '/text':
        return json({ response_token: token(crc, app.consumer_secret) }, 'text/plain');
      case '/shape':
        return json({ token: token(crc, app.consumer_secret) });
      case '/redirect':
        return res.writeHead(302, { location: '/good' }).end();
      case '/slow': {
        // Real time: the CLI, another process, times the answer against the 3 s limit on its own clock.
        const timer = setTimeout(() => json({ response_token: token(crc, app.consumer_secret) }), 3_300);
        res.on('close', () => clearTimeout(timer));
        return;
      }
      default:
        return res.writeHead(500).end();
    }
  };
});
after(() => receiver.close());

const verify = (p: string, ...more: string[]) => plazaCli('verify-crc', receiver.url(p), '--credentials-file', file, ...more);

function failsWith(res: { code: number; stderr: string }, pattern: RegExp) {
  assert.equal(res.code, 1, res.stderr);
  assert.equal(res.stderr.trim().split('\n').length, 1, res.stderr);
  assert.match(res.stderr.trim(), pattern);
}

test('"a CRC challenge as the platform sends it": GET ?crc_token= with accept application/json; a right answer passes', async () => {
  const res = await verify('/good');
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /^CRC passed: HTTP 200, application\/json, \d+ ms, response_token correct/);
  const hit = receiver.hits.at(-1)!;
  assert.equal(hit.method, 'GET');
  assert.match(hit.url, /^\/good\?crc_token=[A-Za-z0-9_-]{32}$/);
  assert.equal(hit.headers.accept, 'application/json');
});

test('"it recognises a token signed with the bearer token or the access token secret instead of the consumer secret"', async () => {
  const app = plaza.creds.apps[0]!;
  failsWith(await verify('/bearer'), new RegExp(`^plaza verify-crc: response_token is signed with the bearer token instead of the consumer secret of .*\\(${app.id}\\)$`));
  failsWith(await verify('/user-secret'), new RegExp(`^plaza verify-crc: response_token is signed with the access token secret of @${plaza.creds.users[0]!.username} instead of the consumer secret`));
  // Under another app's secret, the right answer of the first app is a wrong key.
  failsWith(await verify('/good', '--app', plaza.creds.apps[1]!.id), /^plaza verify-crc: response_token is wrong: expected the HMAC-SHA256 of crc_token under the consumer secret of/);
});

test('"says exactly what is wrong": status, redirect, content type, JSON shape, time over 3 s', async () => {
  failsWith(await verify('/missing'), /^plaza verify-crc: answered HTTP 404: the CRC answer must be 200$/);
  failsWith(await verify('/redirect'), /^plaza verify-crc: answered HTTP 302 \(a redirect to \/good\): redirects are not followed/);
  failsWith(await verify('/text'), /^plaza verify-crc: answered with content type "text\/plain": it must be application\/json$/);
  failsWith(await verify('/shape'), /^plaza verify-crc: the JSON has no string response_token \(keys: token\)/);
  failsWith(await verify('/slow'), /^plaza verify-crc: answered in \d+ ms, over the 3 s the platform waits$/);
});

test('verify-crc fails with one line on an unknown app, a bad URL or nothing listening; --help has an example', async () => {
  failsWith(await verify('/good', '--app', 'No Such App'), /^plaza verify-crc: no app "No Such App" in /);
  failsWith(await plazaCli('verify-crc', 'not a url', '--credentials-file', file), /^plaza verify-crc: the URL "not a url" is not a URL/);
  const closed = await new Receiver().start();
  const url = closed.url();
  await closed.close();
  failsWith(await plazaCli('verify-crc', url, '--credentials-file', file), /^plaza verify-crc: cannot reach http:\/\/127\.0\.0\.1:\d+\/hook \(ECONNREFUSED\)$/);
  const help = await plazaCli('verify-crc', '--help');
  assert.match(help.stdout, /Example:\n\s+npm run plaza -- verify-crc http/);
});
