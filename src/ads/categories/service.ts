import type { DbOrTx } from '../../store/store.js';
import { AccountEntity, entitiesOf } from '../account-entity.js';
import type { AccountRow, AdsActor } from '../actor.js';
import { AdsError } from '../http/errors.js';
import { entitySorting, pageArray, runList, type ListRequest } from '../http/list.js';
import { getLineItem } from '../line-items/service.js';
import type { LineItemRow } from '../line-items/store.js';
import { liveCriteriaOfTypes } from '../targeting/store.js';
import { CURATED_CATEGORIES, findCuratedCategory, type CuratedCategory } from './reference-data.js';
import type { LineItemCuratedCategoryRow } from './store.js';

/**
 * Curated categories (spec 001 "Curated category", "Accounts and related"): a category is
 * available only in the countries of its country_codes, so it is listed only for those
 * countries and may be attached only to a PREROLL_VIEWS line item that targets one of them
 * (a LOCATION criterion whose value is the two-letter country code).
 */
export const LINE_ITEM_CURATED_CATEGORY_SORTING = entitySorting();
const LINE_ITEM_CURATED_CATEGORIES = new AccountEntity({ table: 'ads_line_item_curated_categories', label: 'Line Item Curated Category', parameter: 'line_item_curated_category_id' });

/** GET curated_categories: those available in any of the given countries, with total_count. */
export function curatedCategoriesIn(countryCodes: string[], req: { count: number; cursor?: string }) {
  const available = CURATED_CATEGORIES.filter((c) => c.country_codes.some((code) => countryCodes.includes(code)));
  return pageArray(available, req);
}

export function curatedCategory(id: string | undefined, parameter = 'curated_category_id'): CuratedCategory {
  const found = id === undefined ? undefined : findCuratedCategory(id);
  if (!found) throw AdsError.notFound(`Curated Category ${id ?? ''} was not found`, parameter);
  return found;
}

async function checkAvailable(db: DbOrTx, category: CuratedCategory, lineItem: LineItemRow, given: { category: boolean }): Promise<void> {
  const parameter = given.category ? 'curated_category_id' : 'line_item_id';
  if (lineItem.objective !== 'PREROLL_VIEWS') {
    throw AdsError.invalidParameter(parameter, `Curated categories apply only to line items with objective PREROLL_VIEWS; line item ${lineItem.id} has ${lineItem.objective}`);
  }
  const locations = await liveCriteriaOfTypes(db, lineItem.id, ['LOCATION']);
  const countries = locations.filter((l) => l.operator_type === 'EQ').map((l) => l.targeting_value.toUpperCase());
  if (!countries.some((c) => category.country_codes.includes(c))) {
    throw AdsError.invalidParameter(
      parameter,
      `Curated category ${category.id} is available only in ${category.country_codes.join(', ')}; line item ${lineItem.id} must target one of those countries with a LOCATION criterion`,
    );
  }
}

export async function createLineItemCuratedCategory(actor: AdsActor, db: DbOrTx, account: AccountRow, p: { curated_category_id: string; line_item_id: string }): Promise<LineItemCuratedCategoryRow> {
  const category = curatedCategory(p.curated_category_id);
  const lineItem = await getLineItem(db, account, p.line_item_id);
  await checkAvailable(db, category, lineItem, { category: true });
  return LINE_ITEM_CURATED_CATEGORIES.create(actor, db, account, { line_item_id: lineItem.id, curated_category_id: category.id });
}

export function getLineItemCuratedCategory(db: DbOrTx, account: AccountRow, id: string | undefined, withDeleted = false): Promise<LineItemCuratedCategoryRow> {
  return LINE_ITEM_CURATED_CATEGORIES.get(db, account, id, withDeleted);
}

export async function updateLineItemCuratedCategory(
  actor: AdsActor,
  db: DbOrTx,
  account: AccountRow,
  id: string | undefined,
  p: { curated_category_id?: string; line_item_id?: string },
): Promise<LineItemCuratedCategoryRow> {
  const before = await getLineItemCuratedCategory(db, account, id);
  if (p.curated_category_id === undefined && p.line_item_id === undefined) return before;
  const category = curatedCategory(p.curated_category_id ?? before.curated_category_id);
  const lineItem = await getLineItem(db, account, p.line_item_id ?? before.line_item_id);
  await checkAvailable(db, category, lineItem, { category: p.curated_category_id !== undefined });
  return LINE_ITEM_CURATED_CATEGORIES.update(actor, db, account, before, { curated_category_id: category.id, line_item_id: lineItem.id });
}

/** DELETE: the record with deleted = true (spec 001 "States and transitions"); a second DELETE is 404. */
export function deleteLineItemCuratedCategory(actor: AdsActor, db: DbOrTx, account: AccountRow, id: string | undefined): Promise<LineItemCuratedCategoryRow> {
  return LINE_ITEM_CURATED_CATEGORIES.delete(actor, db, account, id);
}

export function listLineItemCuratedCategories(db: DbOrTx, account: AccountRow, p: ListRequest & { with_deleted: boolean }) {
  return runList(db, entitiesOf(db, 'ads_line_item_curated_categories', account.id, { withDeleted: p.with_deleted }), LINE_ITEM_CURATED_CATEGORY_SORTING, p);
}
