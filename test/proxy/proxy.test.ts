import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { after, before, test } from 'node:test';
import OAuth from 'oauth-1.0a';
import { FormData, ProxyAgent, request } from 'undici';
import { dropPostgresDatabase, freshPostgresDatabase, startTestPlaza, type TestPlaza } from '../support/server.js';
import { startChildPlaza, type ChildPlaza } from '../support/child-plaza.js';
import { fixtures } from '../support/fixtures.js';
import { eventually } from '../support/wait.js';
import { plazaCli } from '../support/cli.js';
import { png } from '../support/media-files.js';

/**
 * The drop-in proxy (issue 35): CONNECT for the public platform's hosts answered by Plaza with
 * certificates of its own authority, nothing else tunnelled; streams and uploads through it; the
 * authority shared by processes on one data directory. The SDKs through it: sdk-drop-in.test.ts.
 */

let plaza: TestPlaza;
let proxy: ProxyAgent;

before(async () => {
  plaza = await startTestPlaza({ activityKeepAliveMs: 200 });
  proxy = new ProxyAgent({ uri: plaza.dropIn.proxy_url, requestTls: { ca: fs.readFileSync(plaza.dropIn.ca_file, 'utf8') } });
});
after(() => proxy.close());

/** Sends CONNECT to the proxy; the status line and body of its answer, and the socket. */
function connect(proxyUrl: string, target: string): Promise<{ status: number; body: string; socket: import('node:net').Socket }> {
  const { hostname, port } = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, method: 'CONNECT', path: target, agent: false });
    req.once('connect', (res, socket, head) => {
      let body = head.toString();
      if (res.statusCode === 200) return resolve({ status: 200, body, socket });
      socket.on('data', (d: Buffer) => (body += d.toString()));
      socket.on('end', () => resolve({ status: res.statusCode!, body, socket }));
    });
    req.once('error', reject);
    req.end();
  });
}

/** The certificate a host shows through the proxy, checked against Plaza's authority. */
async function certificateThrough(proxyUrl: string, host: string, ca: string): Promise<tls.PeerCertificate> {
  const { status, body, socket } = await connect(proxyUrl, `${host}:443`);
  assert.equal(status, 200, `CONNECT ${host}:443: ${body}`);
  const secure = tls.connect({ socket, servername: host, ca });
  try {
    await new Promise<void>((resolve, reject) => {
      secure.once('secureConnect', () => resolve());
      secure.once('error', reject);
    });
    return secure.getPeerCertificate();
  } finally {
    secure.destroy();
  }
}

test('"CONNECT to any other host is refused with 403 and a body naming the hosts Plaza answers for": Plaza never tunnels elsewhere; plain requests for other hosts are refused alike', async () => {
  for (const target of ['example.com:443', 'api.x.com:22', 'api.x.com.evil.example:443', 'nohost']) {
    const refused = await connect(plaza.dropIn.proxy_url, target);
    assert.equal(refused.status, 403, target);
    refused.socket.destroy();
    const body = JSON.parse(refused.body.slice(refused.body.indexOf('{')));
    assert.ok(body.hosts.includes('api.x.com') && body.hosts.includes('ads-api.twitter.com'), refused.body);
    assert.match(body.detail, /does not tunnel/);
  }
  const plain = await request('http://example.com/', { dispatcher: new ProxyAgent(plaza.dropIn.proxy_url) }).catch((err: unknown) => err as Error);
  assert.ok(plain instanceof Error || plain.statusCode === 403, 'a plain request for another host is not forwarded');
  const direct = await fetch(`${plaza.dropIn.proxy_url}/2/users/me`);
  assert.equal(direct.status, 400, 'the proxy port is not an interface');
  assert.match((await direct.json()).detail, /proxy/);
});

