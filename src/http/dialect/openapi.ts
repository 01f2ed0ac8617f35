import { nameToTweet, pathToTweet } from './translate.js';
import { VALUES } from './names.js';

const VALUE_TO_TWEET = new Map(Object.values(VALUES).flatMap((pairs) => pairs.map(([tweet, post]) => [post, tweet] as const)));

/**
 * Plaza's OpenAPI document in the 'tweet' dialect, by the same table as the requests: paths,
 * parameter names, property names, required lists and enumerated values. Descriptions, operation
 * ids and component names stay as they are.
 */
export function openApiToTweet(doc: Record<string, any>): Record<string, any> {
  const out = walk(doc, '') as Record<string, any>;
  out.paths = Object.fromEntries(Object.entries(out.paths ?? {}).map(([path, item]) => [pathToTweet(path), item]));
  out.info = { ...out.info, title: `${out.info?.title ?? 'Plaza'} (tweet dialect)` };
  return out;
}

function walk(value: unknown, key: string): unknown {
  if (Array.isArray(value)) {
    if (key === 'enum') return value.map((v) => (typeof v === 'string' ? (VALUE_TO_TWEET.get(v) ?? nameToTweet(v)) : v));
    if (key === 'required') return value.map((v) => (typeof v === 'string' ? nameToTweet(v) : v));
    return value.map((v) => walk(v, ''));
  }
  if (typeof value !== 'object' || value === null) return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const isParameter = typeof source.in === 'string' && typeof source.name === 'string';
  for (const [k, v] of Object.entries(source)) {
    if (key === 'properties') {
      out[nameToTweet(k)] = walk(v, '');
    } else if (isParameter && k === 'name' && source.in !== 'path') {
      out[k] = nameToTweet(v as string);
    } else {
      out[k] = walk(v, k);
    }
  }
  return out;
}
