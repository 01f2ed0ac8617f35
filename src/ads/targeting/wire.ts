import { wireTime } from '../http/time.js';
import type { TargetingCriterionRow } from './store.js';

/** The targeting criterion object (shared/reference/ads.md §3). */
export function targetingCriterionWire(t: TargetingCriterionRow) {
  return {
    line_item_id: t.line_item_id,
    name: t.name,
    id: t.id,
    ...(t.targeting_type === 'LOCATION' ? { location_type: t.location_type } : {}),
    operator_type: t.operator_type,
    created_at: wireTime(t.created_at),
    targeting_value: t.targeting_value,
    updated_at: wireTime(t.updated_at),
    deleted: t.deleted === 1,
    targeting_type: t.targeting_type,
  };
}
