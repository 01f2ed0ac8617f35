import {
  CONJUNCTION_OPERATORS,
  HAS_VALUES,
  IS_VALUES,
  STANDALONE_OPERATORS,
  tokenize,
  type HasValue,
  type IsValue,
  type LeafNode,
  type QueryNode,
} from './ast.js';

/** A query the grammar refuses: where (1-based character position) and why. */
export class QueryError extends Error {
  constructor(
    readonly position: number,
    readonly reason: string,
  ) {
    super(`${reason} at ${position}`);
    this.name = 'QueryError';
  }
}

/** The most words a proximity phrase may hold, and the largest distance (§6: `"a b"~N`, N at most 6). */
export const MAX_NEAR_WORDS = 3;
export const MAX_NEAR_DISTANCE = 6;

/** A radius of point_radius: at most 25 miles, as on the public platform. */
const MAX_RADIUS_KM = 40.2335;

type Token =
  | { type: 'lparen' | 'rparen' | 'or'; at: number }
  | { type: 'neg'; at: number }
  | { type: 'quoted'; at: number; text: string; near?: number; raw: string }
  | { type: 'word'; at: number; text: string };

const OPERATOR_NAMES = new Set<string>([...STANDALONE_OPERATORS, ...CONJUNCTION_OPERATORS, 'retweets_of']);

function lex(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = input.length;
  const isSpace = (c: string) => /\s/u.test(c);
  while (i < n) {
    const c = input[i];
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === '(' || c === ')') {
      tokens.push({ type: c === '(' ? 'lparen' : 'rparen', at: i + 1 });
      i++;
      continue;
    }
    if (c === '-') {
      const next = input[i + 1];
      if (next === undefined || isSpace(next) || next === ')') throw new QueryError(i + 1, 'negation "-" must come right before a keyword or operator');
      if (next === '(') throw new QueryError(i + 1, 'negated group: negate each keyword or operator inside it instead');
      if (next === '-') throw new QueryError(i + 1, 'double negation');
      tokens.push({ type: 'neg', at: i + 1 });
      i++;
      continue;
    }
    if (c === '"') {
      const close = input.indexOf('"', i + 1);
      if (close < 0) throw new QueryError(i + 1, 'unterminated quoted phrase');
      let end = close + 1;
      let near: number | undefined;
      const tilde = /^~(\d+)/.exec(input.slice(end));
      if (tilde) {
        near = Number(tilde[1]);
        if (near > MAX_NEAR_DISTANCE) throw new QueryError(end + 1, `proximity ~${tilde[1]} is more than ${MAX_NEAR_DISTANCE}`);
        end += tilde[0].length;
      } else if (input[end] === '~') throw new QueryError(end + 1, 'proximity "~" must be followed by a number');
      tokens.push({ type: 'quoted', at: i + 1, text: input.slice(i + 1, close), near, raw: input.slice(i, end) });
      i = end;
      continue;
    }
    // A word runs to whitespace or a parenthesis; an operator's value may be quoted or bracketed.
    let j = i;
    while (j < n && !isSpace(input[j]) && input[j] !== '(' && input[j] !== ')' && input[j] !== '"') {
      if (input[j] === ':' && input[j + 1] === '[') {
        const close = input.indexOf(']', j);
        if (close < 0) throw new QueryError(j + 2, 'unterminated "[" of an operator value');
        j = close + 1;
        break;
      }
      j++;
    }
    if (input[j] === '"' && input[j - 1] === ':') {
      const close = input.indexOf('"', j + 1);
      if (close < 0) throw new QueryError(j + 1, 'unterminated quoted phrase');
      tokens.push({ type: 'word', at: i + 1, text: input.slice(i, close + 1) });
      i = close + 1;
      continue;
    }
    const text = input.slice(i, j);
    tokens.push(text === 'OR' ? { type: 'or', at: i + 1 } : { type: 'word', at: i + 1, text });
    i = j;
  }
  return tokens;
}

const unquote = (v: string) => (v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v);
const USER = /^@?([A-Za-z0-9_]{1,15}|[0-9]{1,19})$/;
const NUMBER = /^-?\d+(\.\d+)?$/;

