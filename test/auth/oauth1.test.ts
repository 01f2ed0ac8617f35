import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { test } from 'node:test';
import OAuth from 'oauth-1.0a';
import { hmacSha1Signature, OAuth1Error, parseAuthorizationHeader, percentEncode, signatureBaseString, verifyOAuth1Request, type OAuth1Lookups, type OAuth1Request } from '../../src/auth/oauth1.js';

const NOW = 1_700_000_000;
const WINDOW = 300;
const CONSUMER = { key: 'ck-plaza-1', secret: 'cs secret/with+odd&chars' };
const TOKEN = { key: '123-accesstoken', secret: 'ts~secret!*' };
const REQUEST_TOKEN = { key: 'rt-request', secret: 'rt-secret' };

/** In-memory lookups; useNonce remembers (consumer, nonce, timestamp) like the store does. */
function memoryLookups(): OAuth1Lookups & { calls: string[]; nonces: Set<string> } {
  const consumers = new Map([[CONSUMER.key, CONSUMER.secret]]);
  const tokens = new Map([
    [`${CONSUMER.key} ${TOKEN.key}`, TOKEN.secret],
    [`${CONSUMER.key} ${REQUEST_TOKEN.key}`, REQUEST_TOKEN.secret],
  ]);
  const nonces = new Set<string>();
  const calls: string[] = [];
  return {
    calls,
    nonces,
    async consumerSecret(consumerKey) {
      calls.push('consumerSecret');
      return consumers.get(consumerKey);
    },
    async tokenSecret(consumerKey, token) {
      calls.push('tokenSecret');
      return tokens.get(`${consumerKey} ${token}`);
    },
    async useNonce(consumerKey, nonce, timestamp) {
      calls.push('useNonce');
      const key = JSON.stringify([consumerKey, nonce, timestamp]);
      if (nonces.has(key)) return false;
      nonces.add(key);
      return true;
    },
  };
}

interface SignOptions {
  token?: { key: string; secret: string };
  consumer?: { key: string; secret: string };
  form?: Record<string, string | string[]>;
  nonce?: string;
  timestamp?: number;
  signatureMethod?: string;
  version?: string;
}

/** Signs with the independent oauth-1.0a package, as a client library would. */
function sign(method: string, url: string, o: SignOptions = {}): string {
  const oauth = new OAuth({
    consumer: o.consumer ?? CONSUMER,
    signature_method: o.signatureMethod ?? 'HMAC-SHA1',
    version: o.version,
    hash_function: (base, key) => crypto.createHmac('sha1', key).update(base).digest('base64'),
  });
  oauth.getTimeStamp = () => o.timestamp ?? NOW;
  if (o.nonce !== undefined) oauth.getNonce = () => o.nonce!;
  // oauth-1.0a sorts array values in place; hand it a copy.
  const data = o.form ? structuredClone(o.form) : undefined;
  return oauth.toHeader(oauth.authorize({ url, method, data }, o.token)).Authorization;
}

const OPTS = { nowSeconds: NOW, windowSeconds: WINDOW, requireToken: true };

function verify(req: OAuth1Request, lookups: OAuth1Lookups = memoryLookups(), opts: Partial<typeof OPTS> = {}) {
  return verifyOAuth1Request(req, lookups, { ...OPTS, ...opts });
}

function rejectsWith(reason: OAuth1Error['reason']) {
  return (err: unknown) => {
    assert.ok(err instanceof OAuth1Error, `expected an OAuth1Error, got ${String(err)}`);
    assert.equal(err.reason, reason, err.message);
    return true;
  };
}

/** Query values with spaces, unicode, +, ~, *, !, reserved characters; encoded as a browser would. */
const ODD_VALUES: Record<string, string> = {
  q: 'hello world',
  plus: '1+1=2',
  tilde: '~user',
  star: 'a*b',
  bang: 'wow!',
  unicode: 'café ☕ 日本 😀',
  reserved: "a/b?c#d&e'(f)",
  empty: '',
};
const ODD_QUERY = Object.entries(ODD_VALUES)
  .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
  .join('&');

// --- cross-checks against oauth-1.0a --------------------------------------------------------

