import type { SqlDialect } from '../../query/sql.js';
import type { DbOrTx } from '../../store/store.js';
import type { AccountRow } from '../actor.js';
import { AdsError } from '../http/errors.js';
import { oneOf, text } from '../http/params.js';
import { checkCriteriaSet, describeCriterion, type CriterionInput } from './service.js';
import { usersReached } from './reach.js';
import { OPERATOR_TYPES, PRIMARY_TARGETING_TYPES, TARGETING_TYPES } from './vocabulary.js';

/**
 * POST accounts/:account_id/audience_estimate (spec 001 "Accounts and related"): a JSON array of
 * targeting criteria (the parameters of the criteria creation operation; an object holding
 * `targeting_criteria` is accepted too), at least one of them primary. The estimate counts the
 * users the criteria reach (src/ads/targeting/reach.ts, the rule delivery follows too).
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
  const size = (await usersReached({ db, dialect, accountId: account.id, now }, criteria)).size;
  return { audience_size: { min: Math.floor(size * 0.95), max: Math.ceil(size * 1.05) } };
}
