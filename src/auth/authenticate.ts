import DataLoader from 'dataloader';
import type { FastifyRequest } from 'fastify';
import { wallClock } from '../clock.js';
import type { CoreContext } from '../context.js';
import { ProblemError, problems } from '../http/problems.js';
import type { AccessLevel } from '../store/schema.js';
import type { Store } from '../store/store.js';
import { effectiveScopes } from './flows/scopes.js';
import { findOAuth1AccessLevel, findOAuth1AccessLevels } from './flows/store.js';
import { OAuth1Error, verifyOAuth1Request, type OAuth1FailureReason } from './oauth1.js';
import {
  findAppById,
  findAppByBearerHash,
  findAppsByBearerHashes,
  findAppsByIds,
  findOAuth2AccessTokens,
  findAppByConsumerKey,
  findOAuth1AccessToken,
  findOAuth2AccessToken,
  findUserById,
  findUsersByIds,
  pruneNonces,
  recordNonce,
  type AppRow,
  type UserRow,
} from './store.js';
import type { OAuth2TokenTable } from '../store/schema.js';
import { hashToken } from './tokens.js';

/**
 * What a route accepts (spec 000 "Authentication"): `app` is the BearerToken scheme (app-only),
 * `user` is the UserToken scheme (OAuth 1.0a user context) and OAuth 2.0 user tokens.
 */
export type AuthScheme = 'app' | 'user';

export type Caller =
  | { kind: 'app'; app: AppRow }
  | { kind: 'oauth1'; app: AppRow; user: UserRow; accessLevel: AccessLevel; token: string }
  | {
      kind: 'oauth2';
      app: AppRow;
      user: UserRow;
      /** The scopes the token may use: its own, limited by an OAuth 1.0a permission for the same app. */
      scopes: ReadonlySet<string>;
      /** The person's OAuth 1.0a permission for the same app, when there is one (it overrides the scopes). */
      oauth1AccessLevel?: AccessLevel;
    };

export type UserCaller = Extract<Caller, { kind: 'oauth1' | 'oauth2' }>;

export interface RouteAuth {
  schemes: AuthScheme[];
  /** OAuth 2.0 scopes a user token must carry for this route. */
  scopes?: string[];
}

const SCHEME_LABELS: Record<Caller['kind'], string> = {
  app: 'OAuth 2.0 Application-Only',
  oauth1: 'OAuth 1.0a User Context',
  oauth2: 'OAuth 2.0 User Context',
};

function supportedLabels(schemes: AuthScheme[]): string {
  const labels: string[] = [];
  if (schemes.includes('user')) labels.push(SCHEME_LABELS.oauth1, SCHEME_LABELS.oauth2);
  if (schemes.includes('app')) labels.push(SCHEME_LABELS.app);
  return labels.join(', ');
}

/** The public platform's 401 on /2 for a missing, unknown or badly signed credential. */
function unauthorized(): ProblemError {
  return new ProblemError(401, problems.aboutBlank(401, 'Unauthorized'));
}

/**
 * Works out who is calling, then checks the route accepts that scheme and its scopes. A bearer
 * token already resolved under the store's current generation answers at once (no promise turn).
 */
export function authenticate(ctx: CoreContext, request: FastifyRequest, auth: RouteAuth): Caller | Promise<Caller> {
  const known = knownBearerCaller(ctx, request.headers.authorization);
  if (known) return accepted(known, auth);
  return identifyCaller(ctx, request).then((caller) => {
    if (!caller) throw unauthorized();
    return accepted(caller, auth);
  });
}

/** The caller, when the route accepts its scheme and scopes. */
function accepted(caller: Caller, auth: RouteAuth): Caller {
  const ok = caller.kind === 'app' ? auth.schemes.includes('app') : auth.schemes.includes('user');
  if (!ok) {
    throw new ProblemError(
      403,
      problems.unsupportedAuthentication(
        `Authenticating with ${SCHEME_LABELS[caller.kind]} is forbidden for this endpoint.  Supported authentication types are [${supportedLabels(auth.schemes)}].`,
      ),
    );
  }
  if (caller.kind === 'oauth2' && auth.scopes) {
    const missing = auth.scopes.filter((s) => !caller.scopes.has(s));
    if (missing.length > 0) {
      throw new ProblemError(
        403,
        problems.aboutBlank(403, 'Forbidden', `Missing required OAuth 2.0 scopes: [${missing.join(', ')}].`),
      );
    }
  }
  return caller;
}

const BEARER = /^Bearer\s+/i;

/** The remembered caller of a bearer token, while the store is unchanged (Store.credentialsGeneration) and the token unexpired. */
function knownBearerCaller(ctx: CoreContext, header: string | undefined): Caller | undefined {
  if (!header || !BEARER.test(header)) return undefined;
  const generation = ctx.store.credentialsGeneration();
  if (generation === undefined) return undefined;
  const known = bearerMemo(ctx.store).get(header.replace(BEARER, '').trim());
  if (!known || known.generation !== generation) return undefined;
  return known.expiresAt === null || known.expiresAt > ctx.clock.now().toISOString() ? known.caller : undefined;
}

