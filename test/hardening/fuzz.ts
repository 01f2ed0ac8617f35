import crypto from 'node:crypto';
import Database from 'better-sqlite3';
import OAuth from 'oauth-1.0a';
import { adsTweetNames } from '../../src/ads/http/names.js';
import { adsRouteTable } from '../../src/ads/http/route.js';
import { hmacSha1Signature, percentEncode, signatureBaseString } from '../../src/auth/oauth1.js';
import type { OffsetClock } from '../../src/clock.js';
import type { OAuth1Credentials, TestPlaza } from '../support/server.js';
import { adsErrorShape, platformErrorShape } from './shapes.js';
import { mulberry32 } from '../../scripts/prng.js';
import { WRITTEN_BESIDE_ANSWERS } from '../../src/store/store.js';

/** Platform paths under /2/users/{id} where {id} names the other user, not the caller. */
const TARGET_USER_PATHS = new Set(['/2/users/{id}/dm/block', '/2/users/{id}/dm/unblock']);

/**
 * A schema-driven fuzzer over Plaza's own interface descriptions: every operation of the
 * platform's served OpenAPI document (GET /2/openapi.json) and every route of the ads route table
 * (the ads listeners serve no OpenAPI document; src/ads/http/route.ts keeps their declarations),
 * sent bad values for each path, query and body parameter, bad encodings, deep and huge bodies,
 * and the authentication cases (no credential, wrong scheme, tampered signature, stale timestamp,
 * reused nonce, credentials of an unknown world, another user's resources and ads accounts).
 * The admin interface (its own token, its own callers) is fuzzed apart, as are the worlds it
 * manages (test/worlds/worlds-fuzz.test.ts); the developer console is pages, not an API.
 *
 * Every answer must be below 500 and, when it is an error, in its interface's error shape; a
 * bad credential is never let through; on SQLite, an operation whose requests were all refused
 * leaves every table as it was (counted by triggers). The budget bounds the run: `ci` sends a
 * fixed set of values, `long` adds random ones from a seed.
 */

export type Budget = 'ci' | 'long';

export interface FuzzReport {
  operations: number;
  requests: number;
  failures: string[];
}

interface Op {
  iface: 'platform' | 'ads' | 'ads-sandbox';
  method: string;
  /** With `{name}` placeholders. */
  path: string;
  pathParams: string[];
  queryParams: string[];
  bodyFields: string[];
  bodyTypes: string[];
  /** Platform: the schemes the operation accepts. */
  schemes: Array<'app' | 'user'>;
  /** Declared with no security at all (GET /2/openapi.json): no credential to refuse. */
  public?: boolean;
  /** Platform: the names each list parameter (`expansions`, `*.fields`) takes on this operation. */
  lists?: Record<string, string[]>;
}

/** Values that are wrong for almost any parameter: types, ranges, sizes, encodings. */
const BAD_SEGMENTS = ['0', 'abc', '-1', '9'.repeat(25), 'a'.repeat(101), '%00', '%E0%A4%A', '%ED%A0%80', '%C0%AF', '..%2F..', '%20', '%FF'];
const BAD_QUERY = ['', 'x', '-1', '0', '1e400', '9'.repeat(40), '%00', '%ED%A0%80', '%E0%A4%A', 'true', '%5B%5D', ',,,', 'a'.repeat(5000), '%F0%9F%98%80'];
const BAD_JSON_VALUES: unknown[] = [null, 123, -1, 1.5, 1e308, 'str', '', true, [], {}, [1, 'a', null], { a: { b: { c: {} } } }, 'x'.repeat(70_000), 'a\u0000b', '\uD800', '9'.repeat(30)];

const MAX_RECORDED_FAILURES = 200;

