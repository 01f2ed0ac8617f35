import type { QueryNode } from '../../query/ast.js';
import { keywordNode } from '../../query/parse.js';
import { compileSql, type SqlDialect } from '../../query/sql.js';
import type { DbOrTx } from '../../store/store.js';
import { audienceUsers } from '../audiences/service.js';
import { doNotReachUsers } from '../do-not-reach/service.js';
import type { AccountRow } from '../actor.js';
import { AdsError } from '../http/errors.js';
import { oneOf, text } from '../http/params.js';
import { checkCriteriaSet, describeCriterion, type CriterionInput } from './service.js';
import { KEYWORD_TYPES, OPERATOR_TYPES, PRIMARY_TARGETING_TYPES, TARGETING_TYPES } from './vocabulary.js';

/**
 * POST accounts/:account_id/audience_estimate (spec 001 "Accounts and related"): a JSON array of
 * targeting criteria (the parameters of the criteria creation operation; an object holding
 * `targeting_criteria` is accepted too), at least one of them primary. The estimate is computed
 * from Plaza's own users: followers from the follow graph, keywords from what users posted,
 * LANGUAGE from the language of their posts. Criteria Plaza keeps no data for (interests,
 * events, TV, locations, ages, devices...) reach nobody when primary and do not narrow otherwise.
 */
export const MAX_ESTIMATE_CRITERIA = 500;

const typeParam = oneOf(TARGETING_TYPES);
const operatorParam = oneOf(OPERATOR_TYPES);
const valueParam = text({ max: 255 });

export function parseEstimateBody(body: unknown, contentType: string): CriterionInput[] {
  if (!contentType.toLowerCase().startsWith('application/json')) {
    throw AdsError.invalidParameter('targeting_criteria', 'audience_estimate takes a JSON array of targeting criteria with Content-Type application/json');
  }
  const list = Array.isArray(body) ? body : (body as { targeting_criteria?: unknown } | null)?.targeting_criteria;
  if (!Array.isArray(list) || list.length === 0) {
    throw AdsError.invalidParameter('targeting_criteria', 'Expected a non-empty JSON array of targeting criteria objects');
  }
  if (list.length > MAX_ESTIMATE_CRITERIA) {
    throw AdsError.invalidParameter('targeting_criteria', `Expected at most ${MAX_ESTIMATE_CRITERIA} targeting criteria, got ${list.length}`);
  }
  return list.map((item, i) => {
    const at = `targeting_criteria[${i}].`;
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw AdsError.invalidParameter(`targeting_criteria[${i}]`, 'Expected a targeting criterion object');
    const o = item as Record<string, unknown>;
    const need = (name: string) => {
      if (o[name] === undefined || o[name] === null || o[name] === '') throw AdsError.missingParameter(`${at}${name}`);
      return o[name];
    };
    return {
      targeting_type: typeParam.parseValue(need('targeting_type'), `${at}targeting_type`),
      targeting_value: valueParam.parseValue(need('targeting_value'), `${at}targeting_value`),
      operator_type: o.operator_type === undefined || o.operator_type === null ? 'EQ' : operatorParam.parseValue(o.operator_type, `${at}operator_type`),
    };
  });
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

async function postAuthors(db: DbOrTx, dialect: SqlDialect, query: QueryNode | undefined): Promise<string[]> {
  if (!query) return [];
  const rows = await db.selectFrom('posts').select('author_id').distinct().where('deleted_at', 'is', null).where(compileSql(query, dialect)).execute();
  return rows.map((r) => r.author_id);
}

/** The users a criterion reaches, or undefined when Plaza has no data for its type. */
async function reached(db: DbOrTx, c: CriterionInput, accountId: string, now: Date, dialect: SqlDialect): Promise<string[] | undefined> {
  const value = c.targeting_value.toLowerCase();
  switch (c.targeting_type) {
    case 'FOLLOWERS_OF_USER': {
      const rows = await db.selectFrom('follows').select('source_user_id').where('target_user_id', '=', c.targeting_value).execute();
      return rows.map((r) => r.source_user_id);
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
      return [...new Set([...direct.map((r) => r.source_user_id), ...alike.map((r) => r.source_user_id)])].filter((id) => id !== c.targeting_value);
    }
    case 'BROAD_KEYWORD':
    case 'UNORDERED_KEYWORD':
    case 'PHRASE_KEYWORD':
    case 'EXACT_KEYWORD':
      return postAuthors(db, dialect, keywordQuery(c.targeting_type, c.targeting_value));
    case 'LANGUAGE': {
      const rows = await db.selectFrom('posts').select('author_id').distinct().where('deleted_at', 'is', null).where('lang', '=', value).execute();
      return rows.map((r) => r.author_id);
    }
    case 'CUSTOM_AUDIENCE':
    case 'CUSTOM_AUDIENCE_EXPANDED':
      return audienceUsers(db, accountId, c.targeting_value, now);
    default:
      return undefined;
  }
}

export async function estimateAudience(db: DbOrTx, account: AccountRow, criteria: CriterionInput[], now: Date, dialect: SqlDialect) {
  for (const [i, c] of criteria.entries()) {
    await describeCriterion(db, account, c, now, `targeting_criteria[${i}].`);
    checkCriteriaSet(criteria.slice(0, i), c);
  }
  if (!criteria.some((c) => c.operator_type === 'EQ' && PRIMARY_TARGETING_TYPES.includes(c.targeting_type))) {
    throw AdsError.invalidParameter(
      'targeting_criteria',
      `At least one primary targeting criterion is required (operator_type EQ, targeting_type one of ${PRIMARY_TARGETING_TYPES.join(', ')})`,
    );
  }
  const audience = new Set<string>();
  // Users the account's do-not-reach list matches are never reached.
  const excluded = await doNotReachUsers(db, account.id, now);
  const narrowing: Array<Set<string>> = [];
  for (const c of criteria) {
    const users = await reached(db, c, account.id, now, dialect);
    if (users === undefined) continue;
    const primary = PRIMARY_TARGETING_TYPES.includes(c.targeting_type) || KEYWORD_TYPES.includes(c.targeting_type);
    if (c.operator_type === 'NE') users.forEach((u) => excluded.add(u));
    else if (primary) users.forEach((u) => audience.add(u));
    else narrowing.push(new Set(users));
  }
  let size = 0;
  for (const user of audience) if (!excluded.has(user) && narrowing.every((s) => s.has(user))) size += 1;
  return { audience_size: { min: Math.floor(size * 0.95), max: Math.ceil(size * 1.05) } };
}
