import { createHmac } from 'node:crypto';
import type { CoreContext } from '../context.js';
import { alphanumeric, secretToken } from '../store/ids.js';
import type { AccessLevel } from '../store/schema.js';
import type { DbOrTx } from '../store/store.js';
import { purposeKey } from './flows/server-secret.js';
import { hashToken } from './tokens.js';
import { worldCredential } from '../worlds/tags.js';

const BEARER_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * The app-only bearer token of an app for a salt: HMAC of the app id and salt under a key derived
 * from the server secret, shaped like the public platform's tokens. The store keeps only the
 * token's hash and the (non-secret) salt, so `POST /oauth2/token` can hand out the same token again
 * until it is invalidated without any usable token at rest.
 */
export function deriveAppBearerToken(ctx: CoreContext, appId: string, salt: string): string {
  const bytes = createHmac('sha512', purposeKey(ctx.config.secretFile, 'app-bearer')).update(`${appId}\n${salt}`).digest();
  const chars = [...bytes].map((b) => BEARER_ALPHABET[b % BEARER_ALPHABET.length]).join('');
  return worldCredential(ctx, `AAAAAAAAAAAAAAAAAAAAA${chars.slice(0, 24)}%3D${chars.slice(24, 64)}`);
}

/** Issues an app-only bearer token; only its hash (and the salt it is derived from) is stored. */
export async function issueAppBearerToken(ctx: CoreContext, db: DbOrTx, appId: string): Promise<string> {
  const salt = secretToken(16);
  const token = deriveAppBearerToken(ctx, appId, salt);
  const tokenHash = hashToken(token);
  const createdAt = ctx.clock.now().toISOString();
  await db.insertInto('app_bearer_tokens').values({ token_hash: tokenHash, app_id: appId, created_at: createdAt, invalidated_at: null }).execute();
  await db.insertInto('app_bearer_derivations').values({ token_hash: tokenHash, app_id: appId, salt, created_at: createdAt }).execute();
  return token;
}

/**
 * The app's live bearer token, re-derived, or undefined when it has none that can be re-derived
 * (none issued, all invalidated, or the server secret changed since).
 */
export async function currentAppBearerToken(ctx: CoreContext, db: DbOrTx, appId: string): Promise<string | undefined> {
  const rows = await db
    .selectFrom('app_bearer_tokens as t')
    .innerJoin('app_bearer_derivations as d', 'd.token_hash', 't.token_hash')
    .select(['t.token_hash', 'd.salt'])
    .where('t.app_id', '=', appId)
    .where('t.invalidated_at', 'is', null)
    .orderBy('t.created_at', 'desc')
    .execute();
  for (const row of rows) {
    const token = deriveAppBearerToken(ctx, appId, row.salt);
    if (hashToken(token) === row.token_hash) return token;
  }
  return undefined;
}

/** Issues an OAuth 1.0a access token of the form `<user id>-<random>`, as the public platform does. */
export async function issueOAuth1AccessToken(
  ctx: CoreContext,
  db: DbOrTx,
  appId: string,
  userId: string,
  accessLevel: AccessLevel,
): Promise<{ token: string; secret: string }> {
  const token = `${userId}-${worldCredential(ctx, alphanumeric(40))}`;
  const secret = alphanumeric(45);
  await db.insertInto('oauth1_tokens').values({ token, secret, app_id: appId, user_id: userId, access_level: accessLevel, created_at: ctx.clock.now().toISOString(), invalidated_at: null }).execute();
  return { token, secret };
}

/** 2-hour OAuth 2.0 user access tokens (shared/reference/platform.md §4). */
export const OAUTH2_ACCESS_TTL_MS = 2 * 60 * 60 * 1000;

/** Issues an OAuth 2.0 user access token, and a refresh token when offline.access is granted. */
export async function issueOAuth2Tokens(
  ctx: CoreContext,
  db: DbOrTx,
  appId: string,
  userId: string,
  scopes: string[],
): Promise<{ accessToken: string; refreshToken?: string; expiresIn: number }> {
  const now = ctx.clock.now();
  const accessToken = worldCredential(ctx, secretToken(40));
  const base = { app_id: appId, user_id: userId, scopes: scopes.join(' '), created_at: now.toISOString(), revoked_at: null };
  await db.insertInto('oauth2_tokens').values({ ...base, token_hash: hashToken(accessToken), kind: 'access', expires_at: new Date(now.getTime() + OAUTH2_ACCESS_TTL_MS).toISOString() }).execute();
  let refreshToken: string | undefined;
  if (scopes.includes('offline.access')) {
    refreshToken = worldCredential(ctx, secretToken(40));
    await db.insertInto('oauth2_tokens').values({ ...base, token_hash: hashToken(refreshToken), kind: 'refresh', expires_at: null }).execute();
  }
  return { accessToken, refreshToken, expiresIn: OAUTH2_ACCESS_TTL_MS / 1000 };
}
