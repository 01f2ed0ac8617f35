import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CoreContext } from '../context.js';
import { ErrorObjectError, ProblemError, clipEcho, clipStrings, type InvalidRequestItem, type Problem, problems, renderProblemBase } from './problems.js';
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

/**
 * A JSON answer's text with its problems under the base, or undefined when it holds none: a
 * problem answer, or an answer with an `errors` member (a JSON string cannot hold the unescaped
 * `"errors":[`, so only a member name matches). Most answers are passed by one search.
 */
function problemsUnderBase(payload: string | Buffer, contentType: string, base: string): string | undefined {
  if (!contentType.includes('json') || (!contentType.startsWith(PROBLEM_JSON) && !payload.includes('"errors":['))) return undefined;
  const body: unknown = JSON.parse(payload.toString());
  const rendered = renderProblemBase(body, base);
  return rendered === body ? undefined : JSON.stringify(rendered);
}

/** The platform listener's one renderer: every thrown value becomes a Problem or an Error object. */
export function installPlatformErrors(app: FastifyInstance, ctx: CoreContext): void {
  // The one place an answer's problems are put under the configured base: a thrown problem (sent
  // by sendProblem below) and the partial errors of a 200 alike, as the answer leaves.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    const text = problemsUnderBase(payload, String(reply.getHeader('content-type') ?? ''), ctx.config.problemBase);
    if (text !== undefined && reply.hasHeader('content-length')) reply.header('content-length', Buffer.byteLength(text));
    done(null, text ?? payload);
  });
  setFrameworkErrorBody(app, (status, message) => ({
    contentType: PROBLEM_JSON,
    body: JSON.stringify(problems.aboutBlank(status, httpTitle(status), message)),
  }));
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ProblemError) return sendProblem(reply, error.status, error.problem);
    if (error instanceof ErrorObjectError) {
      return reply.code(error.status).type('application/json').serializer(JSON.stringify).send({ code: error.code, message: error.message });
    }
    if (error.validation) {
      return sendProblem(reply, 400, problems.invalidRequest(validationItems(error, request)));
    }
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || (error instanceof SyntaxError && error.statusCode === 400)) {
      return sendProblem(
        reply,
        400,
        problems.invalidParameter('body', [], `The request body is not valid JSON: ${error.message}`),
      );
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      const type = request.headers['content-type'];
      const said = type === undefined ? 'no content-type' : `content-type ${clipEcho(type)}`;
      return sendProblem(reply, 415, problems.aboutBlank(415, httpTitle(415), `The request body must be JSON sent with content-type: application/json (this one came with ${said})`));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendProblem(reply, status, problems.aboutBlank(status, httpTitle(status), error.message));
    }
    request.log.error({ err: error }, 'unexpected failure');
    return sendProblem(
      reply,
      500,
      problems.aboutBlank(500, 'Internal Server Error', `Something went wrong on our side. Quote request id ${request.id} when reporting it.`),
    );
  });

  const notFound = (request: FastifyRequest, reply: FastifyReply) =>
    sendProblem(reply, 404, problems.aboutBlank(404, 'Not Found', `No route matches ${request.method} ${request.url.split('?')[0]}.`));
  app.setNotFoundHandler(notFound);
  installShadowedPaths(app, notFound);
}

/**
 * The paths of the public description (2.167, 'tweet' renamed 'post'): a request for one of them
 * that Plaza does not serve is an unknown route, not a bad id of a `/{id}` route beside it.
 */
