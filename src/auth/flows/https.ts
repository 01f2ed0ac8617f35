import type { FastifyRequest } from 'fastify';
import type { CoreContext } from '../../context.js';

/** True when the client reached Plaza over HTTPS, directly or through a proxy that says so. */
export function isHttps(request: FastifyRequest): boolean {
  const forwarded = request.headers['x-forwarded-proto'];
  const proto = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim().toLowerCase();
  return (proto || request.protocol) === 'https';
}

/**
 * Spec 000: "All OAuth 1.0a authorization steps require HTTPS." Plaza holds every OAuth step and
 * page to it; development mode (the local demo's default) lets plain http through.
 */
export function httpsSatisfied(ctx: CoreContext, request: FastifyRequest): boolean {
  return ctx.config.development || isHttps(request);
}