/** Where each leaf starts in the query text, for error messages. */
const positions = new WeakMap<QueryNode, number>();

function operatorLeaf(name: string, rawValue: string, raw: string, at: number): LeafNode {
  const value = unquote(rawValue);
  const fail = (why: string): never => {
    throw new QueryError(at, `${name}: ${why}`);
  };
  if (value.length === 0) fail('needs a value');
  switch (name) {
    case 'from':
    case 'to':
    case 'reposts_of':
    case 'retweets_of': {
      const m = USER.exec(value) ?? fail(`[${value}] is not a username or user id`);
      return { kind: name === 'retweets_of' ? 'reposts_of' : name, user: m[1].toLowerCase(), raw };
    }
    case 'url':
      return { kind: 'url', value: value.toLowerCase(), raw };
    case 'conversation_id':
      if (!/^[0-9]{1,19}$/.test(value)) fail(`[${value}] is not a post id`);
      return { kind: 'conversation_id', value, raw };
    case 'bio':
    case 'bio_name':
    case 'bio_location': {
      const tokens = tokenize(value);
      if (tokens.length === 0) fail(`[${value}] holds no words`);
      return { kind: name, tokens, raw };
    }
    case 'place':
      return { kind: 'place', value: value.toLowerCase(), raw };
    case 'place_country':
      if (!/^[A-Za-z]{2}$/.test(value)) fail(`[${value}] is not a two-letter ISO country code`);
      return { kind: 'place_country', value: value.toUpperCase(), raw };
    case 'point_radius': {
      const m = /^\[\s*(\S+)\s+(\S+)\s+(\d+(?:\.\d+)?)(km|mi)\s*\]$/.exec(value) ?? fail('expects [longitude latitude radius] with the radius in km or mi');
      const [lon, lat] = [Number(m[1]), Number(m[2])];
      if (!NUMBER.test(m[1]) || lon < -180 || lon > 180) fail(`longitude [${m[1]}] is not between -180 and 180`);
      if (!NUMBER.test(m[2]) || lat < -90 || lat > 90) fail(`latitude [${m[2]}] is not between -90 and 90`);
      const km = Number(m[3]) * (m[4] === 'mi' ? 1.609344 : 1);
      if (km <= 0 || km > MAX_RADIUS_KM) fail('the radius must be more than 0 and at most 25mi (40km)');
      return { kind: 'point_radius', lon, lat, km, raw };
    }
    case 'bounding_box': {
      const parts = /^\[(.*)\]$/.exec(value)?.[1].trim().split(/\s+/) ?? [];
      if (parts.length !== 4 || !parts.every((p) => NUMBER.test(p))) fail('expects [west_long south_lat east_long north_lat]');
      const [west, south, east, north] = parts.map(Number);
      if ([west, east].some((x) => x < -180 || x > 180) || [south, north].some((y) => y < -90 || y > 90)) fail('coordinates out of range');
      if (west >= east || south >= north) fail('west must be less than east and south less than north');
      return { kind: 'bounding_box', west, south, east, north, raw };
    }
    case 'context': {
      const m = /^([0-9]{1,19})\.([0-9]{1,19}|\*)$/.exec(value) ?? fail(`[${value}] is not domain_id.entity_id (or domain_id.*)`);
      return { kind: 'context', domain: m[1], entity: m[2] === '*' ? null : m[2], raw };
    }
    case 'entity':
      return { kind: 'entity', value: value.toLowerCase(), raw };
    case 'is': {
      const v = value.toLowerCase() === 'retweet' ? 'repost' : value.toLowerCase();
      if (!(IS_VALUES as readonly string[]).includes(v)) fail(`[${value}] is not one of retweet, repost, reply, quote, verified, nullcast`);
      return { kind: 'is', value: v as IsValue, raw };
    }
    case 'has': {
      const v = value.toLowerCase();
      if (!(HAS_VALUES as readonly string[]).includes(v)) fail(`[${value}] is not one of ${HAS_VALUES.join(', ')}`);
      return { kind: 'has', value: v as HasValue, raw };
    }
    case 'lang':
      if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})?$/.test(value)) fail(`[${value}] is not a language code`);
      return { kind: 'lang', value: value.toLowerCase(), raw };
    case 'sample': {
      if (!/^[0-9]{1,3}$/.test(value) || Number(value) < 1 || Number(value) > 100) fail(`[${value}] is not a whole percentage from 1 to 100`);
      return { kind: 'sample', percent: Number(value), raw };
    }
    case 'min_likes':
    case 'min_replies':
    case 'min_reposts':
      if (!/^[0-9]{1,9}$/.test(value)) fail(`[${value}] is not a whole number`);
      return { kind: name, count: Number(value), raw };
  }
  return fail('is not an operator');
}

