import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * OAuth 1.0a request verification (RFC 5849, HMAC-SHA1): header parsing, the signature base
 * string, and the checks of spec 000 "Authentication" (ASCII-only nonce, timestamp window,
 * nonce used once). No HTTP-framework or database types: lookups are passed in.
 */

export interface OAuth1Request {
  /** The HTTP method, e.g. "GET". */
  method: string;
  /** The absolute URL the client addressed: scheme, host, path and query. */
  url: string;
  /** The Authorization header value. */
  authorization: string | undefined;
  /** Parsed application/x-www-form-urlencoded body parameters, only for form bodies. */
  formBody?: Record<string, string | string[]>;
}

export interface OAuth1Params {
  consumerKey: string;
  token?: string;
  nonce: string;
  timestamp: number;
  signature: string;
  signatureMethod: string;
  version?: string;
  callback?: string;
  verifier?: string;
  /** Every header parameter (decoded) except realm, oauth_signature included. */
  all: Record<string, string>;
}

export type OAuth1FailureReason =
  | 'missing'
  | 'malformed'
  | 'unsupported_method'
  | 'bad_version'
  | 'nonce_not_ascii'
  | 'timestamp_out_of_bounds'
  | 'nonce_reused'
  | 'unknown_consumer'
  | 'unknown_token'
  | 'bad_signature';

export class OAuth1Error extends Error {
  constructor(
    readonly reason: OAuth1FailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'OAuth1Error';
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * RFC 3986 percent-encoding as RFC 5849 §3.6 requires: unreserved characters stay, every other
 * UTF-8 byte becomes %XX with uppercase hex. Never throws (a lone surrogate encodes as U+FFFD).
 * encodeURIComponent does the UTF-8 work in one native pass (linear, megabytes in milliseconds);
 * it leaves only !'()* of the reserved set, which RFC 3986 encodes too.
 */
export function percentEncode(value: string): string {
  return encodeURIComponent(value.replace(LONE_SURROGATE, '\uFFFD')).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}

function headerDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new OAuth1Error('malformed', 'The Authorization header has a badly encoded value.');
  }
}

const REQUIRED = ['oauth_consumer_key', 'oauth_nonce', 'oauth_signature', 'oauth_signature_method', 'oauth_timestamp'];
const SCHEME = /^OAuth\s+/i;
/** One `name="value"` pair with optional whitespace around `=` and after it. */
const PAIR = /\s*([A-Za-z0-9%._~-]+)\s*=\s*"([^"]*)"\s*/y;

/**
 * Parses `OAuth k="v", ...` (RFC 5849 §3.5.1). Returns undefined when the header is not an OAuth
 * one; throws OAuth1Error('malformed') on bad syntax, a repeated parameter, or a missing or empty
 * required parameter. `realm` is ignored.
 */
export function parseAuthorizationHeader(header: string | undefined): OAuth1Params | undefined {
  if (header === undefined) return undefined;
  const scheme = SCHEME.exec(header);
  if (!scheme) return undefined;
  const rest = header.slice(scheme[0].length);
  const found = new Map<string, string>();
  let index = 0;
  while (index < rest.length) {
    PAIR.lastIndex = index;
    const m = PAIR.exec(rest);
    if (!m) throw new OAuth1Error('malformed', 'The Authorization header is not a comma-separated list of key="value" pairs.');
    index = PAIR.lastIndex;
    const key = headerDecode(m[1]);
    if (key !== 'realm') {
      if (found.has(key)) throw new OAuth1Error('malformed', `The Authorization header repeats ${key}.`);
      found.set(key, headerDecode(m[2]));
    }
    if (index === rest.length) break;
    if (rest[index] !== ',') throw new OAuth1Error('malformed', 'The Authorization header pairs must be separated by commas.');
    index += 1;
    if (index === rest.length) throw new OAuth1Error('malformed', 'The Authorization header ends with a comma.');
  }
  const missing = REQUIRED.filter((k) => !found.get(k));
  if (missing.length > 0) throw new OAuth1Error('malformed', `The Authorization header lacks ${missing.join(', ')}.`);
  // Object.fromEntries defines own properties, so names such as __proto__ stay plain data.
  const all: Record<string, string> = Object.fromEntries(found);
  const get = (k: string) => found.get(k);
  return {
    consumerKey: get('oauth_consumer_key')!,
    token: get('oauth_token') || undefined,
    nonce: get('oauth_nonce')!,
    timestamp: /^[0-9]+$/.test(get('oauth_timestamp')!) ? Number(get('oauth_timestamp')) : Number.NaN,
    signature: get('oauth_signature')!,
    signatureMethod: get('oauth_signature_method')!,
    version: get('oauth_version'),
    callback: get('oauth_callback'),
    verifier: get('oauth_verifier'),
    all,
  };
}

function parseUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new OAuth1Error('malformed', `The request URL ${url} is not absolute.`);
  }
}

/**
 * The base string URI of RFC 5849 §3.4.1.2: lowercase scheme and host, default port (80 for
 * http, 443 for https) dropped, path kept, no query or fragment.
 */
