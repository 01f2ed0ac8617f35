import type { AccessLevel, OAuth1TokenTable, OAuth2TokenTable } from '../../store/schema.js';
import type { OAuth1RequestTokenTable, OAuth2CodeTable, OAuth2GrantTable } from '../../store/schema-oauth.js';
import type { DbOrTx } from '../../store/store.js';

export type RequestTokenRow = OAuth1RequestTokenTable;

const LEVELS: AccessLevel[] = ['read', 'read-write', 'read-write-directmessages'];

/**
 * The person's OAuth 1.0a permission for an app: the widest level among their live access tokens
 * for it (each was granted by them), or undefined when they have none.
 */
export async function findOAuth1AccessLevel(db: DbOrTx, appId: string, userId: string): Promise<AccessLevel | undefined> {
  return (await findOAuth1AccessLevels(db, [[appId, userId]])).get(`${appId}\n${userId}`);
}

/** findOAuth1AccessLevel for many (app, person) pairs at once, keyed `app id\nuser id`. */
export async function findOAuth1AccessLevels(db: DbOrTx, pairs: ReadonlyArray<readonly [string, string]>): Promise<Map<string, AccessLevel>> {
  const out = new Map<string, AccessLevel>();
  if (pairs.length === 0) return out;
  const rows = await db
    .selectFrom('oauth1_tokens')
    .select(['app_id', 'user_id', 'access_level'])
    .distinct()
    .where((eb) => eb.or(pairs.map(([appId, userId]) => eb.and([eb('app_id', '=', appId), eb('user_id', '=', userId)]))))
    .where('invalidated_at', 'is', null)
    .execute();
  for (const row of rows) {
    const key = `${row.app_id}\n${row.user_id}`;
    const known = out.get(key);
    if (known === undefined || LEVELS.indexOf(row.access_level) > LEVELS.indexOf(known)) out.set(key, row.access_level);
  }
  return out;
}

export async function findLatestOAuth1Token(db: DbOrTx, appId: string, userId: string, level?: AccessLevel): Promise<OAuth1TokenTable | undefined> {
  let query = db
    .selectFrom('oauth1_tokens')
    .selectAll()
    .where('app_id', '=', appId)
    .where('user_id', '=', userId)
    .where('invalidated_at', 'is', null);
  if (level) query = query.where('access_level', '=', level);
  return query.orderBy('created_at', 'desc').orderBy('token', 'desc').executeTakeFirst();
}

