import { Type, type Static } from '@sinclair/typebox';
import type { AccountRow } from '../actor.js';
import { AdsId, AdsTime, Entity, Nullable, OneOf } from '../http/entity-schema.js';
import { wireTime } from '../http/time.js';
import { AUDIENCE_TYPES } from '../targeting/vocabulary.js';
import { reasonsNotTargetable } from './status.js';
import type { PermissionRow, VisibleAudience } from './store.js';

export const PERMISSION_LEVELS = ['READ_ONLY', 'READ_WRITE'] as const;
/** Why an audience or a do-not-reach list cannot be targeted now (shared/reference/ads.md §5). */
export const ReasonsNotTargetable = Type.Array(OneOf(['PROCESSING', 'TOO_SMALL']));

export const CustomAudienceSchema = Entity('CustomAudience', 'A CRM list of hashed identifiers, matched against the platform\'s users (shared/reference/ads.md §5)', {
  id: AdsId,
  name: Type.String(),
  description: Nullable(Type.String()),
  audience_type: OneOf(['CRM']),
  audience_size: Type.Integer({ minimum: 0, description: 'The users it matches' }),
  targetable: Type.Boolean(),
  targetable_types: Type.Array(OneOf(AUDIENCE_TYPES as readonly ['CUSTOM_AUDIENCE', 'CUSTOM_AUDIENCE_EXPANDED'])),
  reasons_not_targetable: ReasonsNotTargetable,
  is_owner: Type.Boolean(),
  owner_account_id: AdsId,
  permission_level: Nullable(OneOf(PERMISSION_LEVELS)),
  partner_source: OneOf(['OTHER']),
  created_at: AdsTime,
  updated_at: AdsTime,
  deleted: Type.Boolean(),
});
type CustomAudience = Static<typeof CustomAudienceSchema>;

/** The audience object, with its matched size and what keeps it from being targeted now. */
export function audienceWire(a: VisibleAudience, size: number, viewer: AccountRow, now: Date): CustomAudience {
  const reasons = reasonsNotTargetable(a, size, now);
  const isOwner = a.account_id === viewer.id;
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    audience_type: a.audience_type as CustomAudience['audience_type'],
    audience_size: size,
    targetable: a.deleted === 0 && reasons.length === 0,
    targetable_types: [...(AUDIENCE_TYPES as CustomAudience['targetable_types'])],
    reasons_not_targetable: reasons,
    is_owner: isOwner,
    owner_account_id: a.account_id,
    permission_level: isOwner ? 'READ_WRITE' : (a.granted_level as CustomAudience['permission_level']),
    partner_source: 'OTHER',
    created_at: wireTime(a.created_at),
    updated_at: wireTime(a.updated_at),
    deleted: a.deleted === 1,
  };
}

export const TargetedCampaignSchema = Entity('TargetedCampaign', 'A campaign with line items that target the custom audience', {
  campaign_id: AdsId,
  campaign_name: Type.String(),
  line_items: Type.Array(Type.Object({ id: AdsId, name: Nullable(Type.String()), servable: Type.Boolean() }, { additionalProperties: false })),
});

export const PermissionSchema = Entity('TailoredAudiencePermission', 'Another account\'s use of a custom audience (spec 001 "Tailored audience permission")', {
  tailored_audience_id: AdsId,
  permission_level: OneOf(PERMISSION_LEVELS),
  id: AdsId,
  created_at: AdsTime,
  granted_account_id: AdsId,
  updated_at: AdsTime,
  deleted: Type.Boolean(),
});
type Permission = Static<typeof PermissionSchema>;

export function permissionWire(p: PermissionRow): Permission {
  return {
    tailored_audience_id: p.audience_id,
    permission_level: p.permission_level as Permission['permission_level'],
    id: p.id,
    created_at: wireTime(p.created_at),
    granted_account_id: p.granted_account_id,
    updated_at: wireTime(p.updated_at),
    deleted: p.deleted === 1,
  };
}
