import { Type, type Static } from '@sinclair/typebox';
import { AdsTime, Entity, Nullable, OneOf } from '../http/entity-schema.js';
import { IdAsNumber } from '../http/json-numbers.js';
import { wireTime } from '../http/time.js';
import type { StatsJobRow } from './store.js';

/** The analytics answers' entities (their envelope adds data_type and time_series_length: src/ads/http/openapi.ts). */

export const StatsSchema = Entity('Stats', "One entity's metrics over the requested window: each metric a series of time_series_length values, or null where nothing happened", {
  id: Type.String(),
  id_data: Type.Array(
    Type.Object({ segment: Type.Null(), metrics: Type.Record(Type.String(), Nullable(Type.Array(Type.Integer({ minimum: 0 })))) }, { additionalProperties: false }),
  ),
});

export const ActiveEntitySchema = Entity('ActiveEntity', 'An entity with delivery in the window: its first and last activity in it', {
  entity_id: Type.String(),
  activity_start_time: AdsTime,
  activity_end_time: AdsTime,
  placements: Type.Array(OneOf(['ALL_ON_PLATFORM', 'PUBLISHER_NETWORK'] as const)),
});

const JOB_STATUSES = ['PROCESSING', 'SUCCESS', 'EXPIRED', 'CANCELLED'] as const;

/** A stats request's parameters as answers and jobs echo them. */
const requestMembers = {
  start_time: AdsTime,
  end_time: AdsTime,
  entity: Type.String(),
  entity_ids: Type.Array(Type.String()),
  granularity: OneOf(['DAY', 'HOUR', 'TOTAL'] as const),
  metric_groups: Type.Array(Type.String()),
  placement: OneOf(['ALL_ON_PLATFORM', 'PUBLISHER_NETWORK'] as const),
  segmentation_type: Type.Null(),
  country: Type.Null(),
  platform: Type.Null(),
};
const StatsEchoSchema = Type.Object(requestMembers);
export type StatsEcho = Static<typeof StatsEchoSchema>;

export const StatsJobSchema = Entity('StatsJob', 'An asynchronous analytics job: PROCESSING, then SUCCESS with the url of its gzipped result until it expires', {
  ...requestMembers,
  /** Written as a bare JSON number (IdAsNumber), as the public platform writes it. */
  id: Type.Unsafe<IdAsNumber>({ type: 'integer' }),
  id_str: Type.String({ pattern: '^[0-9]{1,19}$' }),
  account_id: Type.String(),
  status: OneOf(JOB_STATUSES),
  url: Nullable(Type.String({ format: 'uri' })),
  expires_at: Nullable(AdsTime),
  created_at: AdsTime,
  updated_at: AdsTime,
});

/** A job as the public platform shows it; `fileUrl` names where its result is fetched. */
export function statsJobWire(job: StatsJobRow, now: Date, fileUrl: (id: string) => string): Static<typeof StatsJobSchema> {
  const ready = job.cancelled_at === null && Date.parse(job.ready_at) <= now.getTime();
  const expired = ready && Date.parse(job.expires_at) <= now.getTime();
  const status = job.cancelled_at !== null ? 'CANCELLED' : expired ? 'EXPIRED' : ready ? 'SUCCESS' : 'PROCESSING';
  return {
    ...(JSON.parse(job.params) as StatsEcho),
    id: new IdAsNumber(job.id),
    id_str: job.id,
    account_id: job.account_id,
    status,
    url: status === 'SUCCESS' ? fileUrl(job.id) : null,
    expires_at: ready ? wireTime(job.expires_at) : null,
    created_at: wireTime(job.created_at)!,
    updated_at: wireTime(job.cancelled_at ?? (ready ? job.ready_at : job.created_at))!,
  };
}
