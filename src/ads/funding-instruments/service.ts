import type { DbOrTx } from '../../store/store.js';
import { AccountEntity, entitiesOf } from '../account-entity.js';
import type { AccountRow, AdsActor } from '../actor.js';
import { AdsError } from '../http/errors.js';
import { entitySorting, runList, type ListRequest } from '../http/list.js';
import type { FundingInstrumentRow } from './store.js';

export const FUNDING_INSTRUMENT_TYPES = ['AGENCY_CREDIT_LINE', 'CREDIT_CARD', 'CREDIT_LINE', 'INSERTION_ORDER', 'PARTNER_MANAGED'] as const;
export const FUNDING_INSTRUMENT_SORTING = entitySorting(undefined, { start_time: { column: 'start_time' }, type: { column: 'type' } });
const FUNDING_INSTRUMENTS = new AccountEntity({ table: 'ads_funding_instruments', label: 'Funding Instrument', parameter: 'funding_instrument_id' });

export function listFundingInstruments(db: DbOrTx, account: AccountRow, p: ListRequest & { funding_instrument_ids?: string[]; with_deleted: boolean }) {
  return runList(db, entitiesOf(db, 'ads_funding_instruments', account.id, { ids: p.funding_instrument_ids, withDeleted: p.with_deleted }), FUNDING_INSTRUMENT_SORTING, p);
}

/** One instrument of the account; a deleted one only with with_deleted=true. */
export function getFundingInstrument(db: DbOrTx, account: AccountRow, id: string | undefined, withDeleted: boolean): Promise<FundingInstrumentRow> {
  return FUNDING_INSTRUMENTS.get(db, account, id, withDeleted);
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
  return FUNDING_INSTRUMENTS.create(actor, db, account, {
    type: p.type,
    description: p.description ?? '(no payment method has been set up yet)',
    currency: p.currency,
    start_time: p.start_time,
    end_time: p.end_time ?? null,
    credit_limit_local_micro: p.credit_limit_local_micro ?? null,
    funded_amount_local_micro: p.funded_amount_local_micro ?? null,
    entity_status: 'ACTIVE',
    io_header: null,
  });
}

/** DELETE funding_instruments/:id (sandbox only): soft, once. */
export function deleteFundingInstrument(actor: AdsActor, db: DbOrTx, account: AccountRow, id: string | undefined): Promise<FundingInstrumentRow> {
  return FUNDING_INSTRUMENTS.delete(actor, db, account, id);
}
