import { wireTime } from '../http/time.js';
import type { CuratedCategory } from './reference-data.js';
import type { LineItemCuratedCategoryRow } from './store.js';

/** The curated category object (spec 001 "Curated category"). */
export function curatedCategoryWire(c: CuratedCategory) {
  return {
    name: c.name,
    description: c.description,
    country_codes: c.country_codes,
    publisher_user_ids: c.publisher_user_ids,
    id: c.id,
    created_at: wireTime(c.created_at),
    updated_at: wireTime(c.updated_at),
    videos_monetized_in_last_thirty_days: c.videos_monetized_in_last_thirty_days,
  };
}

/** The line item curated category object (spec 001 "Line item curated category"). */
export function lineItemCuratedCategoryWire(r: LineItemCuratedCategoryRow) {
  return {
    line_item_id: r.line_item_id,
    curated_category_id: r.curated_category_id,
    id: r.id,
    created_at: wireTime(r.created_at),
    updated_at: wireTime(r.updated_at),
    deleted: r.deleted === 1,
  };
}
