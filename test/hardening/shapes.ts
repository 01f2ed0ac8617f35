import assert from 'node:assert/strict';
import type { CallResult } from '../support/server.js';

/**
 * The error shapes of Plaza's interfaces (issue #9: "every answer of every listener is in its
 * interface's error shape"). Platform: a Problem (application/problem+json with type and title),
 * or, on the endpoints that answer them, an Error object {code, message}, v1.1 errors
 * {errors:[{code, message}]} or an OAuth 2.0 error {error}. Ads: {errors:[{code, message}],
 * request:{params}}.
 */
export function platformErrorShape(res: Pick<CallResult, 'status' | 'headers' | 'body' | 'text'>): string | undefined {
  const type = res.headers.get('content-type') ?? '';
  const body = res.body as Record<string, unknown> | string;
  if (typeof body !== 'object' || body === null) {
    // The sign-in pages answer HTML for a person in a browser.
    return /^text\/html/.test(type) ? undefined : `not JSON: ${type} ${String(res.text).slice(0, 200)}`;
  }
  if (type.startsWith('application/problem+json')) {
    if (typeof body.type !== 'string' || typeof body.title !== 'string') return `a Problem without type and title: ${res.text.slice(0, 300)}`;
    if ('statusCode' in body || 'code' in body) return `a framework error body: ${res.text.slice(0, 300)}`;
    return undefined;
  }
  if (!type.startsWith('application/json')) return `unexpected content type ${type}`;
  if (Array.isArray(body.errors) && body.errors.every((e) => typeof e === 'object' && e !== null && 'message' in e)) return undefined;
  if (typeof body.code === 'number' && typeof body.message === 'string' && !('statusCode' in body)) return undefined;
  if (typeof body.error === 'string' && !('statusCode' in body)) return undefined;
  return `not an error shape of the platform interface: ${res.text.slice(0, 300)}`;
}

export function adsErrorShape(res: Pick<CallResult, 'status' | 'headers' | 'body' | 'text'>): string | undefined {
  const type = res.headers.get('content-type') ?? '';
  if (!type.startsWith('application/json')) return `unexpected content type ${type}: ${String(res.text).slice(0, 200)}`;
  const body = res.body as { errors?: Array<{ code?: unknown; message?: unknown }>; request?: { params?: unknown } };
  if (!Array.isArray(body?.errors) || body.errors.length === 0) return `no errors list: ${res.text.slice(0, 300)}`;
  if (!body.errors.every((e) => typeof e.code === 'string' && typeof e.message === 'string')) return `an error without code and message: ${res.text.slice(0, 300)}`;
  if (typeof body.request?.params !== 'object' || body.request.params === null) return `no request.params: ${res.text.slice(0, 300)}`;
  return undefined;
}

export function assertPlatformError(res: Pick<CallResult, 'status' | 'headers' | 'body' | 'text'>, status: number, what = ''): void {
  assert.equal(res.status, status, `${what} ${res.text.slice(0, 300)}`);
  const wrong = platformErrorShape(res);
  assert.equal(wrong, undefined, what);
  assert.equal(res.headers.get('content-type')?.startsWith('application/problem+json'), true, `${what}: ${res.headers.get('content-type')}`);
}

export function assertAdsError(res: Pick<CallResult, 'status' | 'headers' | 'body' | 'text'>, status: number, what = ''): void {
  assert.equal(res.status, status, `${what} ${res.text.slice(0, 300)}`);
  assert.equal(adsErrorShape(res), undefined, what);
}

/** One HTTP call with a raw body (a string or bytes, sent as is). */
export async function rawCall(
  base: string,
  path: string,
  o: { method?: string; headers?: Record<string, string>; body?: string | Uint8Array; bearer?: string } = {},
): Promise<CallResult> {
  const headers = { ...o.headers };
  if (o.bearer) headers.authorization = `Bearer ${o.bearer}`;
  const response = await fetch(`${base}${path}`, { method: o.method ?? 'GET', headers, body: o.body as string | undefined });
  const text = await response.text();
  let body: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text.length > 0) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: response.status, headers: response.headers, body, text };
}
