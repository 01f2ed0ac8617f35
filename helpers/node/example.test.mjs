// A world per test file with node:test (Jest and Vitest: the same calls in beforeAll/afterAll).
// Run: PLAZA_CREDENTIALS=data/credentials.json node --test example.test.mjs
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createWorld } from './plaza-world.mjs';

let world;
before(async () => {
  world = await createWorld({ seed: 'demo' });
});
after(() => world.delete());

const api = async (method, path, token, body) => {
  const res = await fetch(`${world.credentials.base_url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json() };
};

test('a post made in the world is read back in it', async () => {
  const ada = world.credentials.users.find((u) => u.username === 'ada');
  const made = await api('POST', '/2/posts', ada.oauth2_access_token, { text: 'hello from my own world' });
  assert.equal(made.status, 201);
  const read = await api('GET', `/2/posts/${made.body.data.id}`, world.credentials.apps[0].bearer_token);
  assert.equal(read.body.data.text, 'hello from my own world');
});

test('a reset brings the seed state back, with the same credentials', async () => {
  const ada = world.credentials.users.find((u) => u.username === 'ada');
  const made = await api('POST', '/2/posts', ada.oauth2_access_token, { text: 'gone after the reset' });
  await world.reset();
  const read = await api('GET', `/2/posts/${made.body.data.id}`, world.credentials.apps[0].bearer_token);
  assert.equal(read.body.errors[0].title, 'Not Found Error');
});