export async function fuzzPlaza(plaza: TestPlaza, clock: OffsetClock, budget: Budget, seed = 1): Promise<FuzzReport> {
  const report: FuzzReport = { operations: 0, requests: 0, failures: [] };
  const fail = (what: string) => {
    if (report.failures.length < MAX_RECORDED_FAILURES) report.failures.push(what);
  };
  const random = mulberry32(seed);
  const creds = plaza.creds;
  const app = creds.apps[0];
  const user = (name: string) => creds.users.find((u) => u.username === name)!;
  const ada = user('ada');
  const other = creds.users.find((u) => u.username !== 'ada')!;
  const adaOAuth1: OAuth1Credentials = { consumer_key: app.consumer_key, consumer_secret: app.consumer_secret, token: ada.access_token, token_secret: ada.access_token_secret };
  const postId = creds.sample.post_ids[0];
  const digest = plaza.databaseUrl.startsWith('postgres') ? undefined : sqliteChangeCounter(plaza.databaseUrl);

  const ops = [...(await platformOps(plaza.urls.base_url)), ...adsOps(plaza)];
  const baseOf = (op: Op) => (op.iface === 'platform' ? plaza.urls.base_url : op.iface === 'ads' ? plaza.urls.ads_url : plaza.urls.ads_sandbox_url);

  /** Signs with the injected clock, so timestamps stay in the window however far the clock moved. */
  const sign = (c: OAuth1Credentials, method: string, url: string, form?: Record<string, string>, at?: number) => {
    const oauth = new OAuth({
      consumer: { key: c.consumer_key, secret: c.consumer_secret },
      signature_method: 'HMAC-SHA1',
      hash_function: (base, key) => crypto.createHmac('sha1', key).update(base).digest('base64'),
    });
    oauth.getTimeStamp = () => at ?? Math.floor(clock.now().getTime() / 1000);
    const token = c.token ? { key: c.token, secret: c.token_secret ?? '' } : undefined;
    try {
      return oauth.toHeader(oauth.authorize({ url, method, data: form }, token)).Authorization;
    } catch {
      // The client library cannot decode a malformed query; sign it as the server reads it
      // (URLSearchParams, lenient), so the bad value still reaches the route.
      const timestamp = String(at ?? Math.floor(clock.now().getTime() / 1000));
      const oauthParams: Record<string, string> = {
        oauth_consumer_key: c.consumer_key,
        oauth_nonce: crypto.randomBytes(16).toString('hex'),
        oauth_signature_method: 'HMAC-SHA1',
        oauth_timestamp: timestamp,
        oauth_version: '1.0',
        ...(c.token ? { oauth_token: c.token } : {}),
      };
      const parsed = new URL(url);
      const params: Array<[string, string]> = [...new URLSearchParams(parsed.search), ...Object.entries(form ?? {}), ...Object.entries(oauthParams)];
      const signature = hmacSha1Signature(signatureBaseString(method, url, params), c.consumer_secret, c.token_secret ?? '');
      const all = { ...oauthParams, oauth_signature: signature };
      return `OAuth ${Object.entries(all).map(([k, v]) => `${percentEncode(k)}="${percentEncode(v)}"`).join(', ')}`;
    }
  };

  /** The credential an operation is called with when the case is not about authentication. */
  const goodAuth = (op: Op, method: string, url: string, form?: Record<string, string>): string => {
    if (op.iface === 'platform' && !op.schemes.includes('user')) return `Bearer ${app.bearer_token}`;
    return sign(adaOAuth1, method, url, form);
  };

  interface Sent {
    status: number;
  }

  const send = async (op: Op, what: string, path: string, init: { headers?: Record<string, string>; body?: string; auth?: string | null; form?: Record<string, string> } = {}): Promise<Sent> => {
    const url = `${baseOf(op)}${path}`;
    const headers: Record<string, string> = { ...init.headers };
    const auth = init.auth === undefined ? goodAuth(op, op.method, url, init.form) : init.auth;
    if (auth !== null) headers.authorization = auth;
    report.requests += 1;
    let response: Response;
    try {
      response = await fetch(url, { method: op.method, headers, body: op.method === 'GET' || op.method === 'DELETE' ? undefined : init.body, signal: AbortSignal.timeout(15_000) });
    } catch (err) {
      // A URL the client itself refuses to send is not Plaza's answer.
      if (err instanceof TypeError && /Invalid URL|invalid/i.test(err.message) && !(err as { cause?: unknown }).cause) return { status: 0 };
      fail(`${op.method} ${op.path} ${what}: no answer (${(err as Error).message} ${(err as { cause?: Error }).cause?.message ?? ''})`);
      return { status: 0 };
    }
    const status = response.status;
    if (status < 400) {
      await response.body?.cancel().catch(() => undefined);
      return { status };
    }
    const text = await response.text().catch(() => '');
    let body: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json')) {
      try {
        body = JSON.parse(text);
      } catch {
        fail(`${op.method} ${op.path} ${what}: ${status} with a body that is not JSON: ${text.slice(0, 200)}`);
      }
    }
    if (status >= 500) fail(`${op.method} ${op.path} ${what}: ${status} ${text.slice(0, 300)}`);
    const wrong = (op.iface === 'platform' ? platformErrorShape : adsErrorShape)({ status, headers: response.headers, body, text });
    if (wrong) fail(`${op.method} ${op.path} ${what}: ${status} ${wrong}`);
    return { status };
  };

  const fill = (op: Op, overrides: Record<string, string> = {}) =>
    op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => overrides[name] ?? baselineSegment(op, name, { ada: ada.id, other: other.id, post: postId, account: ada.ads_account_ids[0] }));

  // Every name any operation takes in a list parameter (an expansion of posts, a field of users):
  // each operation is sent the names of the others that it does not take, after each name was
  // first asked of a GET operation that takes it (so whatever remembers valid answers has seen it).
  const listNames = new Map<string, Set<string>>();
  for (const op of ops) for (const [name, values] of Object.entries(op.lists ?? {})) for (const v of values) (listNames.get(name) ?? listNames.set(name, new Set()).get(name)!).add(v);
  for (const [name, values] of listNames) {
    for (const value of values) {
      const home = ops.find((op) => op.method === 'GET' && op.lists?.[name]?.includes(value));
      if (home) await send(home, `list ${name}=${value} where it belongs`, `${fill(home)}?${name}=${value}`);
    }
  }

  for (const op of ops) {
    report.operations += 1;
    // Each operation starts in fresh rate-limit windows (moving the injected clock, never sleeping).
    clock.offsetMs += 16 * 60 * 1000;
    const before = digest?.();
    const statuses: number[] = [];
    const record = (s: Sent) => statuses.push(s.status);
    const base = fill(op);

    // The bad values of one operation go several at a time (each is an independent request); the
    // authentication cases below go one by one, as a nonce's reuse must follow its first use.
    const batch: Array<() => Promise<Sent>> = [];
    // Path segments.
    for (const name of op.pathParams) {
      for (const value of pick(BAD_SEGMENTS, budget, random, report.operations)) batch.push(() => send(op, `path ${name}=${value}`, fill(op, { [name]: value })));
    }
    // Query parameters, one at a time, plus an unknown one and a repeated one.
    for (const name of [...op.queryParams, 'unknown_parameter']) {
      for (const value of pick(BAD_QUERY, budget, random, report.operations)) batch.push(() => send(op, `query ${name}=${value.slice(0, 20)}`, `${base}?${encodeURIComponent(name)}=${value}`));
    }
    if (op.queryParams[0]) batch.push(() => send(op, 'repeated query parameter', `${base}?${op.queryParams[0]}=1&${op.queryParams[0]}=2`));
    // The list names of other operations this one does not take.
    for (const [name, own] of Object.entries(op.lists ?? {})) {
      const foreign = [...(listNames.get(name) ?? [])].filter((v) => !own.includes(v));
      for (const value of pick(foreign, budget, random, report.operations)) batch.push(() => send(op, `list ${name}=${value} of another operation`, `${base}?${name}=${value}`));
    }

    if (op.method !== 'GET' && op.method !== 'DELETE') {
      const json = { 'content-type': 'application/json' };
      // Each body field with a value of the wrong type, size or encoding.
      for (const name of [...op.bodyFields, 'unknown_field']) {
        for (const value of pick(BAD_JSON_VALUES, budget, random, report.operations)) batch.push(() => send(op, `body ${name}=${JSON.stringify(value).slice(0, 20)}`, base, { headers: json, body: JSON.stringify({ [name]: value }) }));
      }
      // Whole bodies: wrong shapes, broken JSON, deep, huge, and bad content types.
      const bodies: Array<[string, Record<string, string>, string]> = [
        ['array body', json, '[]'],
        ['string body', json, '"text"'],
        ['null body', json, 'null'],
        ['broken JSON', json, '{"text":'],
        ['empty JSON body', json, ''],
        ['deep body', json, `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`],
        ['huge body', json, JSON.stringify({ text: 'h'.repeat(400 * 1024) })],
        ['lone surrogate bytes', json, '{"text":"\\ud800"}'],
        ['invalid UTF-8', json, Buffer.from([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]).toString('latin1')],
        ['text/plain', { 'content-type': 'text/plain' }, 'hello'],
        ['multipart without boundary', { 'content-type': 'multipart/form-data' }, 'x'],
        ['multipart with a bad body', { 'content-type': 'multipart/form-data; boundary=zzz' }, '--zzz\r\nbroken'],
        ['unknown content type', { 'content-type': 'application/x-plaza' }, '\u0000\u0001'],
      ];
      for (const [what, headers, body] of bodies) batch.push(() => send(op, what, base, { headers, body }));
      // A form body with bad values is signed like any client signs it.
      const form = { [op.bodyFields[0] ?? op.queryParams[0] ?? 'x']: '\u0000'.repeat(3) + 'é' };
      batch.push(() => send(op, 'form body', base, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString(), form }));
    }
    for (const sent of await inParallel(batch, 8)) record(sent);

    // Authentication: none of these may ever get through.
    const url = `${baseOf(op)}${base}`;
    const signed = sign(adaOAuth1, op.method, url);
    const refusedAuth: Array<[string, string | null]> = [
      ['no credential', null],
      ['wrong scheme', `Basic ${Buffer.from(`${app.consumer_key}:${app.consumer_secret}`).toString('base64')}`],
      ['unknown bearer token', `Bearer ${'A'.repeat(40)}`],
      ['tampered signature', signed.replace(/oauth_signature="([^"]+)"/, (_m, s: string) => `oauth_signature="${encodeURIComponent(flip(decodeURIComponent(s)))}"`)],
      ['stale timestamp', sign(adaOAuth1, op.method, url, undefined, Math.floor(clock.now().getTime() / 1000) - 3600)],
      ['signature for another URL', sign(adaOAuth1, op.method, `${url}x`)],
      ['another consumer secret', sign({ ...adaOAuth1, consumer_secret: 'not-the-secret' }, op.method, url)],
      // Credentials naming a world (src/worlds/tags.ts) that does not exist, or is no world id.
      ['a bearer token of an unknown world', `Bearer w0000000000~${'A'.repeat(40)}`],
      ['a bearer token naming no world id', `Bearer wZZ~${'A'.repeat(40)}`],
      ['a consumer key of an unknown world', sign({ ...adaOAuth1, consumer_key: `w0000000000~${adaOAuth1.consumer_key}` }, op.method, url)],
    ];
    for (const [what, auth] of op.public ? [] : refusedAuth) {
      const s = await send(op, `auth: ${what}`, base, { auth });
      record(s);
      if (s.status > 0 && s.status < 400) fail(`${op.method} ${op.path} auth: ${what}: let through with ${s.status}`);
      // v1.1 answers a request without usable credentials 400, code 215 "Bad Authentication data", as the public platform does.
      else if (s.status !== 401 && s.status !== 403 && !(s.status === 400 && op.path.startsWith('/1.1/'))) fail(`${op.method} ${op.path} auth: ${what}: answered ${s.status}, not 401 or 403`);
    }
    // A nonce is good once: the same signed request again is refused.
    if (!op.public && (op.iface !== 'platform' || op.schemes.includes('user'))) {
      const first = await send(op, 'nonce first use', base, { auth: signed });
      record(first);
      const again = await send(op, 'nonce reused', base, { auth: signed });
      record(again);
      if (again.status !== 401) fail(`${op.method} ${op.path} reused nonce answered ${again.status}, not 401`);
    }
    // Another user's resources (platform: a path naming another user; ads: another user's account).
    // (On DM blocking the path's {id} is the user blocked, not the caller's: nothing of theirs changes.)
    const targetsAnother = TARGET_USER_PATHS.has(op.path);
    const foreign = op.iface === 'platform' ? ['id', 'source_user_id'].find((n) => op.pathParams.includes(n) && op.path.startsWith('/2/users/') && !targetsAnother) : op.pathParams.includes('account_id') ? 'account_id' : undefined;
    if (foreign && op.method !== 'GET' && (op.iface !== 'platform' || op.schemes.includes('user'))) {
      const value = op.iface === 'platform' ? other.id : other.ads_account_ids[0];
      if (value) {
        const s = await send(op, `another user's ${foreign}`, fill(op, { [foreign]: value }), { headers: { 'content-type': 'application/json' }, body: '{}' });
        record(s);
        if (s.status < 400) fail(`${op.method} ${op.path}: ada changed another user's ${foreign} (${s.status})`);
      }
    }
    if (op.iface === 'ads' && op.pathParams.includes('account_id') && op.method === 'GET') {
      const value = other.ads_account_ids[0];
      if (value) {
        const s = await send(op, "another user's ads account", fill(op, { account_id: value }));
        record(s);
        if (s.status < 400) fail(`${op.method} ${op.path}: ada read another user's ads account (${s.status})`);
      }
    }

    if (digest && before !== undefined && statuses.every((s) => s >= 400 || s === 0)) {
      const after = digest();
      for (const [table, hash] of Object.entries(after)) {
        if (before[table] !== hash) fail(`${op.method} ${op.path}: every request was refused, yet table ${table} changed`);
      }
    }
  }
  digest?.close();
  return report;
}

