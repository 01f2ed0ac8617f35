import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CoreContext } from '../../context.js';
import { sendProblem } from '../../http/platform-errors.js';
import { ProblemError } from '../../http/problems.js';
import { FixedWindowRateLimiter, rateLimitHook, sharedRateLimitCounter, type RateLimitRule } from '../../http/rate-limit.js';
import { invalidateAppBearerToken, obtainAppBearerToken } from './app-only.js';
import { legacy, LegacyOAuthError, OAuth2Error } from './errors.js';
import { httpsSatisfied } from './https.js';
import { createRequestToken, exchangeRequestToken, invalidateAccessToken } from './oauth1-flow.js';
import { revokeEndpoint, tokenEndpoint } from './oauth2-flow.js';
import { basicCredentials, clientAddress, param } from './request.js';

/** Which error body a token endpoint speaks: v1.1 `errors` (OAuth 1.0a, app-only) or RFC 6749's. */
type Dialect = 'legacy' | 'oauth2';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The error body of an OAuth token endpoint. */
    oauthErrors?: Dialect;
  }
}

export const OAUTH_WINDOW_MS = 15 * 60 * 1000;

/** The app a token-endpoint request spends the budget of: its consumer key or client id, else its address. */
export function rateLimitKey(request: FastifyRequest): string {
  const header = request.headers.authorization ?? '';
  const consumer = /oauth_consumer_key\s*=\s*"([^"]*)"/.exec(header)?.[1];
  if (consumer) return `app:${consumer}`;
  const basic = basicCredentials(request);
  if (basic) return `app:${basic.id}`;
  const clientId = param(request, 'client_id');
  if (clientId) return `app:${clientId}`;
  return `address:${clientAddress(request)}`;
}

/**
 * The token endpoints of the OAuth flows: OAuth 1.0a request_token, access_token and
 * invalidate_token; OAuth 2.0 app-only token and invalidate_token; OAuth 2.0 user token and
 * revoke. Each is rate limited (with the x-rate-limit headers) and held to HTTPS.
 */
export function oauthTokenRoutes(ctx: CoreContext) {
  return async function routes(app: FastifyInstance): Promise<void> {
    // Shared by every process on the store when Redis is configured (issue 37 item 9).
    const limiter = new FixedWindowRateLimiter(ctx.clock, sharedRateLimitCounter(app, ctx));

    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof LegacyOAuthError || error instanceof OAuth2Error) {
        return reply.code(error.status).type('application/json; charset=utf-8').serializer(JSON.stringify).send(error.body());
      }
      if (error instanceof ProblemError) return sendProblem(reply, error.status, error.problem);
      const dialect = request.routeOptions.config.oauthErrors ?? 'legacy';
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500) request.log.error({ err: error }, 'unexpected failure');
      const message = status === 500 ? `Internal error. Quote request id ${request.id} when reporting it.` : error.message;
      const body = dialect === 'oauth2' ? { error: status === 500 ? 'server_error' : 'invalid_request', error_description: message } : { errors: [{ code: status === 500 ? 131 : 215, message }] };
      return reply.code(status).type('application/json; charset=utf-8').serializer(JSON.stringify).send(body);
    });

    /** Rate limit, then HTTPS: every answer of a step carries the rate-limit headers. */
    const guard = (name: string, dialect: Dialect) => {
      const rule: RateLimitRule = { name, limit: ctx.config.oauthRateLimit, windowMs: OAUTH_WINDOW_MS };
      const limited = rateLimitHook({ limiter, rule, keyOf: rateLimitKey });
      return async (request: FastifyRequest, reply: FastifyReply) => {
        const stopped = await limited(request, reply);
        if (stopped) return stopped;
        if (!httpsSatisfied(ctx, request)) {
          if (dialect === 'legacy') throw legacy.sslRequired();
          throw new OAuth2Error(403, 'invalid_request', 'HTTPS is required. Behind a proxy, set X-Forwarded-Proto: https; for plain http, run Plaza in development mode (PLAZA_DEVELOPMENT=true).');
        }
        return undefined;
      };
    };
    const opts = (name: string, dialect: Dialect) => ({ schema: { hide: true }, config: { oauthErrors: dialect }, preHandler: guard(name, dialect) });
    const form = (reply: FastifyReply, values: Record<string, string>) =>
      reply.type('application/x-www-form-urlencoded; charset=utf-8').send(new URLSearchParams(values).toString());

    app.post('/oauth/request_token', opts('oauth/request_token', 'legacy'), async (request, reply) => {
      const { token, secret } = await createRequestToken(ctx, request);
      return form(reply, { oauth_token: token, oauth_token_secret: secret, oauth_callback_confirmed: 'true' });
    });

    app.post('/oauth/access_token', opts('oauth/access_token', 'legacy'), async (request, reply) => {
      const result = await exchangeRequestToken(ctx, request);
      return form(reply, { oauth_token: result.token, oauth_token_secret: result.secret, user_id: result.userId, screen_name: result.screenName });
    });

    for (const path of ['/1.1/oauth/invalidate_token', '/1.1/oauth/invalidate_token.json']) {
      app.post(path, opts('oauth/invalidate_token', 'legacy'), async (request) => ({ access_token: await invalidateAccessToken(ctx, request) }));
    }

    app.post('/oauth2/token', opts('oauth2/token', 'legacy'), async (request) => ({ token_type: 'bearer', access_token: await obtainAppBearerToken(ctx, request) }));

    app.post('/oauth2/invalidate_token', opts('oauth2/invalidate_token', 'legacy'), async (request) => ({
      access_token: await invalidateAppBearerToken(ctx, request),
    }));

    app.post('/2/oauth2/token', opts('2/oauth2/token', 'oauth2'), async (request, reply) => {
      const body = await tokenEndpoint(ctx, request);
      return reply.header('cache-control', 'no-store').send(body);
    });

    app.post('/2/oauth2/revoke', opts('2/oauth2/revoke', 'oauth2'), async (request) => revokeEndpoint(ctx, request));
  };
}
