import { Type } from '@sinclair/typebox';
import { count, cursor, flag, standardList } from '../http/list.js';
import { adsId, countryCodes } from '../http/params.js';
import { one, page, pathId, type AdsRoutes } from '../http/route.js';
import { ADVERTISER_BUSINESS_CATEGORIES } from './reference-data.js';
import {
  LINE_ITEM_CURATED_CATEGORY_SORTING,
  createLineItemCuratedCategory,
  curatedCategoriesIn,
  curatedCategory,
  deleteLineItemCuratedCategory,
  getLineItemCuratedCategory,
  listLineItemCuratedCategories,
  updateLineItemCuratedCategory,
} from './service.js';
import {
  AdvertiserBusinessCategorySchema,
  CuratedCategorySchema,
  LineItemCuratedCategorySchema,
  advertiserBusinessCategoryWire,
  curatedCategoryWire,
  lineItemCuratedCategoryWire,
} from './wire.js';

/** Advertiser business categories, curated categories and line item curated categories. */
export function categoryRoutes(ads: AdsRoutes): void {
  ads.route({
    method: 'GET',
    url: '/advertiser_business_categories',
    rate: 'global-read',
    params: {},
    response: Type.Array(AdvertiserBusinessCategorySchema),
    handler: async () => ({ next_cursor: null, data: ADVERTISER_BUSINESS_CATEGORIES.map(advertiserBusinessCategoryWire) }),
  });

  ads.route({
    method: 'GET',
    url: '/accounts/:account_id/curated_categories',
    rate: 'account-read',
    params: { country_codes: countryCodes().required(), count: count(), cursor: cursor() },
    response: Type.Array(CuratedCategorySchema),
    handler: async (call) => page(curatedCategoriesIn(call.params.country_codes, call.params), curatedCategoryWire),
  });

  ads.route({
    method: 'GET',
    url: '/accounts/:account_id/curated_categories/:curated_category_id',
    rate: 'account-read',
    params: {},
    response: CuratedCategorySchema,
    handler: async (call) => one(curatedCategoryWire(curatedCategory(pathId(call, 'curated_category_id')))),
  });

  ads.route({
    method: 'GET',
    url: '/accounts/:account_id/line_item_curated_categories',
    rate: 'account-read',
    params: standardList(Object.keys(LINE_ITEM_CURATED_CATEGORY_SORTING.fields)),
    response: Type.Array(LineItemCuratedCategorySchema),
    handler: async (call) => page(await listLineItemCuratedCategories(call.db, call.account, call.params), lineItemCuratedCategoryWire),
  });

  ads.route({
    method: 'GET',
    url: '/accounts/:account_id/line_item_curated_categories/:line_item_curated_category_id',
    rate: 'account-read',
    params: { with_deleted: flag() },
    response: LineItemCuratedCategorySchema,
    handler: async (call) =>
      one(lineItemCuratedCategoryWire(await getLineItemCuratedCategory(call.db, call.account, pathId(call, 'line_item_curated_category_id'), call.params.with_deleted))),
  });

  ads.route({
    method: 'POST',
    url: '/accounts/:account_id/line_item_curated_categories',
    rate: 'write',
    params: { curated_category_id: adsId().required(), line_item_id: adsId().required() },
    response: LineItemCuratedCategorySchema,
    handler: async (call) => one(lineItemCuratedCategoryWire(await createLineItemCuratedCategory(call.actor, call.db, call.account, call.params))),
  });

  ads.route({
    method: 'PUT',
    url: '/accounts/:account_id/line_item_curated_categories/:line_item_curated_category_id',
    rate: 'write',
    params: { curated_category_id: adsId(), line_item_id: adsId() },
    response: LineItemCuratedCategorySchema,
    handler: async (call) =>
      one(lineItemCuratedCategoryWire(await updateLineItemCuratedCategory(call.actor, call.db, call.account, pathId(call, 'line_item_curated_category_id'), call.params))),
  });

  ads.route({
    method: 'DELETE',
    url: '/accounts/:account_id/line_item_curated_categories/:line_item_curated_category_id',
    rate: 'write',
    params: {},
    response: LineItemCuratedCategorySchema,
    handler: async (call) =>
      one(lineItemCuratedCategoryWire(await deleteLineItemCuratedCategory(call.actor, call.db, call.account, pathId(call, 'line_item_curated_category_id')))),
  });
}
