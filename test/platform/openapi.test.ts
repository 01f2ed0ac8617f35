import assert from 'node:assert/strict';
import fs from 'node:fs';
import { before, test } from 'node:test';
import { coverageMarkdown } from '../../scripts/coverage.js';
import { fixtures, startTestPlaza, type TestPlaza } from '../support/server.js';

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
      assert.ok(Array.isArray(op.security) && op.security.length > 0, `${method} ${path} declares security`);
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