test('a GET signed by oauth-1.0a with spaces, unicode, +, ~, * and ! in the query verifies (non-default port, with token)', async () => {
  const url = `http://127.0.0.1:8080/2/users/me?${ODD_QUERY}`;
  const lookups = memoryLookups();
  const params = await verify({ method: 'GET', url, authorization: sign('GET', url, { token: TOKEN }) }, lookups);
  assert.equal(params.consumerKey, CONSUMER.key);
  assert.equal(params.token, TOKEN.key);
  assert.equal(params.timestamp, NOW);
  assert.equal(params.signatureMethod, 'HMAC-SHA1');
  assert.equal(params.version, '1.0');
  assert.deepEqual(lookups.calls, ['consumerSecret', 'tokenSecret', 'useNonce']);
});

test('a GET signed by oauth-1.0a without a token verifies when no token is required', async () => {
  const url = `http://localhost:3000/oauth/request_token?${ODD_QUERY}`;
  const lookups = memoryLookups();
  const params = await verify({ method: 'GET', url, authorization: sign('GET', url) }, lookups, { requireToken: false });
  assert.equal(params.token, undefined);
  assert.deepEqual(lookups.calls, ['consumerSecret', 'useNonce']);
});

test('a POST signed by oauth-1.0a with form body parameters verifies (with token)', async () => {
  const form = { status: 'Hello Ladies + Gentlemen, a signed OAuth request!', include_entities: 'true', emoji: 'ça va? 🎉', tag: ['b z', 'a*', 'a!'] };
  const url = 'https://api.example.com:8443/1.1/statuses/update.json?include_rts=1&x=%7E%2A%21';
  const authorization = sign('POST', url, { token: TOKEN, form });
  await verify({ method: 'POST', url, authorization, formBody: form });
});

test('a POST signed by oauth-1.0a with form body parameters verifies without a token', async () => {
  const form = { x_auth_mode: 'client_auth', note: 'needs a token? no ~ * !' };
  const url = 'http://127.0.0.1:8080/oauth/access_token';
  const authorization = sign('POST', url, { form });
  await verify({ method: 'POST', url, authorization, formBody: form }, memoryLookups(), { requireToken: false });
});

test('the form body is signed: changing a form parameter after signing fails with bad_signature', async () => {
  const url = 'http://127.0.0.1:8080/2/webhooks';
  const authorization = sign('POST', url, { token: TOKEN, form: { url: 'https://hooks.example/a' } });
  await assert.rejects(verify({ method: 'POST', url, authorization, formBody: { url: 'https://hooks.example/b' } }), rejectsWith('bad_signature'));
});

test('the base string URI drops the default port 443 for https (client signed without a port)', async () => {
  const signedUrl = `https://api.example.com/2/users/me?${ODD_QUERY}`;
  const receivedUrl = `https://api.example.com:443/2/users/me?${ODD_QUERY}`;
  await verify({ method: 'GET', url: receivedUrl, authorization: sign('GET', signedUrl, { token: TOKEN }) });
});

test('the base string URI drops the default port 80 for http (client signed without a port)', async () => {
  const signedUrl = 'http://api.example.com/2/users/me?user.fields=created_at';
  const receivedUrl = 'http://api.example.com:80/2/users/me?user.fields=created_at';
  await verify({ method: 'GET', url: receivedUrl, authorization: sign('GET', signedUrl, { token: TOKEN }) });
});

test('the base string URI keeps a non-default port: a signature for another port fails', async () => {
  const authorization = sign('GET', 'http://127.0.0.1:8080/2/users/me', { token: TOKEN });
  await assert.rejects(verify({ method: 'GET', url: 'http://127.0.0.1:8081/2/users/me', authorization }), rejectsWith('bad_signature'));
});

test('a + in the query string is a space, as form-encoded query values are', async () => {
  const authorization = sign('GET', 'http://127.0.0.1:8080/2/users/search?query=ada%20lovelace', { token: TOKEN });
  await verify({ method: 'GET', url: 'http://127.0.0.1:8080/2/users/search?query=ada+lovelace', authorization });
});