test('"terminates TLS with a certificate for that host issued by Plaza\'s own certificate authority" and answers as the public platform: tweet names, the same data', async () => {
  const ca = fs.readFileSync(plaza.dropIn.ca_file, 'utf8');
  for (const host of ['api.x.com', 'api.twitter.com', 'upload.twitter.com', 'ads-api.x.com', 'ads-api-sandbox.twitter.com']) {
    const cert = await certificateThrough(plaza.dropIn.proxy_url, host, ca);
    assert.equal(cert.subject.CN, host);
    assert.equal(cert.subjectaltname, `DNS:${host}`);
    assert.equal(cert.issuer.CN, 'Plaza local certificate authority');
  }
  const ada = fixtures(plaza).user('ada');
  const res = await request(`https://api.x.com/2/users/${ada.id}?user.fields=public_metrics`, { dispatcher: proxy, headers: { authorization: `Bearer ${plaza.creds.apps[0].bearer_token}` } });
  assert.equal(res.statusCode, 200);
  const body = (await res.body.json()) as any;
  assert.equal(body.data.username, 'ada');
  assert.ok('tweet_count' in body.data.public_metrics, JSON.stringify(body));
  // Over plain http, as an absolute URL: the same listener.
  const plain = await request(`http://api.twitter.com/2/users/${ada.id}`, { dispatcher: new ProxyAgent(plaza.dropIn.proxy_url), headers: { authorization: `Bearer ${plaza.creds.apps[0].bearer_token}` } });
  assert.equal(plain.statusCode, 200);
  assert.equal(((await plain.body.json()) as any).data.username, 'ada');
  // The ads hosts reach the advertising interface.
  const accounts = await request('https://ads-api.x.com/12/accounts', { dispatcher: proxy, headers: { authorization: `Bearer ${ada.oauth2_access_token}` } });
  assert.notEqual(accounts.statusCode, 404, 'the advertising interface answers for ads-api.x.com');
  await accounts.body.dump();
  // ...in the public Ads API's names (issue 34: the ads hosts are in the tweet dialect throughout).
  const url = 'https://ads-api.x.com/12/line_items/placements?product_type=PROMOTED_TWEETS';
  const placements = await request(url, { dispatcher: proxy, headers: { authorization: oauth1Header(plaza, 'ada', 'GET', url) } });
  const answer = (await placements.body.json()) as any;
  assert.equal(placements.statusCode, 200, JSON.stringify(answer));
  assert.equal(answer.data[0].product_type, 'PROMOTED_TWEETS');
  assert.ok(answer.data[0].placements.flat().includes('ALL_ON_TWITTER'), JSON.stringify(answer));
});

/** An OAuth 1.0a header of the demo user's first-app token for `url`, signed by an independent signer. */
function oauth1Header(p: TestPlaza, username: string, method: string, url: string): string {
  const app = p.creds.apps[0];
  const user = fixtures(p).user(username);
  const oauth = new OAuth({ consumer: { key: app.consumer_key, secret: app.consumer_secret }, signature_method: 'HMAC-SHA1', hash_function: (base, key) => crypto.createHmac('sha1', key).update(base).digest('base64') });
  return oauth.toHeader(oauth.authorize({ url, method }, { key: user.access_token, secret: user.access_token_secret })).Authorization;
}

test('"the certificate authority: created on the first start (a key that never leaves the data directory, mode 0600), its certificate written to data/ca.pem"; host certificates issued on demand and kept', async () => {
  const keyFile = path.join(plaza.dataDir, 'ca-key.pem');
  assert.equal(fs.statSync(keyFile).mode & 0o777, 0o600);
  assert.equal(plaza.dropIn.ca_file, path.join(plaza.dataDir, 'ca.pem'));
  assert.equal(plaza.creds.ca_file, plaza.dropIn.ca_file);
  assert.equal(plaza.creds.proxy_url, plaza.dropIn.proxy_url);
  assert.equal(plaza.creds.node_preload, path.join(plaza.dataDir, 'node-preload.mjs'));
  const caCert = new crypto.X509Certificate(fs.readFileSync(plaza.dropIn.ca_file));
  assert.equal(caCert.ca, true);
  assert.ok(!fs.readFileSync(plaza.dropIn.ca_file, 'utf8').includes('PRIVATE KEY'), 'ca.pem holds the certificate only');
  // Issued at the first connection (the test above), kept for the next start.
  const kept = path.join(plaza.dataDir, 'certs', 'api.x.com.pem');
  assert.equal(fs.statSync(kept).mode & 0o777, 0o600);
  const hostCert = new crypto.X509Certificate(fs.readFileSync(kept, 'utf8').slice(fs.readFileSync(kept, 'utf8').indexOf('-----BEGIN CERTIFICATE-----')));
  assert.ok(hostCert.verify(caCert.publicKey), 'signed by the authority');
  assert.ok(hostCert.checkIssued(caCert));
  // Nothing served holds the key.
  const credentials = fs.readFileSync(plaza.ctx.config.credentialsFile, 'utf8');
  assert.ok(!credentials.includes('PRIVATE KEY'));
  assert.ok(!fs.readFileSync(plaza.dropIn.node_preload, 'utf8').includes('PRIVATE KEY'));
});

