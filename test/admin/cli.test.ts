import assert from 'node:assert/strict';
import path from 'node:path';
import { before, test } from 'node:test';
import { plazaCli } from '../support/cli.js';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { fixtures } from '../support/fixtures.js';

/**
 * `plaza users`, `plaza apps`, `plaza tokens` (issue #17 "The CLI"): list and mint credentials of
 * a running Plaza through its admin interface, reading the credentials file; a failure is one
 * line and a non-zero exit.
 */
let plaza: TestPlaza;
let file: string;

before(async () => {
  plaza = await startTestPlaza();
  file = path.join(plaza.dataDir, 'credentials.json');
});

test('plaza users and plaza apps list what the running Plaza holds, as a table or --json', async () => {
  const users = await plazaCli('users', '--credentials-file', file);
  assert.equal(users.code, 0, users.stderr);
  const lines = users.stdout.trim().split('\n');
  assert.match(lines[0]!, /^ID\s+USERNAME\s+NAME$/);
  for (const u of plaza.creds.users) assert.ok(lines.some((l) => l.startsWith(u.id) && l.includes(u.username)), u.username);

  const apps = await plazaCli('apps', '--credentials-file', file, '--json');
  assert.equal(apps.code, 0, apps.stderr);
  const listed = JSON.parse(apps.stdout) as Array<{ id: string; tier: string }>;
  assert.deepEqual(listed.map((a) => a.id), plaza.creds.apps.map((a) => a.id));
  assert.ok(!apps.stdout.includes(plaza.creds.apps[0]!.consumer_secret), 'no secrets in the list');
});

test('plaza tokens --user NAME --app NAME mints tokens that work on the interface', async () => {
  const f = fixtures(plaza);
  const res = await plazaCli('tokens', '--user', 'dana', '--app', f.enterprise.name, '--credentials-file', file);
  assert.equal(res.code, 0, res.stderr);
  const tokens = JSON.parse(res.stdout);
  assert.equal(tokens.app_id, f.enterprise.id);
  assert.equal(tokens.username, 'dana');
  const me = await f.get('/2/users/me', { auth: { bearer: tokens.oauth2_access_token } });
  assert.equal(me.status, 200, me.text);
  assert.equal(me.body.data.username, 'dana');
});

test('a failing command exits non-zero with a one-line reason: unknown user, missing credentials file, no --user', async () => {
  const unknown = await plazaCli('tokens', '--user', 'nobody_at_all', '--credentials-file', file);
  assert.notEqual(unknown.code, 0);
  assert.match(unknown.stderr.trim(), /^plaza tokens: 400: .*nobody_at_all/);
  assert.equal(unknown.stderr.trim().split('\n').length, 1);
  const missing = await plazaCli('users', '--credentials-file', path.join(plaza.dataDir, 'nope.json'));
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr.trim(), /^plaza users: cannot read the credentials file .*nope\.json \(ENOENT\)/);
  const noUser = await plazaCli('tokens', '--credentials-file', file);
  assert.notEqual(noUser.code, 0);
  assert.match(noUser.stderr, /--user/);
  const help = await plazaCli('tokens', '--help');
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Example:\n\s+npm run plaza -- tokens --user/);
});