test('a request token (request-token flow) verifies through tokenSecret', async () => {
  const url = 'http://127.0.0.1:8080/oauth/access_token';
  const params = await verify({ method: 'POST', url, authorization: sign('POST', url, { token: REQUEST_TOKEN }) });
  assert.equal(params.token, REQUEST_TOKEN.key);
});

// --- RFC 5849 vectors --------------------------------------------------------------------------

const RFC_NORMALIZED =
  'a2=r%20b&a3=2%20q&a3=a&b5=%3D%253D&c%40=&c2=&oauth_consumer_key=9djdj82h48djs9d2&oauth_nonce=7d8f3e4a&oauth_signature_method=HMAC-SHA1&oauth_timestamp=137131201&oauth_token=kkk9d7dh3k39sjv7';
const RFC_BASE_STRING =
  'POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7';
const RFC_URL = 'http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b';
const RFC_OAUTH: Array<[string, string]> = [
  ['oauth_consumer_key', '9djdj82h48djs9d2'],
  ['oauth_token', 'kkk9d7dh3k39sjv7'],
  ['oauth_signature_method', 'HMAC-SHA1'],
  ['oauth_timestamp', '137131201'],
  ['oauth_nonce', '7d8f3e4a'],
];

test('signatureBaseString matches the RFC 5849 §3.4.1.1 worked example', () => {
  const query = [...new URL(RFC_URL).searchParams];
  const form = [...new URLSearchParams('c2&a3=2+q')];
  const base = signatureBaseString('POST', RFC_URL, [...query, ...form, ...RFC_OAUTH]);
  assert.equal(base, `POST&${encodeURIComponent('http://example.com/request')}&${encodeURIComponent(RFC_NORMALIZED)}`);
  assert.equal(base, RFC_BASE_STRING);
});

test('verification signs the query, the form body and the header parameters except realm and oauth_signature (RFC 5849 §3.4.1.3.1)', async () => {
  const consumerSecret = 'j49sk3j29djd';
  const tokenSecret = 'dh893hdasih9';
  const signature = hmacSha1Signature(RFC_BASE_STRING, consumerSecret, tokenSecret);
  const authorization = `OAuth realm="Example",
                oauth_consumer_key="9djdj82h48djs9d2",
                oauth_token="kkk9d7dh3k39sjv7",
                oauth_signature_method="HMAC-SHA1",
                oauth_timestamp="137131201",
                oauth_nonce="7d8f3e4a",
                oauth_signature="${percentEncode(signature)}"`;
  const lookups: OAuth1Lookups = {
    consumerSecret: async (k) => (k === '9djdj82h48djs9d2' ? consumerSecret : undefined),
    tokenSecret: async (_c, t) => (t === 'kkk9d7dh3k39sjv7' ? tokenSecret : undefined),
    useNonce: async () => true,
  };
  const formBody = Object.fromEntries(new URLSearchParams('c2&a3=2+q'));
  const params = await verifyOAuth1Request({ method: 'POST', url: RFC_URL, authorization, formBody }, lookups, { nowSeconds: 137131201, windowSeconds: 300, requireToken: true });
  assert.equal(params.signature, signature);
  assert.equal('realm' in params.all, false);
});

