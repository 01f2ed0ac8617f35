import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sentToPublicHost } from './hosts.js';
import { isJsonBody, markJsonBody } from '../lazy-schemas.js';
import { bodyToPost, bodyUsesTweetNames, jsonTextToTweet, urlToPost, type Translation } from './translate.js';

const PLATFORM_NAMES = { bodyUsesTweetNames, bodyToPost };

/**
 * The 'tweet' dialect at the edge of the platform listener (issues 15 and 34), declared once in
 * names.ts. A request is in the dialect when the client is known to speak it (the request was
 * sent to one of the public platform's host names, or its app's dialect setting is 'tweet') or
 * when it uses the dialect's names (its path says tweets, its query uses tweet.fields or a tweet
 * expansion, its JSON body a tweet field). Such a request is translated to Plaza's names before
 * routing and validation, and its answer (body, problem, stream lines) is translated back.
 * A request in the spec's words from a 'post' app takes none of these paths: its URL is searched
 * once for 'tweet', and each hook returns at once when the request was not marked.
 */

const DIALECT = Symbol('plaza.tweetDialect');
/** The persistent streams (not their rules): /2/posts/search/stream, /2/posts/sample/stream... */
const STREAM_ROUTE = /\/stream(\/lang\/[a-z]+)?$/;

function isEmptyJsonRequest(headers: IncomingMessage['headers']): boolean {
  const type = headers['content-type'];
  if (type === undefined || !/^application\/json\b/i.test(type) || headers['transfer-encoding'] !== undefined) return false;
  return headers['content-length'] === undefined || headers['content-length'] === '0';
}
type Marked = IncomingMessage & { [DIALECT]?: true };

/** Whether the request came in the 'tweet' dialect (and is answered in it). */
export function inTweetDialect(request: FastifyRequest): boolean {
  return (request.raw as Marked)[DIALECT] === true;
}

/**
 * A Fastify rewriteUrl for a listener with its own table of names (the platform's here, the
 * advertising interface's in src/ads/http/dialect.ts): a request sent to one of the public hosts,
 * or whose URL uses a name of the dialect, is marked; the URL routed is in Plaza's names; the URL
 * as sent stays `request.originalUrl`, which is what an OAuth 1.0a signature covers.
 */
export function tweetUrlRewriter(sentToPublic: (req: IncomingMessage) => boolean, toPost: (url: string) => string | undefined): (req: IncomingMessage) => string {
  return (req) => {
    const url = req.url ?? '/';
    if (sentToPublic(req)) (req as Marked)[DIALECT] = true;
    const post = toPost(url);
    if (post === undefined) return url;
    (req as Marked)[DIALECT] = true;
    return post;
  };
}

/** The platform listener's rewriteUrl. */
export const rewriteTweetUrl = tweetUrlRewriter(sentToPublicHost, urlToPost);

/**
 * The request's body in Plaza's names once the caller is known: the requests of a 'tweet' app,
 * and any whose body uses a name of the dialect, are in the dialect from here on. A JSON body
 * stays one (its members keep their JSON types); a JSON array (a batch of data) is left as it is.
 */
export function bodyInPostNames(request: FastifyRequest, appDialect: string | undefined, names: Pick<Translation, 'bodyUsesTweetNames' | 'bodyToPost'>): void {
  const raw = request.raw as Marked;
  if (appDialect === 'tweet') raw[DIALECT] = true;
  const body = request.body;
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) return;
  if (raw[DIALECT] !== true && !names.bodyUsesTweetNames(body)) return;
  raw[DIALECT] = true;
  const renamed = names.bodyToPost(body);
  if (isJsonBody(body)) markJsonBody(renamed);
  request.body = renamed;
}

/** Installs the body and answer translations; call before the routes are registered, after the route auth hook. */
export function installTweetDialect(app: FastifyInstance): void {
  // After authentication (installed before this): the caller's app is known, and a signed form
  // body is verified as it was sent.
  app.addHook('preValidation', (request, reply, done) => {
    bodyInPostNames(request, request.caller?.app.dialect, PLATFORM_NAMES);
    if (!inTweetDialect(request)) return done();
    withTweetDefaults(request);
    // Streams write their lines to the socket themselves (reply.hijack): those lines are translated as written.
    if (STREAM_ROUTE.test(request.routeOptions.url ?? '')) translateLinesOf(reply.raw);
    done();
  });

  app.addHook('onRequest', (request, _reply, done) => {
    // The public platform's own SDK (@xdevplatform/xdk) sends DELETE with Content-Type: application/json
    // and no body, which the public platform takes as no body: so does Plaza, instead of refusing empty JSON.
    if (request.method === 'DELETE' && isEmptyJsonRequest(request.headers)) delete request.headers['content-type'];
    done();
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    done(null, inTweetDialect(request) ? jsonPayloadIn(reply, payload, jsonTextToTweet) : payload);
  });
}

/** An answer's payload translated by `toTweet` when it is JSON text (its length header kept true); any other payload as it is. */
export function jsonPayloadIn(reply: FastifyReply, payload: unknown, toTweet: (text: string) => string): unknown {
  const type = String(reply.getHeader('content-type') ?? '');
  if (!type.includes('json') || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) return payload;
  const text = toTweet(typeof payload === 'string' ? payload : payload.toString('utf8'));
  if (reply.hasHeader('content-length')) reply.header('content-length', Buffer.byteLength(text));
  return text;
}


/**
 * The tweet dialect's default post fields: `id`, `text` and `edit_history_tweet_ids`, as the public
 * platform answers and typed SDKs require (issue 34); Plaza's are spec 000's `id` and `text`. A
 * request that can select post fields selects the edit history too.
 */
function withTweetDefaults(request: FastifyRequest): void {
  const accepts = (request.routeOptions.schema?.querystring as { properties?: Record<string, unknown> } | undefined)?.properties;
  if (accepts?.['post.fields'] === undefined) return;
  const query = request.query as Record<string, unknown>;
  const fields = query['post.fields'];
  if (fields === undefined) query['post.fields'] = EDIT_HISTORY;
  else if (typeof fields === 'string' && fields !== '' && !fields.split(',').includes(EDIT_HISTORY)) query['post.fields'] = `${fields},${EDIT_HISTORY}`;
}
const EDIT_HISTORY = 'edit_history_post_ids';

/** Each JSON line of a stream written to `res`, in the dialect's words; keep-alives pass as they are. */
export function translateLinesOf(res: ServerResponse): void {
  const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk !== 'string' || chunk.trim() === '') return write(chunk, ...rest);
    const text = chunk
      .split('\r\n')
      .map((line) => (line.trim() === '' ? line : jsonTextToTweet(line)))
      .join('\r\n');
    return write(text, ...rest);
  }) as ServerResponse['write'];
}
