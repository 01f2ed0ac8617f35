import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { LeafNode, QueryNode } from './ast.js';
import { tokenize } from './ast.js';
import { KM_PER_DEGREE_LAT, lonScale } from './geo-sample.js';

/**
 * AST -> a SQL condition over the `posts` table, for SQLite (FTS5 table posts_fts, users_fts)
 * and PostgreSQL (tsvector columns posts.search_tsv and users.bio_tsv with GIN indexes), both made
 * by migration 0008-search. Every condition is true or false, never NULL, so NOT means what the
 * in-memory matcher's NOT means.
 */
export type SqlDialect = 'sqlite' | 'postgres';

type Cond = RawBuilder<SqlBool>;

const TRUE_ = sql<SqlBool>`(1 = 1)`;
const FALSE_ = sql<SqlBool>`(1 = 0)`;

/** A full-text expression in each dialect's syntax: an FTS5 MATCH string or a tsquery. */
interface TextDialect {
  word(token: string): string;
  phrase(tokens: readonly string[]): string;
  near(tokens: readonly string[], distance: number): string;
  and(parts: readonly string[]): string;
  or(parts: readonly string[]): string;
  /** `positive` minus each of `negative`. */
  andNot(positive: string, negative: readonly string[]): string;
}

/**
 * `parts` joined by `op` as a balanced tree of parentheses: long queries (4,096 characters hold
 * a thousand terms) stay within SQLite's expression depth (1,000) and FTS5's (256).
 */
function balanced(parts: readonly string[], op: string): string {
  if (parts.length === 1) return parts[0];
  const mid = Math.ceil(parts.length / 2);
  return `(${balanced(parts.slice(0, mid), op)} ${op} ${balanced(parts.slice(mid), op)})`;
}

function balancedSql(parts: readonly Cond[], op: 'and' | 'or'): Cond {
  if (parts.length === 1) return parts[0];
  const mid = Math.ceil(parts.length / 2);
  const left = balancedSql(parts.slice(0, mid), op);
  const right = balancedSql(parts.slice(mid), op);
  return op === 'and' ? sql<SqlBool>`(${left} and ${right})` : sql<SqlBool>`(${left} or ${right})`;
}

/** An FTS5 string: its words in a row (one word, or a phrase), double quotes doubled. */
const quoted = (t: string) => `"${t.replace(/"/g, '""')}"`;
const quotedPhrase = (ts: readonly string[]) => quoted(ts.join(' '));

/** FTS5: words are looked up in the `text` column only (posts_fts also indexes author_id). */
const fts5: TextDialect = {
  word: (t) => `text : ${quoted(t)}`,
  phrase: (ts) => `text : ${quotedPhrase(ts)}`,
  near: (ts, n) => `text : NEAR(${ts.map(quoted).join(' ')}, ${n})`,
  and: (ps) => balanced(ps, 'AND'),
  or: (ps) => balanced(ps, 'OR'),
  andNot: (p, ns) => `(${p} NOT ${balanced(ns, 'OR')})`,
};

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [items.slice()];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

/** Gap lists (each at least 1) of `count` gaps whose extra words (gap - 1) sum to at most `slack`. */
function gapLists(count: number, slack: number): number[][] {
  if (count === 0) return [[]];
  const out: number[][] = [];
  for (let extra = 0; extra <= slack; extra++) for (const rest of gapLists(count - 1, slack - extra)) out.push([extra + 1, ...rest]);
  return out;
}

const tsquery: TextDialect = {
  word: (t) => `'${t.replace(/'/g, "''")}'`,
  phrase: (ts) => `(${ts.map((t) => tsquery.word(t)).join(' <-> ')})`,
  // PostgreSQL has no unordered proximity: every order of the words, with every spacing that
  // leaves at most `distance` words between the first and the last (MAX_NEAR_WORDS keeps this small).
  near: (ts, n) =>
    `(${permutations(ts)
      .flatMap((order) => gapLists(order.length - 1, n).map((gaps) => order.map((t, i) => (i === 0 ? tsquery.word(t) : `<${gaps[i - 1]}> ${tsquery.word(t)}`)).join(' ')))
      .map((alt) => `(${alt})`)
      .join(' | ')})`,
  and: (ps) => balanced(ps, '&'),
  or: (ps) => balanced(ps, '|'),
  andNot: (p, ns) => `(${p} & !${balanced(ns, '|')})`,
};

export class SqlCompiler {
  private readonly text: TextDialect;
  constructor(readonly dialect: SqlDialect) {
    this.text = dialect === 'sqlite' ? fts5 : tsquery;
  }

  /** The condition `ast` puts on `posts`. */
  compile(ast: QueryNode): Cond {
    return this.node(ast);
  }