test('"streams and uploads through the proxy": the filtered stream and the activity stream, keep-alives included, and a chunked media upload', async () => {
  const f = fixtures(plaza);
  const bearer = plaza.creds.apps[1].bearer_token;
  const word = `proxied${Date.now()}`;
  const rule = await f.send('POST', '/2/posts/search/stream/rules', { auth: { bearer }, body: { add: [{ value: word }] } });
  assert.equal(rule.status, 200, rule.text);
  const stream = await request('https://api.x.com/2/tweets/search/stream', { dispatcher: proxy, headers: { authorization: `Bearer ${bearer}` } });
  assert.equal(stream.statusCode, 200);
  let text = '';
  stream.body.setEncoding('utf8');
  stream.body.on('data', (chunk: string) => (text += chunk));
  const made = await f.send('POST', '/2/posts', { auth: await f.enterpriseAs('ada'), body: { text: `through the proxy ${word}` } });
  assert.equal(made.status, 201, made.text);
  await eventually(() => text.includes(made.body.data.id), 'the post on the filtered stream through the proxy');
  assert.match(text, /"matching_rules"/);
  // Hanging up: undici reports the aborted body as an error, which is what was asked for.
  stream.body.on('error', () => {});
  stream.body.destroy();

  const activity = await request('https://api.x.com/2/activity/stream', { dispatcher: proxy, headers: { authorization: `Bearer ${bearer}` } });
  assert.equal(activity.statusCode, 200);
  let lines = '';
  activity.body.setEncoding('utf8');
  activity.body.on('data', (chunk: string) => (lines += chunk));
  await eventually(() => lines.split('\r\n').length > 3, 'keep-alives on the activity stream through the proxy');
  activity.body.on('error', () => {});
  activity.body.destroy();

  // A chunked upload on upload.twitter.com: initialize, two appends, finalize, of a real image.
  const auth = { authorization: `Bearer ${f.user('ada').oauth2_access_token}` };
  const bytes = png(400, 300);
  const init = await request('https://upload.twitter.com/2/media/upload/initialize', {
    dispatcher: proxy,
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ media_type: 'image/png', total_bytes: bytes.length, media_category: 'tweet_image' }),
  });
  const initBody = (await init.body.json()) as any;
  assert.equal(init.statusCode, 200, JSON.stringify(initBody));
  const id = initBody.data.id as string;
  const half = Math.ceil(bytes.length / 2);
  for (const [i, part] of [bytes.subarray(0, half), bytes.subarray(half)].entries()) {
    const form = new FormData();
    form.append('segment_index', String(i));
    form.append('media', new Blob([new Uint8Array(part)]));
    const append = await request(`https://upload.twitter.com/2/media/upload/${id}/append`, { dispatcher: proxy, method: 'POST', headers: auth, body: form });
    assert.ok(append.statusCode < 300, `append ${i}: ${append.statusCode} ${await append.body.text()}`);
    await append.body.dump();
  }
  const fin = await request(`https://upload.twitter.com/2/media/upload/${id}/finalize`, { dispatcher: proxy, method: 'POST', headers: auth });
  const finBody = (await fin.body.json()) as any;
  // Finalize reads the two halves whole, as they arrived through the proxy: a PNG of the size sent.
  assert.equal(fin.statusCode, 200, JSON.stringify(finBody));
  assert.equal(finBody.data.id, id);
  assert.equal(finBody.data.size, bytes.length);
  assert.deepEqual(finBody.data.image, { image_type: 'image/png', w: 400, h: 300 });
});

