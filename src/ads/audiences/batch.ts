import { sql } from 'kysely';
import type { PlatformContext } from '../../platform/context.js';
import type { DbOrTx } from '../../store/store.js';
import { AdsError, type AdsErrorItem } from '../http/errors.js';
import { parseIsoTime, wireTime } from '../http/time.js';
import { SHA256_HEX, UNHASHED_KEY, USER_KEY_ALIASES, USER_KEY_TYPES, matchUsers, type UserKeyType } from './matching.js';

/**
 * The batch of user operations that custom audience users and do-not-reach list users share
 * (spec 001 "Custom audience users (batch)", "Do-not-reach list users (batch)"; shared/reference/
 * ads.md §1 and §5): a JSON array (Content-Type application/json) of at most 2,500
 * {operation_type: Update|Delete, params: {users: [...], expires_at}}. Request-level problems are
 * `errors`; item problems are `operation_errors`, one array per input item in input order. The
 * batch succeeds or fails as a whole: nothing is written when any item fails.
 */
export const MAX_BATCH_OPERATIONS = 2500;
export const MAX_BATCH_BODY_BYTES = 5_000_000;
/** The default expiry of a user association: 13 months (spec 001 "Limits"). */
export const DEFAULT_EXPIRY_MONTHS = 13;
const OPERATION_TYPES = ['Update', 'Delete'] as const;

export interface BatchRules {
  /** Do-not-reach lists: expires_at is required and effective_at not accepted. */
  expiresAtRequired: boolean;
  acceptsEffectiveAt: boolean;
}

export interface UserKey {
  type: UserKeyType;
  hash: string;
}

export interface BatchOperation {
  operation_type: 'Update' | 'Delete';
  expiresAt: string;
  /** One entry per user record. */
  users: UserKey[][];
}

export interface ParsedBatch {
  operations: BatchOperation[];
  /** `{operation_type, params}` of each item, as the response echoes it. */
  echo: unknown[];
  records: number;
}

export function monthsLater(now: Date, months: number): Date {
  const d = new Date(now.getTime());
  d.setUTCMonth(d.getUTCMonth() + months);
  return d;
}

const item = (parameter: string, message: string, code = 'INVALID_PARAMETER'): AdsErrorItem => ({ code, message, parameter });

function parseUser(raw: unknown, at: string, errors: AdsErrorItem[]): UserKey[] {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    errors.push(item(at, 'Expected a user object of identifier arrays'));
    return [];
  }
  const keys: UserKey[] = [];
  for (const [name, values] of Object.entries(raw as Record<string, unknown>)) {
    const type = (USER_KEY_TYPES as readonly string[]).includes(name) ? (name as UserKeyType) : Object.hasOwn(USER_KEY_ALIASES, name) ? USER_KEY_ALIASES[name] : undefined;
    if (!type) {
      const shown = JSON.stringify(name.slice(0, 64));
      errors.push(item(`${at}.${shown}`, `Unknown user identifier ${shown}; expected one of ${USER_KEY_TYPES.join(', ')}`));
      continue;
    }
    if (!Array.isArray(values)) {
      errors.push(item(`${at}.${name}`, `Expected an array of values for ${name}`));
      continue;
    }
    values.forEach((value, i) => {
      if (typeof value !== 'string' || value.length === 0 || value.length > 256 || value.includes('\u0000')) {
        errors.push(item(`${at}.${name}[${i}]`, `Expected a non-empty string for ${name}`));
      } else if (type !== UNHASHED_KEY && !SHA256_HEX.test(value)) {
        errors.push(item(`${at}.${name}[${i}]`, `Every ${name} value must be normalised and hashed with SHA-256, as 64 lowercase hex digits`));
      } else {
        keys.push({ type, hash: value });
      }
    });
  }
  if (keys.length === 0 && errors.length === 0) errors.push(item(at, 'A user needs at least one identifier value'));
  return keys;
}

function parseTime(raw: unknown, at: string, errors: AdsErrorItem[]): Date | undefined {
  const date = typeof raw === 'string' ? parseIsoTime(raw) : undefined;
  if (!date) errors.push(item(at, `Expected time, got ${JSON.stringify(raw)} for ${at}`));
  return date;
}

