import { NAMES, PATH_SEGMENTS, PHRASES, VALUES } from './names.js';

/**
 * The translations the table of name pairs (names.ts) gives: requests in the 'tweet' dialect to
 * Plaza's names, and answers back. Only member names and the values of a few known members
 * change: user content (text, rule values, echoed input) is never touched.
 */

type Pairs = ReadonlyArray<readonly [string, string]>;
const toPost = (pairs: Pairs) => new Map(pairs.map(([tweet, post]) => [tweet, post]));
const toTweet = (pairs: Pairs) => new Map(pairs.map(([tweet, post]) => [post, tweet]));

const SEGMENT_TO_POST = toPost(PATH_SEGMENTS);
const SEGMENT_TO_TWEET = toTweet(PATH_SEGMENTS);
const NAME_TO_POST = toPost(NAMES);
const NAME_TO_TWEET = toTweet(NAMES);
const VALUE_TO_TWEET = new Map(Object.entries(VALUES).map(([member, pairs]) => [member, toTweet(pairs)]));
const VALUE_TO_POST = new Map(Object.entries(VALUES).map(([member, pairs]) => [member, toPost(pairs)]));

/** Names that are identifiers (with `_` or `.`): replaced where an error message quotes them. */
const QUOTED_NAMES = [...NAME_TO_TWEET.keys()].filter((n) => /[_.]/.test(n)).sort((a, b) => b.length - a.length);
const QUOTED_NAME = new RegExp(`(?<![A-Za-z0-9_.])(${QUOTED_NAMES.map((n) => n.replace(/\./g, '\\.')).join('|')})(?![A-Za-z0-9_])`, 'g');
/** Members whose text is a message written by Plaza that may quote parameter names (a problem's title only beside its detail: a space's title is its host's). */
const isMessage = (key: string, holder: Record<string, unknown>) => key === 'message' || key === 'detail' || (key === 'title' && typeof holder.detail === 'string');

/** Whether a query parameter's value is a comma-separated list of names. */
const isNameList = (param: string) => param === 'expansions' || param.endsWith('.fields');

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * A request URL in the 'tweet' dialect in Plaza's names, or undefined when the URL uses no name
 * of the dialect (then it is left as it is and answered in Plaza's names).
 */
export function urlToPost(url: string): string | undefined {
  // The usual request, in the spec's words, costs this one search.
  if (!url.includes('tweet')) return undefined;
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  let changed = false;
  let newPath = path;
  if (path.startsWith('/2/')) {
    newPath = path
      .split('/')
      .map((segment) => {
        const post = SEGMENT_TO_POST.get(segment);
        if (post === undefined) return segment;
        changed = true;
        return post;
      })
      .join('/');
  }
  if (q < 0) return changed ? newPath : undefined;
  const pairs = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      const name = decode(rawName);
      const postName = NAME_TO_POST.get(name);
      let out = postName === undefined ? rawName : encodeURIComponent(postName);
      if (postName !== undefined) changed = true;
      if (eq < 0) return out;
      let value = pair.slice(eq + 1);
      if (isNameList(postName ?? name) && value.includes('tweet')) {
        const items = decode(value).split(',').map((item) => NAME_TO_POST.get(item) ?? item);
        value = items.map(encodeURIComponent).join(',');
        changed = true;
      }
      out += `=${value}`;
      return out;
    });
  return changed ? `${newPath}?${pairs.join('&')}` : undefined;
}

/** A Plaza path in the dialect's words (for the tweet-dialect OpenAPI document). */
export function pathToTweet(path: string): string {
  if (!path.startsWith('/2/')) return path;
  return path
    .split('/')
    .map((segment) => SEGMENT_TO_TWEET.get(segment) ?? segment)
    .join('/');
}

/** Whether a request body uses a name of the dialect (a member named in the table) at its top level or one level down. */
export function bodyUsesTweetNames(body: unknown): boolean {
  if (!isPlainObject(body)) return false;
  for (const key of Object.keys(body)) {
    if (NAME_TO_POST.has(key)) return true;
    const value = body[key];
    if (isPlainObject(value) && Object.keys(value).some((k) => NAME_TO_POST.has(k))) return true;
  }
  return false;
}

/** A request body in Plaza's names: members renamed, the known values translated. */
export function bodyToPost(value: unknown): unknown {
  return rename(value, NAME_TO_POST, VALUE_TO_POST, false);
}

/** An answer (or stream line, or problem) in the dialect's names. */
export function bodyToTweet(value: unknown): unknown {
  return rename(value, NAME_TO_TWEET, VALUE_TO_TWEET, true);
}

/** A name of Plaza's (a parameter, a field) in the dialect's words. */
export function nameToTweet(name: string): string {
  return NAME_TO_TWEET.get(name) ?? name;
}

/** A name of the dialect in Plaza's words. */
export function nameToPost(name: string): string {
  return NAME_TO_POST.get(name) ?? name;
}

/** A message of Plaza's with the identifiers it quotes in the dialect's words. */
export function messageToTweet(text: string): string {
  let out = text.replace(QUOTED_NAME, (name) => NAME_TO_TWEET.get(name) ?? name);
  for (const [tweet, post] of PHRASES) if (out.includes(post)) out = out.replace(post, tweet);
  return out;
}

/** JSON text of an answer in the dialect's words; text that is not JSON is returned as it is. */
export function jsonTextToTweet(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  return JSON.stringify(bodyToTweet(parsed));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

function rename(value: unknown, names: Map<string, string>, values: Map<string, Map<string, string>>, answer: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => rename(item, names, values, answer));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    const name = names.get(key) ?? key;
    let next: unknown;
    if (answer && key === 'parameters' && isPlainObject(member)) {
      // An invalid-request item's parameters: their names, and the values of name lists
      // (expansions, *.fields) as the client wrote them.
      next = Object.fromEntries(
        Object.entries(member).map(([param, echoed]) => [
          names.get(param) ?? param,
          isNameList(param) && Array.isArray(echoed) ? echoed.map((v) => (typeof v === 'string' ? (names.get(v) ?? v) : v)) : echoed,
        ]),
      );
    } else if (typeof member === 'string') {
      next = values.get(key)?.get(member) ?? member;
      if (answer && key === 'parameter') next = names.get(member) ?? member;
      else if (answer && isMessage(key, value)) next = messageToTweet(member);
    } else {
      next = rename(member, names, values, answer);
    }
    out[name] = next;
  }
  return out;
}