test('hmacSha1Signature matches the RFC 5849 §1.2 and OAuth Core 1.0 Appendix A signatures', () => {
  const photos: Array<[string, string]> = [['file', 'vacation.jpg'], ['size', 'original']];
  const base = (method: string, url: string, extra: Array<[string, string]>) =>
    signatureBaseString(method, url, [['oauth_consumer_key', 'dpf43f3p2l4k3l03'], ['oauth_signature_method', 'HMAC-SHA1'], ...extra]);
  assert.equal(
    hmacSha1Signature(base('POST', 'https://photos.example.net/initiate', [['oauth_timestamp', '137131200'], ['oauth_nonce', 'wIjqoS'], ['oauth_callback', 'http://printer.example.com/ready']]), 'kd94hf93k423kf44'),
    '74KNZJeDHnMBp0EMJ9ZHt/XKycU=',
  );
  assert.equal(
    hmacSha1Signature(
      base('POST', 'https://photos.example.net/token', [['oauth_token', 'hh5s93j4hdidpola'], ['oauth_timestamp', '137131201'], ['oauth_nonce', 'walatlh'], ['oauth_verifier', 'hfdp7dh39dks9884']]),
      'kd94hf93k423kf44',
      'hdhd0244k9j7ao03',
    ),
    'gKgrFCywp7rO0OXSjdot/IHF7IU=',
  );
  assert.equal(
    hmacSha1Signature(
      base('GET', 'http://photos.example.net/photos?file=vacation.jpg&size=original', [...photos, ['oauth_token', 'nnch734d00sl2jdk'], ['oauth_timestamp', '137131202'], ['oauth_nonce', 'chapoH']]),
      'kd94hf93k423kf44',
      'pfkkdhi9sl3r4s00',
    ),
    'MdpQcU8iPSUjWoN/UDMsK2sui9I=',
  );
  assert.equal(
    hmacSha1Signature(
      base('GET', 'http://photos.example.net/photos', [...photos, ['oauth_token', 'nnch734d00sl2jdk'], ['oauth_timestamp', '1191242096'], ['oauth_nonce', 'kllo9940pd9333jh'], ['oauth_version', '1.0']]),
      'kd94hf93k423kf44',
      'pfkkdhi9sl3r4s00',
    ),
    'tR3+Ty81lMeYAr/Fid0kMTYa/WM=',
  );
});

// --- base string rules -------------------------------------------------------------------------

test('the base string URI lowercases scheme and host, drops default ports and the query, keeps the path (RFC 5849 §3.4.1.2)', () => {
  const uri = (url: string) => decodeURIComponent(signatureBaseString('get', url, []).split('&')[1]);
  assert.equal(uri('HTTP://EXAMPLE.COM:80/r%20v/X?id=123'), 'http://example.com/r%20v/X');
  assert.equal(uri('https://www.example.net:8080/?q=1'), 'https://www.example.net:8080/');
  assert.equal(uri('https://Api.Example.com:443/2/Users'), 'https://api.example.com/2/Users');
  assert.equal(uri('http://example.com:443/a'), 'http://example.com:443/a');
  assert.equal(uri('http://example.com'), 'http://example.com/');
  assert.equal(signatureBaseString('get', 'http://example.com/', []).split('&')[0], 'GET');
});

test('parameters are percent-encoded per RFC 3986 (unreserved kept, uppercase %XX of UTF-8) and sorted by encoded name then value', () => {
  assert.equal(percentEncode('AZaz09-._~'), 'AZaz09-._~');
  assert.equal(percentEncode(" !*'()+/=&%"), '%20%21%2A%27%28%29%2B%2F%3D%26%25');
  assert.equal(percentEncode('é☕😀'), '%C3%A9%E2%98%95%F0%9F%98%80');
  const base = signatureBaseString('GET', 'http://example.com/', [
    ['ä', '1'],
    ['~', '1'],
    ['a', '2'],
    ['a', '10'],
    ['a', ' '],
    ['b', 'x y'],
  ]);
  // Encoded order: "%C3%A4" < "a" < "b" < "~" (raw order would put "~" before "ä"); values "%20" < "10" < "2".
  assert.equal(decodeURIComponent(base.split('&')[2]), '%C3%A4=1&a=%20&a=10&a=2&b=x%20y&~=1');
});

test('hmacSha1Signature keys with the encoded consumer secret and token secret joined by &', () => {
  const expected = crypto.createHmac('sha1', 'a%20b%26c&d%2Be').update('base').digest('base64');
  assert.equal(hmacSha1Signature('base', 'a b&c', 'd+e'), expected);
  assert.equal(hmacSha1Signature('base', 'kd94'), crypto.createHmac('sha1', 'kd94&').update('base').digest('base64'));
});

// --- header parsing ----------------------------------------------------------------------------

test('parseAuthorizationHeader returns undefined for a header that is not OAuth', () => {
  assert.equal(parseAuthorizationHeader(undefined), undefined);
  assert.equal(parseAuthorizationHeader('Bearer abc'), undefined);
  assert.equal(parseAuthorizationHeader('OAuthX a="b"'), undefined);
});

