import type { DbOrTx } from '../store/store.js';
import type { AppDialect, AppTable, UserTable, OAuth1TokenTable, OAuth2TokenTable } from '../store/schema.js';
import { isUniqueViolation } from '../store/store.js';

export type AppRow = AppTable;
export type UserRow = UserTable;

export async function findAppByBearerHash(db: DbOrTx, tokenHash: string): Promise<AppRow | undefined> {
  return db
    .selectFrom('app_bearer_tokens as t')
    .innerJoin('apps as a', 'a.id', 't.app_id')
    .selectAll('a')
    .where('t.token_hash', '=', tokenHash)
    .where('t.invalidated_at', 'is', null)
    .executeTakeFirst();
}

/** findAppByBearerHash for many tokens at once: each live token's hash with its app. */
export async function findAppsByBearerHashes(db: DbOrTx, tokenHashes: readonly string[]): Promise<Array<{ token_hash: string; app: AppRow }>> {
  if (tokenHashes.length === 0) return [];
  const rows = await db
    .selectFrom('app_bearer_tokens as t')
    .innerJoin('apps as a', 'a.id', 't.app_id')
    .selectAll('a')
    .select('t.token_hash as bearer_token_hash')
    .where('t.token_hash', 'in', [...tokenHashes])
    .where('t.invalidated_at', 'is', null)
    .execute();
  return rows.map(({ bearer_token_hash, ...app }) => ({ token_hash: bearer_token_hash, app }));
}

export async function findAppsByIds(db: DbOrTx, ids: readonly string[]): Promise<AppRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('apps').selectAll().where('id', 'in', [...ids]).execute();
}

/** The dialect of each of these apps (what is delivered to them is in its names). */
export async function appDialects(db: DbOrTx, ids: readonly string[]): Promise<Map<string, AppDialect>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('apps').select(['id', 'dialect']).where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((r) => [r.id, r.dialect]));
}

/** findOAuth2AccessToken for many hashes at once. */
export async function findOAuth2AccessTokens(db: DbOrTx, tokenHashes: readonly string[]): Promise<OAuth2TokenTable[]> {
  if (tokenHashes.length === 0) return [];
  return db.selectFrom('oauth2_tokens').selectAll().where('token_hash', 'in', [...tokenHashes]).where('kind', '=', 'access').where('revoked_at', 'is', null).execute();
}

export async function findOAuth2AccessToken(db: DbOrTx, tokenHash: string): Promise<OAuth2TokenTable | undefined> {
  return db
    .selectFrom('oauth2_tokens')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('kind', '=', 'access')
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function findAppById(db: DbOrTx, id: string): Promise<AppRow | undefined> {
  return db.selectFrom('apps').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findAppByConsumerKey(db: DbOrTx, consumerKey: string): Promise<AppRow | undefined> {
  return db.selectFrom('apps').selectAll().where('consumer_key', '=', consumerKey).executeTakeFirst();
}

export async function findUserById(db: DbOrTx, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The users with these ids (those that exist), in no particular order. */
export async function findUsersByIds(db: DbOrTx, ids: readonly string[]): Promise<UserRow[]> {
  return ids.length === 0 ? [] : db.selectFrom('users').selectAll().where('id', 'in', ids).execute();
}

export async function findOAuth1AccessToken(db: DbOrTx, appId: string, token: string): Promise<OAuth1TokenTable | undefined> {
  return db
    .selectFrom('oauth1_tokens')
    .selectAll()
    .where('token', '=', token)
    .where('app_id', '=', appId)
    .where('invalidated_at', 'is', null)
    .executeTakeFirst();
}

/** Records a nonce; false when the same consumer already used it inside the kept window. */
export async function recordNonce(db: DbOrTx, consumerKey: string, nonce: string, timestamp: number, now: string): Promise<boolean> {
  try {
    await db.insertInto('oauth_nonces').values({ consumer_key: consumerKey, nonce, timestamp, created_at: now }).execute();
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

export async function pruneNonces(db: DbOrTx, before: string): Promise<void> {
  await db.deleteFrom('oauth_nonces').where('created_at', '<', before).execute();
}