/** Runs `tasks`, at most `width` at a time, and answers their results in order. */
async function inParallel<T>(tasks: Array<() => Promise<T>>, width: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, lane));
  return results;
}

/** A value for a path segment that exists where one is at hand (the caller, a post, an account). */
function baselineSegment(op: Op, name: string, known: { ada: string; other: string; post: string; account: string }): string {
  if (name === 'account_id') return known.account;
  if (/user|participant|requester/.test(name)) return name === 'target_user_id' || name === 'participant_id' || name === 'requester_id' ? known.other : known.ada;
  if (name === 'id' && op.path.startsWith('/2/users/{id}')) return known.ada;
  if (name === 'username') return 'ada';
  if (/post/.test(name) || (name === 'id' && op.path.startsWith('/2/posts/'))) return known.post;
  return '1234567890';
}

async function platformOps(base: string): Promise<Op[]> {
  const doc = (await (await fetch(`${base}/2/openapi.json`)).json()) as { paths: Record<string, Record<string, any>> };
  const ops: Op[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = (op.parameters ?? []) as Array<{ in: string; name: string; schema?: { type?: string; items?: { enum?: string[] } } }>;
      const content = (op.requestBody?.content ?? {}) as Record<string, { schema?: { properties?: Record<string, unknown> } }>;
      const bodyFields = [...new Set(Object.values(content).flatMap((c) => Object.keys(c.schema?.properties ?? {})))];
      const security = (op.security ?? []) as Array<Record<string, unknown>>;
      const schemes = security.flatMap((s) => ('UserToken' in s ? ['user' as const] : 'BearerToken' in s ? ['app' as const] : []));
      ops.push({
        iface: 'platform',
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        bodyFields,
        bodyTypes: Object.keys(content),
        schemes: schemes.length > 0 ? schemes : ['user'],
        public: Array.isArray(op.security) && op.security.length === 0,
        lists: Object.fromEntries(params.filter((p) => p.in === 'query' && p.schema?.type === 'array' && p.schema.items?.enum).map((p) => [p.name, p.schema!.items!.enum!])),
      });
    }
  }
  // The v1.1 endpoints SDKs still call are not in the v2 description; their parameters are declared here.
  const v1 = (method: string, path: string, queryParams: string[], bodyFields: string[], bodyTypes: string[]): Op => ({ iface: 'platform', method, path, pathParams: [], queryParams, bodyFields, bodyTypes, schemes: ['user'] });
  ops.push(
    v1('GET', '/1.1/account/verify_credentials.json', ['include_entities', 'skip_status', 'include_email'], [], []),
    v1('POST', '/1.1/media/metadata/create.json', [], ['media_id', 'alt_text'], ['application/json']),
    v1('POST', '/1.1/media/upload.json', ['command', 'media_id', 'segment_index', 'total_bytes', 'media_type', 'media_category'], ['command', 'media_id', 'segment_index', 'total_bytes', 'media_type', 'media_category', 'media_data', 'additional_owners'], ['application/x-www-form-urlencoded']),
  );
  return ops;
}