test('the Authorization header tolerates whitespace around commas and =, decodes values and ignores realm', () => {
  const params = parseAuthorizationHeader(
    'oauth realm="Photos" ,oauth_consumer_key = "key%20one" ,  oauth_token="t",oauth_signature_method="HMAC-SHA1",\toauth_timestamp="137131200" , oauth_nonce="n%7E", oauth_signature="sig%2F%3D", oauth_callback="http%3A%2F%2Fprinter.example.com%2Fready", oauth_verifier="v1"',
  );
  assert.ok(params);
  assert.equal(params.consumerKey, 'key one');
  assert.equal(params.token, 't');
  assert.equal(params.nonce, 'n~');
  assert.equal(params.timestamp, 137131200);
  assert.equal(params.signature, 'sig/=');
  assert.equal(params.callback, 'http://printer.example.com/ready');
  assert.equal(params.verifier, 'v1');
  assert.equal(params.version, undefined);
  assert.equal('realm' in params.all, false);
  assert.equal(params.all.oauth_signature, 'sig/=');
});

const GOOD_PAIRS = 'oauth_consumer_key="k", oauth_nonce="n", oauth_signature="s", oauth_signature_method="HMAC-SHA1", oauth_timestamp="1"';

test('a malformed Authorization header is refused as malformed', () => {
  const bad = [
    `OAuth ${GOOD_PAIRS}, oauth_nonce="again"`, // duplicate oauth_* key
    `OAuth ${GOOD_PAIRS}, oauth_token=unquoted`,
    `OAuth ${GOOD_PAIRS} oauth_token="no-comma"`,
    `OAuth ${GOOD_PAIRS},`,
    `OAuth ${GOOD_PAIRS}, , oauth_token="t"`,
    `OAuth ${GOOD_PAIRS}, oauth_token="%E0%A4%A"`, // bad percent-encoding
    `OAuth ${GOOD_PAIRS}, "oops"`,
    'OAuth ',
    'OAuth oauth_consumer_key="k", oauth_nonce="n", oauth_signature="s", oauth_timestamp="1"', // no signature method
    'OAuth oauth_consumer_key="", oauth_nonce="n", oauth_signature="s", oauth_signature_method="HMAC-SHA1", oauth_timestamp="1"', // empty key
  ];
  for (const header of bad) assert.throws(() => parseAuthorizationHeader(header), rejectsWith('malformed'), header);
});

test('the Authorization header keeps unusual parameter names as plain data', () => {
  const params = parseAuthorizationHeader(`OAuth ${GOOD_PAIRS}, __proto__="x", constructor="y"`);
  assert.ok(params);
  assert.equal(Object.getPrototypeOf(params.all), Object.prototype);
  assert.equal(Object.getOwnPropertyDescriptor(params.all, '__proto__')?.value, 'x');
  assert.equal(params.all.constructor, 'y');
});

// --- failure reasons ---------------------------------------------------------------------------

const URL_ME = 'http://127.0.0.1:8080/2/users/me?user.fields=created_at';

test('a request without an OAuth Authorization header is refused as missing', async () => {
  await assert.rejects(verify({ method: 'GET', url: URL_ME, authorization: undefined }), rejectsWith('missing'));
  await assert.rejects(verify({ method: 'GET', url: URL_ME, authorization: 'Bearer abc' }), rejectsWith('missing'));
});

test('a malformed header is refused as malformed before any lookup', async () => {
  const lookups = memoryLookups();
  await assert.rejects(verify({ method: 'GET', url: URL_ME, authorization: `OAuth ${GOOD_PAIRS}, oauth_nonce="n"` }, lookups), rejectsWith('malformed'));
  assert.deepEqual(lookups.calls, []);
});

test('a tampered signature is refused as bad_signature', async () => {
  const authorization = sign('GET', URL_ME, { token: TOKEN });
  const sig = /oauth_signature="([^"]*)"/.exec(authorization)![1];
  const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
  await assert.rejects(verify({ method: 'GET', url: URL_ME, authorization: authorization.replace(sig, flipped) }), rejectsWith('bad_signature'));
  await assert.rejects(verify({ method: 'GET', url: URL_ME, authorization: authorization.replace(sig, 'short') }), rejectsWith('bad_signature'));
});

