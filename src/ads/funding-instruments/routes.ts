import { Type } from '@sinclair/typebox';
import { flag, standardList } from '../http/list.js';
import { idList, micros, oneOf, text, time } from '../http/params.js';
import { one, page, pathId, type AdsRoutes } from '../http/route.js';
import {
  FUNDING_INSTRUMENT_SORTING,
  FUNDING_INSTRUMENT_TYPES,
  createFundingInstrument,
  deleteFundingInstrument,
  getFundingInstrument,
  listFundingInstruments,
} from './service.js';
import { FundingInstrumentSchema, fundingInstrumentWire } from './wire.js';

/** Funding instruments: read everywhere, created and deleted only in the sandbox. */
export function fundingInstrumentRoutes(ads: AdsRoutes): void {
  const now = () => ads.ctx.clock.now();
  ads.route({
    method: 'GET',
    url: '/accounts/:account_id/funding_instruments',
    rate: 'entity-read',
    params: { funding_instrument_ids: idList(), ...standardList(Object.keys(FUNDING_INSTRUMENT_SORTING.fields)) },
    response: Type.Array(FundingInstrumentSchema),
    handler: async (call) => page(await listFundingInstruments(call.db, call.account, call.params), (fi) => fundingInstrumentWire(fi, now())),
  });

  ads.route({
    method: 'GET',
    url: '/accounts/:account_id/funding_instruments/:funding_instrument_id',
    rate: 'entity-read',
    params: { with_deleted: flag() },
    response: FundingInstrumentSchema,
    handler: async (call) =>
      one(fundingInstrumentWire(await getFundingInstrument(call.db, call.account, pathId(call, 'funding_instrument_id'), call.params.with_deleted), now())),
  });

  ads.route({
    method: 'POST',
    url: '/accounts/:account_id/funding_instruments',
    rate: 'write',
    sandboxOnly: true,
    params: {
      currency: text({ pattern: /^[A-Z]{3}$/, patternText: 'an ISO-4217 currency code' }).required(),
      start_time: time().required(),
      type: oneOf(FUNDING_INSTRUMENT_TYPES).required(),
      end_time: time(),
      credit_limit_local_micro: micros(),
      funded_amount_local_micro: micros(),
    },
    response: FundingInstrumentSchema,
    handler: async (call) => one(fundingInstrumentWire(await createFundingInstrument(call.actor, call.db, call.account, call.params), now())),
  });

  ads.route({
    method: 'DELETE',
    url: '/accounts/:account_id/funding_instruments/:funding_instrument_id',
    rate: 'write',
    sandboxOnly: true,
    params: {},
    response: FundingInstrumentSchema,
    handler: async (call) =>
      one(fundingInstrumentWire(await deleteFundingInstrument(call.actor, call.db, call.account, pathId(call, 'funding_instrument_id')), now())),
  });
}
