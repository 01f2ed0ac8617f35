import { createHmac, timingSafeEqual } from 'node:crypto';
import { purposeKey } from '../auth/flows/server-secret.js';
import { hashToken } from '../auth/tokens.js';
import type { CoreContext } from '../context.js';
import { secretToken } from '../store/ids.js';
import { ADMIN_TOKEN_KEY, insertSettingOnce, readSetting, writeSetting } from './store.js';

/**
 * The admin token: derived from the server secret and a salt kept in the store, which holds only
 * the salt and the token's hash. Every start (and every process sharing the store and the secret)
 * derives the same token again, so it survives restarts without being kept anywhere in the clear
 * but the credentials file; a changed server secret gets a new one.
 */
interface StoredAdminToken {
  salt: string;
  hash: string;
  created_at: string;
}

/** Shaped so that no interface mistakes it for one of its own tokens (app bearer tokens start with A's). */
const PREFIX = 'plaza-admin-';

function derive(ctx: CoreContext, salt: string): string {
  return PREFIX + createHmac('sha256', purposeKey(ctx.config.secretFile, 'admin-token')).update(salt).digest('base64url');
}

/** The admin token, made on the first start. */
export async function ensureAdminToken(ctx: CoreContext): Promise<string> {
  const db = ctx.store.db;
  let stored = await readSetting<StoredAdminToken>(db, ADMIN_TOKEN_KEY);
  if (!stored) {
    const salt = secretToken(16);
    const fresh = { salt, hash: hashToken(derive(ctx, salt)), created_at: ctx.clock.now().toISOString() };
    // Two processes starting at once: the first one's salt wins, and both derive from it.
    if (!(await insertSettingOnce(db, ADMIN_TOKEN_KEY, fresh))) stored = await readSetting<StoredAdminToken>(db, ADMIN_TOKEN_KEY);
    stored ??= fresh;
  }
  const token = derive(ctx, stored.salt);
  if (hashToken(token) === stored.hash) return token;
  // The server secret changed since: the old token cannot be derived any more; issue a new one.
  const salt = secretToken(16);
  const next = derive(ctx, salt);
  await writeSetting(db, ADMIN_TOKEN_KEY, { salt, hash: hashToken(next), created_at: ctx.clock.now().toISOString() });
  return next;
}

/** Whether an Authorization header carries exactly this admin token as a bearer token. */
export function isAdminAuthorization(header: string | undefined, tokenHash: string): boolean {
  const match = /^Bearer ([^\s]+)$/.exec(header ?? '');
  if (!match) return false;
  return timingSafeEqual(Buffer.from(hashToken(match[1]), 'hex'), Buffer.from(tokenHash, 'hex'));
}
