import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { CredentialsFile } from '../../src/seed/credentials.js';
import { plazaCli } from '../support/cli.js';
import { call, startTestPlaza, type TestPlaza } from '../support/server.js';

/**
 * `plaza worlds create|list|credentials|reset|snapshot|snapshots|restore|delete` (issue #36): the
 * worlds of a running Plaza through its admin interface, found by --plaza-credentials; a new
 * world's credentials printed as JSON or written to --credentials-file.
 */
let plaza: TestPlaza;
let file: string;
before(async () => {
  plaza = await startTestPlaza();
  file = path.join(plaza.dataDir, 'credentials.json');
});
after(() => plaza.close());

const cli = (...args: string[]) => plazaCli('worlds', ...args, '--plaza-credentials', file);

test('plaza worlds: create (to a credentials file), list, snapshot to a file, reset, restore, create from the file, delete', async () => {
  const out = path.join(plaza.dataDir, 'world.json');
  const created = await cli('create', '--seed', 'empty', '--credentials-file', out);
  assert.equal(created.code, 0, created.stderr);
  const id = created.stdout.trim();
  assert.match(id, /^w[0-9a-z]{10}$/);
  const credentials = JSON.parse(fs.readFileSync(out, 'utf8')) as CredentialsFile;
  assert.equal(credentials.base_url, plaza.urls.base_url);
  const ada = { bearer: credentials.users[0]!.oauth2_access_token };
  assert.equal((await call(plaza.urls.base_url, '/2/users/me', { auth: ada })).status, 200);

  const listed = await cli('list');
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, /^ID\s+CREATED\s+SEED\s+SNAPSHOTS/);
  assert.ok(listed.stdout.includes(id));

  const posted = await call(plaza.urls.base_url, '/2/posts', { method: 'POST', auth: ada, body: { text: 'kept by the snapshot' } });
  assert.equal(posted.status, 201, posted.text);
  const fixture = path.join(plaza.dataDir, 'fixture.json');
  const snap = await cli('snapshot', id, 'one', '--file', fixture);
  assert.equal(snap.code, 0, snap.stderr);
  assert.deepEqual((JSON.parse((await cli('snapshots', id)).stdout) as Array<{ name: string }>).map((s) => s.name), ['one']);
  const read = () => call(plaza.urls.base_url, `/2/posts/${posted.body.data.id}`, { auth: { bearer: credentials.apps[0]!.bearer_token } });
  assert.equal((await cli('reset', id)).code, 0);
  assert.equal((await read()).body.errors?.[0]?.title, 'Not Found Error');
  assert.equal((await cli('restore', id, 'one')).code, 0);
  assert.equal((await read()).status, 200);

  const fromFile = await cli('create', '--snapshot-file', fixture);
  assert.equal(fromFile.code, 0, fromFile.stderr);
  const copy = JSON.parse(fromFile.stdout) as { id: string; credentials: CredentialsFile };
  assert.equal((await call(plaza.urls.base_url, `/2/posts/${posted.body.data.id}`, { auth: { bearer: copy.credentials.apps[0]!.bearer_token } })).status, 200);
  assert.deepEqual(JSON.parse((await cli('credentials', copy.id)).stdout).apps[0].consumer_key, copy.credentials.apps[0]!.consumer_key);

  for (const w of [id, copy.id]) assert.equal((await cli('delete', w)).code, 0);
  assert.equal((await call(plaza.urls.base_url, '/2/users/me', { auth: ada })).status, 401);
  const gone = await cli('reset', id);
  assert.equal(gone.code, 1);
  assert.match(gone.stderr, /^plaza worlds reset: 404: No world/);
});
