import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { ErrorObjectError, ProblemError, clipEcho, clipStrings, type InvalidRequestItem, type Problem } from './problems.js';
import { setFrameworkErrorBody } from './server.js';

const PROBLEM_JSON = 'application/problem+json';

/** No string of an error answer is longer than this, whatever a message embeds. */
const MAX_ERROR_STRING = 1024;

export function sendProblem(reply: FastifyReply, status: number, problem: Problem): FastifyReply {
  return reply
    .code(status)
    .type(PROBLEM_JSON)
    .serializer(JSON.stringify)
    .send(clipStrings({ ...problem, status: problem.status ?? status }, MAX_ERROR_STRING));
}

/** The platform listener's one renderer: every thrown value becomes a Problem or an Error object. */
export function installPlatformErrors(app: FastifyInstance, ctx: AppContext): void {
  setFrameworkErrorBody(app, (status, message) => ({
    contentType: PROBLEM_JSON,
    body: JSON.stringify(ctx.problems.aboutBlank(status, httpTitle(status), message)),
  }));
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ProblemError) return sendProblem(reply, error.status, error.problem);
    if (error instanceof ErrorObjectError) {
      return reply.code(error.status).type('application/json').serializer(JSON.stringify).send({ code: error.code, message: error.message });
    }
    if (error.validation) {
      return sendProblem(reply, 400, ctx.problems.invalidRequest(validationItems(error, request)));
    }
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || (error instanceof SyntaxError && error.statusCode === 400)) {
      return sendProblem(
        reply,
        400,
        ctx.problems.invalidParameter('body', [], `The request body is not valid JSON: ${error.message}`),
      );
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendProblem(reply, status, ctx.problems.aboutBlank(status, httpTitle(status), error.message));
    }
    request.log.error({ err: error }, 'unexpected failure');
    return sendProblem(
      reply,
      500,
      ctx.problems.aboutBlank(500, 'Internal Server Error', `Something went wrong on our side. Quote request id ${request.id} when reporting it.`),
    );
  });

  app.setNotFoundHandler((request, reply) => {
    sendProblem(reply, 404, ctx.problems.aboutBlank(404, 'Not Found', `No route matches ${request.method} ${request.url.split('?')[0]}.`));
  });
}

const CONTEXT_LABELS: Record<string, string> = { querystring: 'query', params: 'path', body: 'body', headers: 'header' };

/** Turns schema-validation failures into invalid-request items naming the parameter. */
function validationItems(error: FastifyError, request: FastifyRequest): InvalidRequestItem[] {
  const where = CONTEXT_LABELS[error.validationContext ?? ''] ?? 'request';
  const source = ((where === 'query' ? request.query : where === 'path' ? request.params : where === 'body' ? request.body : {}) ?? {}) as Record<string, unknown>;
  // Path parameters are called query parameters on the public platform; body fields are fields.
  const kind = where === 'body' ? 'body field' : 'query parameter';
  return (error.validation ?? []).map((v) => {
    const params = v.params as Record<string, unknown>;
    if (v.keyword === 'required') {
      const name = String(params.missingProperty);
      return { message: `The \`${name}\` ${kind} is missing`, parameters: { [name]: [] } };
    }
    if (v.keyword === 'additionalProperties') {
      const raw = String(params.additionalProperty);
      const name = clipEcho(raw);
      const schema = (request.routeOptions.schema as Record<string, any> | undefined)?.[error.validationContext ?? ''];
      const allowed = Object.keys(schema?.properties ?? {}).join(',');
      return { message: `The ${kind} [${name}] is not one of [${allowed}]`, parameters: { [name]: [stringify(source[raw])] } };
    }
    const name = v.instancePath.replace(/^\//, '').split('/')[0] || 'body';
    const value = stringify(source[name]);
    let rule = v.message ?? 'is invalid';
    if (v.keyword === 'pattern') rule = `does not match ${String(params.pattern)}`;
    else if (v.keyword === 'enum') rule = `is not one of [${(params.allowedValues as unknown[]).join(',')}]`;
    else if (v.keyword === 'minimum' || v.keyword === 'maximum') {
      const prop = (v as { parentSchema?: { minimum?: number; maximum?: number } }).parentSchema;
      rule = `is not between ${prop?.minimum ?? '-∞'} and ${prop?.maximum ?? '∞'}`;
    } else if (v.keyword === 'minLength' || v.keyword === 'maxLength') {
      const prop = (v as { parentSchema?: { minLength?: number; maxLength?: number } }).parentSchema;
      rule = `must be between ${prop?.minLength ?? 0} and ${prop?.maxLength ?? '∞'} characters long`;
    }
    return { message: `The \`${name}\` ${kind} value [${value}] ${rule}`, parameters: { [name]: value === '' ? [] : [value] } };
  });
}

/** A value as an error message repeats it: at most a short prefix. */
function stringify(value: unknown): string {
  if (value === undefined || value === null) return '';
  return clipEcho(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)));
}

function httpTitle(status: number): string {
  const titles: Record<number, string> = {
    400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
    406: 'Not Acceptable', 408: 'Request Timeout', 409: 'Conflict', 413: 'Payload Too Large', 414: 'URI Too Long', 415: 'Unsupported Media Type',
    429: 'Too Many Requests', 431: 'Request Header Fields Too Large',
  };
  return titles[status] ?? 'Error';
}
