import { Type } from '@sinclair/typebox';
import { webUrl } from '../cards/url.js';
import { flag, standardList } from '../http/list.js';
import { adsId, idList } from '../http/params.js';
import { one, page, pathId, type AdsRoutes } from '../http/route.js';
import { MEDIA_CREATIVE_SORTING, createMediaCreative, deleteMediaCreative, getMediaCreative, listMediaCreatives } from './service.js';
import { MediaCreativeSchema, mediaCreativeWire } from './wire.js';

export function mediaCreativeRoutes(ads: AdsRoutes): void {
  const base = '/accounts/:account_id/media_creatives';

  ads.route({
    method: 'GET',
    url: base,
    rate: 'entity-read',
    params: { campaign_id: adsId(), line_item_ids: idList(), media_creative_ids: idList(), ...standardList(Object.keys(MEDIA_CREATIVE_SORTING.fields)) },
    response: Type.Array(MediaCreativeSchema),
    handler: async (call) => page(await listMediaCreatives(call.db, call.account, call.params), mediaCreativeWire),
  });

  ads.route({
    method: 'GET',
    url: `${base}/:media_creative_id`,
    rate: 'entity-read',
    params: { with_deleted: flag() },
    response: MediaCreativeSchema,
    handler: async (call) => one(mediaCreativeWire(await getMediaCreative(call.db, call.account, pathId(call, 'media_creative_id'), call.params.with_deleted))),
  });

  ads.route({
    method: 'POST',
    url: base,
    rate: 'write',
    params: { account_media_id: adsId().required(), line_item_id: adsId().required(), landing_url: webUrl() },
    response: MediaCreativeSchema,
    handler: async (call) => one(mediaCreativeWire(await createMediaCreative(call.actor, call.db, call.account, call.params))),
  });

  ads.route({
    method: 'DELETE',
    url: `${base}/:media_creative_id`,
    rate: 'write',
    params: {},
    response: MediaCreativeSchema,
    handler: async (call) => one(mediaCreativeWire(await deleteMediaCreative(call.actor, call.db, call.account, pathId(call, 'media_creative_id')))),
  });
}
