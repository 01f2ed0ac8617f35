import { worldCredential } from '../../worlds/tags.js';
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { CoreContext } from '../../context.js';
import { appendEvent } from '../../events/log.js';
import { secretToken } from '../../store/ids.js';
import type { DbOrTx } from '../../store/store.js';
import { issueOAuth2Tokens, OAUTH2_ACCESS_TTL_MS } from '../issue.js';
import { findUserById, type AppRow } from '../store.js';
import { hashToken } from '../tokens.js';
import { sameSecret } from './app-only.js';
import { OAuth2Error } from './errors.js';
import { registeredCallbacks } from './oauth1-flow.js';
import { basicCredentials, param } from './request.js';
import { formatScopes, parseScopes, type ScopeDialect } from './scopes.js';
import {
  findCode,
  findGrant,
  findOAuth2Token,
  grantOfToken,
  insertCode,
  insertGrant,
  linkTokensToGrant,
  pruneCodes,
  revokeGrant,
  revokeOAuth2Token,
  spendCode,
} from './store.js';

/**
 * OAuth 2.0 authorization code with PKCE (shared/reference/platform.md §4): the authorize request
 * (the consent page lives in src/web), the token endpoint (code exchange and refresh), revoke.
 */

/** "The auth code must be exchanged within 30 s." */
export const CODE_TTL_MS = 30_000;
const MAX_STATE_LENGTH = 500;
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{1,128}$/;

export interface AuthorizeRequest {
  app: AppRow;
  redirectUri: string;
  state: string;
  scopes: string[];
  dialect: ScopeDialect;
  /** The scope parameter as the client sent it, for the consent form to send back. */
  scopeParam: string;
  codeChallenge: string;
  codeChallengeMethod: 'S256' | 'plain';
}

export type AuthorizeCheck =
  | { ok: true; request: AuthorizeRequest }
  /** The client or redirect_uri cannot be trusted: tell the person, do not redirect (RFC 6749 §4.1.2.1). */
  | { ok: false; page: string }
  /** Anything else goes back to the app as error and error_description on its redirect_uri. */
  | { ok: false; redirect: string };

/** Checks the parameters of GET /i/oauth2/authorize (and of the consent form sent back). */
export async function checkAuthorizeRequest(ctx: CoreContext, input: (name: string) => string | undefined): Promise<AuthorizeCheck> {
  const clientId = input('client_id');
  if (!clientId) return { ok: false, page: 'The client_id parameter is missing: the app sent you here with an incomplete link.' };
  const app = await ctx.store.db.selectFrom('apps').selectAll().where('client_id', '=', clientId).executeTakeFirst();
  if (!app) return { ok: false, page: 'No app has this client_id: the app sent you here with a wrong link.' };
  const redirectUri = input('redirect_uri');
  if (!redirectUri) return { ok: false, page: 'The redirect_uri parameter is missing: the app sent you here with an incomplete link.' };
  if (!registeredCallbacks(app).includes(redirectUri)) {
    return { ok: false, page: `The redirect_uri is not one of the callback URLs registered for ${app.name}, so Plaza will not send you there.` };
  }
  const state = input('state');
  const fail = (error: string, description: string) => ({ ok: false as const, redirect: errorRedirect(redirectUri, error, description, state) });
  if (input('response_type') !== 'code') return fail('unsupported_response_type', 'response_type must be code.');
  if (!state) return fail('invalid_request', 'Missing required parameter [state].');
  if (state.length > MAX_STATE_LENGTH) return fail('invalid_request', `state must be at most ${MAX_STATE_LENGTH} characters.`);
  const codeChallenge = input('code_challenge');
  if (!codeChallenge) return fail('invalid_request', 'Missing required parameter [code_challenge].');
  if (!PKCE_VALUE.test(codeChallenge)) return fail('invalid_request', 'code_challenge must be 1 to 128 unreserved characters.');
  const method = (input('code_challenge_method') ?? 'plain').toLowerCase();
  if (method !== 's256' && method !== 'plain') return fail('invalid_request', 'code_challenge_method must be S256 or plain.');
  const scopeParam = input('scope') ?? '';
  const parsed = parseScopes(scopeParam);
  if (parsed.scopes.length === 0 && parsed.unknown.length === 0) return fail('invalid_request', 'Missing required parameter [scope].');
  if (parsed.unknown.length > 0) return fail('invalid_scope', `Unknown scope: ${parsed.unknown.join(' ')}.`);
  return {
    ok: true,
    request: {
      app,
      redirectUri,
      state,
      scopes: parsed.scopes,
      dialect: parsed.dialect,
      scopeParam,
      codeChallenge,
      codeChallengeMethod: method === 's256' ? 'S256' : 'plain',
    },
  };
}

