import type { AdsMediaCreativeTable } from '../../store/schema-ads-media.js';
import type { DbOrTx } from '../../store/store.js';

export type MediaCreativeRow = AdsMediaCreativeTable;

export function mediaCreativesOf(db: DbOrTx, accountId: string, f: { ids?: string[]; lineItemIds?: string[]; campaignId?: string; withDeleted: boolean }) {
  let query = db.selectFrom('ads_media_creatives as mc').innerJoin('ads_line_items as li', 'li.id', 'mc.line_item_id').selectAll('mc').where('mc.account_id', '=', accountId);
  if (f.ids) query = query.where('mc.id', 'in', f.ids);
  if (f.lineItemIds) query = query.where('mc.line_item_id', 'in', f.lineItemIds);
  if (f.campaignId) query = query.where('li.campaign_id', '=', f.campaignId);
  if (!f.withDeleted) query = query.where('mc.deleted', '=', 0);
  return query;
}
