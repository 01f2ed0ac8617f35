import type { AdsFundingInstrumentTable } from '../../store/schema-ads.js';
import type { DbOrTx } from '../../store/store.js';

export type FundingInstrumentRow = AdsFundingInstrumentTable;

export function fundingInstrumentsOf(db: DbOrTx, accountId: string, f: { ids?: string[]; withDeleted: boolean }) {
  let query = db.selectFrom('ads_funding_instruments').selectAll().where('account_id', '=', accountId);
  if (f.ids) query = query.where('id', 'in', f.ids);
  if (!f.withDeleted) query = query.where('deleted', '=', 0);
  return query;
}

export async function findFundingInstrument(db: DbOrTx, accountId: string, id: string): Promise<FundingInstrumentRow | undefined> {
  return db.selectFrom('ads_funding_instruments').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

export async function insertFundingInstrument(db: DbOrTx, row: FundingInstrumentRow): Promise<void> {
  await db.insertInto('ads_funding_instruments').values(row).execute();
}

export async function updateFundingInstrument(db: DbOrTx, id: string, changes: Partial<FundingInstrumentRow>): Promise<FundingInstrumentRow> {
  return db.updateTable('ads_funding_instruments').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}