function errorRedirect(redirectUri: string, error: string, description: string, state: string | undefined): string {
  const url = new URL(redirectUri);
  url.searchParams.append('error', error);
  url.searchParams.append('error_description', description);
  if (state) url.searchParams.append('state', state);
  return url.href;
}

/** The person said no: `?error=access_denied&state=…`. */
export function denialRedirect(request: AuthorizeRequest): string {
  return errorRedirect(request.redirectUri, 'access_denied', 'The user denied the request.', request.state);
}

/** The person said yes: a 30-second, single-use code on the redirect_uri, with the state. */
export async function approveAuthorizeRequest(ctx: CoreContext, request: AuthorizeRequest, userId: string): Promise<string> {
  const now = ctx.clock.now();
  const code = worldCredential(ctx, secretToken(48));
  await ctx.store.db.transaction().execute(async (tx) => {
    if (Math.random() < 0.05) await pruneCodes(tx, new Date(now.getTime() - 60 * 60 * 1000).toISOString());
    const grantId = ctx.ids.next();
    await insertGrant(tx, {
      id: grantId,
      app_id: request.app.id,
      user_id: userId,
      scopes: request.scopes.join(' '),
      scope_dialect: request.dialect,
      created_at: now.toISOString(),
      revoked_at: null,
    });
    await insertCode(tx, {
      code_hash: hashToken(code),
      grant_id: grantId,
      app_id: request.app.id,
      user_id: userId,
      redirect_uri: request.redirectUri,
      code_challenge: request.codeChallenge,
      code_challenge_method: request.codeChallengeMethod,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + CODE_TTL_MS).toISOString(),
      used_at: null,
    });
  });
  const url = new URL(request.redirectUri);
  url.searchParams.append('state', request.state);
  url.searchParams.append('code', code);
  return url.href;
}

/**
 * The client at the token and revoke endpoints: confidential clients authenticate with Basic
 * client_id:client_secret (or client_secret in the body); public clients name their client_id.
 */
async function authenticateClient(ctx: CoreContext, request: FastifyRequest): Promise<AppRow> {
  const basic = basicCredentials(request);
  const bodyId = param(request, 'client_id');
  const bodySecret = param(request, 'client_secret');
  const invalidClient = () => new OAuth2Error(401, 'invalid_client', 'Client authentication failed: unknown client_id or wrong client_secret.');
  const byClientId = (id: string) => ctx.store.db.selectFrom('apps').selectAll().where('client_id', '=', id).executeTakeFirst();
  if (basic === null) throw invalidClient();
  if (basic) {
    if (bodyId !== undefined && bodyId !== basic.id) throw new OAuth2Error(400, 'invalid_request', 'client_id in the body differs from the one in the Authorization header.');
    const app = await byClientId(basic.id);
    if (!app || !sameSecret(basic.secret, app.client_secret)) throw invalidClient();
    return app;
  }
  if (!bodyId) throw new OAuth2Error(401, 'unauthorized_client', 'Missing valid authorization header');
  const app = await byClientId(bodyId);
  if (!app) throw invalidClient();
  if (bodySecret !== undefined && !sameSecret(bodySecret, app.client_secret)) throw invalidClient();
  return app;
}

function required(request: FastifyRequest, name: string): string {
  const value = param(request, name);
  if (!value) throw new OAuth2Error(400, 'invalid_request', `Missing required parameter [${name}].`);
  return value;
}

export interface TokenResponse {
  token_type: 'bearer';
  expires_in: number;
  access_token: string;
  scope: string;
  refresh_token?: string;
}

