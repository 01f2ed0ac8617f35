import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { DbOrTx } from '../../store/store.js';

const cache = new Map<string, Buffer>();
const SECRET_BYTES = 32;

/**
 * The installation's secret: 32 random bytes that sign cookies and CSRF tokens and derive app
 * bearer tokens and the admin token (purposes get their own subkeys, so no two uses ever share a
 * key). Kept in the store (issue 37), so every process on a store uses the same one with nothing
 * to share beside it: the first process to start makes it. A secret file named by the operator
 * (PLAZA_SECRET_FILE, --secret-file) is used instead; processes sharing a store must then share
 * the file. A store that has none yet takes the data folder's file when one is there, so tokens
 * made before the secret moved into the store stay good.
 *
 * Loaded once at start (`loadServerSecret`); `serverSecret` then answers from memory.
 */
export async function loadServerSecret(db: DbOrTx, config: { secretFile: string; secretFileConfigured: boolean }): Promise<void> {
  const file = config.secretFile;
  if (config.secretFileConfigured) {
    cache.set(file, secretFromFile(file));
    return;
  }
  const existing = fs.existsSync(file) ? readSecretFile(file) : randomBytes(SECRET_BYTES);
  // Two processes starting at once: the first one's row wins, and both read it back.
  await db
    .insertInto('server_secret')
    .values({ id: 1, secret: existing.toString('hex'), created_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const row = await db.selectFrom('server_secret').select('secret').where('id', '=', 1).executeTakeFirstOrThrow();
  cache.set(file, checked(Buffer.from(row.secret, 'hex'), 'the store'));
}

/** The secret loaded at start for this configuration's secret file. */
export function serverSecret(file: string): Buffer {
  const known = cache.get(file);
  if (!known) throw new Error('the server secret has not been loaded (loadServerSecret runs at start)');
  return known;
}

export type SecretPurpose = 'app-bearer' | 'cookies' | 'admin-token';

/** A key for one purpose, derived from the server secret. */
export function purposeKey(file: string, purpose: SecretPurpose): Buffer {
  return createHmac('sha256', serverSecret(file)).update(`plaza:${purpose}`).digest();
}

function checked(secret: Buffer, where: string): Buffer {
  if (secret.length < SECRET_BYTES) throw new Error(`the server secret in ${where} is shorter than ${SECRET_BYTES} bytes`);
  return secret;
}

function readSecretFile(file: string): Buffer {
  return checked(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex'), file);
}

/** The operator's secret file, made (mode 0600) when it is not there yet. */
function secretFromFile(file: string): Buffer {
  if (fs.existsSync(file)) return readSecretFile(file);
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  // Written whole under a name of its own, then linked into place: a process starting at the
  // same moment reads either no file or the whole of one, never a file still being written.
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(temp, `${randomBytes(SECRET_BYTES).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(temp, file);
  } catch (linkErr) {
    // Another process created it first: use theirs.
    if ((linkErr as NodeJS.ErrnoException).code !== 'EEXIST') throw linkErr;
  } finally {
    fs.rmSync(temp, { force: true });
  }
  return readSecretFile(file);
}
