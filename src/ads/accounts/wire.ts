import { Type, type Static } from '@sinclair/typebox';
import type { AdsAccountAppTable, AdsAccountTable } from '../../store/schema-ads.js';
import { AdsId, AdsTime, Entity, Nullable, OneOf, PlatformIdText } from '../http/entity-schema.js';
import { wireTime } from '../http/time.js';
import { ACCOUNT_FEATURES } from './service.js';

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

export const AccountAppSchema = Entity('AccountApp', 'A mobile app of the account (spec 001 "Account app")', {
  app_store_identifier: Type.String(),
  conversion_tracking_enabled: Type.Boolean(),
  deep_link_pattern: Nullable(Type.String()),
  id: AdsId,
  created_at: AdsTime,
  updated_at: AdsTime,
  os_type: Type.String(),
  deleted: Type.Boolean(),
});

/** The account app object (spec 001 "Account app"). */
export function accountAppWire(a: AdsAccountAppTable): Static<typeof AccountAppSchema> {
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

export const AuthenticatedUserAccessSchema = Entity('AuthenticatedUserAccess', "The calling user's permissions on the account", {
  user_id: PlatformIdText,
  permissions: Type.Array(Type.String(), { description: 'e.g. ACCOUNT_ADMIN, AD_MANAGER, CREATIVE_MANAGER, CAMPAIGN_ANALYST, TWEET_COMPOSER' }),
});

export function authenticatedUserAccessWire(userId: string, permissions: string[]): Static<typeof AuthenticatedUserAccessSchema> {
  return { user_id: userId, permissions };
}

/** GET and the sandbox's POST and DELETE accounts/:id/features: the account's features. */
export const AccountFeaturesSchema = Type.Array(OneOf(ACCOUNT_FEATURES), { description: 'The features the account has' });
