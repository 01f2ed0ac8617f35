import { Type, type Static } from '@sinclair/typebox';
import { ReasonsNotTargetable } from '../audiences/wire.js';
import { reasonsNotTargetable } from '../audiences/status.js';
import { AdsId, AdsTime, Entity, Nullable } from '../http/entity-schema.js';
import { wireTime } from '../http/time.js';
import type { DoNotReachRow } from './store.js';

export const DoNotReachListSchema = Entity('DoNotReachList', 'Hashed identifiers whose users the account\'s audience estimates leave out; one per account (spec 001 "Do-not-reach list")', {
  targetable: Type.Boolean(),
  name: Type.String(),
  description: Nullable(Type.String()),
  id: AdsId,
  reasons_not_targetable: ReasonsNotTargetable,
  created_at: AdsTime,
  list_size: Type.Integer({ minimum: 0 }),
  updated_at: AdsTime,
  deleted: Type.Boolean(),
});

export function doNotReachWire(l: DoNotReachRow, size: number, now: Date): Static<typeof DoNotReachListSchema> {
  const reasons = reasonsNotTargetable(l, size, now);
  return {
    targetable: l.deleted === 0 && reasons.length === 0,
    name: l.name,
    description: l.description,
    id: l.id,
    reasons_not_targetable: reasons,
    created_at: wireTime(l.created_at),
    list_size: size,
    updated_at: wireTime(l.updated_at),
    deleted: l.deleted === 1,
  };
}