export async function invalidateOAuth1Token(db: DbOrTx, token: string, at: string): Promise<boolean> {
  const result = await db.updateTable('oauth1_tokens').set({ invalidated_at: at }).where('token', '=', token).where('invalidated_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function insertRequestToken(db: DbOrTx, row: RequestTokenRow): Promise<void> {
  await db.insertInto('oauth1_request_tokens').values(row).execute();
}

export async function findRequestToken(db: DbOrTx, token: string): Promise<RequestTokenRow | undefined> {
  return db.selectFrom('oauth1_request_tokens').selectAll().where('token', '=', token).executeTakeFirst();
}

/** Marks a pending request token approved by a person; false when it was no longer pending. */
export async function authorizeRequestToken(db: DbOrTx, token: string, userId: string, verifierHash: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('oauth1_request_tokens')
    .set({ user_id: userId, verifier_hash: verifierHash, authorized_at: at })
    .where('token', '=', token)
    .where('authorized_at', 'is', null)
    .where('denied_at', 'is', null)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function denyRequestToken(db: DbOrTx, token: string, at: string): Promise<void> {
  await db.updateTable('oauth1_request_tokens').set({ denied_at: at }).where('token', '=', token).where('denied_at', 'is', null).execute();
}

export async function countFailedVerifier(db: DbOrTx, token: string): Promise<number> {
  await db
    .updateTable('oauth1_request_tokens')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
    .where('token', '=', token)
    .execute();
  const row = await db.selectFrom('oauth1_request_tokens').select('failed_attempts').where('token', '=', token).executeTakeFirst();
  return row?.failed_attempts ?? 0;
}

/** Spends a request token; false when another request spent it first. */
export async function spendRequestToken(db: DbOrTx, token: string, at: string): Promise<boolean> {
  const result = await db.updateTable('oauth1_request_tokens').set({ used_at: at }).where('token', '=', token).where('used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Request tokens are short-lived; spent and expired ones are dropped a while after they end. */
export async function pruneRequestTokens(db: DbOrTx, before: string): Promise<void> {
  await db.deleteFrom('oauth1_request_tokens').where('expires_at', '<', before).execute();
}

export async function findLiveBearerOfApp(db: DbOrTx, appId: string, tokenHash: string) {
  return db
    .selectFrom('app_bearer_tokens')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('app_id', '=', appId)
    .where('invalidated_at', 'is', null)
    .executeTakeFirst();
}

export async function invalidateBearer(db: DbOrTx, tokenHash: string, at: string): Promise<void> {
  await db.updateTable('app_bearer_tokens').set({ invalidated_at: at }).where('token_hash', '=', tokenHash).where('invalidated_at', 'is', null).execute();
}

export async function invalidateBearersOfApp(db: DbOrTx, appId: string, at: string): Promise<void> {
  await db.updateTable('app_bearer_tokens').set({ invalidated_at: at }).where('app_id', '=', appId).where('invalidated_at', 'is', null).execute();
}

export async function insertGrant(db: DbOrTx, row: OAuth2GrantTable): Promise<void> {
  await db.insertInto('oauth2_grants').values(row).execute();
}

export async function findGrant(db: DbOrTx, id: string): Promise<OAuth2GrantTable | undefined> {
  return db.selectFrom('oauth2_grants').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function linkTokensToGrant(db: DbOrTx, grantId: string, tokenHashes: string[]): Promise<void> {
  if (tokenHashes.length === 0) return;
  await db.insertInto('oauth2_grant_tokens').values(tokenHashes.map((token_hash) => ({ token_hash, grant_id: grantId }))).execute();
}

export async function grantOfToken(db: DbOrTx, tokenHash: string): Promise<OAuth2GrantTable | undefined> {
  return db
    .selectFrom('oauth2_grant_tokens as l')
    .innerJoin('oauth2_grants as g', 'g.id', 'l.grant_id')
    .selectAll('g')
    .where('l.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Revokes a grant and every token issued under it. */
export async function revokeGrant(db: DbOrTx, grantId: string, at: string): Promise<void> {
  await db.updateTable('oauth2_grants').set({ revoked_at: at }).where('id', '=', grantId).where('revoked_at', 'is', null).execute();
  await db
    .updateTable('oauth2_tokens')
    .set({ revoked_at: at })
    .where('revoked_at', 'is', null)
    .where('token_hash', 'in', (eb) => eb.selectFrom('oauth2_grant_tokens').select('token_hash').where('grant_id', '=', grantId))
    .execute();
}

export async function findOAuth2Token(db: DbOrTx, tokenHash: string): Promise<OAuth2TokenTable | undefined> {
  return db.selectFrom('oauth2_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Revokes one OAuth 2.0 token; false when it was already revoked (a refresh token spent twice). */
export async function revokeOAuth2Token(db: DbOrTx, tokenHash: string, at: string): Promise<boolean> {
  const result = await db.updateTable('oauth2_tokens').set({ revoked_at: at }).where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function insertCode(db: DbOrTx, row: OAuth2CodeTable): Promise<void> {
  await db.insertInto('oauth2_codes').values(row).execute();
}

export async function findCode(db: DbOrTx, codeHash: string): Promise<OAuth2CodeTable | undefined> {
  return db.selectFrom('oauth2_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
}

/** Spends a code; false when it was spent before. */
export async function spendCode(db: DbOrTx, codeHash: string, at: string): Promise<boolean> {
  const result = await db.updateTable('oauth2_codes').set({ used_at: at }).where('code_hash', '=', codeHash).where('used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function pruneCodes(db: DbOrTx, before: string): Promise<void> {
  await db.deleteFrom('oauth2_codes').where('expires_at', '<', before).execute();
}