function baseUri(url: URL): string {
  const scheme = url.protocol.toLowerCase();
  const defaultPort = (scheme === 'http:' && url.port === '80') || (scheme === 'https:' && url.port === '443');
  const port = url.port && !defaultPort ? `:${url.port}` : '';
  return `${scheme}//${url.hostname.toLowerCase()}${port}${url.pathname || '/'}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * RFC 5849 §3.4.1: METHOD & enc(base URI) & enc(normalized parameters). `params` are decoded
 * name/value pairs (the caller picks them); they are percent-encoded, sorted by encoded name then
 * encoded value, and joined as name=value with &. The URL's query is not read here.
 */
export function signatureBaseString(method: string, url: string, params: Array<[string, string]>): string {
  const normalized = params
    .map(([k, v]) => [percentEncode(k), percentEncode(v)] as const)
    .sort(([ak, av], [bk, bv]) => compare(ak, bk) || compare(av, bv))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return [method.toUpperCase(), percentEncode(baseUri(parseUrl(url))), percentEncode(normalized)].join('&');
}

/** RFC 5849 §3.4.2: base64 HMAC-SHA1 keyed with enc(consumer secret) & enc(token secret). */
export function hmacSha1Signature(baseString: string, consumerSecret: string, tokenSecret = ''): string {
  return createHmac('sha1', `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`).update(baseString).digest('base64');
}

export interface OAuth1Lookups {
  consumerSecret(consumerKey: string): Promise<string | undefined>;
  /** The secret of an access token or request token of that consumer. */
  tokenSecret(consumerKey: string, token: string): Promise<string | undefined>;
  /** Records the nonce; false when it was already used inside the window. */
  useNonce(consumerKey: string, nonce: string, timestamp: number): Promise<boolean>;
}

/**
 * The signed parameters of RFC 5849 §3.4.1.3.1: the query (decoded as form values, so + is a
 * space), the form body, and the header parameters except realm; oauth_signature is left out
 * whatever its source.
 */
function signedParams(url: URL, formBody: OAuth1Request['formBody'], header: OAuth1Params): Array<[string, string]> {
  const out: Array<[string, string]> = [...new URLSearchParams(url.search)];
  for (const [k, v] of Object.entries(formBody ?? {})) {
    for (const value of Array.isArray(v) ? v : [v]) out.push([k, String(value)]);
  }
  for (const [k, v] of Object.entries(header.all)) out.push([k, v]);
  return out.filter(([k]) => k !== 'oauth_signature');
}

/**
 * Verifies a signed request. Checks, in order: header syntax; signature method, version, nonce
 * characters and timestamp window; consumer; token; signature (constant time); nonce reuse. The
 * nonce is only consumed once the signature checks out.
 */
export async function verifyOAuth1Request(
  req: OAuth1Request,
  lookups: OAuth1Lookups,
  opts: { nowSeconds: number; windowSeconds: number; requireToken: boolean },
): Promise<OAuth1Params> {
  const params = parseAuthorizationHeader(req.authorization);
  if (!params) throw new OAuth1Error('missing', 'No OAuth Authorization header.');
  const url = parseUrl(req.url);
  if (params.signatureMethod !== 'HMAC-SHA1') {
    throw new OAuth1Error('unsupported_method', `oauth_signature_method ${params.signatureMethod} is not supported; use HMAC-SHA1.`);
  }
  if (params.version !== undefined && params.version !== '1.0') throw new OAuth1Error('bad_version', 'oauth_version must be 1.0.');
  if (!/^[\x20-\x7e]+$/.test(params.nonce)) throw new OAuth1Error('nonce_not_ascii', 'oauth_nonce accepts ASCII values only.');
  if (!Number.isSafeInteger(params.timestamp) || Math.abs(params.timestamp - opts.nowSeconds) > opts.windowSeconds) {
    throw new OAuth1Error('timestamp_out_of_bounds', 'Timestamp out of bounds.');
  }
  const consumerSecret = await lookups.consumerSecret(params.consumerKey);
  if (consumerSecret === undefined) throw new OAuth1Error('unknown_consumer', 'Unknown oauth_consumer_key.');
  if (opts.requireToken && !params.token) throw new OAuth1Error('missing', 'oauth_token is required.');
  let tokenSecret = '';
  if (params.token) {
    const secret = await lookups.tokenSecret(params.consumerKey, params.token);
    if (secret === undefined) throw new OAuth1Error('unknown_token', 'Invalid or expired token.');
    tokenSecret = secret;
  }
  const baseString = signatureBaseString(req.method, req.url, signedParams(url, req.formBody, params));
  const expected = Buffer.from(hmacSha1Signature(baseString, consumerSecret, tokenSecret));
  const given = Buffer.from(params.signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new OAuth1Error('bad_signature', 'Could not authenticate you.');
  if (!(await lookups.useNonce(params.consumerKey, params.nonce, params.timestamp))) {
    throw new OAuth1Error('nonce_reused', 'oauth_nonce was already used.');
  }
  return params;
}