test('a signed query parameter changed after signing is refused as bad_signature', async () => {
  const authorization = sign('GET', URL_ME, { token: TOKEN });
  await assert.rejects(verify({ method: 'GET', url: URL_ME.replace('created_at', 'verified'), authorization }), rejectsWith('bad_signature'));
});

test('a signature made with the wrong token secret is refused as bad_signature', async () => {
  const authorization = sign('GET', URL_ME, { token: { key: TOKEN.key, secret: 'not-the-secret' } });
  await assert.rejects(verify({ method: 'GET', url: URL_ME, authorization }), rejectsWith('bad_signature'));
});

test('a signature made with the wrong consumer secret is refused as bad_signature', async () => {
  const authorization = sign('GET', URL_ME, { token: TOKEN, consumer: { key: CONSUMER.key, secret: 'nope' } });
  await assert.rejects(verify({ method: 'GET', url: URL_ME, authorization }), rejectsWith('bad_signature'));
});

test('a signature over another HTTP method is refused as bad_signature', async () => {
  const authorization = sign('GET', URL_ME, { token: TOKEN });
  await assert.rejects(verify({ method: 'DELETE', url: URL_ME, authorization }), rejectsWith('bad_signature'));
});

test('oauth_timestamp must lie within the window: too old is timestamp_out_of_bounds', async () => {
  const authorization = sign('GET', URL_ME, { token: TOKEN, timestamp: NOW - WINDOW - 1 });
  await assert.rejects(verify({ method: 'GET', url: URL_ME, authorization }), rejectsWith('timestamp_out_of_bounds'));
});

test('oauth_timestamp must lie within the window: too far in the future is timestamp_out_of_bounds', async () => {
  const authorization = sign('GET', URL_ME, { token: TOKEN, timestamp: NOW + WINDOW + 1 });
  await assert.rejects(verify({ method: 'GET', url: URL_ME, authorization }), rejectsWith('timestamp_out_of_bounds'));
});

test('oauth_timestamp at either edge of the window is accepted', async () => {
  await verify({ method: 'GET', url: URL_ME, authorization: sign('GET', URL_ME, { token: TOKEN, timestamp: NOW - WINDOW }) });
  await verify({ method: 'GET', url: URL_ME, authorization: sign('GET', URL_ME, { token: TOKEN, timestamp: NOW + WINDOW }) });
});

test('oauth_timestamp must be a decimal integer', async () => {
  for (const ts of ['1.7e9', '-1', 'abc', ' 1700000000', '0x6553f100', '1700000000.5']) {
    const authorization = `OAuth oauth_consumer_key="${CONSUMER.key}", oauth_nonce="n", oauth_signature="s", oauth_signature_method="HMAC-SHA1", oauth_timestamp="${encodeURIComponent(ts)}"`;
    await assert.rejects(verify({ method: 'GET', url: URL_ME, authorization }), rejectsWith('timestamp_out_of_bounds'), ts);
  }
});

test('oauth_nonce accepts ASCII values only', async () => {
  for (const nonce of ['nonce-é', 'snow☃man', 'tab\there', 'nul\u0000']) {
    const authorization = sign('GET', URL_ME, { token: TOKEN, nonce });
    await assert.rejects(verify({ method: 'GET', url: URL_ME, authorization }), rejectsWith('nonce_not_ascii'), JSON.stringify(nonce));
  }
  await verify({ method: 'GET', url: URL_ME, authorization: sign('GET', URL_ME, { token: TOKEN, nonce: ' !"#$%&()*+,-./:;<=>?@[\\]^_`{|}~' }) });
});

test('an oauth_nonce cannot be used twice inside the window: the replay is nonce_reused', async () => {
  const lookups = memoryLookups();
  const authorization = sign('GET', URL_ME, { token: TOKEN, nonce: 'once-only' });
  await verify({ method: 'GET', url: URL_ME, authorization }, lookups);
  await assert.rejects(verify({ method: 'GET', url: URL_ME, authorization }, lookups), rejectsWith('nonce_reused'));
});