async function identifyCaller(ctx: CoreContext, request: FastifyRequest): Promise<Caller | undefined> {
  const header = request.headers.authorization;
  if (!header) return undefined;
  if (BEARER.test(header)) {
    const token = header.replace(BEARER, '').trim();
    const generation = ctx.store.credentialsGeneration();
    const now = ctx.clock.now().toISOString();
    const caller = await identifyBearer(ctx, token, hashToken(token), now);
    if (caller && generation !== undefined && generation === ctx.store.credentialsGeneration()) {
      const memo = bearerMemo(ctx.store);
      if (memo.size >= BEARER_MEMO_SIZE) memo.clear();
      memo.set(token, { generation, caller: caller.caller, expiresAt: caller.expiresAt });
    }
    return caller?.caller;
  }
  if (/^OAuth\s+/i.test(header)) return verifyUserContext(ctx, request);
  return undefined;
}

/**
 * Who a bearer token belongs to, remembered per store (keyed by the token as presented) while the
 * store is unchanged (any write, such as a revocation, bumps its generation) and the token
 * unexpired: repeated reads with one token then cost no query and no hashing.
 */
const BEARER_MEMO_SIZE = 10_000;
const bearerMemos = new WeakMap<Store, Map<string, { generation: string; caller: Caller; expiresAt: string | null }>>();

function bearerMemo(store: Store): Map<string, { generation: string; caller: Caller; expiresAt: string | null }> {
  let memo = bearerMemos.get(store);
  if (!memo) bearerMemos.set(store, (memo = new Map()));
  return memo;
}

async function identifyBearer(ctx: CoreContext, token: string, tokenHash: string, now: string): Promise<{ caller: Caller; expiresAt: string | null } | undefined> {
  const reads = bearerReads(ctx.store);
  // App-only tokens are shaped like the public platform's (a run of A's first): that table is asked
  // first for them, the OAuth 2.0 tokens first for the others, and the other table only on a miss.
  const appFirst = token.startsWith(APP_TOKEN_PREFIX);
  if (appFirst) {
    const app = await reads.appByBearer(tokenHash);
    if (app) return { caller: { kind: 'app', app }, expiresAt: null };
  }
  const user = await identifyOAuth2(reads, tokenHash, now);
  if (user || appFirst) return user;
  const app = await reads.appByBearer(tokenHash);
  return app ? { caller: { kind: 'app', app }, expiresAt: null } : undefined;
}

async function identifyOAuth2(reads: BearerReads, tokenHash: string, now: string): Promise<{ caller: Caller; expiresAt: string | null } | undefined> {
  const token = await reads.oauth2Token(tokenHash);
  if (!token || (token.expires_at !== null && token.expires_at <= now)) return undefined;
  const [tokenApp, user, oauth1AccessLevel] = await Promise.all([
    reads.appById(token.app_id),
    reads.user(token.user_id),
    reads.accessLevel(token.app_id, token.user_id),
  ]);
  if (!tokenApp || !user) return undefined;
  const scopes = effectiveScopes(new Set(token.scopes.split(' ').filter(Boolean)), oauth1AccessLevel);
  return { caller: { kind: 'oauth2', app: tokenApp, user, scopes, oauth1AccessLevel }, expiresAt: token.expires_at };
}

/** The run of A's the public platform's app-only tokens begin with (src/auth/issue.ts makes them so). */
const APP_TOKEN_PREFIX = 'AAAAAAAAAAAAAAAAAAAAA';

/** The reads that resolve a bearer token. On PostgreSQL those of every request waiting in one turn of the event loop share a query. */
interface BearerReads {
  appByBearer(tokenHash: string): Promise<AppRow | undefined>;
  oauth2Token(tokenHash: string): Promise<OAuth2TokenTable | undefined>;
  appById(id: string): Promise<AppRow | undefined>;
  user(id: string): Promise<UserRow | undefined>;
  accessLevel(appId: string, userId: string): Promise<AccessLevel | undefined>;
}

const bearerReadsOf = new WeakMap<Store, BearerReads>();

