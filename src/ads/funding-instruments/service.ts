import type { DbOrTx } from '../../store/store.js';
import type { AccountRow, AdsActor } from '../actor.js';
import { AdsError } from '../http/errors.js';
import { entitySorting, runList, type ListRequest } from '../http/list.js';
import { newAdsId } from '../ids.js';
import { findFundingInstrument, fundingInstrumentsOf, insertFundingInstrument, updateFundingInstrument, type FundingInstrumentRow } from './store.js';

export const FUNDING_INSTRUMENT_TYPES = ['AGENCY_CREDIT_LINE', 'CREDIT_CARD', 'CREDIT_LINE', 'INSERTION_ORDER', 'PARTNER_MANAGED'] as const;
export const FUNDING_INSTRUMENT_SORTING = entitySorting(undefined, { start_time: { column: 'start_time' }, type: { column: 'type' } });

export function listFundingInstruments(db: DbOrTx, account: AccountRow, p: ListRequest & { funding_instrument_ids?: string[]; with_deleted: boolean }) {
  return runList(db, fundingInstrumentsOf(db, account.id, { ids: p.funding_instrument_ids, withDeleted: p.with_deleted }), FUNDING_INSTRUMENT_SORTING, p);
}

export const fundingInstrumentNotFound = (id: string, account: AccountRow, parameter = 'funding_instrument_id') =>
  AdsError.notFound(`Funding Instrument ${id} was not found for Account ${account.id}`, parameter);

/** One instrument of the account; a deleted one only with with_deleted=true. */
export async function getFundingInstrument(db: DbOrTx, account: AccountRow, id: string | undefined, withDeleted: boolean): Promise<FundingInstrumentRow> {
  const fi = id === undefined ? undefined : await findFundingInstrument(db, account.id, id);
  if (!fi || (fi.deleted === 1 && !withDeleted)) throw fundingInstrumentNotFound(id ?? '', account);
  return fi;
}

export interface NewFundingInstrument {
  currency: string;
  start_time: string;
  type: string;
  end_time?: string;
  credit_limit_local_micro?: number;
  funded_amount_local_micro?: number;
  description?: string;
}

/** POST funding_instruments (sandbox only; shared/reference/ads.md §2). */
export async function createFundingInstrument(actor: AdsActor, db: DbOrTx, account: AccountRow, p: NewFundingInstrument): Promise<FundingInstrumentRow> {
  if (p.end_time !== undefined && p.end_time <= p.start_time) throw AdsError.invalidParameter('end_time', 'end_time must be after start_time');
  const now = actor.ctx.clock.now().toISOString();
  const row: FundingInstrumentRow = {
    id: newAdsId(actor.ctx),
    account_id: account.id,
    type: p.type,
    description: p.description ?? '(no payment method has been set up yet)',
    currency: p.currency,
    start_time: p.start_time,
    end_time: p.end_time ?? null,
    credit_limit_local_micro: p.credit_limit_local_micro ?? null,
    funded_amount_local_micro: p.funded_amount_local_micro ?? null,
    entity_status: 'ACTIVE',
    io_header: null,
    created_at: now,
    updated_at: now,
    deleted: 0,
  };
  await insertFundingInstrument(db, row);
  return row;
}

/** DELETE funding_instruments/:id (sandbox only): soft, once. */
export async function deleteFundingInstrument(actor: AdsActor, db: DbOrTx, account: AccountRow, id: string | undefined): Promise<FundingInstrumentRow> {
  const fi = await getFundingInstrument(db, account, id, false);
  return updateFundingInstrument(db, fi.id, { deleted: 1, updated_at: actor.ctx.clock.now().toISOString() });
}
