import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CredentialsFile } from '../../src/seed/credentials.js';
import { call, startTestPlaza, type TestPlaza } from '../support/server.js';
import { eventually } from '../support/wait.js';

/**
 * A world's life in a process (issue #36's design notes): closed once idle, so it costs no timer
 * and no connection, and opened again by its next request; and seen by every process on the same
 * store, which finds it in the default store's list.
 */
let first: TestPlaza;
let second: TestPlaza;
before(async () => {
  first = await startTestPlaza({ worldIdleMs: 1_000 });
  second = await startTestPlaza({ databaseUrl: first.databaseUrl });
});
after(async () => {
  await second.close();
  await first.close();
});

const adminOf = (plaza: TestPlaza) => (method: string, path: string, body?: unknown) =>
  call(plaza.urls.base_url, path, { method, auth: { bearer: plaza.adminToken! }, ...(body === undefined ? {} : { body }) });

test('an idle world is closed (no timer, no connection) and its next request opens it again', async () => {
  const made = await adminOf(first)('POST', '/admin/worlds', { seed: 'empty' });
  assert.equal(made.status, 201, made.text);
  const c: CredentialsFile = made.body.data.credentials;
  assert.equal(first.worlds.openCount(), 1);
  await eventually(() => first.worlds.openCount() === 0, 'the idle world to be closed', 10_000);
  const me = await call(first.urls.base_url, '/2/users/me', { auth: { bearer: c.users[0]!.oauth2_access_token } });
  assert.equal(me.status, 200, me.text);
  assert.equal(first.worlds.openCount(), 1);
});

test('several processes on one store see the same worlds: made through one, served by the other', async () => {
  const made = await adminOf(first)('POST', '/admin/worlds', { seed: 'empty' });
  assert.equal(made.status, 201, made.text);
  const { id, credentials } = made.body.data as { id: string; credentials: CredentialsFile };
  const ada = { bearer: credentials.users[0]!.oauth2_access_token };
  const posted = await call(first.urls.base_url, '/2/posts', { method: 'POST', auth: ada, body: { text: 'written through the first process' } });
  assert.equal(posted.status, 201, posted.text);
  const read = await call(second.urls.base_url, `/2/posts/${posted.body.data.id}`, { auth: { bearer: credentials.apps[0]!.bearer_token } });
  assert.equal(read.status, 200, read.text);
  assert.equal(read.body.data.text, 'written through the first process');
  assert.ok((await adminOf(second)('GET', '/admin/worlds')).body.data.some((w: { id: string }) => w.id === id));
  // Deleted through the second: the first refuses its credentials too.
  assert.equal((await adminOf(second)('DELETE', `/admin/worlds/${id}`)).status, 200);
  await eventually(async () => (await call(first.urls.base_url, '/2/users/me', { auth: ada })).status === 401, 'the first process to refuse the deleted world', 10_000);
});