/** Checks the whole batch; throws the request-level or item-level error, or returns what to apply. */
export function parseUserBatch(body: unknown, contentType: string, rules: BatchRules, now: Date): ParsedBatch {
  if (!contentType.toLowerCase().startsWith('application/json')) {
    throw AdsError.invalidParameter('body', 'This batch takes a JSON array of operations with Content-Type application/json');
  }
  if (!Array.isArray(body)) throw AdsError.invalidParameter('body', 'Expected a JSON array of {operation_type, params} objects');
  if (body.length === 0) throw AdsError.invalidParameter('body', 'Expected at least one operation');
  if (body.length > MAX_BATCH_OPERATIONS) {
    throw AdsError.invalidParameter('body', `A batch holds at most ${MAX_BATCH_OPERATIONS} operation objects, got ${body.length}`, 'TOO_MANY_OPERATIONS');
  }
  const operationErrors: AdsErrorItem[][] = [];
  const operations: BatchOperation[] = [];
  let records = 0;
  let failed = false;
  for (const raw of body) {
    const errors: AdsErrorItem[] = [];
    operationErrors.push(errors);
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
      errors.push(item('operation_type', 'Expected an object with operation_type and params'));
      failed = true;
      continue;
    }
    const o = raw as Record<string, unknown>;
    let type: BatchOperation['operation_type'] = 'Update';
    if (o.operation_type === undefined || o.operation_type === null) errors.push(item('operation_type', 'operation_type is missing', 'MISSING_PARAMETER'));
    else if (!(OPERATION_TYPES as readonly unknown[]).includes(o.operation_type)) {
      errors.push(item('operation_type', `Expected a value in ${OPERATION_TYPES.join(', ')}, got ${JSON.stringify(o.operation_type)} for operation_type`));
    } else type = o.operation_type as BatchOperation['operation_type'];
    const params = o.params;
    let users: UserKey[][] = [];
    let expiresAt = monthsLater(now, DEFAULT_EXPIRY_MONTHS);
    if (params === undefined || params === null) errors.push(item('params', 'params is missing', 'MISSING_PARAMETER'));
    else if (typeof params !== 'object' || Array.isArray(params)) errors.push(item('params', 'Expected params to be an object'));
    else {
      const p = params as Record<string, unknown>;
      if (p.users === undefined || p.users === null) errors.push(item('params.users', 'params.users is missing', 'MISSING_PARAMETER'));
      else if (!Array.isArray(p.users) || p.users.length === 0) errors.push(item('params.users', 'Expected a non-empty array of user objects'));
      else users = p.users.map((u, i) => parseUser(u, `params.users[${i}]`, errors));
      let effective = now;
      if (p.effective_at !== undefined) {
        if (!rules.acceptsEffectiveAt) errors.push(item('params.effective_at', 'effective_at is not accepted here'));
        else effective = parseTime(p.effective_at, 'params.effective_at', errors) ?? now;
      }
      if (p.expires_at === undefined || p.expires_at === null) {
        if (rules.expiresAtRequired) errors.push(item('params.expires_at', 'params.expires_at is missing', 'MISSING_PARAMETER'));
      } else {
        const expires = parseTime(p.expires_at, 'params.expires_at', errors);
        if (expires) {
          if (expires.getTime() <= now.getTime() || expires.getTime() <= effective.getTime()) {
            errors.push(item('params.expires_at', `expires_at must be later than now${p.effective_at !== undefined ? ' and effective_at' : ''}, got ${wireTime(expires.toISOString())}`));
          } else if (rules.expiresAtRequired && expires.getTime() > monthsLater(now, DEFAULT_EXPIRY_MONTHS).getTime()) {
            errors.push(item('params.expires_at', `expires_at must be within ${DEFAULT_EXPIRY_MONTHS} months`));
          } else expiresAt = expires;
        }
      }
    }
    if (errors.length > 0) {
      failed = true;
      continue;
    }
    records += users.length;
    operations.push({ operation_type: type, expiresAt: expiresAt.toISOString(), users });
  }
  const echo = body.map((o) => (o && typeof o === 'object' && !Array.isArray(o) ? { operation_type: (o as Record<string, unknown>).operation_type, params: (o as Record<string, unknown>).params } : o));
  if (failed) {
    throw new AdsError(400, operationErrors.flat(), true, {}, { operation_errors: operationErrors, request: echoOf(echo) });
  }
  return { operations, echo, records };
}

/** The echo of a batch: each item's operation_type and params, its user values left out past a few. */
function echoOf(items: unknown[]): unknown[] {
  return items.slice(0, MAX_BATCH_OPERATIONS).map((o) => {
    if (!o || typeof o !== 'object') return o;
    const { operation_type, params } = o as { operation_type?: unknown; params?: unknown };
    return { operation_type, params };
  });
}

/** The batch's echo as `request` (an array, shared/reference/ads.md §4). */
export const batchRequestEcho = echoOf;

/**
 * Applies a checked batch to one list: in request order, Update adds (or renews) each
 * identifier with its expiry and the user it matches, Delete removes it. Returns the records applied.
 */
