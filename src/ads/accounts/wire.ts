import { Type, type Static } from '@sinclair/typebox';
import type { AdsAccountAppTable, AdsAccountTable } from '../../store/schema-ads.js';
import { AdsId, AdsTime, Entity, Nullable } from '../http/entity-schema.js';
import { wireTime } from '../http/time.js';

export const AccountSchema = Entity('Account', 'An advertising account (spec 001 "Account")', {
  name: Type.String(),
  business_name: Nullable(Type.String()),
  timezone: Type.String(),
  timezone_switch_at: Nullable(AdsTime),
  id: AdsId,
  created_at: AdsTime,
  updated_at: AdsTime,
  industry_type: Nullable(Type.String()),
  business_id: Nullable(Type.String()),
  approval_status: Type.String(),
  deleted: Type.Boolean(),
});

/** The account object (spec 001 "Account"). */
export function accountWire(a: AdsAccountTable): Static<typeof AccountSchema> {
  return {
    name: a.name,
    business_name: a.business_name,
    timezone: a.timezone,
    timezone_switch_at: wireTime(a.timezone_switch_at),
    id: a.id,
    created_at: wireTime(a.created_at),
    updated_at: wireTime(a.updated_at),
    industry_type: a.industry_type,
    business_id: a.business_id,
    approval_status: a.approval_status,
    deleted: a.deleted === 1,
  };
}

/** The account app object (spec 001 "Account app"). */
export function accountAppWire(a: AdsAccountAppTable) {
  return {
    app_store_identifier: a.app_store_identifier,
    conversion_tracking_enabled: a.conversion_tracking_enabled === 1,
    deep_link_pattern: a.deep_link_pattern,
    id: a.id,
    created_at: wireTime(a.created_at),
    updated_at: wireTime(a.updated_at),
    os_type: a.os_type,
    deleted: a.deleted === 1,
  };
}