function adsOps(plaza: TestPlaza): Op[] {
  const ops: Op[] = [];
  for (const [iface, listener] of [['ads', plaza.ads], ['ads-sandbox', plaza.adsSandbox]] as const) {
    for (const route of adsRouteTable(listener)) {
      // Sandbox-only routes are walked on the sandbox; every other route on production.
      if (route.sandboxOnly !== (iface === 'ads-sandbox')) continue;
      // Each route in spec 001's names and, where they differ, in the public Ads API's (translated at the edge).
      for (const names of [(n: string) => n, adsTweetNames.nameToTweet]) {
        const url = names === adsTweetNames.nameToTweet ? adsTweetNames.pathToTweet(route.url).replace(/:([A-Za-z_]+)/g, (_m, p: string) => `:${names(p)}`) : route.url;
        const params = route.params.map(names);
        if (names !== adsTweetNames.nameToTweet || url !== route.url || params.some((p, i) => p !== route.params[i])) {
          ops.push({
            iface,
            method: route.method,
            path: url.replace(/:([A-Za-z_]+)/g, '{$1}'),
            pathParams: [...url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]),
            queryParams: params,
            bodyFields: params,
            bodyTypes: ['application/json', 'application/x-www-form-urlencoded'],
            schemes: ['user'],
          });
        }
      }
    }
  }
  return ops;
}

