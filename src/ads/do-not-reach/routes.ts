import { Type } from '@sinclair/typebox';
import type { AdsBody } from '../http/route.js';
import { flag, standardList } from '../http/list.js';
import { text } from '../http/params.js';
import { one, pathId, type AdsRoutes } from '../http/route.js';
import { MAX_BATCH_BODY_BYTES } from '../audiences/batch.js';
import {
  DO_NOT_REACH_SORTING,
  createDoNotReachList,
  deleteDoNotReachList,
  doNotReachWires,
  getDoNotReachList,
  listDoNotReachLists,
  uploadDoNotReachUsers,
} from './service.js';
import { DoNotReachListSchema } from './wire.js';

/** Do-not-reach lists and their users batch. */
export function doNotReachRoutes(ads: AdsRoutes): void {
  const base = '/accounts/:account_id/do_not_reach_lists';
  const now = () => ads.ctx.clock.now();
  const oneWire = async (call: { db: Parameters<typeof doNotReachWires>[0] }, row: Parameters<typeof doNotReachWires>[1][number]) =>
    one((await doNotReachWires(call.db, [row], now()))[0]);

  ads.route({
    method: 'GET',
    url: base,
    rate: 'account-read',
    params: standardList(Object.keys(DO_NOT_REACH_SORTING.fields)),
    response: Type.Array(DoNotReachListSchema),
    handler: async (call) => {
      const p = await listDoNotReachLists(call.db, call.account, call.params);
      return { next_cursor: p.next_cursor, data: await doNotReachWires(call.db, p.rows, now()), ...(p.total_count !== undefined ? { total_count: p.total_count } : {}) };
    },
  });

  ads.route({
    method: 'GET',
    url: `${base}/:do_not_reach_list_id`,
    rate: 'account-read',
    params: { with_deleted: flag() },
    response: DoNotReachListSchema,
    handler: async (call) => oneWire(call, await getDoNotReachList(call.db, call.account, pathId(call, 'do_not_reach_list_id'), call.params.with_deleted)),
  });

  ads.route({
    method: 'POST',
    url: base,
    rate: 'write',
    params: { name: text({ max: 255 }), description: text({ max: 1000 }) },
    response: DoNotReachListSchema,
    handler: async (call) => oneWire(call, await createDoNotReachList(call.actor, call.db, call.account, call.params)),
  });

  ads.route({
    method: 'DELETE',
    url: `${base}/:do_not_reach_list_id`,
    rate: 'write',
    params: {},
    response: DoNotReachListSchema,
    handler: async (call) => oneWire(call, await deleteDoNotReachList(call.actor, call.db, call.account, pathId(call, 'do_not_reach_list_id'))),
  });

  ads.route({
    method: 'POST',
    url: `/batch${base}/:do_not_reach_list_id/users`,
    rate: 'write',
    bodyLimit: MAX_BATCH_BODY_BYTES,
    params: {},
    // `request` replaces the envelope's: the batch echoed as an array (shared/reference/ads.md §4).
    handler: async (call) => (await uploadDoNotReachUsers(call.actor, call.db, call.account, pathId(call, 'do_not_reach_list_id'), call.body, call.contentType)) as AdsBody,
  });
}
