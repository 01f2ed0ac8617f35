import { NAMES, PATH_SEGMENTS, PHRASES, VALUES } from './names.js';

/**
 * The translations a table of name pairs gives: requests in the 'tweet' dialect to Plaza's names,
 * and answers back. Only member names, path segments and the values of a few known members
 * change: user content (text, rule values, echoed input) is never touched. The platform
 * interface's table is names.ts; the advertising interface's is src/ads/http/names.ts.
 */

type Pairs = ReadonlyArray<readonly [tweet: string, post: string]>;

export interface DialectTable {
  /** Path segments, translated in paths that start with `pathPrefix`. */
  segments: Pairs;
  pathPrefix: string;
  /** Names of query parameters, body members and answer members. */
  names: Pairs;
  /** Values that change with the dialect, by the member that holds them (a string or a list of them). */
  values: Readonly<Record<string, Pairs>>;
  /** Phrases of Plaza's messages that name the resource. */
  phrases: Pairs;
}

export interface Translation {
  /** A request URL in Plaza's names, or undefined when it uses no name of the dialect. */
  urlToPost(url: string): string | undefined;
  /** A Plaza path in the dialect's words. */
  pathToTweet(path: string): string;
  /** Whether a request body uses a name of the dialect at its top level or one level down. */
  bodyUsesTweetNames(body: unknown): boolean;
  /** A request body in Plaza's names: members renamed, the known values translated. */
  bodyToPost(value: unknown): unknown;
  /** An answer (or stream line, or problem) in the dialect's names. */
  bodyToTweet(value: unknown): unknown;
  /** A name of Plaza's (a parameter, a field) in the dialect's words. */
  nameToTweet(name: string): string;
  /** A name of the dialect in Plaza's words. */
  nameToPost(name: string): string;
  /** A message of Plaza's with the identifiers it quotes in the dialect's words. */
  messageToTweet(text: string): string;
  /** JSON text of an answer in the dialect's words; text that is not JSON is returned as it is. */
  jsonTextToTweet(text: string): string;
}

const toPost = (pairs: Pairs) => new Map(pairs.map(([tweet, post]) => [tweet, post]));
const toTweet = (pairs: Pairs) => new Map(pairs.map(([tweet, post]) => [post, tweet]));

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

/** The translations of one table. */
export function translation(table: DialectTable): Translation {
  const SEGMENT_TO_POST = toPost(table.segments);
  const SEGMENT_TO_TWEET = toTweet(table.segments);
  const NAME_TO_POST = toPost(table.names);
  const NAME_TO_TWEET = toTweet(table.names);
  const VALUE_TO_TWEET = new Map(Object.entries(table.values).map(([member, pairs]) => [member, toTweet(pairs)]));
  const VALUE_TO_POST = new Map(Object.entries(table.values).map(([member, pairs]) => [member, toPost(pairs)]));
  /** Names that are identifiers (with `_` or `.`): replaced where an error message quotes them. */
  const QUOTED_NAMES = [...NAME_TO_TWEET.keys()].filter((n) => /[_.]/.test(n)).sort((a, b) => b.length - a.length);
  const QUOTED_NAME = new RegExp(`(?<![A-Za-z0-9_.])(${QUOTED_NAMES.map((n) => n.replace(/\./g, '\\.')).join('|')})(?![A-Za-z0-9_])`, 'g');

  const messageToTweet = (text: string): string => {
    let out = text.replace(QUOTED_NAME, (name) => NAME_TO_TWEET.get(name) ?? name);
    for (const [tweet, post] of table.phrases) if (out.includes(post)) out = out.replace(post, tweet);
    return out;
  };
  const bodyToTweet = (value: unknown) => rename(value, NAME_TO_TWEET, VALUE_TO_TWEET, messageToTweet);

  return {
    urlToPost(url) {
      // The usual request, in the spec's words, costs this one search.
      if (!url.includes('tweet')) return undefined;
      const q = url.indexOf('?');
      const path = q < 0 ? url : url.slice(0, q);
      let changed = false;
      let newPath = path;
      if (path.startsWith(table.pathPrefix)) {
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
    },
    pathToTweet(path) {
      if (!path.startsWith(table.pathPrefix)) return path;
      return path
        .split('/')
        .map((segment) => SEGMENT_TO_TWEET.get(segment) ?? segment)
        .join('/');
    },
    bodyUsesTweetNames(body) {
      if (!isPlainObject(body)) return false;
      for (const key of Object.keys(body)) {
        if (NAME_TO_POST.has(key)) return true;
        const value = body[key];
        if (isPlainObject(value) && Object.keys(value).some((k) => NAME_TO_POST.has(k))) return true;
      }
      return false;
    },
    bodyToPost: (value) => rename(value, NAME_TO_POST, VALUE_TO_POST),
    bodyToTweet,
    nameToTweet: (name) => NAME_TO_TWEET.get(name) ?? name,
    nameToPost: (name) => NAME_TO_POST.get(name) ?? name,
    messageToTweet,
    jsonTextToTweet(text) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return text;
      }
      return JSON.stringify(bodyToTweet(parsed));
    },
  };
}

/** The platform interface's translations (names.ts). */
export const { urlToPost, pathToTweet, bodyUsesTweetNames, bodyToPost, bodyToTweet, nameToTweet, nameToPost, messageToTweet, jsonTextToTweet } = translation({
  segments: PATH_SEGMENTS,
  pathPrefix: '/2/',
  names: NAMES,
  values: VALUES,
  phrases: PHRASES,
});

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

/** A list held by a member with dialect values: its strings (in lists of lists too) translated, anything else renamed as usual. */
function renameValues(value: unknown, pairs: Map<string, string>, other: (value: unknown) => unknown): unknown {
  if (typeof value === 'string') return pairs.get(value) ?? value;
  if (Array.isArray(value)) return value.map((item) => renameValues(item, pairs, other));
  return other(value);
}

/**
 * `value` with its member names (and the known members' values) renamed. `message` is given for
 * answers: a problem's or error's messages and the parameters it names are translated too.
 */
function rename(value: unknown, names: Map<string, string>, values: Map<string, Map<string, string>>, message?: (text: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => rename(item, names, values, message));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    const name = names.get(key) ?? key;
    const pairs = values.get(key);
    let next: unknown;
    if (message && key === 'parameters' && isPlainObject(member)) {
      // An invalid-request item's parameters: their names, and the values of name lists
      // (expansions, *.fields) as the client wrote them.
      next = Object.fromEntries(
        Object.entries(member).map(([param, echoed]) => [
          names.get(param) ?? param,
          isNameList(param) && Array.isArray(echoed) ? echoed.map((v) => (typeof v === 'string' ? (names.get(v) ?? v) : v)) : echoed,
        ]),
      );
    } else if (typeof member === 'string') {
      next = pairs?.get(member) ?? member;
      if (message && key === 'parameter') next = names.get(member) ?? member;
      else if (message && isMessage(key, value)) next = message(member);
    } else if (pairs !== undefined && Array.isArray(member)) {
      next = renameValues(member, pairs, (item) => rename(item, names, values, message));
    } else {
      next = rename(member, names, values, message);
    }
    out[name] = next;
  }
  return out;
}
