import { Type, type Static } from '@sinclair/typebox';
import { AdsId, AdsTime, Entity, PlatformIdText } from '../http/entity-schema.js';
import { wireTime } from '../http/time.js';
import type { AdvertiserBusinessCategory, CuratedCategory } from './reference-data.js';
import type { LineItemCuratedCategoryRow } from './store.js';

const CountryCode = Type.String({ pattern: '^[A-Z]{2}$' });

export const AdvertiserBusinessCategorySchema = Entity('AdvertiserBusinessCategory', 'A set of IAB categories, for PREROLL_VIEWS line items (spec 001 "Advertiser business category")', {
  id: AdsId,
  name: Type.String(),
  iab_categories: Type.Array(Type.String({ pattern: '^IAB[0-9]+(-[0-9]+)?$' })),
});

export function advertiserBusinessCategoryWire(c: AdvertiserBusinessCategory): Static<typeof AdvertiserBusinessCategorySchema> {
  return { id: c.id, name: c.name, iab_categories: c.iab_categories };
}

export const CuratedCategorySchema = Entity('CuratedCategory', 'A set of publishers, "available only in the countries of its country_codes" (spec 001 "Curated category")', {
  name: Type.String(),
  description: Type.String(),
  country_codes: Type.Array(CountryCode),
  publisher_user_ids: Type.Array(PlatformIdText),
  id: AdsId,
  created_at: AdsTime,
  updated_at: AdsTime,
  videos_monetized_in_last_thirty_days: Type.Integer({ minimum: 0 }),
});

/** The curated category object (spec 001 "Curated category"). */
export function curatedCategoryWire(c: CuratedCategory): Static<typeof CuratedCategorySchema> {
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

export const LineItemCuratedCategorySchema = Entity('LineItemCuratedCategory', 'A curated category attached to a PREROLL_VIEWS line item (spec 001 "Line item curated category")', {
  line_item_id: AdsId,
  curated_category_id: AdsId,
  id: AdsId,
  created_at: AdsTime,
  updated_at: AdsTime,
  deleted: Type.Boolean(),
});

/** The line item curated category object (spec 001 "Line item curated category"). */
export function lineItemCuratedCategoryWire(r: LineItemCuratedCategoryRow): Static<typeof LineItemCuratedCategorySchema> {
  return {
    line_item_id: r.line_item_id,
    curated_category_id: r.curated_category_id,
    id: r.id,
    created_at: wireTime(r.created_at),
    updated_at: wireTime(r.updated_at),
    deleted: r.deleted === 1,
  };
}
