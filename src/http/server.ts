import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config.js';
import { lazySchemaController } from './lazy-schemas.js';
import type { Metrics } from './metrics.js';

export type PlazaFastify = FastifyInstance & { withTypeProvider(): any };

/**
 * What every listener shares: JSON logs with a request id (echoed as x-request-id), secrets
 * redacted, strict schema validation, form bodies, metrics, /healthz and /metrics.
 */
export async function createListener(config: Config, metrics: Metrics, listener: string) {
  const app = Fastify({
    logger: {
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
    },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[A-Za-z0-9._-]{1,100}$/.test(given) ? given : randomUUID();
    },
    ajv: {
      // validateSchema: checking each schema against the JSON Schema meta-schema costs every listener
      // a compile of that meta-schema at start-up; the test suite compiles every route's schemas instead.
      customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false, verbose: true, validateSchema: false },
    },
    routerOptions: { ignoreTrailingSlash: true },
    schemaController: lazySchemaController(),
    bodyLimit: 16 * 1024 * 1024,
  }).withTypeProvider<TypeBoxTypeProvider>();

  await app.register(formbody);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  metrics.instrument(app, listener);

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    const { contentType, body } = await metrics.render();
    return reply.type(contentType).send(body);
  });
  return app;
}

/** Query parameters that carry a secret: their values never reach the log. */
const SECRET_PARAMETERS = new Set(['access_token', 'oauth_token', 'oauth_verifier', 'code', 'code_verifier', 'client_secret', 'token', 'refresh_token', 'password', 'crc_token']);

/** The URL as logged: the value of every secret-bearing query parameter replaced by [Redacted]. */
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
