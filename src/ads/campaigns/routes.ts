import { Type } from '@sinclair/typebox';
import { flag } from '../http/list.js';
import { AdsError } from '../http/errors.js';
import { one, pathId, type AdsRoutes } from '../http/route.js';
import { COPY_PARAMETER, copyCampaign } from './copy.js';
import { CREATE_PARAMS, LIST_PARAMS, UPDATE_PARAMS } from './entity.js';
import {
  campaignWireOf,
  campaignsWire,
  createCampaign,
  deleteCampaign,
  getCampaign,
  listCampaigns,
  updateCampaign,
} from './service.js';
import { CampaignSchema } from './wire.js';

/** Campaigns: create (or copy), update, list, get, delete (shared/reference/ads.md §3). */
export function campaignRoutes(ads: AdsRoutes): void {
  ads.route({
    method: 'GET',
    url: '/accounts/:account_id/campaigns',
    rate: 'entity-read',
    params: LIST_PARAMS,
    response: Type.Array(CampaignSchema),
    handler: async (call) => {
      const p = await listCampaigns(call.db, call.account, call.params);
      return { next_cursor: p.next_cursor, data: await campaignsWire(call.db, p.rows), ...(p.total_count !== undefined ? { total_count: p.total_count } : {}) };
    },
  });

  ads.route({
    method: 'GET',
    url: '/accounts/:account_id/campaigns/:campaign_id',
    rate: 'entity-read',
    params: { with_deleted: flag() },
    response: CampaignSchema,
    handler: async (call) => one(await campaignWireOf(call.db, await getCampaign(call.db, call.account, pathId(call, 'campaign_id'), call.params.with_deleted))),
  });

  ads.route({
    method: 'POST',
    url: '/accounts/:account_id/campaigns',
    rate: 'write',
    params: CREATE_PARAMS,
    response: CampaignSchema,
    handler: async (call) => {
      const { copy_from_campaign_id: source, funding_instrument_id, name, ...rest } = call.params;
      if (source !== undefined) {
        return one(await campaignWireOf(call.db, await copyCampaign(call.actor, call.db, call.account, { ...rest, funding_instrument_id, name, [COPY_PARAMETER]: source }, call.warn)));
      }
      if (funding_instrument_id === undefined) throw AdsError.missingParameter('funding_instrument_id');
      if (name === undefined) throw AdsError.missingParameter('name');
      return one(await campaignWireOf(call.db, await createCampaign(call.actor, call.db, call.account, { ...rest, funding_instrument_id, name }, call.warn)));
    },
  });

  ads.route({
    method: 'PUT',
    url: '/accounts/:account_id/campaigns/:campaign_id',
    rate: 'write',
    params: UPDATE_PARAMS,
    response: CampaignSchema,
    handler: async (call) =>
      one(await campaignWireOf(call.db, await updateCampaign(call.actor, call.db, call.account, pathId(call, 'campaign_id'), call.params, call.warn))),
  });

  ads.route({
    method: 'DELETE',
    url: '/accounts/:account_id/campaigns/:campaign_id',
    rate: 'write',
    params: {},
    response: CampaignSchema,
    handler: async (call) => one(await campaignWireOf(call.db, await deleteCampaign(call.actor, call.db, call.account, pathId(call, 'campaign_id')))),
  });
}