/** The longest word PostgreSQL's text search indexes (2 KB); longer ones could never match there. */
const MAX_WORD_BYTES = 2046;
const UTF8 = new TextEncoder();

function textLeaf(text: string, raw: string, phrase: boolean, near: number | undefined, at: number): LeafNode {
  const tokens = tokenize(text);
  if (tokens.some((t) => UTF8.encode(t).length > MAX_WORD_BYTES)) throw new QueryError(at, `a word longer than ${MAX_WORD_BYTES} bytes cannot be searched`);
  if (tokens.length === 0) {
    if (text.trim().length === 0) throw new QueryError(at, 'empty quoted phrase');
    return { kind: 'symbol', value: text.trim(), raw };
  }
  if (near !== undefined) {
    if (tokens.length < 2) throw new QueryError(at, 'a proximity phrase needs at least two words');
    // A word twice in a proximity phrase means it once: FTS5's NEAR lets one occurrence serve both.
    const distinct = [...new Set(tokens)];
    if (distinct.length === 1) return { kind: 'text', tokens: distinct, phrase: false, raw };
    if (distinct.length < tokens.length) return { kind: 'text', tokens: distinct, phrase: true, near, raw };
    if (tokens.length > MAX_NEAR_WORDS) throw new QueryError(at, `a proximity phrase holds at most ${MAX_NEAR_WORDS} words`);
    return { kind: 'text', tokens, phrase: true, near, raw };
  }
  return { kind: 'text', tokens, phrase: phrase || tokens.length > 1, raw };
}

/**
 * A keyword (`phrase` false: one word of plain text) or a quoted phrase, built from plain text
 * rather than parsed, so no character of it is an operator: the keyword criteria of the
 * advertising interface's audience estimates are these. Throws QueryError on blank text.
 */
export function keywordNode(text: string, phrase: boolean): LeafNode {
  return textLeaf(text, phrase ? `"${text}"` : text, phrase, undefined, 1);
}

function wordLeaf(text: string, at: number): LeafNode {
  const sigil = text[0];
  if ((sigil === '#' || sigil === '@' || sigil === '$') && text.length > 1) {
    const value = text.slice(1);
    if (sigil === '#' && /^[\p{L}\p{N}_]+$/u.test(value)) return { kind: 'hashtag', value: value.toLowerCase(), raw: text };
    if (sigil === '@' && /^[A-Za-z0-9_]{1,15}$/.test(value)) return { kind: 'mention', value: value.toLowerCase(), raw: text };
    if (sigil === '$' && /^[A-Za-z][A-Za-z0-9._]{0,9}$/.test(value)) return { kind: 'cashtag', value: value.toLowerCase(), raw: text };
  }
  const colon = text.indexOf(':');
  if (colon > 0) {
    const name = text.slice(0, colon).toLowerCase();
    if (OPERATOR_NAMES.has(name)) return operatorLeaf(name, text.slice(colon + 1), text, at);
  }
  return textLeaf(text, text, false, undefined, at);
}

