import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clipEcho, clipStrings } from '../../http/problems.js';
import { setFrameworkErrorBody } from '../../http/server.js';

/** One error of the ads error body (shared/reference/ads.md §1). */
export interface AdsErrorItem {
  code: string;
  message: string;
  parameter?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * `request.params` of the ads envelope as parsing goes: path variables first, then each
     * parameter once parsed. Errors raised part way echo what was understood so far.
     */
    adsEcho?: Record<string, unknown>;
  }
}

/** A thrown ads error: the HTTP status and its items, rendered with the request's params. */
export class AdsError extends Error {
  constructor(
    readonly status: number,
    readonly errors: AdsErrorItem[],
    /** Authentication-level errors echo empty params, as the public platform does. */
    readonly echo = true,
    readonly headers: Record<string, string> = {},
    /** A whole body sent instead of `{errors, request}` (batch item errors: `operation_errors`). */
    readonly body?: Record<string, unknown>,
  ) {
    super(errors.map((e) => e.message).join('; '));
    this.name = 'AdsError';
  }

  static invalidParameter(parameter: string, message: string, code = 'INVALID_PARAMETER'): AdsError {
    return new AdsError(400, [{ code, message, parameter }]);
  }

  static missingParameter(parameter: string): AdsError {
    return new AdsError(400, [{ code: 'MISSING_PARAMETER', message: `${parameter} is missing`, parameter }]);
  }

  static exclusiveParameters(a: string, b: string): AdsError {
    return new AdsError(400, [{ code: 'EXCLUSIVE_PARAMETERS', message: `${a} and ${b} are exclusive parameters; send only one of them`, parameter: a }]);
  }

  static notFound(message: string, parameter?: string, code = 'NOT_FOUND'): AdsError {
    return new AdsError(404, [{ code, message, ...(parameter ? { parameter } : {}) }]);
  }

  static unauthorized(): AdsError {
    return new AdsError(401, [{ code: 'UNAUTHORIZED_ACCESS', message: 'This request is not properly authenticated' }], false);
  }

  static forbidden(code: string, message: string): AdsError {
    return new AdsError(403, [{ code, message }], false);
  }
}

/** `request.params` of the ads envelope: what parsing understood, or the raw path and query. */
export function echoParams(request: FastifyRequest): Record<string, unknown> {
  if (request.adsEcho) return request.adsEcho;
  return {
    ...((request.params as Record<string, unknown> | undefined) ?? {}),
    ...((request.query as Record<string, unknown> | undefined) ?? {}),
  };
}

/** No string of an error answer is longer than this, whatever a message embeds. */
const MAX_ERROR_STRING = 1024;

/** `request.params` as an error answer repeats it: each value (and each list item) clipped to a short prefix. */
function clippedEcho(params: Record<string, unknown>): Record<string, unknown> {
  const clip = (v: unknown): unknown =>
    typeof v === 'string' ? clipEcho(v) : Array.isArray(v) ? v.slice(0, 100).map(clip) : v !== null && typeof v === 'object' ? clipEcho(JSON.stringify(v) ?? '') : v;
  return Object.fromEntries(Object.entries(params).slice(0, 100).map(([k, v]) => [clipEcho(k), clip(v)]));
}

export function sendAdsError(reply: FastifyReply, request: FastifyRequest, status: number, errors: AdsErrorItem[], echo = true): FastifyReply {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .serializer(JSON.stringify)
    .send({ errors: clipStrings(errors, MAX_ERROR_STRING), request: { params: echo ? clippedEcho(echoParams(request)) : {} } });
}

/** The ads error body for failures met before routing (bad URL, headers too large, time-outs). */
export function adsErrorBody(status: number, message: string): { contentType: string; body: string } {
  const code = status === 401 ? 'UNAUTHORIZED_ACCESS' : (STATUS_CODES[status] ?? 'INVALID_PARAMETER');
  return { contentType: 'application/json; charset=utf-8', body: JSON.stringify({ errors: [{ code, message }], request: { params: {} } }) };
}

const STATUS_CODES: Record<number, string> = {
  401: 'UNAUTHORIZED_ACCESS',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'CANCELLED_REQUEST',
  413: 'INVALID_PARAMETER',
  415: 'INVALID_PARAMETER',
  429: 'TOO_MANY_REQUESTS',
};

/** The ads listeners' one renderer. */
export function installAdsErrors(app: FastifyInstance): void {
  setFrameworkErrorBody(app, adsErrorBody);
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AdsError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      if (error.body) return reply.code(error.status).type('application/json; charset=utf-8').serializer(JSON.stringify).send(error.body);
      return sendAdsError(reply, request, error.status, error.errors, error.echo);
    }
    if (error.validation) {
      const items = error.validation.map((v): AdsErrorItem => {
        const params = v.params as Record<string, unknown>;
        if (v.keyword === 'required') {
          const name = String(params.missingProperty);
          return { code: 'MISSING_PARAMETER', message: `${name} is missing`, parameter: name };
        }
        const name = v.instancePath.replace(/^\//, '').split('/')[0] || String(params.additionalProperty ?? '');
        return { code: 'INVALID_PARAMETER', message: `${name} ${v.message ?? 'is invalid'}`, parameter: name };
      });
      return sendAdsError(reply, request, 400, items);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Body parsing failures (bad JSON, unsupported content type, too large) happen before a
      // handler runs; they name the body.
      const code = STATUS_CODES[status] ?? 'INVALID_PARAMETER';
      return sendAdsError(reply, request, status, [{ code, message: error.message, ...(code === 'INVALID_PARAMETER' ? { parameter: 'body' } : {}) }], status !== 401);
    }
    request.log.error({ err: error }, 'unexpected failure');
    return sendAdsError(reply, request, 500, [{ code: 'INTERNAL_ERROR', message: `Internal error. Quote request id ${request.id} when reporting it.` }]);
  });
  app.setNotFoundHandler((request, reply) => {
    sendAdsError(reply, request, 404, [{ code: 'ROUTE_NOT_FOUND', message: 'The requested resource could not be found' }], false);
  });
}