  /** A text-only subtree as one full-text expression, so the index answers it in one lookup. */
  private textOf(node: QueryNode): string | undefined {
    if (node.kind === 'from' && node.ids && node.ids.length > 0 && this.lite) {
      return node.ids.length === 1 ? `author_id : ${quoted(node.ids[0])}` : balanced(node.ids.map((id) => `author_id : ${quoted(id)}`), 'OR');
    }
    if (node.kind === 'text') {
      if (node.near !== undefined) return this.text.near(node.tokens, node.near);
      return node.phrase ? this.text.phrase(node.tokens) : this.text.word(node.tokens[0]);
    }
    if (node.kind === 'or') {
      const parts = node.children.map((c) => this.textOf(c));
      return parts.every((p) => p !== undefined) ? this.text.or(parts as string[]) : undefined;
    }
    if (node.kind === 'and') {
      const split = this.splitAnd(node.children);
      return split.rest.length === 0 && split.text ? split.text : undefined;
    }
    return undefined;
  }

  /** The children of an AND: one full-text expression for the text parts, the others as they are. */
  private splitAnd(children: readonly QueryNode[]): { text?: string; rest: QueryNode[] } {
    const positive: string[] = [];
    const negative: string[] = [];
    const rest: QueryNode[] = [];
    for (const child of children) {
      const t = this.textOf(child);
      if (t !== undefined) positive.push(t);
      else if (child.kind === 'not' && this.textOf(child.child) !== undefined) negative.push(this.textOf(child.child)!);
      else rest.push(child);
    }
    if (positive.length === 0) return { rest: [...children] };
    const joined = positive.length === 1 ? positive[0] : this.text.and(positive);
    return { text: negative.length ? this.text.andNot(joined, negative) : joined, rest };
  }

  private fullText(expression: string): Cond {
    return this.dialect === 'sqlite'
      ? sql<SqlBool>`posts.rowid in (select rowid from posts_fts where posts_fts match ${expression})`
      : sql<SqlBool>`posts.search_tsv @@ ${expression}::tsquery`;
  }

  private node(node: QueryNode): Cond {
    switch (node.kind) {
      case 'and': {
        const { text, rest } = this.splitAnd(node.children);
        const parts = [...(text ? [this.fullText(text)] : []), ...rest.map((c) => this.node(c))];
        return balancedSql(parts, 'and');
      }
      case 'or': {
        const text = this.textOf(node);
        if (text) return this.fullText(text);
        return balancedSql(node.children.map((c) => this.node(c)), 'or');
      }
      case 'not':
        return sql<SqlBool>`(not ${this.node(node.child)})`;
      case 'text':
        return this.fullText(this.textOf(node)!);
      default:
        return this.leaf(node);
    }
  }

  private get lite(): boolean {
    return this.dialect === 'sqlite';
  }

  /** The users a from:/to:/reposts_of: names: its resolved ids, else by username (case-insensitive) or id. */
  private users(node: { user: string; ids?: string[] }) {
    if (node.ids) return node.ids.length > 0 ? sql`(${sql.join(node.ids)})` : sql`(select users.id from users where 1 = 0)`;
    return sql`(select users.id from users where users.username_lower = ${node.user} or users.id = ${node.user})`;
  }

  /** Elements of a JSON array held in a text column (or under `key` of a JSON object), as rows `e` of one JSON value column `v`. */
  private jsonRows(column: string, key?: string) {
    const ref = sql.ref(column);
    if (this.lite) return key ? sql`json_each(${ref}, ${`$.${key}`}) as e` : sql`json_each(${ref}) as e`;
    return key
      ? sql`jsonb_array_elements(coalesce(${ref}::jsonb -> ${key}::text, '[]'::jsonb)) as e(v)`
      : sql`jsonb_array_elements(coalesce(${ref}::jsonb, '[]'::jsonb)) as e(v)`;
  }

  /** A text field of the current JSON row `e` (path like `tag` or `domain.id`). */
  private field(path: string) {
    if (this.lite) return sql`cast(json_extract(e.value, ${`$.${path}`}) as text)`;
    return sql`(e.v #>> ${`{${path.split('.').join(',')}}`}::text[])`;
  }

  private jsonArrayLength(column: string, key: string) {
    return this.lite
      ? sql`coalesce(json_array_length(${sql.ref(column)}, ${`$.${key}`}), 0)`
      : sql`jsonb_array_length(coalesce(${sql.ref(column)}::jsonb -> ${key}::text, '[]'::jsonb))`;
  }

