import assert from 'node:assert/strict';
import fs from 'node:fs';
import { before, test } from 'node:test';
import { coverageMarkdown } from '../../scripts/coverage.js';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { fixtures } from '../support/fixtures.js';

let plaza: TestPlaza;
let document: any;
before(async () => {
  plaza = await startTestPlaza();
  document = (await fixtures(plaza).get('/2/openapi.json')).body;
});

test('the served OpenAPI description equals the committed openapi/platform.json (run `npm run openapi:write` after changing a route)', () => {
  const committed = JSON.parse(fs.readFileSync(new URL('../../openapi/platform.json', import.meta.url), 'utf8'));
  assert.deepEqual(document, committed);
});

const reference = new URL('../../../shared/reference/coverage.md', import.meta.url);

test('docs/coverage.md, the public description\'s operations and which Plaza serves, is up to date (run `npm run openapi:write`)', { skip: fs.existsSync(reference) ? false : 'needs ../shared/reference/coverage.md' }, () => {
  const committed = fs.readFileSync(new URL('../../docs/coverage.md', import.meta.url), 'utf8');
  assert.equal(committed, coverageMarkdown(fs.readFileSync(reference, 'utf8'), document));
});

test('the description is OpenAPI 3.0 at description version 2.166, with no server-level security requirement', () => {
  assert.match(document.openapi, /^3\.0\./);
  assert.equal(document.info.version, '2.166');
  assert.equal(document.security, undefined);
});

test('security schemes: BearerToken is HTTP bearer (app-only), UserToken is HTTP with scheme OAuth (user context)', () => {
  assert.deepEqual(document.components.securitySchemes.BearerToken, { type: 'http', scheme: 'bearer' });
  assert.deepEqual(document.components.securitySchemes.UserToken, { type: 'http', scheme: 'OAuth' });
});

test('operations declare their own security and tag; validateWebhooks is tagged Webhooks and accepts either scheme', () => {
  for (const [path, operations] of Object.entries<any>(document.paths)) {
    for (const [method, op] of Object.entries<any>(operations)) {
      // The description itself is public (no credentials), as the public platform's is.
      if (op.operationId === 'getOpenApiSpec') assert.deepEqual(op.security, [], 'GET /2/openapi.json asks for no credentials');
      else assert.ok(Array.isArray(op.security) && op.security.length > 0, `${method} ${path} declares security`);
      assert.ok(Array.isArray(op.tags) && op.tags.length === 1, `${method} ${path} has one tag`);
      assert.ok(op.operationId, `${method} ${path} has an operationId`);
    }
  }
  const validate = document.paths['/2/webhooks/{webhook_id}'].put;
  assert.equal(validate.operationId, 'validateWebhooks');
  assert.deepEqual(validate.tags, ['Webhooks']);
  assert.deepEqual(new Set(validate.security.map((s: object) => Object.keys(s)[0])), new Set(['BearerToken', 'UserToken']));
  const idParam = validate.parameters.find((p: any) => p.name === 'webhook_id');
  assert.equal(idParam.in, 'path');
  assert.equal(idParam.required, true);
  assert.equal(idParam.schema.pattern, '^[0-9]{1,19}$');
  assert.ok(validate.responses.default.content['application/problem+json'], 'other statuses: a Problem');
  assert.ok(validate.responses.default.content['application/json'], 'other statuses: an Error object');
});

test('the Error object has code (int32) and message, both required; the Problem has type and title required', () => {
  const { Error: error, Problem: problem } = document.components.schemas;
  assert.deepEqual(new Set(error.required), new Set(['code', 'message']));
  assert.equal(error.properties.code.format, 'int32');
  assert.deepEqual(new Set(problem.required), new Set(['type', 'title']));
});

test('field and expansion parameters are described as the public platform does: arrays of the allowed names, form style, not exploded, from the same declarations the requests are checked against', async () => {
  const param = (path: string, name: string) => document.paths[path].get.parameters.find((p: any) => p.name === name);
  for (const name of ['expansions', 'post.fields', 'user.fields', 'media.fields', 'poll.fields', 'place.fields']) {
    const p = param('/2/posts/{id}', name);
    assert.equal(p.schema.type, 'array', name);
    assert.equal(p.style, 'form');
    assert.equal(p.explode, false);
    assert.ok(p.schema.items.enum.length > 0, name);
  }
  assert.ok(param('/2/posts/{id}', 'expansions').schema.items.enum.includes('referenced_posts.id.author_id'));
  // A user endpoint lists the user expansions, not the post ones.
  const userExpansions = param('/2/users/{id}', 'expansions').schema.items.enum;
  assert.ok(userExpansions.includes('pinned_post_id'));
  assert.ok(!userExpansions.includes('author_id'));
  // Every listed name is accepted; a name outside the list is refused, naming the parameter.
  const f = fixtures(plaza);
  const all = (path: string, name: string) => param(path, name).schema.items.enum.join(',');
  const ok = await f.get(`/2/users/by/username/ada?user.fields=${all('/2/users/by/username/{username}', 'user.fields')}&expansions=${userExpansions.join(',')}`, { auth: f.appAuth });
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  const bad = await f.get(`/2/users/by/username/ada?expansions=${userExpansions.join(',')},author_id`, { auth: f.appAuth });
  assert.equal(bad.status, 400);
  assert.match(JSON.stringify(bad.body), /expansions/);
});
