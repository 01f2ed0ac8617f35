import ajvCompiler from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

/**
 * Fastify's own schema compilers (Ajv for validation, fast-json-stringify for responses), each
 * route's functions built on its first request instead of at start-up: the three listeners
 * declare a few hundred schemas, and compiling them all up front is most of a cold start.
 * `compileAllSchemas` builds whatever is still pending (the test suite does, so that a broken
 * schema fails there, not on some route's first request in production).
 */
type Compile<F> = (route: { schema: unknown; method: string; url: string; httpPart?: string; httpStatus?: string; contentType?: string }) => F;

const pending = new Set<() => void>();

export function compileAllSchemas(): void {
  for (const build of [...pending]) build();
}

function lazy<F extends (...args: any[]) => any>(build: () => F, exposeErrors: boolean): F {
  let compiled: F | undefined;
  const force = () => {
    compiled ??= build();
    pending.delete(force);
    return compiled;
  };
  pending.add(force);
  const run = ((...args: unknown[]) => force()(...args)) as F;
  // Fastify reads a failed Ajv validation's `errors` from the function it was given.
  if (exposeErrors) Object.defineProperty(run, 'errors', { get: () => (compiled as { errors?: unknown } | undefined)?.errors });
  return run;
}

const JSON_BODY = Symbol('plaza.jsonBody');

/** Marks a body parsed from JSON, whose members keep their JSON types (a symbol key: invisible to validation and serialization). */
export function markJsonBody(body: unknown): void {
  if (body !== null && typeof body === 'object') (body as { [JSON_BODY]?: true })[JSON_BODY] = true;
}

export function isJsonBody(data: unknown): boolean {
  return data !== null && typeof data === 'object' && (data as { [JSON_BODY]?: true })[JSON_BODY] === true;
}

export function lazySchemaController(): NonNullable<FastifyServerOptions['schemaController']> {
  const validators = ajvCompiler();
  const serializers = SerializerSelector();
  return {
    compilersFactory: {
      buildValidator(externalSchemas: unknown, options: { customOptions?: Record<string, unknown> } | undefined) {
        const compile = validators(externalSchemas as never, options as never) as unknown as Compile<(data: unknown) => unknown>;
        // A JSON body (marked by markJsonBody) says what type each member is: {"text": 5} is a
        // number, refused, not the text "5" (issue 34). What arrives as text (query, path,
        // headers, form and multipart bodies) is coerced to the types the schema names.
        const strict = { ...options, customOptions: { ...options?.customOptions, coerceTypes: false } };
        const compileStrict = validators(externalSchemas as never, strict as never) as unknown as Compile<(data: unknown) => unknown>;
        return (route: Parameters<Compile<unknown>>[0]) => {
          if (route.httpPart !== 'body') return lazy(() => compile(route), true);
          let used: { errors?: unknown } | undefined;
          const coercing = lazy(() => compile(route), true);
          const exact = lazy(() => compileStrict(route), true);
          const run = (data: unknown) => {
            const validate = isJsonBody(data) ? exact : coercing;
            used = validate as { errors?: unknown };
            return validate(data);
          };
          Object.defineProperty(run, 'errors', { get: () => used?.errors });
          return run;
        };
      },
      buildSerializer(externalSchemas: unknown, options: unknown) {
        const compile = serializers(externalSchemas as never, options as never) as unknown as Compile<(data: unknown) => string>;
        return (route: Parameters<Compile<unknown>>[0]) => lazy(() => compile(route), false);
      },
    },
  } as never;
}
