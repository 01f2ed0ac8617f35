import { Type } from '@sinclair/typebox';
import { flag, standardList } from '../http/list.js';
import { idList, oneOfList } from '../http/params.js';
import { one, page, pathId, type AdsRoutes } from '../http/route.js';
import { ACCOUNT_MEDIA_SORTING, CREATIVE_TYPES, deleteAccountMedia, getAccountMedia, listAccountMedia } from './service.js';
import { AccountMediaSchema, accountMediaWire } from './wire.js';

export function accountMediaRoutes(ads: AdsRoutes): void {
  const base = '/accounts/:account_id/account_media';

  ads.route({
    method: 'GET',
    url: base,
    rate: 'entity-read',
    params: { account_media_ids: idList(), creative_types: oneOfList(CREATIVE_TYPES), ...standardList(Object.keys(ACCOUNT_MEDIA_SORTING.fields)) },
    response: Type.Array(AccountMediaSchema),
    handler: async (call) => page(await listAccountMedia(call.db, call.account, call.params), accountMediaWire),
  });

  ads.route({
    method: 'GET',
    url: `${base}/:account_media_id`,
    rate: 'entity-read',
    params: { with_deleted: flag() },
    response: AccountMediaSchema,
    handler: async (call) => one(accountMediaWire(await getAccountMedia(call.db, call.account, pathId(call, 'account_media_id'), call.params.with_deleted))),
  });

  ads.route({
    method: 'DELETE',
    url: `${base}/:account_media_id`,
    rate: 'write',
    params: {},
    response: AccountMediaSchema,
    handler: async (call) => one(accountMediaWire(await deleteAccountMedia(call.actor, call.db, call.account, pathId(call, 'account_media_id')))),
  });
}