test('"works with several processes": two processes on one store and one data directory share the authority, each serves the proxy, and each logs a refused CONNECT without ever logging the key', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-proxy-'));
  const adminUrl = process.env.DATABASE_URL;
  const db = adminUrl ? await freshPostgresDatabase(adminUrl) : path.join(dataDir, 'plaza.sqlite');
  const children: ChildPlaza[] = [];
  try {
    const env = { LOG_LEVEL: 'info' };
    children.push(await startChildPlaza({ db, dataDir, env, credentialsFile: path.join(dataDir, 'one.json') }));
    // A second process is given the first one's file, as an operator would: the store's tokens were minted once.
    fs.copyFileSync(path.join(dataDir, 'one.json'), path.join(dataDir, 'two.json'));
    children.push(await startChildPlaza({ db, dataDir, env, credentialsFile: path.join(dataDir, 'two.json') }));
    const ca = fs.readFileSync(path.join(dataDir, 'ca.pem'), 'utf8');
    const files = ['one.json', 'two.json'].map((f) => JSON.parse(fs.readFileSync(path.join(dataDir, f), 'utf8')));
    assert.notEqual(files[0].proxy_url, files[1].proxy_url);
    for (const file of files) {
      assert.equal(file.ca_file, path.join(dataDir, 'ca.pem'));
      const cert = await certificateThrough(file.proxy_url, 'api.x.com', ca);
      assert.equal(cert.issuer.CN, 'Plaza local certificate authority');
      const refused = await connect(file.proxy_url, 'example.org:443');
      refused.socket.destroy();
      assert.equal(refused.status, 403);
    }
    for (const child of children) {
      await eventually(() => child.output().includes('CONNECT refused'), 'the refusal logged');
      assert.ok(!child.output().includes('PRIVATE KEY'), 'the key is never logged');
      assert.ok(child.output().includes('drop-in proxy:'), 'the start-up lines name the proxy');
    }
  } finally {
    for (const child of children) await child.stop();
    if (adminUrl) await dropPostgresDatabase(db);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('`plaza ca --print-path` and `--node-preload` print the paths the credentials file names; `plaza doctor` reaches Plaza through the proxy from Node (the preload), Python and curl', async () => {
  const file = plaza.ctx.config.credentialsFile;
  const ca = await plazaCli('ca', '--print-path', '--credentials-file', file);
  assert.equal(ca.code, 0, ca.stderr);
  assert.equal(ca.stdout.trim(), plaza.dropIn.ca_file);
  const preload = await plazaCli('ca', '--node-preload', '--credentials-file', file);
  assert.equal(preload.stdout.trim(), plaza.dropIn.node_preload);
  const both = await plazaCli('ca', '--print-path', '--node-preload', '--credentials-file', file);
  assert.equal(both.code, 1);
  assert.match(both.stderr, /name one/);
  const doctor = await plazaCli('doctor', '--credentials-file', file);
  assert.equal(doctor.code, 0, `${doctor.stdout}${doctor.stderr}`);
  assert.match(doctor.stdout, /^ok +Node with the preload: GET https:\/\/api\.x\.com\/2\/users\/me: reaches Plaza$/m);
  assert.match(doctor.stdout, /^ok +curl --proxy .*: reaches Plaza$/m);
  // This shell has not set the variables: doctor says what to set.
  assert.match(doctor.stdout, new RegExp(`export HTTPS_PROXY=${plaza.dropIn.proxy_url} REQUESTS_CA_BUNDLE=${plaza.dropIn.ca_file}`));
});

test('malformed CONNECT targets and request lines are refused in the proxy\'s own shape, and the proxy goes on answering', async () => {
  for (const target of ['api.x.com:99999', ':443', '[::1]:443', 'api.x.com', `${'a'.repeat(5000)}.com:443`, 'API.X.COM:8443']) {
    const refused = await connect(plaza.dropIn.proxy_url, target);
    refused.socket.destroy();
    assert.equal(refused.status, 403, target);
  }
  // Host names are not case-sensitive.
  const upper = await connect(plaza.dropIn.proxy_url, 'API.X.COM:443');
  upper.socket.destroy();
  assert.equal(upper.status, 200);
  const { hostname, port } = new URL(plaza.dropIn.proxy_url);
  for (const line of ['GET ftp://api.x.com/ HTTP/1.1', 'GET http://[::1/ HTTP/1.1', 'GET http://api.x.com:99999/ HTTP/1.1']) {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => socket.end(`${line}\r\nHost: api.x.com\r\n\r\n`));
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(answer, /^HTTP\/1\.1 (400|403) /, `${line}: ${answer.slice(0, 200)}`);
  }
  const ok = await connect(plaza.dropIn.proxy_url, 'api.x.com:443');
  ok.socket.destroy();
  assert.equal(ok.status, 200, 'still answering');
});
