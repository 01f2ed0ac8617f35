import type { FastifyInstance } from 'fastify';
import type { AdsEnvironmentName } from '../../store/schema-ads.js';
import { adsRouteTable, type AdsRouteEntry } from './route.js';

/**
 * The OpenAPI description of an ads listener (`GET /12/openapi.json`), generated from the route
 * declarations that validate the requests (src/ads/http/route.ts, params.ts): every operation,
 * its path and declared parameters with their types, ranges, patterns, enumerations and
 * defaults, and the envelope and error shapes every answer has (spec 001 "Conventions").
 *
 * The public platform publishes no machine-readable description of its advertising interface;
 * this one describes Plaza's, in spec 001's names. The public platform's names (`tweet_ids`,
 * `promoted_tweets`...) are accepted too (src/ads/http/names.ts) and are not listed twice.
 */

const ERROR_CODES: Record<string, string> = {
  '400': 'A parameter is missing or invalid; `errors[].parameter` names it',
  '401': 'Not signed with OAuth 1.0a user context, or the signature does not hold',
  '403': 'The user has no access to the account, or not the permission this needs',
  '404': 'The account or entity is not found',
  '429': 'A rate limit is spent (see the x-*-rate-limit-* headers)',
};

const envelope = {
  type: 'object',
  required: ['request', 'data'],
  properties: {
    request: { type: 'object', required: ['params'], properties: { params: { type: 'object', description: 'The path variables and the parameters given, as parsed' } } },
    data: { description: 'The entity, or a page of entities' },
    next_cursor: { type: ['string', 'null'], description: 'Lists: the cursor of the next page, null on the last' },
    total_count: { type: 'integer', description: 'Lists asked with_total_count=true' },
    data_type: { type: 'string', description: 'Analytics answers: stats or active_entities' },
    time_series_length: { type: 'integer', description: 'Stats: how many values each metric series holds' },
  },
};

const errorBody = {
  type: 'object',
  required: ['errors'],
  properties: {
    errors: {
      type: 'array',
      items: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' }, parameter: { type: 'string' } } },
    },
    request: envelope.properties.request,
  },
};

/**
 * The schema of an answer's `data` as JSON, each entity (an object with a title) moved into the
 * description's components and referred to from where it appears.
 */
function dataSchema(schema: unknown, components: Record<string, unknown>): unknown {
  if (Array.isArray(schema)) return schema.map((s) => dataSchema(s, components));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = dataSchema(value, components);
  if (typeof out.title === 'string' && out.type === 'object') {
    components[out.title] = out;
    return { $ref: `#/components/schemas/${out.title}` };
  }
  return out;
}

function operation(route: AdsRouteEntry, environment: AdsEnvironmentName, components: Record<string, unknown>) {
  const answer = route.response
    ? { allOf: [{ $ref: '#/components/schemas/Envelope' }, { type: 'object', properties: { data: dataSchema(JSON.parse(JSON.stringify(route.response)), components) } }] }
    : { $ref: '#/components/schemas/Envelope' };
  const pathNames = [...route.url.matchAll(/:([a-z_]+)/g)].map((m) => m[1]!);
  const parameters = [
    ...pathNames.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
    ...Object.entries(route.spec).map(([name, param]) => ({
      name,
      in: 'query',
      required: param.opts.required && param.opts.fallback === undefined,
      ...(param.schema.type === 'array' ? { style: 'form', explode: false } : {}),
      schema: param.opts.nullable ? { ...param.schema, description: 'empty to unset' } : param.schema,
    })),
  ];
  const sandboxOnly = route.sandboxOnly && environment === 'production';
  return {
    operationId: `${route.method.toLowerCase()}${route.url.replace(/[/:]([a-z0-9_]+)/g, (_m, part: string) => `_${part}`)}`,
    summary: `${route.method} ${route.url}`,
    description: [
      route.method === 'GET' ? undefined : 'Parameters may also be sent as a form or JSON object body.',
      `Rate limit category: ${route.rate}.`,
      route.sandboxOnly ? 'Sandbox only: the production listener answers 405.' : undefined,
    ]
      .filter(Boolean)
      .join(' '),
    security: [{ oauth1: [] }],
    parameters,
    responses: {
      ...(sandboxOnly ? {} : { '200': { description: 'The envelope', content: { 'application/json': { schema: answer } } } }),
      ...Object.fromEntries(
        Object.entries({ ...ERROR_CODES, ...(route.sandboxOnly ? { '405': 'Available on the sandbox listener only' } : {}) }).map(([code, description]) => [
          code,
          { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Errors' } } } },
        ]),
      ),
    },
  };
}

/** The description of the routes declared on `app`. */
export function adsOpenApi(app: object, environment: AdsEnvironmentName, version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const entities: Record<string, unknown> = {};
  for (const route of adsRouteTable(app)) {
    const path = route.url.replace(/:([a-z_]+)/g, '{$1}');
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route, environment, entities);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `Plaza advertising interface v${version}${environment === 'sandbox' ? ' (sandbox)' : ''}`,
      version,
      description: 'Generated from the declarations that validate the requests. Lists take count, cursor, sort_by, with_deleted and with_total_count.',
    },
    components: {
      securitySchemes: { oauth1: { type: 'http', scheme: 'OAuth', description: 'OAuth 1.0a, user context' } },
      schemas: { Envelope: envelope, Errors: errorBody, ...Object.fromEntries(Object.entries(entities).sort(([a], [b]) => a.localeCompare(b))) },
    },
    paths,
  };
}

/** GET /12/openapi.json, public, once every route is declared. */
export function serveAdsOpenApi(app: FastifyInstance, environment: AdsEnvironmentName, version: string): void {
  let doc: Record<string, unknown> | undefined;
  app.get(`/${version}/openapi.json`, async (_request, reply) => reply.type('application/json; charset=utf-8').send((doc ??= adsOpenApi(app, environment, version))));
}
