import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate, type Caller, type RouteAuth, type UserCaller } from '../auth/authenticate.js';
import type { PlatformContext } from './context.js';
import { ProblemError, problems } from '../http/problems.js';
import { accessLevelOfScopes } from '../auth/flows/scopes.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The schemes (and OAuth 2.0 scopes) a route accepts; absent means public. */
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    caller?: Caller;
  }
}

const SECURITY_SCHEME = { app: 'BearerToken', user: 'UserToken' } as const;

/**
 * One declaration per route drives both the check and the OpenAPI security of the operation:
 * authentication runs before validation, so a caller without credentials gets 401, not 400.
 */
export function installRouteAuth(app: FastifyInstance, ctx: PlatformContext): void {
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    if (!auth) return;
    const schema = (route.schema ??= {}) as Record<string, unknown>;
    schema.security = auth.schemes.map((s) => ({ [SECURITY_SCHEME[s]]: [] }));
  });
  app.decorateRequest('caller', undefined);
  // Callback-style: a caller already known costs the request no promise turn.
  app.addHook('preValidation', (request, reply, done) => {
    const auth = request.routeOptions.config.auth;
    if (!auth) return done();
    const admit = (caller: Caller) => {
      request.caller = caller;
      // The public platform names the access of a user-context token on every answer.
      if (caller.kind !== 'app') reply.header('x-access-level', caller.kind === 'oauth1' ? caller.accessLevel : accessLevelOfScopes(caller.scopes));
      // Interface routes answer JSON: a handler may return the body already written as JSON text
      // (src/http/json-body.ts), which Fastify then sends as it is.
      reply.type('application/json; charset=utf-8');
      // A fault injected through the admin interface (usage cap, rate limit) strikes here.
      const struck = ctx.faults?.strike(caller, request, reply);
      if (struck) return void struck.then(() => done(), done);
      done();
    };
    let result: Caller | Promise<Caller>;
    try {
      result = authenticate(ctx, request, auth);
    } catch (err) {
      return done(err as Error);
    }
    if (result instanceof Promise) result.then(admit, done);
    else admit(result);
  });
}

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('route has no auth declaration');
  return request.caller;
}

/** The caller of a user-context-only route. */
export function userCallerOf(ctx: PlatformContext, request: FastifyRequest): UserCaller {
  const caller = callerOf(request);
  if (caller.kind === 'app') throw new ProblemError(403, problems.unsupportedAuthentication('This endpoint needs user context.'));
  return caller;
}
