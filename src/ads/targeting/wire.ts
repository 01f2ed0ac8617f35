import { Type, type Static } from '@sinclair/typebox';
import { AdsId, AdsTime, Entity, Nullable, OneOf } from '../http/entity-schema.js';
import { wireTime } from '../http/time.js';
import type { TargetingCriterionRow } from './store.js';
import { OPERATOR_TYPES, TARGETING_TYPES } from './vocabulary.js';

export const TargetingCriterionSchema = Entity('TargetingCriterion', 'Who a line item reaches, one criterion (shared/reference/ads.md §3)', {
  line_item_id: AdsId,
  name: Type.String({ description: 'What the value names: @username for users, the country code for countries' }),
  id: AdsId,
  location_type: Type.Optional(Nullable(OneOf(['COUNTRIES']))),
  operator_type: OneOf(OPERATOR_TYPES),
  created_at: AdsTime,
  targeting_value: Type.String(),
  updated_at: AdsTime,
  deleted: Type.Boolean(),
  targeting_type: OneOf(TARGETING_TYPES),
});
type TargetingCriterion = Static<typeof TargetingCriterionSchema>;

/** The targeting criterion object (shared/reference/ads.md §3); location_type for LOCATION criteria only. */
export function targetingCriterionWire(t: TargetingCriterionRow): TargetingCriterion {
  return {
    line_item_id: t.line_item_id,
    name: t.name,
    id: t.id,
    ...(t.targeting_type === 'LOCATION' ? { location_type: t.location_type as TargetingCriterion['location_type'] } : {}),
    operator_type: t.operator_type as TargetingCriterion['operator_type'],
    created_at: wireTime(t.created_at),
    targeting_value: t.targeting_value,
    updated_at: wireTime(t.updated_at),
    deleted: t.deleted === 1,
    targeting_type: t.targeting_type as TargetingCriterion['targeting_type'],
  };
}
