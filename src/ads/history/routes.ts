import { Type } from '@sinclair/typebox';
import { count, cursor } from '../http/list.js';
import { adsId, oneOf, platformId, time } from '../http/params.js';
import { page, type AdsRoutes } from '../http/route.js';
import { HISTORY_ENTITIES } from './record.js';
import { accountHistory } from './service.js';
import { HistoryRecordSchema, historyWire } from './wire.js';

export function historyRoutes(ads: AdsRoutes): void {
  ads.route({
    method: 'GET',
    url: '/accounts/:account_id/account_history',
    rate: 'account-read',
    params: {
      count: count(),
      cursor: cursor(),
      entity_type: oneOf(HISTORY_ENTITIES, { PROMOTED_TWEET: 'PROMOTED_POST' }).required(),
      entity_id: adsId().required(),
      start_time: time().required(),
      end_time: time().required(),
      user_id: platformId(),
    },
    response: Type.Array(HistoryRecordSchema),
    handler: async (call) => page(await accountHistory(call.db, call.account, call.params), historyWire),
  });
}
