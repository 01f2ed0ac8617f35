import { Type, type Static } from '@sinclair/typebox';
import { AdsId, AdsTime, Entity, Micros, Nullable } from '../http/entity-schema.js';
import { wireTime } from '../http/time.js';
import type { FundingInstrumentRow } from './store.js';

export const FundingInstrumentSchema = Entity('FundingInstrument', 'What pays for an account\'s campaigns (shared/reference/ads.md §3)', {
  start_time: AdsTime,
  description: Type.String(),
  credit_limit_local_micro: Nullable(Micros),
  end_time: Nullable(AdsTime),
  id: AdsId,
  entity_status: Type.String(),
  account_id: AdsId,
  reasons_not_able_to_fund: Type.Array(Type.String()),
  io_header: Nullable(Type.String()),
  currency: Type.String(),
  funded_amount_local_micro: Nullable(Micros),
  created_at: AdsTime,
  type: Type.String(),
  able_to_fund: Type.Boolean(),
  updated_at: AdsTime,
  credit_remaining_local_micro: Nullable(Micros),
  deleted: Type.Boolean(),
});

/** Why an instrument cannot fund campaigns now: deleted, or its end time has passed. */
export function reasonsNotAbleToFund(fi: FundingInstrumentRow, now: Date): string[] {
  const reasons: string[] = [];
  if (fi.deleted === 1) reasons.push('DELETED');
  else if (fi.end_time !== null && fi.end_time <= now.toISOString()) reasons.push('EXPIRED');
  return reasons;
}

/** The funding instrument object (shared/reference/ads.md §3). */
export function fundingInstrumentWire(fi: FundingInstrumentRow, now: Date): Static<typeof FundingInstrumentSchema> {
  const reasons = reasonsNotAbleToFund(fi, now);
  return {
    start_time: wireTime(fi.start_time),
    description: fi.description,
    credit_limit_local_micro: fi.credit_limit_local_micro,
    end_time: wireTime(fi.end_time),
    id: fi.id,
    entity_status: fi.entity_status,
    account_id: fi.account_id,
    reasons_not_able_to_fund: reasons,
    io_header: fi.io_header,
    currency: fi.currency,
    funded_amount_local_micro: fi.funded_amount_local_micro,
    created_at: wireTime(fi.created_at),
    type: fi.type,
    able_to_fund: reasons.length === 0 && fi.entity_status === 'ACTIVE',
    updated_at: wireTime(fi.updated_at),
    // Nothing is ever spent in Plaza, so what remains of a credit limit is all of it.
    credit_remaining_local_micro: fi.credit_limit_local_micro,
    deleted: fi.deleted === 1,
  };
}