/** POST /2/oauth2/token: authorization_code (with PKCE) and refresh_token are the only grants. */
export async function tokenEndpoint(ctx: CoreContext, request: FastifyRequest): Promise<TokenResponse> {
  const app = await authenticateClient(ctx, request);
  const grantType = required(request, 'grant_type');
  if (grantType === 'authorization_code') return exchangeCode(ctx, request, app);
  if (grantType === 'refresh_token') return refresh(ctx, request, app);
  throw new OAuth2Error(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
}

function challengeOf(verifier: string, method: 'S256' | 'plain'): string {
  return method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
}

async function exchangeCode(ctx: CoreContext, request: FastifyRequest, app: AppRow): Promise<TokenResponse> {
  const code = required(request, 'code');
  const redirectUri = required(request, 'redirect_uri');
  const verifier = required(request, 'code_verifier');
  const invalid = () => new OAuth2Error(400, 'invalid_request', 'Value passed for the authorization code was invalid.');
  const now = ctx.clock.now();
  const codeHash = hashToken(code);
  const row = await findCode(ctx.store.db, codeHash);
  if (!row || row.app_id !== app.id) throw invalid();
  if (row.used_at) {
    // RFC 6749 §4.1.2: a code presented twice revokes what it was exchanged for.
    await ctx.store.db.transaction().execute((tx) => revokeGrant(tx, row.grant_id, now.toISOString()));
    throw invalid();
  }
  if (row.expires_at <= now.toISOString() || row.redirect_uri !== redirectUri) throw invalid();
  if (!PKCE_VALUE.test(verifier) || !sameSecret(challengeOf(verifier, row.code_challenge_method), row.code_challenge)) {
    throw new OAuth2Error(400, 'invalid_request', 'Value passed for the code_verifier was invalid.');
  }
  return ctx.store.db.transaction().execute(async (tx) => {
    if (!(await spendCode(tx, codeHash, now.toISOString()))) throw invalid();
    const grant = await findGrant(tx, row.grant_id);
    if (!grant || grant.revoked_at || !(await findUserById(tx, row.user_id))) throw invalid();
    return issueUnderGrant(ctx, tx, grant.id, app.id, row.user_id, grant.scopes.split(' ').filter(Boolean), grant.scope_dialect);
  });
}

async function refresh(ctx: CoreContext, request: FastifyRequest, app: AppRow): Promise<TokenResponse> {
  const refreshToken = required(request, 'refresh_token');
  const invalid = () => new OAuth2Error(400, 'invalid_request', 'Value passed for the token was invalid.');
  const tokenHash = hashToken(refreshToken);
  const now = ctx.clock.now().toISOString();
  return ctx.store.db.transaction().execute(async (tx) => {
    const row = await findOAuth2Token(tx, tokenHash);
    if (!row || row.kind !== 'refresh' || row.app_id !== app.id || row.revoked_at) throw invalid();
    // Refresh tokens are single-use: spending one is what lets the next request with it fail.
    if (!(await revokeOAuth2Token(tx, tokenHash, now))) throw invalid();
    let grant = await grantOfToken(tx, tokenHash);
    if (grant?.revoked_at) throw invalid();
    if (!grant) {
      // A token issued outside the flows (the demo's): give it a grant from now on.
      grant = { id: ctx.ids.next(), app_id: app.id, user_id: row.user_id, scopes: row.scopes, scope_dialect: 'post', created_at: now, revoked_at: null };
      await insertGrant(tx, grant);
    }
    return issueUnderGrant(ctx, tx, grant.id, app.id, row.user_id, row.scopes.split(' ').filter(Boolean), grant.scope_dialect);
  });
}

async function issueUnderGrant(ctx: CoreContext, tx: DbOrTx, grantId: string, appId: string, userId: string, scopes: string[], dialect: ScopeDialect): Promise<TokenResponse> {
  const issued = await issueOAuth2Tokens(ctx, tx, appId, userId, scopes);
  await linkTokensToGrant(tx, grantId, [issued.accessToken, issued.refreshToken].filter((t): t is string => !!t).map(hashToken));
  return {
    token_type: 'bearer',
    expires_in: OAUTH2_ACCESS_TTL_MS / 1000,
    access_token: issued.accessToken,
    scope: formatScopes(scopes, dialect),
    ...(issued.refreshToken ? { refresh_token: issued.refreshToken } : {}),
  };
}

/** POST /2/oauth2/revoke: an access token stops working; a refresh token ends its whole grant. */
export async function revokeEndpoint(ctx: CoreContext, request: FastifyRequest): Promise<{ revoked: true }> {
  const app = await authenticateClient(ctx, request);
  const token = required(request, 'token');
  const hint = required(request, 'token_type_hint');
  if (hint !== 'access_token' && hint !== 'refresh_token') {
    throw new OAuth2Error(400, 'unsupported_token_type', 'token_type_hint must be access_token or refresh_token.');
  }
  const tokenHash = hashToken(token);
  const now = ctx.clock.now().toISOString();
  await ctx.store.db.transaction().execute(async (tx) => {
    const row = await findOAuth2Token(tx, tokenHash);
    // RFC 7009 §2.2: an unknown or already revoked token is not an error.
    if (!row || row.revoked_at) return;
    if (row.app_id !== app.id) throw new OAuth2Error(400, 'invalid_request', 'Value passed for the token was invalid.');
    await revokeOAuth2Token(tx, tokenHash, now);
    if (row.kind === 'refresh') {
      const grant = await grantOfToken(tx, tokenHash);
      if (grant) await revokeGrant(tx, grant.id, now);
      // Revoking the refresh token ends the authorization: the Activity API's oauth.revoke (reference §7).
      await appendEvent(ctx, tx, { type: 'oauth.revoke', subject: row.user_id, payload: { date_time: now, user_id: row.user_id, app_id: row.app_id } });
    }
  });
  return { revoked: true };
}