class Parser {
  private i = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly length: number,
  ) {}

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }

  parseQuery(): QueryNode {
    if (this.tokens.length === 0) throw new QueryError(1, 'empty query');
    const node = this.parseOr();
    const extra = this.peek();
    if (extra) throw new QueryError(extra.at, extra.type === 'rparen' ? 'unbalanced parenthesis' : 'unexpected token');
    return node;
  }

  private parseOr(): QueryNode {
    const first = this.peek();
    if (first?.type === 'or') throw new QueryError(first.at, 'OR needs a keyword or operator on each side');
    const children = [this.parseAnd()];
    while (this.peek()?.type === 'or') {
      const or = this.tokens[this.i++];
      const next = this.peek();
      if (!next || next.type === 'or' || next.type === 'rparen') throw new QueryError(or.at, 'OR needs a keyword or operator on each side');
      children.push(this.parseAnd());
    }
    return children.length === 1 ? children[0] : { kind: 'or', children };
  }

  private parseAnd(): QueryNode {
    const children: QueryNode[] = [];
    for (let t = this.peek(); t && t.type !== 'or' && t.type !== 'rparen'; t = this.peek()) children.push(this.parseUnary());
    if (children.length === 0) {
      const t = this.peek();
      throw new QueryError(t ? t.at : this.length + 1, t?.type === 'rparen' ? 'empty parentheses' : 'missing keyword or operator');
    }
    return children.length === 1 ? children[0] : { kind: 'and', children };
  }

  private parseUnary(): QueryNode {
    const t = this.tokens[this.i];
    if (t.type !== 'neg') return this.parsePrimary();
    this.i++;
    const child = this.parsePrimary();
    const node: QueryNode = { kind: 'not', child };
    positions.set(node, t.at);
    return node;
  }

  private parsePrimary(): QueryNode {
    const t = this.tokens[this.i++];
    if (t.type === 'lparen') {
      const inner = this.parseOr();
      const close = this.peek();
      if (close?.type !== 'rparen') throw new QueryError(t.at, 'unbalanced parenthesis');
      this.i++;
      return inner;
    }
    if (t.type === 'word' || t.type === 'quoted') {
      const leaf = t.type === 'word' ? wordLeaf(t.text, t.at) : textLeaf(t.text, t.raw, true, t.near, t.at);
      positions.set(leaf, t.at);
      return leaf;
    }
    throw new QueryError(t.at, t.type === 'rparen' ? 'unbalanced parenthesis' : 'unexpected token');
  }
}

const CONJUNCTION = new Set<string>(CONJUNCTION_OPERATORS);

/** Why `node` cannot match on its own (the leaf to blame), or undefined when it can. */
function aloneProblem(node: QueryNode): { at: number; reason: string } | undefined {
  switch (node.kind) {
    case 'and': {
      const problems = node.children.map(aloneProblem);
      return problems.some((p) => p === undefined) ? undefined : problems[0];
    }
    case 'or':
      return node.children.map(aloneProblem).find((p) => p !== undefined);
    case 'not': {
      const raw = node.child.kind === 'and' || node.child.kind === 'or' || node.child.kind === 'not' ? '' : node.child.raw;
      return { at: positions.get(node) ?? 1, reason: `negated operator -${raw} cannot be used alone` };
    }
    default:
      return CONJUNCTION.has(node.kind) ? { at: positions.get(node) ?? 1, reason: `operator ${node.raw} cannot be used alone` } : undefined;
  }
}

/** is:nullcast exists only negated (§6: "-is:nullcast (always negated)"). */
function checkNullcast(node: QueryNode, negated: boolean): void {
  if (node.kind === 'and' || node.kind === 'or') node.children.forEach((c) => checkNullcast(c, negated));
  else if (node.kind === 'not') checkNullcast(node.child, !negated);
  else if (node.kind === 'is' && node.value === 'nullcast' && !negated) {
    throw new QueryError(positions.get(node) ?? 1, 'operator is:nullcast can only be used negated, as -is:nullcast');
  }
}

/** Text -> AST, with the grammar of shared/reference/platform.md §6; throws QueryError. */
export function parseQuery(input: string): QueryNode {
  const ast = new Parser(lex(input), input.length).parseQuery();
  checkNullcast(ast, false);
  const problem = aloneProblem(ast);
  if (problem) throw new QueryError(problem.at, problem.reason);
  return ast;
}