function bearerReads(store: Store): BearerReads {
  let reads = bearerReadsOf.get(store);
  if (reads) return reads;
  const db = store.db;
  if (store.dialect !== 'postgres') {
    reads = {
      appByBearer: (hash) => findAppByBearerHash(db, hash),
      oauth2Token: (hash) => findOAuth2AccessToken(db, hash),
      appById: (id) => findAppById(db, id),
      user: (id) => findUserById(db, id),
      accessLevel: (appId, userId) => findOAuth1AccessLevel(db, appId, userId),
    };
  } else {
    const options = { cache: false, batchScheduleFn: (run: () => void) => void setImmediate(run) };
    const byKey = <K extends string, V>(load: (keys: readonly K[]) => Promise<Map<K, V>>) =>
      new DataLoader<K, V | undefined>(async (keys) => {
        const found = await load(keys);
        return keys.map((k) => found.get(k));
      }, options);
    const apps = byKey<string, AppRow>(async (hashes) => new Map((await findAppsByBearerHashes(db, hashes)).map((r) => [r.token_hash, r.app])));
    const tokens = byKey<string, OAuth2TokenTable>(async (hashes) => new Map((await findOAuth2AccessTokens(db, hashes)).map((t) => [t.token_hash, t])));
    const appsById = byKey<string, AppRow>(async (ids) => new Map((await findAppsByIds(db, ids)).map((a) => [a.id, a])));
    const users = byKey<string, UserRow>(async (ids) => new Map((await findUsersByIds(db, ids)).map((u) => [u.id, u])));
    const levels = byKey<string, AccessLevel>(async (pairs) => {
      const split = pairs.map((p) => p.split('\n') as [string, string]);
      return findOAuth1AccessLevels(db, split);
    });
    reads = {
      appByBearer: (hash) => apps.load(hash),
      oauth2Token: (hash) => tokens.load(hash),
      appById: (id) => appsById.load(id),
      user: (id) => users.load(id),
      accessLevel: (appId, userId) => levels.load(`${appId}\n${userId}`),
    };
  }
  bearerReadsOf.set(store, reads);
  return reads;
}

/** OAuth 1.0a user context: the signed request must carry an access token of the signing app. */
async function verifyUserContext(ctx: CoreContext, request: FastifyRequest): Promise<Caller | undefined> {
  const result = await verifyOAuth1UserContext(ctx, request);
  if (result.ok) return result.caller;
  request.log.info({ reason: result.reason }, 'OAuth 1.0a verification failed');
  return undefined;
}

export type OAuth1UserContextResult =
  | { ok: true; caller: Extract<Caller, { kind: 'oauth1' }> }
  | { ok: false; reason: OAuth1FailureReason };

/**
 * Verifies an OAuth 1.0a user-context request (signature, timestamp, nonce, access token) and
 * says why it failed, for endpoints that answer with the v1.1 error codes.
 */
export async function verifyOAuth1UserContext(ctx: CoreContext, request: FastifyRequest): Promise<OAuth1UserContextResult> {
  const db = ctx.store.db;
  let app: AppRow | undefined;
  let tokenUser: string | undefined;
  let accessLevel: AccessLevel = 'read';
  try {
    const params = await verifyOAuth1Request(
      {
        method: request.method,
        url: requestUrl(request),
        authorization: request.headers.authorization,
        formBody: isFormBody(request) ? (request.body as Record<string, string | string[]>) : undefined,
      },
      {
        consumerSecret: async (consumerKey) => {
          app = await findAppByConsumerKey(db, consumerKey);
          return app?.consumer_secret;
        },
        tokenSecret: async (_consumerKey, token) => {
          if (!app) return undefined;
          const row = await findOAuth1AccessToken(db, app.id, token);
          tokenUser = row?.user_id;
          if (row) accessLevel = row.access_level;
          return row?.secret;
        },
        useNonce: oauth1NonceRecorder(ctx),
      },
      { nowSeconds: Math.floor(wallClock(ctx.clock).now().getTime() / 1000), windowSeconds: ctx.config.oauthTimestampWindowSeconds, requireToken: true },
    );
    const user = tokenUser ? await findUserById(db, tokenUser) : undefined;
    if (!app || !user || !params.token) return { ok: false, reason: 'unknown_token' };
    return { ok: true, caller: { kind: 'oauth1', app, user, accessLevel, token: params.token } };
  } catch (err) {
    if (err instanceof OAuth1Error) return { ok: false, reason: err.reason };
    throw err;
  }
}

/** Records OAuth 1.0a nonces by the injected clock, now and then dropping those past twice the window. */
export function oauth1NonceRecorder(ctx: CoreContext): (consumerKey: string, nonce: string, timestamp: number) => Promise<boolean> {
  return async (consumerKey, nonce, timestamp) => {
    const db = ctx.store.db;
    const now = wallClock(ctx.clock).now();
    const windowMs = ctx.config.oauthTimestampWindowSeconds * 1000;
    if (Math.random() < 0.01) await pruneNonces(db, new Date(now.getTime() - 2 * windowMs).toISOString());
    return recordNonce(db, consumerKey, nonce, timestamp, now.toISOString());
  };
}

/** True when the request has a parsed application/x-www-form-urlencoded body (signed by OAuth 1.0a). */
export function isFormBody(request: FastifyRequest): boolean {
  return (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded') && typeof request.body === 'object' && request.body !== null;
}

/**
 * The URL the client signed: behind a proxy the scheme comes from X-Forwarded-Proto; the host
 * is the Host header as sent.
 */
export function requestUrl(request: FastifyRequest): string {
  const forwarded = request.headers['x-forwarded-proto'];
  const proto = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim() || request.protocol;
  // originalUrl: the URL as sent, before the platform listener's dialect rewrite (src/http/dialect/).
  return `${proto}://${request.headers.host ?? request.hostname}${request.originalUrl}`;
}
