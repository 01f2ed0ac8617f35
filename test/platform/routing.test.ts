import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { fixtures, type Fixtures } from '../support/fixtures.js';

let plaza: TestPlaza;
let g: Fixtures;

before(async () => {
  plaza = await startTestPlaza();
  g = fixtures(plaza);
});

async function raw(method: string, path: string, bearer?: string) {
  const res = await fetch(`${plaza.urls.base_url}${path}`, { method, headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: JSON.parse(await res.text()) };
}

test('"a path such as /2/communities/search, /2/posts/analytics or /2/users/public_keys never falls into a /{id} route\'s 400": 404 in the problem shape, with or without credentials', async () => {
  const bearer = g.user('ada').oauth2_access_token;
  // Served now for their own methods; a GET names a literal segment where a /{id} route has its parameter.
  for (const path of ['/2/chat/conversations/group', '/2/media/subtitles', '/2/chat/conversations/group?x=1']) {
    for (const auth of [bearer, undefined]) {
      const res = await raw('GET', path, auth);
      assert.equal(res.status, 404, `${path} ${auth ? 'with' : 'without'} credentials`);
      assert.match(res.type, /^application\/problem\+json/);
      assert.equal(res.body.status, 404);
      assert.equal(res.body.title, 'Not Found');
      assert.match(res.body.detail, new RegExp(`No route matches GET ${path.split('?')[0]}`));
    }
  }
});

test('"every unknown route answers 404": unknown paths and methods, in the problem shape', async () => {
  for (const [method, path] of [['GET', '/2/nothing_here'], ['GET', '/2/posts/1/nothing'], ['PATCH', '/2/posts/1'], ['GET', '/3/posts']]) {
    const res = await raw(method, path);
    assert.equal(res.status, 404, `${method} ${path}`);
    assert.match(res.type, /^application\/problem\+json/);
    assert.equal(res.body.title, 'Not Found');
  }
});

test('a bad id of a /{id} route is still a 400 naming the parameter, and served literal routes beside /{id} routes still answer', async () => {
  const bad = await g.get('/2/users/abc', { auth: g.appAuth });
  assert.equal(bad.status, 400);
  assert.ok(bad.body.errors[0].parameters.id);
  const badPost = await g.get('/2/posts/notanid', { auth: g.appAuth });
  assert.equal(badPost.status, 400);
  assert.equal((await g.get('/2/users/me', { auth: g.oauth2As('ada') })).status, 200);
  assert.equal((await g.get('/2/users/by?usernames=ada', { auth: g.appAuth })).status, 200);
  assert.equal((await g.get(`/2/media/upload?media_id=1`, { auth: g.oauth2As('ada') })).status, 404, 'GET /2/media/upload is a route of its own, not /2/media/{media_key}');
});
