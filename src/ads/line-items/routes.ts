import { flag, q, standardList } from '../http/list.js';
import { adsId, bool, idList, int, micros, oneOf, oneOfList, platformId, text, time } from '../http/params.js';
import { one, page, pathId, type AdsRoutes } from '../http/route.js';
import { LINE_ITEM_SORTING, createLineItem, deleteLineItem, getLineItem, listLineItems, placementsFor, updateLineItem } from './service.js';
import {
  AUDIENCE_EXPANSIONS,
  BID_STRATEGIES,
  DURATIONS_IN_DAYS,
  GOALS_ON_CREATE,
  GOALS_ON_UPDATE,
  LINE_ITEM_STATUSES_ON_CREATE,
  LINE_ITEM_STATUSES_ON_UPDATE,
  OBJECTIVES,
  PAY_BY,
  PLACEMENTS,
  PLACEMENT_ALIASES,
  PRODUCT_TYPES,
  PRODUCT_TYPE_ALIASES,
} from './vocabulary.js';
import { lineItemWire } from './wire.js';

const IAB = /^IAB[0-9]{1,2}(-[0-9]{1,2})?$/;
const iabCategories = () => idList({ max: 200, pattern: IAB, patternText: 'an IAB category such as IAB19-6' });
const appId = () => text({ max: 255 });

/** Parameters a line item takes on both POST and PUT; POST adds its required ones. */
const common = {
  advertiser_domain: text({ max: 255 }),
  advertiser_user_id: platformId(),
  android_app_store_identifier: appId(),
  ios_app_store_identifier: appId(),
  audience_expansion: oneOf(AUDIENCE_EXPANSIONS),
  bid_amount_local_micro: micros(),
  bid_strategy: oneOf(BID_STRATEGIES),
  categories: iabCategories(),
  duration_in_days: int({ allowed: DURATIONS_IN_DAYS }),
  end_time: time(),
  frequency_cap: int({ min: 1, max: 1000 }),
  name: text({ max: 255 }),
  pay_by: oneOf(PAY_BY),
  primary_web_event_tag: text({ max: 255 }),
  standard_delivery: bool(),
  total_budget_amount_local_micro: micros(),
  daily_budget_amount_local_micro: micros(),
};

/** Line items: create, update with every rule of the spec, list, get, delete; and placements. */
export function lineItemRoutes(ads: AdsRoutes): void {
  ads.route({
    method: 'GET',
    url: '/accounts/:account_id/line_items',
    rate: 'entity-read',
    params: {
      campaign_ids: idList(),
      funding_instrument_ids: idList(),
      line_item_ids: idList(),
      q: q(),
      with_draft: flag(),
      ...standardList(Object.keys(LINE_ITEM_SORTING.fields)),
    },
    handler: async (call) => page(await listLineItems(call.db, call.account, call.params), lineItemWire),
  });

  ads.route({
    method: 'GET',
    url: '/accounts/:account_id/line_items/:line_item_id',
    rate: 'entity-read',
    params: { with_deleted: flag() },
    handler: async (call) => one(lineItemWire(await getLineItem(call.db, call.account, pathId(call, 'line_item_id'), call.params.with_deleted))),
  });

  ads.route({
    method: 'POST',
    url: '/accounts/:account_id/line_items',
    rate: 'write',
    params: {
      campaign_id: adsId().required(),
      objective: oneOf(OBJECTIVES).required(),
      placements: oneOfList(PLACEMENTS, PLACEMENT_ALIASES).required(),
      product_type: oneOf(PRODUCT_TYPES, PRODUCT_TYPE_ALIASES).required(),
      start_time: time().required(),
      ...common,
      entity_status: oneOf(LINE_ITEM_STATUSES_ON_CREATE),
      goal: oneOf(GOALS_ON_CREATE),
    },
    handler: async (call) => one(lineItemWire(await createLineItem(call.actor, call.db, call.account, call.params))),
  });

  ads.route({
    method: 'PUT',
    url: '/accounts/:account_id/line_items/:line_item_id',
    rate: 'write',
    params: {
      advertiser_domain: common.advertiser_domain.nullable(),
      advertiser_user_id: common.advertiser_user_id.nullable(),
      android_app_store_identifier: common.android_app_store_identifier.nullable(),
      ios_app_store_identifier: common.ios_app_store_identifier.nullable(),
      audience_expansion: common.audience_expansion.nullable(),
      bid_amount_local_micro: common.bid_amount_local_micro.nullable(),
      bid_strategy: common.bid_strategy,
      categories: common.categories.nullable(),
      duration_in_days: common.duration_in_days.nullable(),
      entity_status: oneOf(LINE_ITEM_STATUSES_ON_UPDATE),
      start_time: time(),
      end_time: common.end_time.nullable(),
      frequency_cap: common.frequency_cap.nullable(),
      goal: oneOf(GOALS_ON_UPDATE),
      name: common.name.nullable(),
      pay_by: common.pay_by,
      placements: oneOfList(PLACEMENTS, PLACEMENT_ALIASES),
      primary_web_event_tag: common.primary_web_event_tag.nullable(),
      standard_delivery: common.standard_delivery.nullable(),
      total_budget_amount_local_micro: common.total_budget_amount_local_micro.nullable(),
      daily_budget_amount_local_micro: common.daily_budget_amount_local_micro.nullable(),
    },
    handler: async (call) => one(lineItemWire(await updateLineItem(call.actor, call.db, call.account, pathId(call, 'line_item_id'), call.params))),
  });

  ads.route({
    method: 'DELETE',
    url: '/accounts/:account_id/line_items/:line_item_id',
    rate: 'write',
    params: {},
    handler: async (call) => one(lineItemWire(await deleteLineItem(call.actor, call.db, call.account, pathId(call, 'line_item_id')))),
  });

  ads.route({
    method: 'GET',
    url: '/line_items/placements',
    rate: 'global-read',
    params: { product_type: oneOf(PRODUCT_TYPES, PRODUCT_TYPE_ALIASES) },
    handler: async (call) => one(placementsFor(call.params.product_type)),
  });
}