const PUBLIC_PATHS = [
  '/2/account_activity/subscriptions/count', '/2/account_activity/webhooks/{webhook_id}/subscriptions/all',
  '/2/account_activity/webhooks/{webhook_id}/subscriptions/all/list', '/2/account_activity/webhooks/{webhook_id}/subscriptions/{user_id}/all',
  '/2/activity/stream', '/2/activity/subscriptions', '/2/activity/subscriptions/{subscription_id}', '/2/articles/draft',
  '/2/articles/{article_id}/publish', '/2/broadcasts/scheduled', '/2/broadcasts/scheduled/{id}', '/2/broadcasts/scheduled/{id}/live',
  '/2/broadcasts/{id}/chat', '/2/chat/conversations', '/2/chat/conversations/group', '/2/chat/conversations/group/initialize',
  '/2/chat/conversations/{id}', '/2/chat/conversations/{id}/events', '/2/chat/conversations/{id}/keys', '/2/chat/conversations/{id}/members',
  '/2/chat/conversations/{id}/messages', '/2/chat/conversations/{id}/read', '/2/chat/conversations/{id}/typing', '/2/chat/media/upload/initialize',
  '/2/chat/media/upload/{id}/append', '/2/chat/media/upload/{id}/finalize', '/2/chat/media/{id}/{media_hash_key}', '/2/communities/search',
  '/2/communities/{id}', '/2/compliance/jobs', '/2/compliance/jobs/{id}', '/2/connections', '/2/connections/all', '/2/connections/{endpoint_id}',
  '/2/dm_conversations', '/2/dm_conversations/media/{dm_id}/{media_id}/{resource_id}', '/2/dm_conversations/with/{participant_id}/dm_events',
  '/2/dm_conversations/with/{participant_id}/messages', '/2/dm_conversations/{dm_conversation_id}/messages', '/2/dm_conversations/{id}/dm_events',
  '/2/dm_events', '/2/dm_events/{event_id}', '/2/likes/compliance/stream', '/2/likes/firehose/stream', '/2/likes/sample10/stream', '/2/lists',
  '/2/lists/{id}', '/2/lists/{id}/followers', '/2/lists/{id}/members', '/2/lists/{id}/members/{user_id}', '/2/lists/{id}/posts', '/2/media',
  '/2/media/analytics', '/2/media/metadata', '/2/media/subtitles', '/2/media/upload', '/2/media/upload/initialize', '/2/media/upload/{id}/append',
  '/2/media/upload/{id}/finalize', '/2/media/{media_key}', '/2/news/search', '/2/news/{id}', '/2/notes', '/2/notes/evaluate',
  '/2/notes/search/notes_written', '/2/notes/search/posts_eligible_for_notes', '/2/notes/{id}', '/2/openapi.json', '/2/posts', '/2/posts/analytics',
  '/2/posts/compliance/stream', '/2/posts/counts/all', '/2/posts/counts/recent', '/2/posts/firehose/stream', '/2/posts/firehose/stream/lang/en',
  '/2/posts/firehose/stream/lang/ja', '/2/posts/firehose/stream/lang/ko', '/2/posts/firehose/stream/lang/pt', '/2/posts/label/stream',
  '/2/posts/sample/stream', '/2/posts/sample10/stream', '/2/posts/search/all', '/2/posts/search/recent', '/2/posts/search/stream',
  '/2/posts/search/stream/rules', '/2/posts/search/stream/rules/counts', '/2/posts/search/webhooks', '/2/posts/search/webhooks/{webhook_id}',
  '/2/posts/{id}', '/2/posts/{id}/liking_users', '/2/posts/{id}/quote_posts', '/2/posts/{id}/reposted_by', '/2/posts/{id}/reposts',
  '/2/posts/{post_id}/hidden', '/2/spaces', '/2/spaces/by/creator_ids', '/2/spaces/search', '/2/spaces/{id}', '/2/spaces/{id}/buyers',
  '/2/spaces/{id}/posts', '/2/trends/by/woeid/{woeid}', '/2/usage/posts', '/2/users', '/2/users/by', '/2/users/by/username/{username}',
  '/2/users/compliance/stream', '/2/users/me', '/2/users/personalized_trends', '/2/users/public_keys', '/2/users/reposts_of_me', '/2/users/search',
  '/2/users/{id}', '/2/users/{id}/affiliates', '/2/users/{id}/blocking', '/2/users/{id}/bookmarks', '/2/users/{id}/bookmarks/folders',
  '/2/users/{id}/bookmarks/folders/{folder_id}', '/2/users/{id}/bookmarks/{post_id}', '/2/users/{id}/dm/block', '/2/users/{id}/dm/unblock',
  '/2/users/{id}/followed_lists', '/2/users/{id}/followed_lists/{list_id}', '/2/users/{id}/followers', '/2/users/{id}/following',
  '/2/users/{id}/liked_posts', '/2/users/{id}/likes', '/2/users/{id}/likes/{post_id}', '/2/users/{id}/list_memberships', '/2/users/{id}/mentions',
  '/2/users/{id}/muting', '/2/users/{id}/owned_lists', '/2/users/{id}/pinned_lists', '/2/users/{id}/pinned_lists/{list_id}', '/2/users/{id}/posts',
  '/2/users/{id}/public_keys', '/2/users/{id}/reposts', '/2/users/{id}/reposts/{source_post_id}', '/2/users/{id}/timelines/reverse_chronological',
  '/2/users/{source_user_id}/following/{target_user_id}', '/2/users/{source_user_id}/muting/{target_user_id}', '/2/webhooks', '/2/webhooks/replay',
  '/2/webhooks/{webhook_id}',
];

