import { worldCredential } from '../../worlds/tags.js';
import { randomInt, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { wallClock } from '../../clock.js';
import type { CoreContext } from '../../context.js';
import { appendEvent } from '../../events/log.js';
import { alphanumeric } from '../../store/ids.js';
import type { AccessLevel } from '../../store/schema.js';
import { fromJson } from '../../store/store.js';
import { isFormBody, oauth1NonceRecorder, requestUrl, verifyOAuth1UserContext } from '../authenticate.js';
import { issueOAuth1AccessToken } from '../issue.js';
import { OAuth1Error, verifyOAuth1Request, type OAuth1FailureReason, type OAuth1Params } from '../oauth1.js';
import { findAppByConsumerKey, findAppById, findUserById, type AppRow, type UserRow } from '../store.js';
import { hashToken } from '../tokens.js';
import { legacy, LegacyOAuthError } from './errors.js';
import { param } from './request.js';
import { accessLevelCovers } from './scopes.js';
import {
  authorizeRequestToken,
  countFailedVerifier,
  denyRequestToken,
  findLatestOAuth1Token,
  findOAuth1AccessLevel,
  findRequestToken,
  insertRequestToken,
  invalidateOAuth1Token,
  pruneRequestTokens,
  spendRequestToken,
  type RequestTokenRow,
} from './store.js';

/**
 * The OAuth 1.0a three-legged flow of spec 000 ("OAuth 1.0a three-legged flow"): request token,
 * the person's approval (the pages in src/web), access token, and invalidate_token.
 */

/** How long a request token waits for the person and the exchange. */
export const REQUEST_TOKEN_TTL_MS = 15 * 60 * 1000;
/** Wrong verifiers (PINs) a request token survives before it is voided. */
export const MAX_VERIFIER_ATTEMPTS = 5;

/** A failed OAuth 1.0a verification, as the v1.1 error a client library understands. */
export function legacyErrorFor(reason: OAuth1FailureReason, message: string): LegacyOAuthError {
  switch (reason) {
    case 'missing':
    case 'malformed':
    case 'unsupported_method':
    case 'bad_version':
    case 'nonce_not_ascii':
      return legacy.badAuthData(message);
    case 'timestamp_out_of_bounds':
      return legacy.timestamp();
    case 'unknown_token':
      return legacy.invalidToken();
    case 'unknown_consumer':
    case 'bad_signature':
    case 'nonce_reused':
      return legacy.couldNotAuthenticate();
  }
}

interface FlowVerification {
  params: OAuth1Params;
  app: AppRow;
  requestToken?: RequestTokenRow;
}

/**
 * Verifies a signed flow request with the foundation's verifier. Client libraries (twitter-api-v2
 * among them) send oauth_token or oauth_verifier both in the header and in the form body but sign
 * them once, as the public platform accepts; so a body parameter that repeats a header parameter
 * with the same value is left out of the base string first, and kept on a second try for clients
 * that sign it twice, as RFC 5849 §3.4.1.3.1 reads.
 */
async function verifyFlowRequest(ctx: CoreContext, request: FastifyRequest, kind: 'consumer' | 'request-token'): Promise<FlowVerification> {
  const db = ctx.store.db;
  const now = ctx.clock.now();
  const body = isFormBody(request) ? (request.body as Record<string, string | string[]>) : undefined;
  const header = request.headers.authorization;
  let app: AppRow | undefined;
  let requestToken: RequestTokenRow | undefined;
  const verify = (formBody: Record<string, string | string[]> | undefined) =>
    verifyOAuth1Request(
      { method: request.method, url: requestUrl(request), authorization: header, formBody },
      {
        consumerSecret: async (consumerKey) => {
          app = await findAppByConsumerKey(db, consumerKey);
          return app?.consumer_secret;
        },
        tokenSecret: async (_consumerKey, token) => {
          if (kind !== 'request-token' || !app) return undefined;
          const row = await findRequestToken(db, token);
          if (!row || row.app_id !== app.id || row.used_at || row.denied_at || row.expires_at <= now.toISOString()) return undefined;
          requestToken = row;
          return row.secret;
        },
        useNonce: oauth1NonceRecorder(ctx),
      },
      { nowSeconds: Math.floor(wallClock(ctx.clock).now().getTime() / 1000), windowSeconds: ctx.config.oauthTimestampWindowSeconds, requireToken: kind === 'request-token' },
    );
  try {
    let params: OAuth1Params;
    const repeated = repeatedInBody(header, body);
    try {
      params = await verify(repeated ? withoutKeys(body!, repeated) : body);
    } catch (err) {
      if (!(repeated && err instanceof OAuth1Error && err.reason === 'bad_signature')) throw err;
      params = await verify(body);
    }
    return { params, app: app!, requestToken };
  } catch (err) {
    if (err instanceof OAuth1Error) {
      request.log.info({ reason: err.reason }, 'OAuth 1.0a flow verification failed');
      throw legacyErrorFor(err.reason, err.message);
    }
    throw err;
  }
}

/** oauth_* body parameters that the header also carries with the same value. */
function repeatedInBody(header: string | undefined, body: Record<string, string | string[]> | undefined): string[] | undefined {
  if (!body || !header) return undefined;
  let headerParams: Record<string, string>;
  try {
    const matches = [...header.matchAll(/([A-Za-z0-9%._~-]+)\s*=\s*"([^"]*)"/g)];
    headerParams = Object.fromEntries(matches.map((m) => [decodeURIComponent(m[1]), decodeURIComponent(m[2])]));
  } catch {
    return undefined;
  }
  const keys = Object.keys(body).filter((k) => k.startsWith('oauth_') && typeof body[k] === 'string' && Object.hasOwn(headerParams, k) && headerParams[k] === body[k]);
  return keys.length > 0 ? keys : undefined;
}

function withoutKeys(body: Record<string, string | string[]>, keys: string[]): Record<string, string | string[]> {
  return Object.fromEntries(Object.entries(body).filter(([k]) => !keys.includes(k)));
}

/** The app's registered callback URLs (the demo's list may name `oob`, which needs no registration). */
export function registeredCallbacks(app: AppRow): string[] {
  return (fromJson<string[]>(app.callback_urls) ?? []).filter((u) => u !== 'oob');
}

/**
 * Spec 000: "The callback URL must be configured in the app settings." Scheme, host, port and path
 * must equal a registered URL; the request may add query parameters of its own (the app's state),
 * unless the registered URL has a query, which must then match exactly.
 */
export function callbackRegistered(app: AppRow, callback: string): boolean {
  const wanted = parseUrl(callback);
  if (!wanted || wanted.hash) return false;
  return registeredCallbacks(app).some((entry) => {
    const registered = parseUrl(entry);
    if (!registered) return false;
    if (registered.search) return registered.href === wanted.href;
    return registered.protocol === wanted.protocol && registered.host === wanted.host && registered.pathname === wanted.pathname;
  });
}

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

const ACCESS_TYPES: Record<string, AccessLevel> = { read: 'read', write: 'read-write' };
/** Plaza apps ask for every permission unless x_auth_access_type lowers it. */
const DEFAULT_ACCESS_LEVEL: AccessLevel = 'read-write-directmessages';

/** Step 1: POST /oauth/request_token. */
export async function createRequestToken(ctx: CoreContext, request: FastifyRequest): Promise<{ token: string; secret: string }> {
  const { params, app } = await verifyFlowRequest(ctx, request, 'consumer');
  const callback = params.callback ?? param(request, 'oauth_callback');
  if (!callback) {
    throw legacy.badAuthData('oauth_callback is required, even when a callback URL is registered: send a registered callback URL, or oob for PIN mode.');
  }
  if (callback !== 'oob' && !callbackRegistered(app, callback)) {
    throw registeredCallbacks(app).length === 0 ? legacy.desktopOnlyOob() : legacy.callbackNotApproved();
  }
  const accessType = param(request, 'x_auth_access_type');
  if (accessType !== undefined && !(accessType in ACCESS_TYPES)) {
    throw legacy.badAuthData(`x_auth_access_type must be read or write, not "${accessType}".`);
  }
  const now = ctx.clock.now();
  if (Math.random() < 0.05) await pruneRequestTokens(ctx.store.db, new Date(now.getTime() - REQUEST_TOKEN_TTL_MS).toISOString());
  const row: RequestTokenRow = {
    token: worldCredential(ctx, alphanumeric(27)),
    secret: alphanumeric(32),
    app_id: app.id,
    callback,
    access_level: accessType ? ACCESS_TYPES[accessType] : DEFAULT_ACCESS_LEVEL,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + REQUEST_TOKEN_TTL_MS).toISOString(),
    user_id: null,
    verifier_hash: null,
    authorized_at: null,
    denied_at: null,
    failed_attempts: 0,
    used_at: null,
  };
  await insertRequestToken(ctx.store.db, row);
  return { token: row.token, secret: row.secret };
}