  /** A number under `path` of the posts.geo JSON (NULL when absent). */
  private geoNumber(path: string[]) {
    return this.lite
      ? sql`json_extract(posts.geo, ${`$.${path.map((p) => (/^\d+$/.test(p) ? `[${p}]` : p)).join('.').replace(/\.\[/g, '[')}`})`
      : sql`(posts.geo::jsonb #>> ${`{${path.join(',')}}`}::text[])::float8`;
  }

  private geoText(key: string) {
    return this.lite ? sql`coalesce(json_extract(posts.geo, ${`$.${key}`}), '')` : sql`coalesce(posts.geo::jsonb ->> ${key}::text, '')`;
  }

  private entityIs(key: 'hashtags' | 'cashtags' | 'mentions', field: 'tag' | 'username', value: string): Cond {
    const exact = sql<SqlBool>`exists (select 1 from ${this.jsonRows('posts.entities', key)} where lower(${this.field(field)}) = ${value})`;
    // The entity is a piece of the text, so the text index narrows the rows first.
    const tokens = tokenize(value);
    if (tokens.length === 0) return exact;
    return sql<SqlBool>`(${this.fullText(tokens.length === 1 ? this.text.word(tokens[0]) : this.text.phrase(tokens))} and ${exact})`;
  }

  private bio(column: 'description' | 'name' | 'location', tokens: readonly string[]): Cond {
    if (this.lite) {
      const match = `${column} : ${quotedPhrase(tokens)}`;
      return sql<SqlBool>`posts.author_id in (select users.id from users where users.rowid in (select rowid from users_fts where users_fts match ${match}))`;
    }
    const weight = { description: 'A', name: 'B', location: 'C' }[column];
    const query = `(${tokens.map((t) => `${tsquery.word(t)}:${weight}`).join(' <-> ')})`;
    return sql<SqlBool>`posts.author_id in (select users.id from users where users.bio_tsv @@ ${query}::tsquery)`;
  }

  private mediaOfType(type: string): Cond {
    const keys = this.lite ? sql`(select value from json_each(posts.media_keys))` : sql`(select jsonb_array_elements_text(posts.media_keys::jsonb))`;
    return sql<SqlBool>`(posts.media_keys <> '[]' and exists (select 1 from media where media.media_key in ${keys} and media.type = ${type}))`;
  }

  private leaf(node: LeafNode): Cond {
    switch (node.kind) {
      case 'text':
        return this.fullText(this.textOf(node)!);
      case 'symbol':
        return this.lite ? sql<SqlBool>`(instr(posts.text, ${node.value}) > 0)` : sql<SqlBool>`(strpos(posts.text, ${node.value}) > 0)`;
      case 'hashtag':
        return this.entityIs('hashtags', 'tag', node.value);
      case 'cashtag':
        return this.entityIs('cashtags', 'tag', node.value);
      case 'mention':
        return this.entityIs('mentions', 'username', node.value);
      case 'from':
        return sql<SqlBool>`posts.author_id in ${this.users(node)}`;
      case 'to':
        return sql<SqlBool>`(posts.in_reply_to_user_id is not null and posts.in_reply_to_user_id in ${this.users(node)})`;
      case 'reposts_of':
        return sql<SqlBool>`(posts.reposted_post_id is not null and posts.reposted_post_id in (select src.id from posts as src where src.author_id in ${this.users(node)}))`;
      case 'url': {
        const url = this.lite ? sql`lower(coalesce(${this.field('expanded_url')}, ${this.field('url')}, ''))` : sql`lower(coalesce(${this.field('expanded_url')}, ${this.field('url')}, ''))`;
        const found = this.lite ? sql`instr(${url}, ${node.value}) > 0` : sql`strpos(${url}, ${node.value}) > 0`;
        return sql<SqlBool>`exists (select 1 from ${this.jsonRows('posts.entities', 'urls')} where ${found})`;
      }
      case 'conversation_id':
        return sql<SqlBool>`(posts.conversation_id = ${node.value})`;
      case 'bio':
        return this.bio('description', node.tokens);
      case 'bio_name':
        return this.bio('name', node.tokens);
      case 'bio_location':
        return this.bio('location', node.tokens);
      case 'place':
        return sql<SqlBool>`(posts.geo is not null and lower(${this.geoText('place_id')}) = ${node.value})`;
      case 'place_country':
        return sql<SqlBool>`(posts.geo is not null and upper(${this.geoText('country_code')}) = ${node.value})`;
      case 'point_radius': {
        const lon = this.geoNumber(['coordinates', 'coordinates', '0']);
        const lat = this.geoNumber(['coordinates', 'coordinates', '1']);
        // The same arithmetic as distanceKm, squared: (dx*dx + dy*dy) <= km*km.
        const sx = lonScale(node.lat);
        return sql<SqlBool>`coalesce(((${lon} - ${node.lon}) * ${sx}) * ((${lon} - ${node.lon}) * ${sx}) + ((${lat} - ${node.lat}) * ${KM_PER_DEGREE_LAT}) * ((${lat} - ${node.lat}) * ${KM_PER_DEGREE_LAT}) <= ${node.km * node.km}, ${FALSE_})`;
      }
      case 'bounding_box': {
        const lon = this.geoNumber(['coordinates', 'coordinates', '0']);
        const lat = this.geoNumber(['coordinates', 'coordinates', '1']);
        return sql<SqlBool>`coalesce(${lon} >= ${node.west} and ${lon} <= ${node.east} and ${lat} >= ${node.south} and ${lat} <= ${node.north}, ${FALSE_})`;
      }
      case 'context': {
        const entity = node.entity === null ? TRUE_ : sql<SqlBool>`${this.field('entity.id')} = ${node.entity}`;
        return sql<SqlBool>`exists (select 1 from ${this.jsonRows('posts.context_annotations')} where ${this.field('domain.id')} = ${node.domain} and ${entity})`;
      }
      case 'entity':
        return sql<SqlBool>`exists (select 1 from ${this.jsonRows('posts.context_annotations')} where lower(coalesce(${this.field('entity.name')}, '')) = ${node.value})`;
      case 'is':
        switch (node.value) {
          case 'repost':
            return sql<SqlBool>`(posts.reposted_post_id is not null)`;
          case 'reply':
            return sql<SqlBool>`(posts.in_reply_to_post_id is not null)`;
          case 'quote':
            return sql<SqlBool>`(posts.quoted_post_id is not null)`;
          case 'verified':
            return sql<SqlBool>`posts.author_id in (select users.id from users where users.verified = 1)`;
          case 'nullcast':
            return FALSE_;
        }
        return FALSE_;
      case 'has':
        switch (node.value) {
          case 'hashtags':
          case 'cashtags':
          case 'mentions':
            return sql<SqlBool>`(${this.jsonArrayLength('posts.entities', node.value)} > 0)`;
          case 'links':
            return sql<SqlBool>`(${this.jsonArrayLength('posts.entities', 'urls')} > 0)`;
          case 'media':
            return sql<SqlBool>`(posts.media_keys <> '[]')`;
          case 'images':
            return this.mediaOfType('photo');
          case 'video_link':
            return this.mediaOfType('video');
          case 'geo':
            return sql<SqlBool>`(posts.geo is not null)`;
        }
        return FALSE_;
      case 'lang':
        return sql<SqlBool>`(lower(posts.lang) = ${node.value})`;
      case 'sample':
        return this.lite ? sql<SqlBool>`(cast(substr(posts.id, -2) as integer) < ${node.percent})` : sql<SqlBool>`(cast(right(posts.id, 2) as integer) < ${node.percent})`;
      case 'min_likes':
        return sql<SqlBool>`(posts.like_count >= ${node.count})`;
      case 'min_replies':
        return sql<SqlBool>`(posts.reply_count >= ${node.count})`;
      case 'min_reposts':
        return sql<SqlBool>`(posts.retweet_count >= ${node.count})`;
    }
  }
}

/**
 * Users search (GET /2/users/search) on the names index of migration 0013: a condition on `users`
 * that holds when, for each of `words` (each the tokens of one word of the query), the username
 * or the name holds those tokens in a row, the last one as the start of a word (`dana rea` finds
 * "Dana Reader"). Quoted as every full-text expression of the language is; no words matches nobody.
 */
export function compileNameSearch(words: ReadonlyArray<readonly string[]>, dialect: SqlDialect): RawBuilder<SqlBool> {
  const parts = words.filter((w) => w.length > 0);
  if (parts.length === 0) return FALSE_;
  if (dialect === 'sqlite') {
    const phrases = parts.map((ts) => `{username name} : ${quotedPhrase(ts)} *`);
    return sql<SqlBool>`users.rowid in (select rowid from user_names_fts where user_names_fts match ${fts5.and(phrases)})`;
  }
  // The username's words weigh A and the name's B (migration 0013), so one phrase stays in one of them.
  const phrase = (ts: readonly string[], weight: 'A' | 'B') => `(${ts.map((t, i) => `${tsquery.word(t)}:${i === ts.length - 1 ? '*' : ''}${weight}`).join(' <-> ')})`;
  return sql<SqlBool>`users.names_tsv @@ ${tsquery.and(parts.map((ts) => `(${phrase(ts, 'A')} | ${phrase(ts, 'B')})`))}::tsquery`;
}

/** AST -> the condition on `posts` in `dialect`. */
export function compileSql(ast: QueryNode, dialect: SqlDialect): RawBuilder<SqlBool> {
  return new SqlCompiler(dialect).compile(ast);
}
