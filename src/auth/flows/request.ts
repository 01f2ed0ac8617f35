import type { FastifyRequest } from 'fastify';

function first(value: unknown): string | undefined {
  if (Array.isArray(value)) return first(value[0]);
  return typeof value === 'string' ? value : undefined;
}

/** A parameter of a form body, else of the query string (token endpoints accept either). */
export function param(request: FastifyRequest, name: string): string | undefined {
  const body = request.body;
  if (body && typeof body === 'object' && !Buffer.isBuffer(body)) {
    const value = first((body as Record<string, unknown>)[name]);
    if (value !== undefined) return value;
  }
  return first((request.query as Record<string, unknown> | undefined)?.[name]);
}

/** A query-string parameter only (the browser pages). */
export function queryParam(request: FastifyRequest, name: string): string | undefined {
  return first((request.query as Record<string, unknown> | undefined)?.[name]);
}

/** A form-body parameter only (the browser pages' POSTs). */
export function bodyParam(request: FastifyRequest, name: string): string | undefined {
  const body = request.body;
  if (!body || typeof body !== 'object' || Buffer.isBuffer(body)) return undefined;
  return first((body as Record<string, unknown>)[name]);
}

export interface BasicCredentials {
  id: string;
  secret: string;
}

/**
 * `Authorization: Basic b64(id:secret)`, each half form-encoded as RFC 6749 §2.3.1 asks (and as
 * the public platform's app-only flow documents); undefined without a Basic header, null when the
 * header is there but unreadable.
 */
export function basicCredentials(request: FastifyRequest): BasicCredentials | null | undefined {
  const header = request.headers.authorization;
  if (!header || !/^Basic\s+/i.test(header)) return undefined;
  const decoded = Buffer.from(header.replace(/^Basic\s+/i, '').trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
  } catch {
    return null;
  }
}

/** The client's address: the socket's, or behind a trusted balancer the one it forwarded (src/http/trusted-proxies.ts). */
export function clientAddress(request: FastifyRequest): string {
  return request.ip ?? 'unknown';
}
