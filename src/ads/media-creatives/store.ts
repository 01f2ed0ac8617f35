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

export async function findMediaCreative(db: DbOrTx, accountId: string, id: string): Promise<MediaCreativeRow | undefined> {
  return db.selectFrom('ads_media_creatives').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

export async function insertMediaCreative(db: DbOrTx, row: MediaCreativeRow): Promise<void> {
  await db.insertInto('ads_media_creatives').values(row).execute();
}

export async function updateMediaCreativeRow(db: DbOrTx, id: string, changes: Partial<MediaCreativeRow>): Promise<MediaCreativeRow> {
  return db.updateTable('ads_media_creatives').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}
