import type { FastifyRequest } from 'fastify';
import { verifyOAuth1UserContext } from '../../auth/authenticate.js';
import type { AppRow, UserRow } from '../../auth/store.js';
import type { CoreContext } from '../../context.js';
import type { AccessLevel } from '../../store/schema.js';
import { AdsError } from './errors.js';

/**
 * Who calls the advertising interface: every request is OAuth 1.0a user context (shared/
 * reference/ads.md §2), checked by the platform's one verifier against the same apps, tokens and
 * nonces as the platform interface.
 */
export interface AdsCaller {
  app: AppRow;
  user: UserRow;
  accessLevel: AccessLevel;
}

/** The signed user, or 401 UNAUTHORIZED_ACCESS for anything else (no header, bearer tokens, bad signatures). */
export async function authenticateAds(ctx: CoreContext, request: FastifyRequest): Promise<AdsCaller> {
  const header = request.headers.authorization;
  if (!header || !/^OAuth\s+/i.test(header)) throw AdsError.unauthorized();
  const result = await verifyOAuth1UserContext(ctx, request);
  if (!result.ok) {
    request.log.info({ reason: result.reason }, 'ads OAuth 1.0a verification failed');
    throw AdsError.unauthorized();
  }
  const { app, user, accessLevel } = result.caller;
  return { app, user, accessLevel };
}
