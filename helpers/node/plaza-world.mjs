// A world of a running Plaza for each test file or test: its own store and credentials, reset and
// snapshotted at will, deleted when the tests are done. Copy this file into your project; it needs
// Node 18 or later and nothing else. See the README's "Testing with worlds" for the whole story.
//
//   import { createWorld } from './plaza-world.mjs';
//   const world = await createWorld({ seed: 'empty' });
//   world.credentials.apps[0].bearer_token;   // the credentials file's shape, the world's own keys
//   await world.reset();                      // back to the seed state, same credentials
//   await world.delete();
//
// The running Plaza is found through its credentials file: `credentialsFile`, else the
// PLAZA_CREDENTIALS environment variable, else ./data/credentials.json.
import fs from 'node:fs';

/** The admin interface of the Plaza that `credentialsFile` describes. */
function plazaOf(credentialsFile) {
  const file = credentialsFile ?? process.env.PLAZA_CREDENTIALS ?? 'data/credentials.json';
  const { base_url, admin_token } = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!admin_token) throw new Error(`${file} has no admin_token: start Plaza with its admin interface on`);
  return async (method, path, body) => {
    const res = await fetch(`${base_url}${path}`, {
      method,
      headers: { authorization: `Bearer ${admin_token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`Plaza answered ${method} ${path} with ${res.status}: ${text}`);
    return JSON.parse(text).data;
  };
}

/**
 * Makes a world. `seed`: 'demo' (the demo workspace: two apps, five users, posts) or 'empty' (one
 * app, one user); `snapshotFile`: start in the state a snapshot file holds instead.
 */
export async function createWorld({ credentialsFile, seed = 'demo', snapshotFile } = {}) {
  const admin = plazaOf(credentialsFile);
  const made = await admin('POST', '/admin/worlds', snapshotFile ? { snapshot_file: snapshotFile } : { seed });
  const at = `/admin/worlds/${made.id}`;
  return {
    id: made.id,
    credentials: made.credentials,
    /** Back to the seed state; the credentials stay the same. */
    reset: () => admin('POST', `${at}/reset`),
    /** Records the whole state under `name`; with `file`, writes it there too (a fixture to share). */
    snapshot: (name, file) => admin('POST', `${at}/snapshots`, file ? { name, file } : { name }),
    /** Brings a snapshot's state back. */
    restore: (name) => admin('POST', `${at}/snapshots/${encodeURIComponent(name)}/restore`),
    /** Moves the world's clock: { advance: 'PT1H' }, { set: '2030-01-01T00:00:00Z', frozen: true }, { real: true }. */
    clock: (change) => admin('POST', `${at}/clock`, change),
    /** Deletes the world: its credentials stop working at once. */
    delete: () => admin('DELETE', at),
  };
}
