import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import type { FastifyError, FastifyInstance } from 'fastify';
import { httpsSatisfied } from '../auth/flows/https.js';
import { bodyParam, clientAddress } from '../auth/flows/request.js';
import { purposeKey } from '../auth/flows/server-secret.js';
import { OAUTH_WINDOW_MS } from '../auth/flows/routes.js';
import type { PlatformContext } from '../platform/context.js';
import { FixedWindowRateLimiter, rateLimitHook, sharedRateLimitCounter } from '../http/rate-limit.js';
import { accountPages } from './account-pages.js';
import { PLAZA_CSS } from './assets.js';
import { consolePages } from './console-pages.js';
import { homePage } from './home.js';
import { oauth1Pages } from './oauth1-pages.js';
import { oauth2Pages } from './oauth2-pages.js';
import { errorPage, PageError } from './respond.js';
import { loadSession } from './sessions.js';
import { timelinePages } from './timeline-pages.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The rate-limit family of a page (per client address). */
    webRateLimit?: string;
    /** The home page: no secrets on it, so it is shown over plain http too (API clients get the JSON 404). */
    webHome?: boolean;
  }
}

/**
 * Headers of every page: no caching (they carry tokens and PINs), no framing (the consent
 * buttons cannot be clickjacked), no scripts at all, no referrer leaking tokens to the app.
 * form-action is left open: approving redirects the form's POST on to the app's callback.
 */
const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'self'; img-src 'self' https: data:; base-uri 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * The pages a person sees: sign-in, sign-up, the OAuth 1.0a and OAuth 2.0 consent pages and the
 * developer console. Server-rendered, usable without JavaScript, CSRF-protected forms
 * (@fastify/csrf-protection: a signed secret cookie, a token in each form), sessions in the store.
 */
export function webPages(ctx: PlatformContext) {
  return async function pages(app: FastifyInstance): Promise<void> {
    await app.register(cookie, { secret: purposeKey(ctx.config.secretFile, 'cookies').toString('hex') });
    await app.register(csrf, {
      cookieKey: 'plaza_csrf',
      cookieOpts: { path: '/', httpOnly: true, sameSite: 'lax', signed: true },
      getToken: (request) => bodyParam(request, '_csrf'),
    });
    app.decorateRequest('web', undefined);
    // Shared by every process on the store when Redis is configured (issue 37 item 9).
    const limiter = new FixedWindowRateLimiter(ctx.clock, sharedRateLimitCounter(app, ctx));
    const hooks = new Map<string, ReturnType<typeof rateLimitHook>>();
    const limitFor = (family: string) => {
      let hook = hooks.get(family);
      if (!hook) {
        hook = rateLimitHook({
          limiter,
          rule: { name: family, limit: ctx.config.oauthRateLimit, windowMs: OAUTH_WINDOW_MS },
          keyOf: (request) => `address:${clientAddress(request)}`,
          onLimited: (_request, reply) =>
            errorPage(reply, new PageError(429, 'Too many requests', 'This address sent too many requests to this page. Wait a few minutes and try again.')),
        });
        hooks.set(family, hook);
      }
      return hook;
    };

    app.addHook('onRequest', async (request, reply) => {
      for (const [name, value] of Object.entries(PAGE_HEADERS)) reply.header(name, value);
      const family = request.routeOptions.config.webRateLimit;
      if (family) {
        const limited = await limitFor(family)(request, reply);
        if (limited) return limited;
      }
      if (!httpsSatisfied(ctx, request) && !request.routeOptions.config.webHome) {
        return errorPage(
          reply,
          new PageError(
            403,
            'HTTPS is required',
            'Plaza only shows this page over HTTPS. Open it with https:// (behind a proxy, the proxy must send X-Forwarded-Proto: https), or run Plaza in development mode (PLAZA_DEVELOPMENT=true) to use plain http.',
          ),
        );
      }
      request.web = await loadSession(ctx, request);
      return undefined;
    });

    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof PageError) return errorPage(reply, error);
      if (error.code === 'FST_CSRF_INVALID_TOKEN' || error.code === 'FST_CSRF_MISSING_SECRET') {
        return errorPage(
          reply,
          new PageError(403, 'This form has expired', 'The form was not sent from this Plaza page, or it is too old. Go back, reload the page and try again.'),
        );
      }
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      if (status < 500) return errorPage(reply, new PageError(status, 'The request could not be handled', error.message));
      request.log.error({ err: error }, 'unexpected failure');
      return errorPage(reply, new PageError(500, 'Something went wrong', `Something went wrong on our side. Quote request id ${request.id} when reporting it.`));
    });

    app.get('/assets/plaza.css', { schema: { hide: true } }, async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=3600').type('text/css; charset=utf-8').send(PLAZA_CSS),
    );
    await accountPages(app, ctx);
    await oauth1Pages(app, ctx);
    await oauth2Pages(app, ctx);
    await consolePages(app, ctx);
    await homePage(app, ctx);
    await timelinePages(app, ctx);
  };
}
