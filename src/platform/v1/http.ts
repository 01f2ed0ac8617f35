import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { verifyOAuth1UserContext, type UserCaller } from '../../auth/authenticate.js';
import { legacyErrorFor } from '../../auth/flows/oauth1-flow.js';
import { LegacyOAuthError } from '../../auth/flows/errors.js';
import type { PlatformContext } from '../context.js';
import { ProblemError, type Problem } from '../../http/problems.js';

/**
 * What the v1.1 endpoints SDKs still call share (the media upload, account/verify_credentials,
 * media/metadata/create): OAuth 1.0a user context, and `{"errors":[{code,message}]}` bodies for
 * every refusal, as the public platform's v1.1 answers them.
 */

/** A v1.1 refusal: status, code and message. */
export class V1Error extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The v1.1 code for a refusal of a v2 service: a missing parameter (38), a bad one (44), an unknown media id (324), anything the caller may not do (200). */
function v1ErrorOf(status: number, problem: Problem): V1Error {
  const p = problem as Problem & { errors?: Array<{ message?: string; parameters?: Record<string, unknown> }>; detail?: string };
  const message = p.errors?.[0]?.message ?? p.detail ?? 'The request could not be completed.';
  if (status === 404) return new V1Error(400, 324, message);
  if (status === 403) return new V1Error(403, 200, message);
  if (status === 400) return new V1Error(400, /missing/i.test(message) ? 38 : 44, message);
  return new V1Error(status, 131, message);
}

/** The OAuth 1.0a user context of a v1.1 request, or its v1.1 refusal; its access level is named on the answer. */
export async function v1Caller(ctx: PlatformContext, request: FastifyRequest, reply: FastifyReply): Promise<UserCaller> {
  const result = await verifyOAuth1UserContext(ctx, request);
  if (!result.ok) throw legacyErrorFor(result.reason, 'The Authorization header is missing or malformed: this endpoint takes OAuth 1.0a user context.');
  if (result.caller.kind === 'oauth1') reply.header('x-access-level', result.caller.accessLevel);
  return result.caller;
}

export function sendJson(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').serializer((x: unknown) => x as string).send(body);
}

/** v1.1 error bodies for everything the routes of `app` (an encapsulated plugin) refuse; `tooLarge` words a body over the limit. */
export function installV1Errors(app: FastifyInstance, tooLarge: string): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof V1Error) return sendJson(reply, error.status, JSON.stringify({ errors: [{ code: error.code, message: error.message }] }));
    if (error instanceof LegacyOAuthError) return sendJson(reply, error.status, JSON.stringify(error.body()));
    if (error instanceof ProblemError) {
      const v1 = v1ErrorOf(error.status, error.problem);
      return sendJson(reply, v1.status, JSON.stringify({ errors: [{ code: v1.code, message: v1.message }] }));
    }
    // busboy refuses a multipart header it cannot use (no boundary, a bad one) with a bare Error.
    if (error.statusCode === undefined && error.message?.startsWith('Multipart:')) {
      return sendJson(reply, 400, JSON.stringify({ errors: [{ code: 44, message: 'The Content-Type header must name the multipart boundary: multipart/form-data; boundary=...' }] }));
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, 'unexpected failure');
    const message =
      status === 500
        ? `Internal error. Quote request id ${request.id} when reporting it.`
        : error.code === 'FST_REQ_FILE_TOO_LARGE' || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? tooLarge
          : error.message;
    return sendJson(reply, status === 413 ? 400 : status, JSON.stringify({ errors: [{ code: status === 500 ? 131 : 44, message }] }));
  });
}
