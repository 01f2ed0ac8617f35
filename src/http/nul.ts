import type { FastifyInstance } from 'fastify';
import { invalidParameter } from './params.js';
import type { Problems } from './problems.js';

/**
 * Where a request's strings hold a NUL character, which PostgreSQL refuses in text (and no
 * platform field allows): the dotted path of the first such value, or undefined. Walks plain
 * objects and arrays only (an array keeps its parent's name), so uploaded bytes are not read.
 */
export function findNul(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findNul(item, path);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (isPlainObject(value)) {
    for (const [name, item] of Object.entries(value)) {
      const found = findNul(item, path ? `${path}.${name}` : name);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  // Fastify's parsed query string is an object whose prototype has a null prototype.
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null;
}

/**
 * The platform listener's guard: after authentication (hooks run in the order they are added), a
 * query parameter, path segment or body field holding NUL gets an invalid-request naming it.
 */
export function installNulGuard(app: FastifyInstance, problems: Problems): void {
  app.addHook('preValidation', async (request) => {
    const sources: Array<[unknown, string]> = [
      [request.query, 'query parameter'],
      [request.params, 'path parameter'],
      [request.body, 'body field'],
    ];
    for (const [values, kind] of sources) {
      const name = findNul(values);
      if (name !== undefined) throw invalidParameter(problems, name, [], `The \`${name}\` ${kind} must not contain NUL characters`);
    }
  });
}
