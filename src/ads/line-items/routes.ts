import { Type } from '@sinclair/typebox';
import { flag } from '../http/list.js';
import { oneOf } from '../http/params.js';
import { one, page, pathId, type AdsRoutes } from '../http/route.js';
import { CREATE_PARAMS, LIST_PARAMS, UPDATE_PARAMS } from './entity.js';
import { createLineItem, deleteLineItem, getLineItem, listLineItems, PlacementsSchema, placementsFor, updateLineItem } from './service.js';
import { PRODUCT_TYPES, PRODUCT_TYPE_ALIASES } from './vocabulary.js';
import { LineItemSchema, lineItemWire } from './wire.js';

/** Line items: create, update with every rule of the spec, list, get, delete; and placements. */
export function lineItemRoutes(ads: AdsRoutes): void {
  ads.route({
    method: 'GET',
    url: '/accounts/:account_id/line_items',
    rate: 'entity-read',
    params: LIST_PARAMS,
    response: Type.Array(LineItemSchema),
    handler: async (call) => page(await listLineItems(call.db, call.account, call.params), lineItemWire),
  });

  ads.route({
    method: 'GET',
    url: '/accounts/:account_id/line_items/:line_item_id',
    rate: 'entity-read',
    params: { with_deleted: flag() },
    response: LineItemSchema,
    handler: async (call) => one(lineItemWire(await getLineItem(call.db, call.account, pathId(call, 'line_item_id'), call.params.with_deleted))),
  });

  ads.route({
    method: 'POST',
    url: '/accounts/:account_id/line_items',
    rate: 'write',
    params: CREATE_PARAMS,
    response: LineItemSchema,
    handler: async (call) => one(lineItemWire(await createLineItem(call.actor, call.db, call.account, call.params))),
  });

  ads.route({
    method: 'PUT',
    url: '/accounts/:account_id/line_items/:line_item_id',
    rate: 'write',
    params: UPDATE_PARAMS,
    response: LineItemSchema,
    handler: async (call) => one(lineItemWire(await updateLineItem(call.actor, call.db, call.account, pathId(call, 'line_item_id'), call.params))),
  });

  ads.route({
    method: 'DELETE',
    url: '/accounts/:account_id/line_items/:line_item_id',
    rate: 'write',
    params: {},
    response: LineItemSchema,
    handler: async (call) => one(lineItemWire(await deleteLineItem(call.actor, call.db, call.account, pathId(call, 'line_item_id')))),
  });

  ads.route({
    method: 'GET',
    url: '/line_items/placements',
    rate: 'global-read',
    params: { product_type: oneOf(PRODUCT_TYPES, PRODUCT_TYPE_ALIASES) },
    response: Type.Array(PlacementsSchema),
    handler: async (call) => one(placementsFor(call.params.product_type)),
  });
}
