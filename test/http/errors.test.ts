import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { fixtures } from '../support/fixtures.js';

let plaza: TestPlaza;
let f: ReturnType<typeof fixtures>;

before(async () => {
  plaza = await startTestPlaza({ problemBase: 'https://api.x.com/2/problems' });
  f = fixtures(plaza);
});

test('an unknown route is a 404 about:blank problem', async () => {
  const res = await f.get('/2/nothing/here', { auth: f.appAuth });
  assert.equal(res.status, 404);
  assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(res.body.type, 'about:blank');
  assert.equal(res.body.status, 404);
  assert.equal(res.body.title, 'Not Found');
});

test('a schema-validation failure is a 400 invalid-request with errors[{message, parameters:{name:[value]}}], the configured problem base, title and detail', async () => {
  const res = await f.get('/2/users/by/username/bad-name!', { auth: f.appAuth });
  assert.equal(res.status, 400);
  assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(res.body.type, 'https://api.x.com/2/problems/invalid-request');
  assert.equal(res.body.title, 'Invalid Request');
  assert.equal(res.body.detail, 'One or more parameters to your request was invalid.');
  assert.equal(res.body.errors.length, 1);
  assert.deepEqual(res.body.errors[0].parameters, { username: ['bad-name!'] });
  assert.match(res.body.errors[0].message, /username/);
});

test('a body that is not JSON is an invalid-request naming the body, and changes nothing', async () => {
  const res = await f.send('POST', '/2/webhooks', { auth: f.appAuth, headers: { 'content-type': 'application/json' }, body: undefined });
  assert.equal(res.status, 400);
  const broken = await fetch(`${plaza.urls.base_url}/2/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${f.appAuth.bearer}`, 'content-type': 'application/json' },
    body: '{"url": ',
  });
  assert.equal(broken.status, 400);
  const body = await broken.json();
  assert.equal(body.type, 'https://api.x.com/2/problems/invalid-request');
  assert.ok('body' in body.errors[0].parameters);
  const list = await f.get('/2/webhooks', { auth: f.appAuth });
  assert.equal(list.body.meta.result_count, 0);
});

test('a missing required body field is an invalid-request naming it', async () => {
  const res = await f.send('POST', '/2/webhooks', { auth: f.appAuth, body: {} });
  assert.equal(res.status, 400);
  assert.deepEqual(res.body.errors[0].parameters, { url: [] });
});

test('every response carries its request id in x-request-id', async () => {
  const res = await f.get('/healthz');
  assert.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
});

test('an unexpected failure is a 500 problem carrying the request id, never a stack trace', async () => {
  const broken = await startTestPlaza();
  const bf = fixtures(broken);
  await broken.ctx.store.db.destroy();
  const res = await bf.get(`/2/posts/${broken.creds.sample.post_ids[0]}`, { auth: bf.appAuth });
  assert.equal(res.status, 500);
  assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(res.body.type, 'about:blank');
  assert.equal(res.body.title, 'Internal Server Error');
  const requestId = res.headers.get('x-request-id')!;
  assert.ok(res.body.detail.includes(requestId));
  assert.doesNotMatch(res.text, /\bat .*\.(ts|js):\d+/);
  assert.doesNotMatch(res.text, /destroyed|kysely|driver/i);
});

test('the Error object is rendered as application/json {code, message}', async () => {
  const { default: Fastify } = await import('fastify');
  const { installPlatformErrors } = await import('../../src/http/platform-errors.js');
  const { ErrorObjectError } = await import('../../src/http/problems.js');
  const app = Fastify();
  installPlatformErrors(app, plaza.ctx);
  app.get('/boom', async () => {
    throw new ErrorObjectError(403, 220, 'Your credentials do not allow access to this resource.');
  });
  const res = await app.inject({ method: 'GET', url: '/boom' });
  assert.equal(res.statusCode, 403);
  assert.match(res.headers['content-type'] as string, /^application\/json/);
  assert.deepEqual(res.json(), { code: 220, message: 'Your credentials do not allow access to this resource.' });
  await app.close();
});

test('a NUL character anywhere in a query parameter, path segment or body field is an invalid-request naming it, and changes nothing', async () => {
  const webhooks = async () => (await plaza.ctx.store.db.selectFrom('webhooks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
  const before = await webhooks();
  const cases = [
    { res: await f.send('POST', '/2/webhooks', { auth: f.appAuth, body: { url: 'https://example.com/hook\u0000' } }), name: 'url', kind: 'body field' },
    { res: await f.get('/2/spaces/search?query=plaza%00', { auth: f.appAuth }), name: 'query', kind: 'query parameter' },
    { res: await f.get('/2/users/by/username/ada%00', { auth: f.appAuth }), name: 'username', kind: 'path parameter' },
    { res: await f.send('POST', '/2/lists', { auth: f.oauth2As('ada'), body: { name: 'ok', description: 'nested \u0000' } }), name: 'description', kind: 'body field' },
  ];
  for (const { res, name, kind } of cases) {
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.type, 'https://api.x.com/2/problems/invalid-request');
    assert.equal(res.body.errors[0].message, `The \`${name}\` ${kind} must not contain NUL characters`);
    assert.deepEqual(Object.keys(res.body.errors[0].parameters), [name]);
  }
  assert.equal(await webhooks(), before);
  // Credentials are still checked first: no token is a 401, not a 400.
  assert.equal((await f.send('POST', '/2/webhooks', { body: { url: 'https://example.com/hook\u0000' } })).status, 401);
});

test('the partial errors of a 200 carry the configured problem base too, in either dialect', async () => {
  const missing = '1999999999999999999';
  for (const path of [`/2/posts?ids=${missing}`, `/2/tweets?ids=${missing}`]) {
    const res = await f.get(path, { auth: f.appAuth });
    assert.equal(res.status, 200, path);
    assert.equal(res.body.errors[0].type, 'https://api.x.com/2/problems/resource-not-found', path);
    assert.equal(res.body.errors[0].resource_id, missing);
  }
});
