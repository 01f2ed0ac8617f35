import type { FastifyRequest } from 'fastify';
import { requestUrl } from '../../auth/authenticate.js';
import { OAuth1Error, verifyOAuth1Request } from '../../auth/oauth1.js';
import {
  findAppByConsumerKey,
  findOAuth1AccessToken,
  findUserById,
  pruneNonces,
  recordNonce,
  type AppRow,
  type UserRow,
} from '../../auth/store.js';
import type { AppContext } from '../../context.js';
import type { AccessLevel } from '../../store/schema.js';
import { AdsError } from './errors.js';

/**
 * Who calls the advertising interface: every request is OAuth 1.0a user context (shared/
 * reference/ads.md §2), checked against the same apps and tokens as the platform interface.
 */
export interface AdsCaller {
  app: AppRow;
  user: UserRow;
  accessLevel: AccessLevel;
}

function formBody(request: FastifyRequest): Record<string, string | string[]> | undefined {
  const type = request.headers['content-type'] ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded')) return undefined;
  return typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, string | string[]>) : undefined;
}

/** The signed user, or 401 UNAUTHORIZED_ACCESS for anything else (no header, bearer tokens, bad signatures). */
export async function authenticateAds(ctx: AppContext, request: FastifyRequest): Promise<AdsCaller> {
  const header = request.headers.authorization;
  if (!header || !/^OAuth\s+/i.test(header)) throw AdsError.unauthorized();
  const db = ctx.store.db;
  const now = ctx.clock.now();
  let app: AppRow | undefined;
  let userId: string | undefined;
  let accessLevel: AccessLevel = 'read';
  try {
    await verifyOAuth1Request(
      { method: request.method, url: requestUrl(request), authorization: header, formBody: formBody(request) },
      {
        consumerSecret: async (consumerKey) => {
          app = await findAppByConsumerKey(db, consumerKey);
          return app?.consumer_secret;
        },
        tokenSecret: async (_consumerKey, token) => {
          if (!app) return undefined;
          const row = await findOAuth1AccessToken(db, app.id, token);
          userId = row?.user_id;
          if (row) accessLevel = row.access_level;
          return row?.secret;
        },
        useNonce: async (consumerKey, nonce, timestamp) => {
          const windowMs = ctx.config.oauthTimestampWindowSeconds * 1000;
          if (Math.random() < 0.01) await pruneNonces(db, new Date(now.getTime() - 2 * windowMs).toISOString());
          return recordNonce(db, consumerKey, nonce, timestamp, now.toISOString());
        },
      },
      { nowSeconds: Math.floor(now.getTime() / 1000), windowSeconds: ctx.config.oauthTimestampWindowSeconds, requireToken: true },
    );
  } catch (err) {
    if (err instanceof OAuth1Error) {
      request.log.info({ reason: err.reason }, 'ads OAuth 1.0a verification failed');
      throw AdsError.unauthorized();
    }
    throw err;
  }
  const user = userId ? await findUserById(db, userId) : undefined;
  if (!app || !user) throw AdsError.unauthorized();
  return { app, user, accessLevel };
}
