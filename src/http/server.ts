import { parseTrustedProxies, type TrustedProxies } from './trusted-proxies.js';
import { randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { LIST_NAMES_KEYWORD } from './fields.js';
import { createLogger, requestLogger } from './log.js';
import { lazySchemaController, markJsonBody } from './lazy-schemas.js';
import type { Metrics } from './metrics.js';

export type PlazaFastify = FastifyInstance & { withTypeProvider(): any };

/**
 * Body limits. A route that takes more says so itself (media upload); everything else is a few
 * fields of text, so a body of megabytes is refused before it is read, let alone parsed or signed.
 */
export const JSON_BODY_LIMIT = 256 * 1024;
export const FORM_BODY_LIMIT = 64 * 1024;

/** What an interface answers for a failure met before any of its routes runs. */
export type ErrorBodyRenderer = (status: number, message: string) => { contentType: string; body: string };

const renderers = new WeakMap<FastifyInstance, ErrorBodyRenderer>();

/**
 * Sets the listener's error body for failures Fastify and Node handle themselves (a URL that does
 * not decode, a path segment too long, headers too large, a client too slow): each interface
 * answers them in its own error shape. Installed by the interface's error renderer.
 */
export function setFrameworkErrorBody(app: FastifyInstance, render: ErrorBodyRenderer): void {
  renderers.set(app, render);
}

const plainRenderer: ErrorBodyRenderer = (status, message) => ({ contentType: 'application/json', body: JSON.stringify({ status, message }) });

/**
 * What every listener shares: JSON logs with a request id (echoed as x-request-id), secrets
 * redacted, strict schema validation, form bodies, body limits, time-outs and a per-address
 * connection cap, metrics, /healthz and /metrics.
 */
export async function createListener(config: Config, metrics: Metrics, listener: string, options: { rewriteUrl?: (req: http.IncomingMessage) => string } = {}) {
  let self: FastifyInstance | undefined;
  const render = () => (self && renderers.get(self)) ?? plainRenderer;
  // Behind a trusted balancer request.ip is the client's address as it forwarded it (X-Forwarded-For).
  const proxies = parseTrustedProxies(config.trustProxy);
  const app = Fastify({
    ...(proxies ? { trustProxy: (address: string) => proxies.trusts(address) } : {}),
    loggerInstance: createLogger({
      level: config.logLevel,
      base: { listener },
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      serializers: {
        req: (req: { method: string; url: string; host?: string; socket?: { remoteAddress?: string; remotePort?: number } }) => ({
          method: req.method,
          url: redactUrl(req.url),
          host: req.host,
          remoteAddress: req.socket?.remoteAddress,
          remotePort: req.socket?.remotePort,
        }),
      },
    }, config.logBufferBytes) as FastifyBaseLogger,
    childLoggerFactory: (logger, bindings, options) => requestLogger(logger as Logger, bindings, options) as FastifyBaseLogger,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[A-Za-z0-9._-]{1,100}$/.test(given) ? given : randomUUID();
    },
    ajv: {
      // validateSchema: checking each schema against the JSON Schema meta-schema costs every listener
      // a compile of that meta-schema at start-up; the test suite compiles every route's schemas instead.
      customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false, verbose: true, validateSchema: false, keywords: [LIST_NAMES_KEYWORD] },
    },
    routerOptions: { ignoreTrailingSlash: true },
    ...(options.rewriteUrl ? { rewriteUrl: options.rewriteUrl } : {}),
    schemaController: lazySchemaController(),
    bodyLimit: JSON_BODY_LIMIT,
    // Slow clients (slowloris): headers must arrive within headersTimeoutMs and the whole request
    // within requestTimeoutMs; Node checks both every connectionsCheckingInterval.
    requestTimeout: config.requestTimeoutMs,
    // Requests that arrive while the listener closes are answered by answerUnavailableWhileClosing, in the interface's shape.
    return503OnClosing: false,
    http: {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(config.headersTimeoutMs / 4))),
    },
    frameworkErrors: (error: { code?: string; statusCode?: number; message: string }, _request: FastifyRequest, reply: FastifyReply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      const status = tooLong ? 414 : error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
      const message = tooLong ? 'A path segment is longer than 100 characters' : error.code === 'FST_ERR_BAD_URL' ? 'The URL path is not validly percent-encoded UTF-8' : 'The request could not be routed';
      const { contentType, body } = render()(status, message);
      reply.code(status).type(contentType).serializer((x: unknown) => x as string).send(body);
    },
    // Node's own answers to unreadable requests (headers over 16 KB, a time-out, bad framing)
    // follow the interface's error shape and say Connection: close, since the socket is closed
    // after them: a keep-alive client then opens a new connection instead of failing.
    clientErrorHandler: (err: NodeJS.ErrnoException, socket: Socket) => {
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      const message =
        status === 431 ? 'The request line and headers are larger than 16 KB' : status === 408 ? 'The request was not received in time' : 'The request is not valid HTTP/1.1';
      const { contentType, body } = render()(status, message);
      if (socket.writable) {
        socket.end(
          `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
      } else {
        socket.destroy();
      }
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  self = app as unknown as FastifyInstance;

  limitConnectionsPerAddress(app.server, config.maxConnectionsPerAddress, proxies);
  answerUnavailableWhileClosing(app, (status, message) => render()(status, message));
  if (proxies) limitForwardedRequestsPerAddress(app, config.maxConnectionsPerAddress, proxies, (status, message) => render()(status, message));
  closeConnectionsOnceAnswered(app);
  lingerAfterRefusedBodies(app, config.lingerMs);
  await app.register(formbody, { bodyLimit: FORM_BODY_LIMIT });
  // Hooks on every request are callback-style: an async hook costs each request its promise turns.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // Fastify's own JSON parser, its bodies marked: their members keep their JSON types, where
  // form and multipart bodies are coerced (src/http/lazy-schemas.ts).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    parseJson(request, body as string, (err: Error | null, parsed?: unknown) => {
      if (!err) markJsonBody(parsed);
      done(err, parsed);
    }),
  );
  metrics.instrument(app, listener);
  writeAtEndOfTurn(app);

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const access = metricsAccess(config.metricsToken, request.ip, request.headers.authorization);
    // Without a token /metrics exists for loopback clients only; to anyone else it is not there.
    if (access === 'hidden') return reply.callNotFound();
    if (access === 'unauthorized') {
      // Rendered here: this route is declared before the interface installs its error handler.
      const { contentType, body } = render()(401, 'GET /metrics needs Authorization: Bearer <PLAZA_METRICS_TOKEN>');
      return reply.code(401).type(contentType).serializer((x: unknown) => x as string).send(body);
    }
    const { contentType, body } = await metrics.render();
    return reply.type(contentType).send(body);
  });
  return app;
}

/**
 * Answers leave together, once per turn of the event loop: each waits in its first onSend hook
 * until the turn's check phase, after the poll phase has read and answered every request that
 * arrived, as Redis writes its replies before it polls again. Then the first write to the clients'
 * sockets wakes their readers and the next ones find them awake; written one by one as each
 * finished, a short answer took longer than the client took to read it, and each write paid for
 * waking a sleeping reader (on the bench's 2-core machine post-by-id measured 43 to 50 µs of CPU
 * per request written at once, 35 to 40 written together). The same writes, at most one turn later.
 */
function writeAtEndOfTurn(app: FastifyInstance): void {
  let due: Array<() => void> = [];
  const writeDue = () => {
    const now = due;
    due = [];
    for (const send of now) {
      try {
        send();
      } catch (err) {
        // One answer that cannot be finished must not keep the others of its turn from leaving.
        app.log.error({ err }, 'an answer could not be sent');
      }
    }
  };
  app.addHook('onSend', (_request, _reply, payload, done) => {
    if (due.length === 0) setImmediate(writeDue);
    due.push(() => done(null, payload));
  });
}

/**
 * Who may read /metrics (per-route traffic is not for everyone): with a token configured,
 * whoever sends it as a bearer token, from anywhere; without one, loopback clients only.
 */
export function metricsAccess(token: string | undefined, remoteAddress: string | undefined, authorization: string | undefined): 'allowed' | 'hidden' | 'unauthorized' {
  if (token === undefined) return isLoopbackAddress(remoteAddress) ? 'allowed' : 'hidden';
  const given = Buffer.from(/^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim() ?? '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted) ? 'allowed' : 'unauthorized';
}

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/**
 * At most `max` open connections per client address: one client cannot take every socket of a
 * listener. Connections over the cap are closed as soon as they are accepted. A trusted balancer's
 * connections carry many clients and are not counted here (limitForwardedRequestsPerAddress).
 */
function limitConnectionsPerAddress(server: http.Server, max: number, proxies: TrustedProxies | undefined): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    if (proxies?.trusts(address)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

/**
 * Behind a trusted balancer the per-address cap holds for each forwarded client: at most `max` of
 * its requests open at once (a stream is one for as long as it lasts); more are answered 429 in
 * the interface's error shape, since the balancer's connection serves other clients too.
 */
function limitForwardedRequestsPerAddress(app: FastifyInstance, max: number, proxies: TrustedProxies, render: ErrorBodyRenderer): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  app.addHook('onRequest', (request, reply, done) => {
    if (!proxies.trusts(request.socket.remoteAddress)) return done();
    const address = request.ip;
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      const { contentType, body } = render(429, `This client address has ${max} requests open already`);
      reply.code(429).type(contentType).serializer((x: unknown) => x as string).send(body);
      return;
    }
    open.set(address, count);
    reply.raw.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
    done();
  });
}

/**
 * A request that arrives once the listener has begun to close (on a connection kept alive from
 * before) is answered 503 in the interface's error shape, with `Connection: close`, so the client
 * retries elsewhere: never Fastify's own body.
 */
function answerUnavailableWhileClosing(app: FastifyInstance, render: ErrorBodyRenderer): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    const { contentType, body } = render(503, 'This server is shutting down; send the request again (it will reach another)');
    reply.code(503).header('connection', 'close').header('retry-after', '1').type(contentType).serializer((x: unknown) => x as string).send(body);
  });
}

/** Query parameters that carry a secret: their values never reach the log. */
const SECRET_PARAMETERS = new Set(['access_token', 'oauth_token', 'oauth_verifier', 'code', 'code_verifier', 'client_secret', 'token', 'refresh_token', 'password', 'crc_token']);

/** The URL as logged: the value of every secret-bearing query parameter replaced by [Redacted]. */
/**
 * On close, Node ends the keep-alive connections that are idle at that moment; one whose answer is
 * still being written (a file streaming out) would stay open once answered until the keep-alive
 * time-out, 72 s in Fastify, and hold the close that long. Answers that finish once the close has
 * begun end their connection (gracefully: everything written has left).
 */
function closeConnectionsOnceAnswered(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    if (closing) request.raw.socket?.end();
    done();
  });
}

/** How much of a refused body is read and dropped before the connection closes (for how long: config.lingerMs). */
export const LINGER_BYTES = 64 * 1024 * 1024;

/**
 * A body over the limit is refused (413) before it has all arrived, and Fastify then says
 * Connection: close, so Node closes the connection as soon as the answer is written: a client that
 * is still sending (Node's fetch, Python's requests) sees EPIPE or a reset instead of the answer.
 * Reading without end would let one client make Plaza read gigabytes. So, as nginx's lingering
 * close: the answer keeps the connection, the rest of the body is read and dropped up to
 * LINGER_BYTES or `lingerMs` (then the connection is closed), and a client that sent it all may
 * go on using the connection.
 */
function lingerAfterRefusedBodies(app: FastifyInstance, lingerMs: number): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode === 413 && !request.raw.complete) reply.removeHeader('connection');
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const req = request.raw;
    if (reply.statusCode !== 413 || req.complete) return done();
    const socket = req.socket;
    let read = 0;
    const stop = () => {
      clearTimeout(timer);
      socket.destroy();
    };
    const timer = setTimeout(stop, lingerMs);
    timer.unref();
    req.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > LINGER_BYTES) stop();
    });
    req.on('end', () => clearTimeout(timer));
    req.on('error', () => clearTimeout(timer));
    req.resume();
    done();
  });
}

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = url.slice(q + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    let decoded = name;
    try {
      decoded = decodeURIComponent(name.replace(/\+/g, ' '));
    } catch {
      // a malformed name is logged as sent
    }
    return eq >= 0 && SECRET_PARAMETERS.has(decoded.toLowerCase()) ? `${name}=[Redacted]` : pair;
  });
  return `${url.slice(0, q)}?${params.join('&')}`;
}

export type Listener = Awaited<ReturnType<typeof createListener>>;
