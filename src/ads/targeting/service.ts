import { findUserById } from '../../auth/store.js';
import type { DbOrTx } from '../../store/store.js';
import { AccountEntity } from '../account-entity.js';
import type { AccountRow, AdsActor } from '../actor.js';
import { isTargetableAudience as audienceTargetable } from '../audiences/service.js';
import { AdsError } from '../http/errors.js';
import { entitySorting, runList, type ListRequest } from '../http/list.js';
import { PLATFORM_ID } from '../http/params.js';
import { getLineItem } from '../line-items/service.js';
import { liveCriteriaOfTypes, targetingCriteriaOf, type TargetingCriterionRow } from './store.js';
import { AUDIENCE_TYPES, FOLLOWER_TYPES } from './vocabulary.js';
import { targetingCriterionWire } from './wire.js';

/**
 * Targeting criteria rules (shared/reference/ads.md §3): APP_LIST only with NE; one AGE bucket
 * per line item; TV_SHOW needs a LOCATION criterion first; a custom audience must be
 * targetable; follower targeting names an existing user. The same checks serve the audience
 * estimate, whose criteria are those of this operation.
 */
export const TARGETING_SORTING = entitySorting(undefined, { targeting_type: { column: 'targeting_type' }, name: { column: 'name' } });
const TARGETING_CRITERIA = new AccountEntity({ table: 'ads_targeting_criteria', label: 'Targeting Criterion', parameter: 'targeting_criterion_id', history: { entity: 'TARGETING_CRITERIA', data: targetingCriterionWire } });

export interface CriterionInput {
  targeting_type: string;
  targeting_value: string;
  operator_type: string;
}

/** The account owns the audience or holds a live permission on it, and the audience is targetable now (src/ads/audiences). */
async function isTargetableAudience(db: DbOrTx, accountId: string, audienceId: string, now: Date): Promise<boolean> {
  return audienceTargetable(db, accountId, audienceId, now);
}

/** Checks one criterion on its own and works out its display name. `at` prefixes parameter names (audience estimate). */
export async function describeCriterion(db: DbOrTx, account: AccountRow, c: CriterionInput, now: Date, at = ''): Promise<{ name: string; location_type: string | null }> {
  if (c.targeting_type === 'APP_LIST' && c.operator_type !== 'NE') {
    throw AdsError.invalidParameter(`${at}operator_type`, 'targeting_type APP_LIST may be used only with operator_type NE');
  }
  if (FOLLOWER_TYPES.includes(c.targeting_type)) {
    const user = PLATFORM_ID.test(c.targeting_value) ? await findUserById(db, c.targeting_value) : undefined;
    if (!user) throw AdsError.invalidParameter(`${at}targeting_value`, `User ${c.targeting_value} was not found`, 'INVALID_USER_ID');
    return { name: `@${user.username}`, location_type: null };
  }
  if (AUDIENCE_TYPES.includes(c.targeting_type) && !(await isTargetableAudience(db, account.id, c.targeting_value, now))) {
    throw AdsError.invalidParameter(`${at}targeting_value`, `Custom audience ${c.targeting_value} was not found or is not targetable`);
  }
  if (c.targeting_type === 'LOCATION') {
    const country = /^[A-Za-z]{2}$/.test(c.targeting_value);
    return { name: country ? c.targeting_value.toUpperCase() : c.targeting_value, location_type: country ? 'COUNTRIES' : null };
  }
  return { name: c.targeting_value, location_type: null };
}

const oneAgeBucket = () => AdsError.invalidParameter('targeting_type', 'Only one AGE bucket may be targeted per line item');
const tvShowNeedsLocation = () =>
  AdsError.invalidParameter('targeting_type', 'targeting_type TV_SHOW needs a LOCATION targeting criterion on the line item first', 'INVALID_TV_SHOW_LOCATIONS');

/** The rules that look at a whole set of criteria (one line item's, or one estimate's). */
export function checkCriteriaSet(existing: Array<Pick<CriterionInput, 'targeting_type'>>, added: CriterionInput): void {
  if (added.targeting_type === 'AGE' && existing.some((c) => c.targeting_type === 'AGE')) throw oneAgeBucket();
  if (added.targeting_type === 'TV_SHOW' && !existing.some((c) => c.targeting_type === 'LOCATION')) throw tvShowNeedsLocation();
}

export async function createTargetingCriterion(actor: AdsActor, db: DbOrTx, account: AccountRow, p: CriterionInput & { line_item_id: string }): Promise<TargetingCriterionRow> {
  const lineItem = await getLineItem(db, account, p.line_item_id);
  const described = await describeCriterion(db, account, p, actor.ctx.clock.now());
  checkCriteriaSet(await liveCriteriaOfTypes(db, lineItem.id, ['AGE', 'LOCATION']), p);
  return TARGETING_CRITERIA.create(actor, db, account, {
    line_item_id: lineItem.id,
    targeting_type: p.targeting_type,
    targeting_value: p.targeting_value,
    operator_type: p.operator_type,
    name: described.name,
    location_type: described.location_type,
  });
}

export function listTargetingCriteria(db: DbOrTx, account: AccountRow, p: ListRequest & { line_item_ids: string[]; targeting_criterion_ids?: string[]; with_deleted: boolean }) {
  return runList(db, targetingCriteriaOf(db, account.id, { lineItemIds: p.line_item_ids, ids: p.targeting_criterion_ids, withDeleted: p.with_deleted }), TARGETING_SORTING, p);
}

export function getTargetingCriterion(db: DbOrTx, account: AccountRow, id: string | undefined, withDeleted = false): Promise<TargetingCriterionRow> {
  return TARGETING_CRITERIA.get(db, account, id, withDeleted);
}

export function deleteTargetingCriterion(actor: AdsActor, db: DbOrTx, account: AccountRow, id: string | undefined): Promise<TargetingCriterionRow> {
  return TARGETING_CRITERIA.delete(actor, db, account, id);
}
