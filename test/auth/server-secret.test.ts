import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { loadServerSecret, serverSecret } from '../../src/auth/flows/server-secret.js';
import { openStore, type Store } from '../../src/store/store.js';

/**
 * Issue 37 item 4: "the server secret and admin token come from the store (or the one configured
 * secret) for every process". Without PLAZA_SECRET_FILE the first process on a store makes the
 * secret and every later one reads it there; an older Plaza's file is taken into the store once;
 * a configured file is used as it is.
 */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-secret-'));
const stores: Store[] = [];
after(async () => {
  for (const s of stores) await s.close();
  fs.rmSync(root, { recursive: true, force: true });
});

async function store(name: string): Promise<Store> {
  const s = await openStore(path.join(root, `${name}.sqlite`));
  stores.push(s);
  return s;
}

test('without a configured file the secret is made once and kept in the store: processes with different data folders read the same one', async () => {
  const s = await store('shared');
  await loadServerSecret(s.db, { secretFile: path.join(root, 'a', 'server-secret'), secretFileConfigured: false });
  await loadServerSecret(s.db, { secretFile: path.join(root, 'b', 'server-secret'), secretFileConfigured: false });
  const a = serverSecret(path.join(root, 'a', 'server-secret'));
  assert.equal(a.length, 32);
  assert.deepEqual(serverSecret(path.join(root, 'b', 'server-secret')), a);
  assert.equal(fs.existsSync(path.join(root, 'a')), false, 'no file written');
});

test('a store without a secret takes the data folder\'s file of an older Plaza, so the tokens made with it stay good', async () => {
  const s = await store('legacy');
  const file = path.join(root, 'legacy-server-secret');
  const hex = 'ab'.repeat(32);
  fs.writeFileSync(file, `${hex}\n`, { mode: 0o600 });
  await loadServerSecret(s.db, { secretFile: file, secretFileConfigured: false });
  assert.equal(serverSecret(file).toString('hex'), hex);
  const row = await s.db.selectFrom('server_secret').select('secret').executeTakeFirstOrThrow();
  assert.equal(row.secret, hex);
});

test('a configured secret file is used (made on first start, mode 0600) and the store is left alone', async () => {
  const s = await store('configured');
  const file = path.join(root, 'conf', 'server-secret');
  await loadServerSecret(s.db, { secretFile: file, secretFileConfigured: true });
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  assert.equal(serverSecret(file).toString('hex'), fs.readFileSync(file, 'utf8').trim());
  assert.equal((await s.db.selectFrom('server_secret').selectAll().execute()).length, 0);
  assert.throws(() => serverSecret(path.join(root, 'never-loaded')), /not been loaded/);
});
