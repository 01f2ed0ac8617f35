import type { QueryNode } from '../../query/ast.js';
import { keywordNode } from '../../query/parse.js';
import { compileSql, type SqlDialect } from '../../query/sql.js';
import { placesNamedIn } from '../../platform/places/gazetteer.js';
import type { DbOrTx } from '../../store/store.js';
import { audienceUsers } from '../audiences/service.js';
import { doNotReachUsers } from '../do-not-reach/service.js';
import { PRIMARY_TARGETING_TYPES } from './vocabulary.js';

/**
 * Whom targeting criteria reach, one rule for the audience estimate and for delivery
 * (src/ads/delivery/), computed from Plaza's own users: followers from the follow graph, keywords
 * from what users posted, LANGUAGE from the language of their posts, LOCATION from the places a
 * profile's location names (the built-in gazetteer), custom audiences from their matched users.
 * Criteria Plaza keeps no data for (interests, events, TV, ages, genders, devices...) reach nobody
 * when primary and do not narrow otherwise. Primary criteria add up; the others narrow, criteria
 * of one type together (two LOCATION criteria reach either place); NE criteria and the account's
 * do-not-reach list exclude.
 */
export interface Criterion {
  targeting_type: string;
  targeting_value: string;
  operator_type: string;
}

/**
 * A keyword criterion as a query of the search language, over the same text index: BROAD_KEYWORD
 * any of its words, UNORDERED_KEYWORD all of them in any order, PHRASE_KEYWORD and EXACT_KEYWORD
 * its words in a row. Words match whole words of a post, case and accents aside.
 */
export function keywordQuery(type: 'BROAD_KEYWORD' | 'UNORDERED_KEYWORD' | 'PHRASE_KEYWORD' | 'EXACT_KEYWORD', value: string): QueryNode | undefined {
  if (type === 'PHRASE_KEYWORD' || type === 'EXACT_KEYWORD') return value.trim() ? keywordNode(value, true) : undefined;
  const words = value.split(/\s+/).filter(Boolean).map((w) => keywordNode(w, false));
  if (words.length <= 1) return words[0];
  return { kind: type === 'BROAD_KEYWORD' ? 'or' : 'and', children: words };
}

const isPrimary = (c: Criterion) => PRIMARY_TARGETING_TYPES.includes(c.targeting_type);

/** Where the question is about one user (a delivery's viewer), only that user is looked at. */
interface Scope {
  db: DbOrTx;
  dialect: SqlDialect;
  accountId: string;
  now: Date;
  within?: string;
}

async function postAuthors(s: Scope, query: QueryNode | undefined): Promise<string[]> {
  if (!query) return [];
  let q = s.db.selectFrom('posts').select('author_id').distinct().where('deleted_at', 'is', null).where(compileSql(query, s.dialect));
  if (s.within !== undefined) q = q.where('author_id', '=', s.within);
  return (await q.execute()).map((r) => r.author_id);
}

/** A LOCATION value is a country code (US) or a place of the gazetteer, by id or name. */
function locationMatches(value: string, location: string): boolean {
  const wanted = value.toLowerCase();
  return placesNamedIn(location).some((p) => p.country_code.toLowerCase() === wanted || p.id === value || p.name.toLowerCase() === wanted);
}

/** The users a criterion reaches, or undefined when Plaza has no data for its type. */
async function reached(s: Scope, c: Criterion): Promise<string[] | undefined> {
  const { db } = s;
  const inScope = (ids: string[]) => (s.within === undefined ? ids : ids.filter((id) => id === s.within));
  switch (c.targeting_type) {
    case 'FOLLOWERS_OF_USER': {
      let q = db.selectFrom('follows').select('source_user_id').where('target_user_id', '=', c.targeting_value);
      if (s.within !== undefined) q = q.where('source_user_id', '=', s.within);
      return (await q.execute()).map((r) => r.source_user_id);
    }
    case 'SIMILAR_TO_FOLLOWERS_OF_USER': {
      // Followers, and whoever follows what those followers follow.
      const followers = db.selectFrom('follows').select('source_user_id').where('target_user_id', '=', c.targeting_value);
      const alike = await db
        .selectFrom('follows as f1')
        .innerJoin('follows as f2', 'f2.target_user_id', 'f1.target_user_id')
        .select('f2.source_user_id')
        .distinct()
        .where('f1.source_user_id', 'in', followers)
        .execute();
      const direct = await followers.execute();
      return inScope([...new Set([...direct.map((r) => r.source_user_id), ...alike.map((r) => r.source_user_id)])].filter((id) => id !== c.targeting_value));
    }
    case 'BROAD_KEYWORD':
    case 'UNORDERED_KEYWORD':
    case 'PHRASE_KEYWORD':
    case 'EXACT_KEYWORD':
      return postAuthors(s, keywordQuery(c.targeting_type, c.targeting_value));
    case 'LANGUAGE': {
      let q = db.selectFrom('posts').select('author_id').distinct().where('deleted_at', 'is', null).where('lang', '=', c.targeting_value.toLowerCase());
      if (s.within !== undefined) q = q.where('author_id', '=', s.within);
      return (await q.execute()).map((r) => r.author_id);
    }
    case 'LOCATION': {
      let q = db.selectFrom('users').select(['id', 'location']).where('location', 'is not', null);
      if (s.within !== undefined) q = q.where('id', '=', s.within);
      return (await q.execute()).filter((u) => locationMatches(c.targeting_value, u.location!)).map((u) => u.id);
    }
    case 'CUSTOM_AUDIENCE':
    case 'CUSTOM_AUDIENCE_EXPANDED':
      return inScope(await audienceUsers(db, s.accountId, c.targeting_value, s.now));
    default:
      return undefined;
  }
}

/**
 * The users the criteria reach (with `within`, that user or no one). With no primary criterion
 * (EQ) a line item reaches everyone its other criteria leave; the estimate asks for one first.
 */
export async function usersReached(scope: Scope, criteria: readonly Criterion[]): Promise<Set<string>> {
  const excluded = await doNotReachUsers(scope.db, scope.accountId, scope.now);
  let audience: Set<string> | undefined;
  const narrowing = new Map<string, Set<string>>();
  for (const c of criteria) {
    const primary = isPrimary(c) && c.operator_type === 'EQ';
    if (primary) audience ??= new Set();
    const users = await reached(scope, c);
    if (users === undefined) continue;
    if (c.operator_type === 'NE') users.forEach((u) => excluded.add(u));
    else if (primary) users.forEach((u) => audience!.add(u));
    else {
      const ofType = narrowing.get(c.targeting_type) ?? new Set<string>();
      users.forEach((u) => ofType.add(u));
      narrowing.set(c.targeting_type, ofType);
    }
  }
  const base = audience ?? new Set(scope.within !== undefined ? [scope.within] : await everyone(scope.db));
  return new Set([...base].filter((u) => !excluded.has(u) && [...narrowing.values()].every((s) => s.has(u))));
}

async function everyone(db: DbOrTx): Promise<string[]> {
  return (await db.selectFrom('users').select('id').execute()).map((r) => r.id);
}
