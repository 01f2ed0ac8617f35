import type { DbOrTx } from '../../store/store.js';
import { AccountEntity } from '../account-entity.js';
import { getAccountMedia } from '../account-media/service.js';
import type { AccountRow, AdsActor } from '../actor.js';
import { AdsError } from '../http/errors.js';
import { entitySorting, runList, type ListRequest } from '../http/list.js';
import { getLineItem } from '../line-items/service.js';
import { mediaCreativesOf, type MediaCreativeRow } from './store.js';

/**
 * Media creatives (spec 001 "Media creatives"): account media associated with a line item, for
 * in-stream ads (PREROLL) or display image ads of the audience network. landing_url is required
 * when the line item's objective is WEBSITE_CLICKS, kept for display image creatives and ignored
 * for preroll.
 */
export const MEDIA_CREATIVE_SORTING = entitySorting('mc');
/** Media creatives serve in media placements (line items of product_type MEDIA). */
const MEDIA_PRODUCT_TYPE = 'MEDIA';
const MEDIA_CREATIVES = new AccountEntity({ table: 'ads_media_creatives', label: 'Media Creative', parameter: 'media_creative_id', notFoundCode: 'MEDIA_CREATIVE_NOT_FOUND' });

export function listMediaCreatives(db: DbOrTx, account: AccountRow, p: ListRequest & { campaign_id?: string; line_item_ids?: string[]; media_creative_ids?: string[]; with_deleted: boolean }) {
  const base = mediaCreativesOf(db, account.id, { ids: p.media_creative_ids, lineItemIds: p.line_item_ids, campaignId: p.campaign_id, withDeleted: p.with_deleted });
  return runList(db, base, MEDIA_CREATIVE_SORTING, p);
}

export function getMediaCreative(db: DbOrTx, account: AccountRow, id: string | undefined, withDeleted = false): Promise<MediaCreativeRow> {
  return MEDIA_CREATIVES.get(db, account, id, withDeleted);
}

export async function createMediaCreative(actor: AdsActor, db: DbOrTx, account: AccountRow, p: { account_media_id: string; line_item_id: string; landing_url?: string }): Promise<MediaCreativeRow> {
  const lineItem = await getLineItem(db, account, p.line_item_id);
  if (lineItem.product_type !== MEDIA_PRODUCT_TYPE) {
    throw AdsError.invalidParameter('line_item_id', `Line item ${lineItem.id} has product_type ${lineItem.product_type}; media creatives need a line item of product_type ${MEDIA_PRODUCT_TYPE}`);
  }
  const media = await getAccountMedia(db, account, p.account_media_id);
  const preroll = media.creative_type === 'PREROLL' || media.creative_type === 'VAST_PREROLL';
  if (!preroll && lineItem.objective === 'WEBSITE_CLICKS' && p.landing_url === undefined) {
    throw new AdsError(400, [{ code: 'MISSING_PARAMETER', message: `landing_url is required when the line item's objective is WEBSITE_CLICKS`, parameter: 'landing_url' }]);
  }
  return MEDIA_CREATIVES.create(actor, db, account, {
    line_item_id: lineItem.id,
    account_media_id: media.id,
    // Used only with display image creatives; ignored for preroll assets.
    landing_url: preroll ? null : (p.landing_url ?? null),
    creative_type: media.creative_type,
    entity_status: 'ACTIVE',
    approval_status: 'ACCEPTED',
  });
}

export function deleteMediaCreative(actor: AdsActor, db: DbOrTx, account: AccountRow, id: string | undefined): Promise<MediaCreativeRow> {
  return MEDIA_CREATIVES.delete(actor, db, account, id);
}