export interface PendingAuthorization {
  requestToken: RequestTokenRow;
  app: AppRow;
}

/** Step 2: a request token the person can still approve or deny; undefined when it is not (any more). */
export async function pendingAuthorization(ctx: CoreContext, token: string): Promise<PendingAuthorization | undefined> {
  const row = await findRequestToken(ctx.store.db, token);
  if (!row || row.authorized_at || row.denied_at || row.used_at || row.expires_at <= ctx.clock.now().toISOString()) return undefined;
  const app = await findAppById(ctx.store.db, row.app_id);
  return app ? { requestToken: row, app } : undefined;
}

/** True when the person already granted the app at least the access this request asks for. */
export async function alreadyGranted(ctx: CoreContext, pending: PendingAuthorization, userId: string): Promise<boolean> {
  const granted = await findOAuth1AccessLevel(ctx.store.db, pending.app.id, userId);
  return granted !== undefined && accessLevelCovers(granted, pending.requestToken.access_level);
}

export type Approval = { kind: 'redirect'; location: string } | { kind: 'pin'; pin: string };

/** Step 2, approved: the verifier goes back to the app by the callback, or to the person as a PIN. */
export async function approveRequestToken(ctx: CoreContext, pending: PendingAuthorization, user: UserRow): Promise<Approval | undefined> {
  const oob = pending.requestToken.callback === 'oob';
  const verifier = oob ? String(randomInt(0, 10_000_000)).padStart(7, '0') : alphanumeric(32);
  const done = await authorizeRequestToken(ctx.store.db, pending.requestToken.token, user.id, hashToken(verifier), ctx.clock.now().toISOString());
  if (!done) return undefined;
  if (oob) return { kind: 'pin', pin: verifier };
  const location = new URL(pending.requestToken.callback);
  location.searchParams.append('oauth_token', pending.requestToken.token);
  location.searchParams.append('oauth_verifier', verifier);
  return { kind: 'redirect', location: location.href };
}

