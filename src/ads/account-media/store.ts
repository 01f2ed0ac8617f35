import type { AdsAccountMediaTable } from '../../store/schema-ads-media.js';
import type { DbOrTx } from '../../store/store.js';

export type AccountMediaRow = AdsAccountMediaTable & { media_id: string | null; media_url: string | null; media_type: string | null };

/** Account media with the id and url of their media (left join: the media row may still be processing). */
export function accountMediaOf(db: DbOrTx, accountId: string, f: { ids?: string[]; creativeTypes?: string[]; withDeleted: boolean }) {
  let query = db
    .selectFrom('ads_account_media as am')
    .leftJoin('media as m', 'm.media_key', 'am.media_key')
    .selectAll('am')
    .select(['m.id as media_id', 'm.url as media_url', 'm.type as media_type'])
    .where('am.account_id', '=', accountId);
  if (f.ids) query = query.where('am.id', 'in', f.ids);
  if (f.creativeTypes) query = query.where('am.creative_type', 'in', f.creativeTypes);
  if (!f.withDeleted) query = query.where('am.deleted', '=', 0);
  return query;
}

export async function findAccountMedia(db: DbOrTx, accountId: string, id: string): Promise<AccountMediaRow | undefined> {
  return accountMediaOf(db, accountId, { ids: [id], withDeleted: true }).executeTakeFirst();
}

export async function insertAccountMedia(db: DbOrTx, row: AdsAccountMediaTable): Promise<void> {
  await db.insertInto('ads_account_media').values(row).execute();
}

export async function markAccountMediaDeleted(db: DbOrTx, accountId: string, where: { id?: string; mediaKey?: string }, at: string): Promise<void> {
  let query = db.updateTable('ads_account_media').set({ deleted: 1, updated_at: at }).where('account_id', '=', accountId).where('deleted', '=', 0);
  if (where.id) query = query.where('id', '=', where.id);
  if (where.mediaKey) query = query.where('media_key', '=', where.mediaKey);
  await query.execute();
}