test('the nonce is consumed only after the signature checks out', async () => {
  const lookups = memoryLookups();
  const forged = sign('GET', URL_ME, { token: { key: TOKEN.key, secret: 'guess' }, nonce: 'shared-nonce' });
  await assert.rejects(verify({ method: 'GET', url: URL_ME, authorization: forged }, lookups), rejectsWith('bad_signature'));
  assert.equal(lookups.calls.includes('useNonce'), false);
  assert.equal(lookups.nonces.size, 0);
  await verify({ method: 'GET', url: URL_ME, authorization: sign('GET', URL_ME, { token: TOKEN, nonce: 'shared-nonce' }) }, lookups);
});

test('oauth_signature_method must be HMAC-SHA1: HMAC-SHA256 and PLAINTEXT are unsupported_method', async () => {
  for (const method of ['HMAC-SHA256', 'PLAINTEXT', 'hmac-sha1']) {
    const lookups = memoryLookups();
    const authorization = sign('GET', URL_ME, { token: TOKEN, signatureMethod: method });
    await assert.rejects(verify({ method: 'GET', url: URL_ME, authorization }, lookups), rejectsWith('unsupported_method'), method);
    assert.deepEqual(lookups.calls, []);
  }
});

test('oauth_version, when present, must be 1.0', async () => {
  await assert.rejects(verify({ method: 'GET', url: URL_ME, authorization: sign('GET', URL_ME, { token: TOKEN, version: '2.0' }) }), rejectsWith('bad_version'));
  const withoutVersion = sign('GET', URL_ME, { token: TOKEN }).replace(/, oauth_version="1\.0"/, '');
  assert.equal(withoutVersion.includes('oauth_version'), false);
  // The signature covered oauth_version, so dropping it fails the signature, not the version rule.
  await assert.rejects(verify({ method: 'GET', url: URL_ME, authorization: withoutVersion }), rejectsWith('bad_signature'));
});

test('an unknown oauth_consumer_key is unknown_consumer', async () => {
  const authorization = sign('GET', URL_ME, { token: TOKEN, consumer: { key: 'who', secret: 'x' } });
  await assert.rejects(verify({ method: 'GET', url: URL_ME, authorization }), rejectsWith('unknown_consumer'));
});

test('an unknown oauth_token is unknown_token', async () => {
  const authorization = sign('GET', URL_ME, { token: { key: 'no-such-token', secret: 'x' } });
  await assert.rejects(verify({ method: 'GET', url: URL_ME, authorization }), rejectsWith('unknown_token'));
});

test('when a token is required, a request without oauth_token is missing', async () => {
  const lookups = memoryLookups();
  await assert.rejects(verify({ method: 'GET', url: URL_ME, authorization: sign('GET', URL_ME) }, lookups), rejectsWith('missing'));
  assert.equal(lookups.calls.includes('useNonce'), false);
});

test('checks run in order: method, version, nonce, timestamp, then consumer, then token (missing or unknown), then signature', async () => {
  const unknownConsumer = { key: 'who', secret: 'x' };
  const stale = NOW - WINDOW - 1;
  const cases: Array<[SignOptions, OAuth1Error['reason']]> = [
    [{ signatureMethod: 'HMAC-SHA256', version: '2.0', nonce: 'é', timestamp: stale, consumer: unknownConsumer }, 'unsupported_method'],
    [{ version: '2.0', nonce: 'é', timestamp: stale, consumer: unknownConsumer }, 'bad_version'],
    [{ nonce: 'é', timestamp: stale, consumer: unknownConsumer }, 'nonce_not_ascii'],
    [{ timestamp: stale, consumer: unknownConsumer }, 'timestamp_out_of_bounds'],
    [{ consumer: unknownConsumer, token: { key: 'no-such-token', secret: 'x' } }, 'unknown_consumer'],
    [{ consumer: unknownConsumer }, 'unknown_consumer'],
    [{ consumer: { key: CONSUMER.key, secret: 'wrong' } }, 'missing'],
    [{ consumer: { key: CONSUMER.key, secret: 'wrong' }, token: { key: 'no-such-token', secret: 'x' } }, 'unknown_token'],
  ];
  for (const [o, reason] of cases) {
    await assert.rejects(verify({ method: 'GET', url: URL_ME, authorization: sign('GET', URL_ME, o) }), rejectsWith(reason), reason);
  }
});