/** Step 2, denied: the app learns it by `?denied=<request token>` on its callback (nothing in PIN mode). */
export async function denyAuthorization(ctx: CoreContext, pending: PendingAuthorization): Promise<string | undefined> {
  await denyRequestToken(ctx.store.db, pending.requestToken.token, ctx.clock.now().toISOString());
  if (pending.requestToken.callback === 'oob') return undefined;
  const location = new URL(pending.requestToken.callback);
  location.searchParams.append('denied', pending.requestToken.token);
  return location.href;
}

export interface AccessTokenResult {
  token: string;
  secret: string;
  userId: string;
  screenName: string;
}

/** Step 3: POST /oauth/access_token. */
export async function exchangeRequestToken(ctx: CoreContext, request: FastifyRequest): Promise<AccessTokenResult> {
  const { params, app, requestToken } = await verifyFlowRequest(ctx, request, 'request-token');
  // Spec 000: oauth_token "must equal the token from step 1". The signing token is looked up among
  // this app's request tokens only; one named again in the body must be the same.
  if (!requestToken || params.token !== requestToken.token) throw legacy.invalidToken();
  const named = param(request, 'oauth_token');
  if (named !== undefined && named !== requestToken.token) throw legacy.invalidToken();
  const verifier = params.verifier ?? param(request, 'oauth_verifier');
  if (!verifier) throw legacy.couldNotAuthenticate('Required oauth_verifier parameter not provided.');
  if (!requestToken.authorized_at || !requestToken.user_id || !requestToken.verifier_hash) {
    throw legacy.couldNotAuthenticate('The request token has not been authorized by the user.');
  }
  const given = Buffer.from(hashToken(verifier));
  const expected = Buffer.from(requestToken.verifier_hash);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    const attempts = await countFailedVerifier(ctx.store.db, requestToken.token);
    if (attempts >= MAX_VERIFIER_ATTEMPTS) await denyRequestToken(ctx.store.db, requestToken.token, ctx.clock.now().toISOString());
    throw legacy.couldNotAuthenticate('Invalid oauth_verifier parameter.');
  }
  const userId = requestToken.user_id;
  return ctx.store.db.transaction().execute(async (tx) => {
    if (!(await spendRequestToken(tx, requestToken.token, ctx.clock.now().toISOString()))) throw legacy.invalidToken();
    const user = await findUserById(tx, userId);
    if (!user) throw legacy.invalidToken();
    // The public platform hands out the same access token when the person authorizes the app again;
    // only after invalidate_token does a new authorization yield a different one (spec 000 rule 3).
    const existing = await findLatestOAuth1Token(tx, app.id, user.id, requestToken.access_level);
    const issued = existing ? { token: existing.token, secret: existing.secret } : await issueOAuth1AccessToken(ctx, tx, app.id, user.id, requestToken.access_level);
    return { token: issued.token, secret: issued.secret, userId: user.id, screenName: user.username };
  });
}

/** POST /1.1/oauth/invalidate_token: the access token that signs the request stops working everywhere. */
export async function invalidateAccessToken(ctx: CoreContext, request: FastifyRequest): Promise<string> {
  const result = await verifyOAuth1UserContext(ctx, request);
  if (!result.ok) {
    request.log.info({ reason: result.reason }, 'OAuth 1.0a verification failed');
    throw legacyErrorFor(result.reason, 'The Authorization header is missing or malformed.');
  }
  const { token, user, app } = result.caller;
  const now = ctx.clock.now().toISOString();
  const invalidated = await ctx.store.db.transaction().execute(async (tx) => {
    if (!(await invalidateOAuth1Token(tx, token, now))) return false;
    // The person's authorization of the app ends: the Activity API's oauth.revoke (reference §7).
    await appendEvent(ctx, tx, { type: 'oauth.revoke', subject: user.id, payload: { date_time: now, user_id: user.id, app_id: app.id } });
    return true;
  });
  if (!invalidated) throw legacy.invalidToken();
  return token;
}
