import { Type, type Static } from '@sinclair/typebox';
import type { AdsAccountHistoryTable } from '../../store/schema-ads.js';
import { CampaignHistoryDataSchema } from '../campaigns/wire.js';
import { AdsId, AdsTime, Entity, OneOf, PlatformIdText } from '../http/entity-schema.js';
import { wireTime } from '../http/time.js';
import { LineItemSchema } from '../line-items/wire.js';
import { PromotedAccountSchema, PromotedPostSchema } from '../promoted/wire.js';
import { TargetingCriterionSchema } from '../targeting/wire.js';
import { API_PLATFORM, HISTORY_ENTITIES } from './record.js';

const Change = Type.Object({ old: Type.Unknown(), new: Type.Unknown() }, { additionalProperties: false });

export const HistoryRecordSchema = Entity('AccountHistoryRecord', 'One change of a campaign, line item, promoted post, targeting criterion or promoted account (spec 001 "Account history record")', {
  change_by: Type.Object({ user_id: PlatformIdText, platform: Type.Literal(API_PLATFORM) }, { additionalProperties: false }),
  changes: Type.Record(Type.String(), Change, { description: 'Field by field, {old, new}; empty for a CREATE' }),
  change_time: AdsTime,
  entity_id: AdsId,
  entity: OneOf(HISTORY_ENTITIES),
  entity_data: Type.Union([CampaignHistoryDataSchema, LineItemSchema, PromotedPostSchema, PromotedAccountSchema, TargetingCriterionSchema], { description: 'The entity after the change' }),
  change_type: OneOf(['CREATE', 'UPDATE', 'DELETE']),
});
type HistoryRecord = Static<typeof HistoryRecordSchema>;

/** The account history record (spec 001 "Account history record"). */
export function historyWire(h: AdsAccountHistoryTable): HistoryRecord {
  return {
    change_by: { user_id: h.user_id, platform: h.platform as typeof API_PLATFORM },
    changes: JSON.parse(h.changes) as HistoryRecord['changes'],
    change_time: wireTime(h.change_time),
    entity_id: h.entity_id,
    entity: h.entity_type as HistoryRecord['entity'],
    entity_data: JSON.parse(h.entity_data) as HistoryRecord['entity_data'],
    change_type: h.change_type as HistoryRecord['change_type'],
  };
}
