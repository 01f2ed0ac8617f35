import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const cache = new Map<string, Buffer>();

/**
 * The installation's secret: 32 random bytes in a file of the data folder (mode 0600), created on
 * first use. Several processes sharing one store must share the file. Purposes get their own
 * subkeys, so no two uses ever share a key.
 */
export function serverSecret(file: string): Buffer {
  const known = cache.get(file);
  if (known) return known;
  let secret: Buffer;
  try {
    secret = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    // Written whole under a name of its own, then linked into place: a process starting at the
    // same moment reads either no file or the whole of one, never a file still being written.
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    fs.writeFileSync(temp, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    try {
      fs.linkSync(temp, file);
    } catch (linkErr) {
      // Another process created it first: use theirs.
      if ((linkErr as NodeJS.ErrnoException).code !== 'EEXIST') throw linkErr;
    } finally {
      fs.rmSync(temp, { force: true });
    }
    secret = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
  }
  if (secret.length < 32) throw new Error(`the server secret in ${file} is shorter than 32 bytes; delete it to have a new one made`);
  cache.set(file, secret);
  return secret;
}

export type SecretPurpose = 'app-bearer' | 'cookies' | 'admin-token';

/** A key for one purpose, derived from the server secret. */
export function purposeKey(file: string, purpose: SecretPurpose): Buffer {
  return createHmac('sha256', serverSecret(file)).update(`plaza:${purpose}`).digest();
}
