import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { wallClock } from '../../clock.js';
import type { CoreContext } from '../../context.js';
import { isFormBody, oauth1NonceRecorder, requestUrl } from '../authenticate.js';
import { currentAppBearerToken, issueAppBearerToken } from '../issue.js';
import { OAuth1Error, verifyOAuth1Request } from '../oauth1.js';
import { findAppByConsumerKey, findOAuth1AccessToken, type AppRow } from '../store.js';
import { hashToken } from '../tokens.js';
import { legacy } from './errors.js';
import { basicCredentials, param } from './request.js';
import { findLiveBearerOfApp, invalidateBearer } from './store.js';

/**
 * OAuth 2.0 app-only bearer tokens (spec 000 "OAuth 2.0 app-only bearer token";
 * shared/reference/platform.md §4): one token per app, the same on every request until it is
 * invalidated. Any failure is the platform's 403 code 99.
 */

export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The app whose consumer key and secret are in the Basic header. */
async function appFromBasic(ctx: CoreContext, request: FastifyRequest): Promise<AppRow | undefined> {
  const basic = basicCredentials(request);
  if (!basic) return undefined;
  const app = await findAppByConsumerKey(ctx.store.db, basic.id);
  return app && sameSecret(basic.secret, app.consumer_secret) ? app : undefined;
}

/** POST /oauth2/token with grant_type=client_credentials. */
export async function obtainAppBearerToken(ctx: CoreContext, request: FastifyRequest): Promise<string> {
  const app = await appFromBasic(ctx, request);
  if (!app || param(request, 'grant_type') !== 'client_credentials') throw legacy.unableToVerify();
  return ctx.store.db.transaction().execute(async (tx) => (await currentAppBearerToken(ctx, tx, app.id)) ?? issueAppBearerToken(ctx, tx, app.id));
}

/**
 * The app presenting itself to invalidate_token: by its consumer key and secret (Basic), or by an
 * OAuth 1.0a signature of its consumer key (the platform's current documentation signs it).
 */
async function appForInvalidation(ctx: CoreContext, request: FastifyRequest): Promise<AppRow | undefined> {
  if (/^Basic\s/i.test(request.headers.authorization ?? '')) return appFromBasic(ctx, request);
  const db = ctx.store.db;
  let app: AppRow | undefined;
  try {
    await verifyOAuth1Request(
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
        tokenSecret: async (_consumerKey, token) => (app ? (await findOAuth1AccessToken(db, app.id, token))?.secret : undefined),
        useNonce: oauth1NonceRecorder(ctx),
      },
      { nowSeconds: Math.floor(wallClock(ctx.clock).now().getTime() / 1000), windowSeconds: ctx.config.oauthTimestampWindowSeconds, requireToken: false },
    );
    return app;
  } catch (err) {
    if (err instanceof OAuth1Error) return undefined;
    throw err;
  }
}

/** POST /oauth2/invalidate_token: answers the invalidated token. */
export async function invalidateAppBearerToken(ctx: CoreContext, request: FastifyRequest): Promise<string> {
  const app = await appForInvalidation(ctx, request);
  const given = param(request, 'access_token');
  if (!app || !given) throw legacy.unableToVerify();
  // Tokens contain a literal "%3D"; a client that posts one without form-encoding it has it decoded
  // to "=" on the way in, so that spelling is tried too.
  for (const candidate of new Set([given, given.replace(/=/g, '%3D')])) {
    const live = await findLiveBearerOfApp(ctx.store.db, app.id, hashToken(candidate));
    if (live) {
      await invalidateBearer(ctx.store.db, live.token_hash, ctx.clock.now().toISOString());
      return candidate;
    }
  }
  throw legacy.unableToVerify();
}
