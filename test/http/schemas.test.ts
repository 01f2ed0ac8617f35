import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { compileAllSchemas } from '../../src/http/lazy-schemas.js';
import { startTestPlaza } from '../support/server.js';

before(async () => {
  await startTestPlaza();
});

test("every route's request and response schemas compile: built lazily on a route's first request in production, all of them here", () => {
  assert.doesNotThrow(() => compileAllSchemas());
});
