import type { AdsCardTable } from '../../store/schema-ads-media.js';
import type { DbOrTx } from '../../store/store.js';
import { namePrefix } from '../http/list.js';

export type CardRow = AdsCardTable;
export type CardKind = 'card' | 'poll' | 'video_conversation';

export function cardsOf(db: DbOrTx, accountId: string, f: { kinds: CardKind[]; ids?: string[]; cardTypes?: string[]; q?: string; withDeleted: boolean }) {
  let query = db.selectFrom('ads_cards').selectAll().where('account_id', '=', accountId).where('kind', 'in', f.kinds);
  if (f.ids) query = query.where('id', 'in', f.ids);
  if (f.cardTypes) query = query.where('card_type', 'in', f.cardTypes);
  if (f.q) query = query.where(namePrefix('name', f.q));
  if (!f.withDeleted) query = query.where('deleted', '=', 0);
  return query;
}

export async function findCard(db: DbOrTx, accountId: string, id: string): Promise<CardRow | undefined> {
  return db.selectFrom('ads_cards').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

export async function insertCard(db: DbOrTx, row: CardRow): Promise<void> {
  await db.insertInto('ads_cards').values(row).execute();
}

export async function updateCardRow(db: DbOrTx, id: string, changes: Partial<CardRow>): Promise<CardRow> {
  return db.updateTable('ads_cards').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}
