import type { FastifyRequest } from 'fastify';
import { AdsError } from './errors.js';
import { parseIsoTime, wireTime } from './time.js';

/**
 * Parameters of the advertising interface. They arrive in the query string, a form body or a
 * JSON object body (shared/reference/ads.md §3; the SDKs send POST and PUT parameters in the
 * query string), lists comma-separated or as repeated keys, booleans as "true" and "false".
 * Each endpoint declares its parameters once with the builders below; `parseParams` reads them
 * from every source, names the parameter in every error, and records the echo of
 * `request.params` (ids lists as arrays, micros as numbers, times normalised).
 *
 * Parameters an endpoint does not declare are ignored: the SDKs' `save()` sends back every
 * attribute a GET returned.
 */

type Raw = unknown;

interface ParamOptions<T> {
  required: boolean;
  /** An empty value means "unset" (PUT): the parsed value is null. */
  nullable: boolean;
  fallback?: T;
  echo: (value: T, raw: Raw) => unknown;
}

/** What a parameter accepts, as a JSON Schema (for the OpenAPI description, src/ads/http/openapi.ts). */
export type ParamSchema = Record<string, unknown>;

const ANY_TEXT: ParamSchema = { type: 'string' };

/** One declared parameter: `T` parsed, `R` always present, `N` may be null (unset). */
export class Param<T, R extends boolean = false, N extends boolean = false> {
  constructor(
    readonly parseValue: (raw: Raw, name: string) => T,
    readonly opts: ParamOptions<T> = { required: false, nullable: false, echo: (v) => v },
    /** What it accepts, for the description; the parser is the rule. */
    readonly schema: ParamSchema = ANY_TEXT,
  ) {}

  required(): Param<T, true, N> {
    return new Param(this.parseValue, { ...this.opts, required: true }, this.schema);
  }

  nullable(): Param<T, R, true> {
    return new Param(this.parseValue, { ...this.opts, nullable: true }, this.schema);
  }

  /** The value when the parameter is absent (not echoed). */
  default(value: T): Param<T, true, N> {
    const shown = typeof value === 'object' && value !== null ? {} : { default: value };
    return new Param(this.parseValue, { ...this.opts, fallback: value }, { ...this.schema, ...shown });
  }

  echoAs(echo: (value: T, raw: Raw) => unknown): Param<T, R, N> {
    return new Param(this.parseValue, { ...this.opts, echo }, this.schema);
  }

  /** The same parameter, described as `schema`. */
  describedAs(schema: ParamSchema): Param<T, R, N> {
    return new Param(this.parseValue, this.opts, schema);
  }
}

/** A comma-separated list (or repeated keys) of items described by `items`. */
function listSchema(items: ParamSchema, max?: number): ParamSchema {
  return { type: 'array', items, minItems: 1, ...(max !== undefined ? { maxItems: max } : {}) };
}

type Out<P> = P extends Param<infer T, infer R, infer N> ? (R extends true ? T : T | undefined) | (N extends true ? null : never) : never;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ParamSpec = Record<string, Param<any, boolean, boolean>>;
export type Parsed<S extends ParamSpec> = { [K in keyof S]: Out<S[K]> };
type RequiredKeys<S extends ParamSpec> = { [K in keyof S]: undefined extends Out<S[K]> ? never : K }[keyof S];
/** What a service takes for parameters `S`: the required ones present, the others optional (a caller in code gives only what it sets). */
export type Input<S extends ParamSpec> = Pick<Parsed<S>, RequiredKeys<S>> & Partial<Parsed<S>>;

/** The parameters of a request from all its sources: query string, then the body's. */
export function rawParams(request: FastifyRequest): Map<string, Raw> {
  const out = new Map<string, Raw>();
  const add = (source: unknown) => {
    if (!source || typeof source !== 'object' || Array.isArray(source)) return;
    for (const [k, v] of Object.entries(source as Record<string, unknown>)) out.set(k, v);
  };
  add(request.query);
  add(request.body);
  return out;
}

/** Parses `spec` from the request, echoing each given parameter after the path variables. */
export function parseParams<S extends ParamSpec>(request: FastifyRequest, spec: S, echo: Record<string, unknown>): Parsed<S> {
  const raw = rawParams(request);
  const out: Record<string, unknown> = {};
  for (const [name, param] of Object.entries(spec)) {
    const given = raw.get(name);
    const value = parseOne(param, name, given);
    if (given !== undefined) echo[name] = value === null ? null : param.opts.echo(value, given);
    out[name] = value;
  }
  return out as Parsed<S>;
}