type Segments = ReadonlyArray<string | null>;
/** A path template as segments, parameters (`{id}`, `:id`) as null. */
const segmentsOf = (template: string): Segments => template.split('/').map((s) => (s.startsWith('{') || s.startsWith(':') ? null : s));

/**
 * Routing by the most specific path (spec: /2/communities/search is not /2/communities/{id}): a
 * request that reaches a route with a path parameter, but names at that position a literal
 * segment of another path (Plaza's own routes, or the public description's), is answered as an
 * unknown route (404), before authentication and validation. Each route's shadowing paths are
 * worked out once, on its first request.
 */
function installShadowedPaths(app: FastifyInstance, notFound: (request: FastifyRequest, reply: FastifyReply) => unknown): void {
  const known: Segments[] = PUBLIC_PATHS.map(segmentsOf);
  app.addHook('onRoute', (route) => {
    if (!route.url.includes('*')) known.push(segmentsOf(route.url));
  });
  const shadowsByRoute = new Map<string, { names: Array<string | null>; shadows: Segments[] }>();
  const shadowsOf = (template: string) => {
    let entry = shadowsByRoute.get(template);
    if (entry) return entry;
    const own = template.split('/');
    // Only plain parameters (`:name`, one per segment) are compared; anything else shadows nothing.
    const plain = own.every((s) => !s.includes(':') || /^:[A-Za-z_][A-Za-z0-9_]*$/.test(s));
    const names = own.map((s) => (s.startsWith(':') ? s.slice(1) : null));
    const shadows = !plain
      ? []
      : known.filter((other) => {
          if (other.length !== own.length) return false;
          let literalAtParam = false;
          for (let i = 0; i < own.length; i++) {
            if (names[i] === null) {
              if (other[i] !== null && other[i] !== own[i]) return false;
            } else if (other[i] !== null) literalAtParam = true;
          }
          return literalAtParam;
        });
    entry = { names, shadows };
    shadowsByRoute.set(template, entry);
    return entry;
  };
  app.addHook('onRequest', (request, reply, done) => {
    const template = request.routeOptions.url;
    if (!template || !template.includes(':')) return done();
    const { names, shadows } = shadowsOf(template);
    if (shadows.length === 0) return done();
    const params = request.params as Record<string, string>;
    const hit = shadows.some((other) => other.every((literal, i) => literal === null || names[i] === null || params[names[i]!] === literal));
    if (hit) return void notFound(request, reply);
    done();
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
    if (where === 'body' && v.instancePath === '' && v.keyword === 'type') {
      // The whole body is not the object the operation takes: most often a body sent as text.
      const type = request.headers['content-type'] ?? 'no content-type';
      return { message: `The request body must be a JSON object sent with content-type: application/json (this one came with ${clipEcho(String(type))})`, parameters: { body: [] } };
    }
    // A body member is named by its whole path (reply.in_reply_to_post_id); a parameter by its name.
    const path = v.instancePath.replace(/^\//, '').split('/');
    const name = (where === 'body' ? path.filter((p) => !/^[0-9]+$/.test(p)).join('.') : path[0]) || 'body';
    const value = stringify(where === 'body' ? path.reduce<unknown>((o, p) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[p] : undefined), source) : source[name]);
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