/**
 * Counts of the changes to every table of a SQLite store, but those written beside the answers
 * (WRITTEN_BESIDE_ANSWERS: the nonce log, which a verified signature writes refused or not, and
 * what is written a second after the reads that counted, or on a timer): triggers the fuzzer adds to the
 * store count each insert, delete and update that changes a value, so comparing two readings costs
 * one query where hashing every table cost a tenth of the run. Virtual tables and their shadow
 * tables (the search index) follow the tables they index.
 */
function sqliteChangeCounter(file: string): (() => Record<string, string>) & { close(): void } {
  const db = new Database(file, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  const all = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string; sql: string }>;
  const virtual = all.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql)).map((t) => t.name);
  const tables = all
    .map((t) => t.name)
    .filter((t) => !WRITTEN_BESIDE_ANSWERS.has(t) && !t.startsWith('kysely_') && !virtual.some((v) => t === v || t.startsWith(`${v}_`)));
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const text = (value: string) => `'${value.replaceAll("'", "''")}'`;
  db.exec('CREATE TABLE fuzz_changes (table_name TEXT PRIMARY KEY, n INTEGER NOT NULL)');
  for (const table of tables) {
    const columns = (db.prepare(`SELECT name FROM pragma_table_info(${text(table)})`).all() as Array<{ name: string }>).map((c) => quote(c.name));
    const count = `UPDATE fuzz_changes SET n = n + 1 WHERE table_name = ${text(table)};`;
    const changed = columns.map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ');
    db.exec(`INSERT INTO fuzz_changes VALUES (${text(table)}, 0);
      CREATE TRIGGER ${quote(`fuzz_insert_${table}`)} AFTER INSERT ON ${quote(table)} BEGIN ${count} END;
      CREATE TRIGGER ${quote(`fuzz_delete_${table}`)} AFTER DELETE ON ${quote(table)} BEGIN ${count} END;
      CREATE TRIGGER ${quote(`fuzz_update_${table}`)} AFTER UPDATE ON ${quote(table)} WHEN ${changed} BEGIN ${count} END;`);
  }
  const read = db.prepare('SELECT table_name, n FROM fuzz_changes');
  const fn = () => Object.fromEntries((read.all() as Array<{ table_name: string; n: number }>).map((r) => [r.table_name, String(r.n)]));
  return Object.assign(fn, { close: () => db.close() });
}