function isEmpty(raw: Raw): boolean {
  return raw === null || raw === '' || (Array.isArray(raw) && (raw.length === 0 || (raw.length === 1 && raw[0] === '')));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function parseOne(param: Param<any, boolean, boolean>, name: string, raw: Raw): unknown {
  if (raw === undefined) {
    if (param.opts.fallback !== undefined) return param.opts.fallback;
    if (param.opts.required) throw AdsError.missingParameter(name);
    return undefined;
  }
  if (isEmpty(raw)) {
    if (param.opts.nullable) return null;
    if (param.opts.required) throw AdsError.missingParameter(name);
  }
  return param.parseValue(raw, name);
}

function checkText(text: string, name: string): string {
  // PostgreSQL refuses NUL in text; no parameter of the interface has a use for it.
  if (text.includes('\u0000')) throw AdsError.invalidParameter(name, `${name} must not contain NUL characters`);
  return text;
}

/** One value: a repeated key or a JSON array is only accepted when it holds exactly one. */
export function scalar(raw: Raw, name: string): string {
  let value = raw;
  if (Array.isArray(value)) {
    if (value.length !== 1) throw AdsError.invalidParameter(name, `Expected one value for ${name}, got ${value.length}`);
    value = value[0];
  }
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return checkText(value, name);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  throw AdsError.invalidParameter(name, `Expected a single value for ${name}, got an object`);
}

/** A list: comma-separated, repeated keys, or a JSON array; blanks dropped. */
export function listItems(raw: Raw, name: string): string[] {
  const parts = Array.isArray(raw) ? raw : [raw];
  const items: string[] = [];
  for (const part of parts) {
    if (part === null || part === undefined) continue;
    if (typeof part === 'object') throw AdsError.invalidParameter(name, `Expected a list of values for ${name}, got an object`);
    for (const item of checkText(String(part), name).split(',')) {
      const trimmed = item.trim();
      if (trimmed.length > 0) items.push(trimmed);
    }
  }
  return items;
}

const quote = (text: string) => JSON.stringify(text);

/** Free text, optionally bounded in length (characters) and shape. */
export function text(opts: { min?: number; max?: number; pattern?: RegExp; patternText?: string; trim?: boolean } = {}): Param<string> {
  return new Param((raw, name) => {
    const value = opts.trim === false ? scalar(raw, name) : scalar(raw, name).trim();
    const length = [...value].length;
    const min = opts.min ?? 1;
    if (length < min) throw AdsError.invalidParameter(name, min === 1 ? `${name} must not be empty` : `${name} must be at least ${min} characters`);
    if (opts.max !== undefined && length > opts.max) throw AdsError.invalidParameter(name, `${name} must be at most ${opts.max} characters, got ${length}`);
    if (opts.pattern && !opts.pattern.test(value)) {
      throw AdsError.invalidParameter(name, `Expected ${opts.patternText ?? 'a valid value'}, got ${quote(value)} for ${name}`);
    }
    return value;
  }).describedAs({
    type: 'string',
    minLength: opts.min ?? 1,
    ...(opts.max !== undefined ? { maxLength: opts.max } : {}),
    ...(opts.pattern ? { pattern: opts.pattern.source } : {}),
  });
}

/** One of `values`; `aliases` maps other accepted spellings (the public platform's 'tweet' names) to them. */
export function oneOf<const V extends string>(values: readonly V[], aliases: Record<string, V> = {}): Param<V> {
  return new Param((raw, name) => {
    const value = scalar(raw, name).trim();
    if ((values as readonly string[]).includes(value)) return value as V;
    if (Object.hasOwn(aliases, value)) return aliases[value];
    throw AdsError.invalidParameter(name, `Expected a value in ${values.join(', ')}, got ${quote(value)} for ${name}`);
  }).describedAs({ type: 'string', enum: [...values] });
}

/** A list whose every item is one of `values` (or an alias); duplicates folded. */
export function oneOfList<const V extends string>(values: readonly V[], aliases: Record<string, V> = {}, opts: { max?: number } = {}): Param<V[]> {
  return new Param((raw, name) => {
    const items = listItems(raw, name);
    if (items.length === 0) throw AdsError.invalidParameter(name, `Expected at least one value for ${name}`);
    const out: V[] = [];
    for (const item of items) {
      const value = (values as readonly string[]).includes(item) ? (item as V) : Object.hasOwn(aliases, item) ? aliases[item] : undefined;
      if (value === undefined) throw AdsError.invalidParameter(name, `Expected a value in ${values.join(', ')}, got ${quote(item)} for ${name}`);
      if (!out.includes(value)) out.push(value);
    }
    if (opts.max !== undefined && out.length > opts.max) throw AdsError.invalidParameter(name, `Expected at most ${opts.max} values for ${name}, got ${out.length}`);
    return out;
  }).describedAs(listSchema({ type: 'string', enum: [...values] }, opts.max));
}

/** A whole number (`Int`) within bounds, or one of `allowed`. */
export function int(opts: { min?: number; max?: number; allowed?: readonly number[] } = {}): Param<number> {
  return new Param((raw, name) => {
    const value = scalar(raw, name).trim();
    if (!/^-?[0-9]{1,9}$/.test(value)) throw AdsError.invalidParameter(name, `Expected Int, got ${quote(value)} for ${name}`);
    const n = Number(value);
    if (opts.allowed && !opts.allowed.includes(n)) {
      throw AdsError.invalidParameter(name, `Expected a value in ${opts.allowed.join(', ')}, got ${quote(value)} for ${name}`);
    }
    if ((opts.min !== undefined && n < opts.min) || (opts.max !== undefined && n > opts.max)) {
      const range = opts.max === undefined ? `at least ${opts.min}` : `between ${opts.min ?? 0} and ${opts.max}`;
      throw AdsError.invalidParameter(name, `Expected a value ${range}, got ${quote(value)} for ${name}`);
    }
    return n;
  }).describedAs({
    type: 'integer',
    ...(opts.allowed ? { enum: [...opts.allowed] } : {}),
    ...(opts.min !== undefined ? { minimum: opts.min } : {}),
    ...(opts.max !== undefined ? { maximum: opts.max } : {}),
  });
}

/** Money: a whole number of micros (`Long`), never negative. 5.50 USD is 5500000. */
export function micros(): Param<number> {
  return new Param((raw, name) => {
    const value = scalar(raw, name).trim();
    if (!/^-?[0-9]{1,16}$/.test(value) || !Number.isSafeInteger(Number(value))) {
      throw AdsError.invalidParameter(name, `Expected Long, got ${quote(value)} for ${name}`);
    }
    const n = Number(value);
    if (n < 0) throw AdsError.invalidParameter(name, `${name} must not be negative, got ${value}`);
    return n;
  }).describedAs({ type: 'integer', format: 'int64', minimum: 0, description: 'micros: 5.50 in the currency is 5500000' });
}

/** A boolean: "true" or "false" (or a JSON boolean). */
export function bool(): Param<boolean> {
  return new Param((raw, name) => {
    const value = scalar(raw, name).trim();
    if (value === 'true') return true;
    if (value === 'false') return false;
    throw AdsError.invalidParameter(name, `Expected Boolean, got ${quote(value)} for ${name}`);
  }).describedAs({ type: 'boolean' });
}

/** An ISO 8601 time; stored with milliseconds, echoed as `YYYY-MM-DDTHH:MM:SSZ`. */
export function time(): Param<string> {
  return new Param(
    (raw, name) => {
      const value = scalar(raw, name).trim();
      const date = parseIsoTime(value);
      if (!date) throw AdsError.invalidParameter(name, `Expected time, got ${quote(value)} for ${name}`);
      return date.toISOString();
    },
    { required: false, nullable: false, echo: (v: string) => wireTime(v) },
    { type: 'string', format: 'date-time' },
  );
}

/** Ads entity ids: short lowercase base-36 strings (the reference data's too). */
export const ADS_ID = /^[0-9a-z]{1,40}$/;
/** Platform user and post ids: decimal, at most 19 digits. */
export const PLATFORM_ID = /^[0-9]{1,19}$/;

/** An ads entity id. */
export function adsId(): Param<string> {
  return text({ pattern: ADS_ID, patternText: 'an id' });
}

/** A platform id (user or post), sent as a long. */
export function platformId(): Param<string> {
  return text({ pattern: PLATFORM_ID, patternText: 'Long' });
}

/** A list of ids, 1 to `max` (200 for every ids filter, spec 001 "Limits"). */
export function idList(opts: { max?: number; pattern?: RegExp; patternText?: string } = {}): Param<string[]> {
  const max = opts.max ?? 200;
  const pattern = opts.pattern ?? ADS_ID;
  return new Param((raw, name) => {
    const items = listItems(raw, name);
    if (items.length === 0) throw AdsError.invalidParameter(name, `Expected at least one id for ${name}`);
    const unique = [...new Set(items)];
    if (unique.length > max) throw AdsError.invalidParameter(name, `Expected at most ${max} ids for ${name}, got ${unique.length}`);
    const bad = unique.find((i) => !pattern.test(i));
    if (bad !== undefined) throw AdsError.invalidParameter(name, `Expected ${opts.patternText ?? 'an id'}, got ${quote(bad)} for ${name}`);
    return unique;
  }).describedAs(listSchema({ type: 'string', pattern: pattern.source }, max));
}

/** Two-letter ISO 3166 country codes, up to 200, upper-cased. */
export function countryCodes(): Param<string[]> {
  return new Param((raw, name) => {
    const items = listItems(raw, name).map((c) => c.toUpperCase());
    if (items.length === 0) throw AdsError.invalidParameter(name, `Expected at least one country code for ${name}`);
    const unique = [...new Set(items)];
    if (unique.length > 200) throw AdsError.invalidParameter(name, `Expected at most 200 country codes for ${name}, got ${unique.length}`);
    const bad = unique.find((c) => !/^[A-Z]{2}$/.test(c));
    if (bad !== undefined) throw AdsError.invalidParameter(name, `Expected a two-letter ISO country code, got ${quote(bad)} for ${name}`);
    return unique;
  }).describedAs(listSchema({ type: 'string', pattern: '^[A-Za-z]{2}$' }, 200));
}