export async function applyUserBatch(ctx: PlatformContext, db: DbOrTx, listId: string, batch: ParsedBatch): Promise<number> {
  const match = await matchUsers(ctx, db);
  // The last operation on an identifier decides it: later ones replace earlier ones, in request
  // order. Per key type, digest -> expiry, or null for a Delete. Keyed by the parsed strings
  // themselves: a joined `type:hash` key would build 55,000 new strings a batch to hash and sort.
  const final = new Map<string, Map<string, string | null>>();
  for (const op of batch.operations) {
    const expiresAt = op.operation_type === 'Update' ? op.expiresAt : null;
    for (const user of op.users) {
      for (const key of user) {
        let byHash = final.get(key.type);
        if (!byHash) final.set(key.type, (byHash = new Map()));
        byHash.set(key.hash, expiresAt);
      }
    }
  }
  for (const [type, byHash] of final) {
    const removals: string[] = [];
    const hashes: string[] = [];
    const users: string[] = [];
    const expiries: string[] = [];
    for (const [hash, expiresAt] of byHash) {
      if (expiresAt === null) {
        removals.push(hash);
        continue;
      }
      hashes.push(hash);
      users.push(match(type, hash) ?? '');
      expiries.push(expiresAt);
    }
    for (let i = 0; i < removals.length; i += 500) {
      const keys = removals.slice(i, i + 500).map((value) => identifierBytes(type, value));
      await db.deleteFrom('ads_audience_users').where('list_id', '=', listId).where('key_type', '=', type).where('key_hash', 'in', keys).execute();
    }
    if (hashes.length > 0) await upsertIdentifiers(ctx, db, listId, type, hashes, users, expiries);
  }
  return batch.records;
}

/**
 * How an identifier is stored (migration 0029): a digest as its 32 bytes, a partner_user_id
 * (not hashed) as its UTF-8 bytes. The statements below convert the same way in SQL.
 */
export function identifierBytes(type: string, value: string): Buffer {
  return type === UNHASHED_KEY ? Buffer.from(value, 'utf8') : Buffer.from(value, 'hex');
}

/**
 * One statement for every identifier of a type, whatever their number: the columns travel as a
 * few text parameters (no per-value parameters for the query builder to compile or the drivers'
 * limits to split), and each value becomes its bytes in SQL, as identifierBytes says. `users`
 * holds '' where the identifier matches nobody.
 */
async function upsertIdentifiers(ctx: PlatformContext, db: DbOrTx, listId: string, type: string, hashes: string[], users: string[], expiries: string[]): Promise<void> {
  const unhashed = type === UNHASHED_KEY;
  let rows;
  if (ctx.store.dialect === 'postgres') {
    // Comma-joined columns split by string_to_array cost far less to send than text[] parameters,
    // which the driver quotes and escapes value by value. Ids, times and digests hold no comma;
    // only a partner_user_id may, and then its column goes as an array.
    const column = (values: string[]) => (values.some((v) => v.includes(',')) ? sql`${values}::text[]` : sql`string_to_array(${values.join(',')}, ',')`);
    const bytes = unhashed ? sql`convert_to(t.key_hash, 'UTF8')` : sql`decode(t.key_hash, 'hex')`;
    rows = sql`select ${listId}, ${type}, ${bytes}, nullif(t.user_id, ''), t.expires_at
      from unnest(${column(hashes)}, string_to_array(${users.join(',')}, ','), string_to_array(${expiries.join(',')}, ',')) as t(key_hash, user_id, expires_at)`;
  } else {
    // In key order: the digests are random, and inserted in order each page of the primary key's
    // index is visited once, instead of once per row (which, past SQLite's page cache, reads and
    // spills the index over and over). SQLite's sorter orders them faster than JavaScript would.
    // Lowercase hex of one length orders as its bytes do, and text as its UTF-8 bytes.
    const bytes = unhashed ? sql`cast(value ->> 0 as blob)` : sql`unhex(value ->> 0)`;
    rows = sql`select ${listId}, ${type}, ${bytes}, nullif(value ->> 1, ''), value ->> 2
      from json_each(${JSON.stringify(hashes.map((h, i) => [h, users[i], expiries[i]]))}) where true order by value ->> 0`;
  }
  await sql`insert into ads_audience_users (list_id, key_type, key_hash, user_id, expires_at) ${rows}
    on conflict (list_id, key_type, key_hash) do update set expires_at = excluded.expires_at, user_id = excluded.user_id`.execute(db);
}

/** Distinct users matched by live (unexpired) identifiers, per list. */
export async function matchedUserCounts(db: DbOrTx, listIds: string[], now: Date): Promise<Map<string, number>> {
  if (listIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('ads_audience_users')
    .select(['list_id', (eb) => eb.fn.count<number>('user_id').distinct().as('n')])
    .where('list_id', 'in', listIds)
    .where('user_id', 'is not', null)
    .where('expires_at', '>', now.toISOString())
    .groupBy('list_id')
    .execute();
  return new Map(rows.map((r) => [r.list_id, Number(r.n)]));
}

/** The users a list matches now. */
export async function matchedUserIds(db: DbOrTx, listIds: string[], now: Date): Promise<Set<string>> {
  if (listIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('ads_audience_users')
    .select('user_id')
    .distinct()
    .where('list_id', 'in', listIds)
    .where('user_id', 'is not', null)
    .where('expires_at', '>', now.toISOString())
    .execute();
  return new Set(rows.map((r) => r.user_id!));
}