/**
 * In CI, a third of the fixed values per parameter, a different third for each operation (so the
 * run as a whole sends every value; it stays well under three minutes on a busy machine); in the
 * long run, all of them plus as many random ones.
 */
function pick<T>(values: readonly T[], budget: Budget, random: () => number, slice: number): T[] {
  if (budget === 'ci') return values.filter((_, i) => (i + slice) % 3 === 0);
  const asText = typeof values[0] === 'string';
  const extra = Array.from({ length: values.length }, () => {
    const v = randomValue(random);
    // In a URL, a random value goes percent-encoded (lone surrogates replaced), or as sent when it is one of the encoded kinds.
    return (asText ? (typeof v === 'string' ? (v.includes('%') ? v : encodeURIComponent(v.replace(/[\uD800-\uDFFF]/g, '\uFFFD'))) : encodeURIComponent(JSON.stringify(v))) : v) as T;
  });
  return [...values, ...extra];
}

function randomValue(random: () => number): unknown {
  const kind = Math.floor(random() * 6);
  const len = Math.floor(random() * 300);
  const chars = Array.from({ length: len }, () => String.fromCharCode(Math.floor(random() * (random() < 0.2 ? 0xffff : 0x80))));
  const text = chars.join('');
  switch (kind) {
    case 0:
      return text;
    case 1:
      return encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, 'x'));
    case 2:
      return Math.floor((random() - 0.5) * 2 ** (random() * 70));
    case 3:
      return [text, random()];
    case 4:
      return { [text.slice(0, 10)]: text };
    default:
      return '%'.repeat(len % 7) + text.slice(0, 20);
  }
}

function flip(signature: string): string {
  const c = signature[0] === 'A' ? 'B' : 'A';
  return c + signature.slice(1);
}

