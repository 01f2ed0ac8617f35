import type { FastifyInstance } from 'fastify';
import { invalidParameter } from './params.js';

/**
 * How deep a request body may nest. No operation takes more than a few levels; a body of
 * thousands of levels is an attack on every recursive walk after parsing (validation, the NUL
 * check, error echoes), so it is refused before any of them runs.
 */
export const MAX_BODY_DEPTH = 64;

/**
 * Where a request's strings hold a NUL character, which PostgreSQL refuses in text (and no
 * platform field allows): the dotted path of the first such value, or undefined. Walks plain
 * objects and arrays only (an array keeps its parent's name), so uploaded bytes are not read.
 * The walk keeps its own stack: a deeply nested body cannot exhaust the call stack.
 */
export function findNul(value: unknown, path = ''): string | undefined {
  const pending: Array<[unknown, string]> = [[value, path]];
  while (pending.length > 0) {
    const [item, at] = pending.pop()!;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return at;
    } else if (Array.isArray(item)) {
      // Pushed in reverse so the first NUL in document order is the one reported.
      for (let i = item.length - 1; i >= 0; i--) pending.push([item[i], at]);
    } else if (isPlainObject(item)) {
      const entries = Object.entries(item);
      for (let i = entries.length - 1; i >= 0; i--) pending.push([entries[i][1], at ? `${at}.${entries[i][0]}` : entries[i][0]]);
    }
  }
  return undefined;
}

/** True when `value` nests objects or arrays more than `max` levels deep (counted without recursion). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > max) return true;
    if (Array.isArray(item)) for (const child of item) pending.push([child, depth + 1]);
    else if (isPlainObject(item)) for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  // Fastify's parsed query string is an object whose prototype has a null prototype.
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null;
}

/**
 * The platform listener's guard: after authentication (hooks run in the order they are added), a
 * body nested too deep, or a query parameter, path segment or body field holding NUL, gets an
 * invalid-request naming it.
 */
export function installNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    // Query parameters and path segments come from the URL, where a NUL can only be sent
    // percent-encoded: a request without a body and without %00 has nothing to walk.
    if (request.body === undefined && !request.originalUrl.includes('%00')) return done();
    if (nestedDeeperThan(request.body, MAX_BODY_DEPTH)) {
      return done(invalidParameter('body', [], `The request body nests more than ${MAX_BODY_DEPTH} levels deep`));
    }
    const sources: Array<[unknown, string]> = [
      [request.query, 'query parameter'],
      [request.params, 'path parameter'],
      [request.body, 'body field'],
    ];
    for (const [values, kind] of sources) {
      const name = findNul(values);
      if (name !== undefined) return done(invalidParameter(name, [], `The \`${name}\` ${kind} must not contain NUL characters`));
    }
    done();
  });
}
