import { gzipSync } from 'node:zlib';
import type { PlatformContext } from '../../platform/context.js';
import { flushImpressions } from '../../platform/analytics/recording.js';
import { hourlyImpressions } from '../../platform/analytics/store.js';
import type { DbOrTx } from '../../store/store.js';
import type { AccountRow } from '../actor.js';
import { AdsError } from '../http/errors.js';
import { idList, oneOf, oneOfList, PLATFORM_ID, time, type Parsed } from '../http/params.js';
import { wireTime } from '../http/time.js';
import { accountUserIds } from '../promoted/store.js';
import type { StatsEcho } from './wire.js';
import { addTally, emptyTally, METRIC_GROUP_NAMES, metricsOf, ORGANIC_METRICS, type MetricGroup, type Tally } from './metrics.js';
import {
  activeEntities,
  deliveryHours,
  ENTITY_COLUMNS,
  entitiesOfAccount,
  insertStatsJob,
  organicHours,
  postsByAuthors,
  type HourRow,
  type PromotedEntity,
  type StatsJobRow,
} from './store.js';

/**
 * Analytics (issue 38 §3): GET stats/accounts/:account_id (synchronous, up to 7 days), the
 * asynchronous jobs (up to 90 days, their result a gzipped JSON file Plaza serves) and
 * active_entities, all added up from what delivery recorded (src/ads/delivery/) and, for organic
 * posts, from the platform's own impressions, likes, replies and reposts. Nothing is invented:
 * a metric Plaza cannot observe is null.
 */

export const STATS_ENTITIES = ['ACCOUNT', 'FUNDING_INSTRUMENT', 'CAMPAIGN', 'LINE_ITEM', 'PROMOTED_POST', 'MEDIA_CREATIVE', 'ORGANIC_POST'] as const;
type StatsEntity = (typeof STATS_ENTITIES)[number];
const ENTITY_ALIASES = { PROMOTED_TWEET: 'PROMOTED_POST', ORGANIC_TWEET: 'ORGANIC_POST' } as const;
export const GRANULARITIES = ['DAY', 'HOUR', 'TOTAL'] as const;
export const STATS_PLACEMENTS = ['ALL_ON_PLATFORM', 'PUBLISHER_NETWORK'] as const;
export const MAX_STATS_ENTITY_IDS = 20;
export const MAX_SYNC_DAYS = 7;
export const MAX_ASYNC_DAYS = 90;
/** How long an asynchronous job is PROCESSING (by the clock) before its file can be fetched, and how long the file is kept. */
export const STATS_JOB_PROCESSING_MS = 10_000;
export const STATS_JOB_KEPT_MS = 7 * 24 * 60 * 60 * 1000;

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** The parameters of a stats request, synchronous or a job's (shared/reference: the public SDK's analytics). */
export const statsParams = {
  entity: oneOf(STATS_ENTITIES, ENTITY_ALIASES).required(),
  entity_ids: idList({ max: MAX_STATS_ENTITY_IDS }).required(),
  start_time: time().required(),
  end_time: time().required(),
  granularity: oneOf(GRANULARITIES).required(),
  metric_groups: oneOfList(METRIC_GROUP_NAMES).required(),
  placement: oneOf(STATS_PLACEMENTS, { ALL_ON_TWITTER: 'ALL_ON_PLATFORM' }).required(),
};
export type StatsRequest = Parsed<typeof statsParams>;

/** Members the public platform echoes as null: Plaza keeps no segments, countries or platforms. */
export const UNSEGMENTED = { segmentation_type: null, country: null, platform: null } as const;

/** The time window: whole hours, end after start, at most `maxDays` long. */
function checkWindow(r: Pick<StatsRequest, 'start_time' | 'end_time'>, maxDays: number, wholeHours: boolean): { start: number; end: number } {
  const start = Date.parse(r.start_time);
  const end = Date.parse(r.end_time);
  if (wholeHours) {
    for (const [name, at] of [['start_time', start], ['end_time', end]] as const) {
      if (at % HOUR_MS !== 0) throw AdsError.invalidParameter(name, `${name} must be expressed in whole hours, such as ${wireTime(new Date(at - (at % HOUR_MS)).toISOString())}`);
    }
  }
  if (end <= start) throw AdsError.invalidParameter('end_time', 'end_time must be after start_time');
  if (end - start > maxDays * DAY_MS) throw AdsError.invalidParameter('end_time', `The time between start_time and end_time must be at most ${maxDays} days`);
  return { start, end };
}

/** entity_ids must each name an entity of the account (ORGANIC_POST: a post by one of its users). */
async function checkEntityIds(db: DbOrTx, account: AccountRow, entity: StatsEntity, ids: readonly string[]): Promise<void> {
  const found = new Set(
    entity === 'ACCOUNT'
      ? ids.filter((id) => id === account.id)
      : entity === 'ORGANIC_POST'
        ? await postsByAuthors(db, await accountUserIds(db, account.id), ids.filter((id) => PLATFORM_ID.test(id)))
        : await entitiesOfAccount(db, TABLES[entity], account.id, ids),
  );
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) throw AdsError.invalidParameter('entity_ids', `${entity} ${missing} was not found in account ${account.id}`);
}

const TABLES = {
  FUNDING_INSTRUMENT: 'ads_funding_instruments',
  CAMPAIGN: 'ads_campaigns',
  LINE_ITEM: 'ads_line_items',
  PROMOTED_POST: 'ads_promoted_posts',
  MEDIA_CREATIVE: 'ads_media_creatives',
} as const;

/** Each entity's tallies by hour (`YYYY-MM-DDTHH`). */
async function hourlyTallies(ctx: PlatformContext, db: DbOrTx, r: StatsRequest): Promise<Map<string, Map<string, Tally>>> {
  const rows: HourRow[] = [];
  // Plaza delivers into home timelines only: nothing on the publisher network; media creatives never deliver there.
  if (r.placement === 'ALL_ON_PLATFORM' && r.entity !== 'MEDIA_CREATIVE') {
    if (r.entity === 'ORGANIC_POST') rows.push(...(await organicTallies(ctx, db, r)));
    else rows.push(...(await deliveryHours(db, ENTITY_COLUMNS[r.entity as PromotedEntity], r.entity_ids, r.start_time, r.end_time)));
  }
  const byEntity = new Map<string, Map<string, Tally>>();
  for (const row of rows) {
    const hours = byEntity.get(row.id) ?? new Map<string, Tally>();
    byEntity.set(row.id, hours);
    const tally = hours.get(row.hour) ?? emptyTally();
    hours.set(row.hour, tally);
    addTally(tally, { counts: { [row.kind]: row.n }, billedEngagements: row.kind === 'impression' ? 0 : row.billed, charge: row.charge });
  }
  return byEntity;
}

/**
 * Organic activity: the platform's impressions, likes, replies and reposts of the posts, less
 * what their promotion brought (a promoted impression in a timeline is also an impression of the
 * post; a simulated one is not), never below nothing in an hour.
 */
async function organicTallies(ctx: PlatformContext, db: DbOrTx, r: StatsRequest): Promise<HourRow[]> {
  await flushImpressions(ctx);
  const counts = new Map<string, HourRow>();
  const add = (row: HourRow, sign: 1 | -1) => {
    const key = `${row.id}|${row.hour}|${row.kind}`;
    const into = counts.get(key) ?? { ...row, n: 0, billed: 0, charge: 0 };
    into.n += sign * row.n;
    counts.set(key, into);
  };
  for (const h of await hourlyImpressions(db, r.entity_ids, r.start_time, r.end_time)) {
    add({ id: h.post_id, hour: h.hour.slice(0, 13), kind: 'impression', n: Number(h.impressions), billed: 0, charge: 0 }, 1);
  }
  for (const row of await organicHours(db, r.entity_ids, r.start_time, r.end_time)) add(row, 1);
  for (const row of await deliveryHours(db, 'post_id', r.entity_ids, r.start_time, r.end_time)) add(row, -1);
  return [...counts.values()].filter((row) => row.n > 0);
}

/** The answer of a stats request: `data_type`, `time_series_length` and each entity's metrics, in entity_ids order. */
export async function statsOf(ctx: PlatformContext, db: DbOrTx, account: AccountRow, r: StatsRequest, maxDays = MAX_SYNC_DAYS) {
  const { start, end } = checkWindow(r, maxDays, true);
  await checkEntityIds(db, account, r.entity, r.entity_ids);
  const hours = (end - start) / HOUR_MS;
  const span = r.granularity === 'HOUR' ? 1 : r.granularity === 'DAY' ? 24 : hours;
  const length = Math.ceil(hours / span);
  const tallies = await hourlyTallies(ctx, db, r);
  const data = r.entity_ids.map((id) => {
    const buckets = Array.from({ length }, emptyTally);
    for (const [hour, tally] of tallies.get(id) ?? []) {
      const index = Math.floor((Date.parse(`${hour}:00:00Z`) - start) / (span * HOUR_MS));
      if (index >= 0 && index < length) addTally(buckets[index]!, tally);
    }
    const observable = r.entity === 'ORGANIC_POST' ? ORGANIC_METRICS : undefined;
    return { id, id_data: [{ segment: null, metrics: metricsOf(r.metric_groups as MetricGroup[], buckets, observable) }] };
  });
  return { data_type: 'stats', time_series_length: length, data };
}

/** A request's parameters as the answers echo them. */
export function statsEcho(r: StatsRequest): StatsEcho {
  return {
    start_time: wireTime(r.start_time),
    end_time: wireTime(r.end_time),
    entity: r.entity,
    entity_ids: r.entity_ids,
    granularity: r.granularity,
    metric_groups: r.metric_groups,
    placement: r.placement,
    ...UNSEGMENTED,
  };
}

/**
 * POST stats/jobs/accounts/:account_id: the stats are added up now, kept gzipped, and the job is
 * PROCESSING for STATS_JOB_PROCESSING_MS by the clock; then SUCCESS, with the file's URL, until
 * it expires STATS_JOB_KEPT_MS later.
 */
export async function createStatsJob(ctx: PlatformContext, db: DbOrTx, account: AccountRow, r: StatsRequest): Promise<StatsJobRow> {
  const body = await statsOf(ctx, db, account, r, MAX_ASYNC_DAYS);
  const now = ctx.clock.now().getTime();
  const params = statsEcho(r);
  const row = {
    id: ctx.ids.next(),
    account_id: account.id,
    params: JSON.stringify(params),
    created_at: new Date(now).toISOString(),
    ready_at: new Date(now + STATS_JOB_PROCESSING_MS).toISOString(),
    expires_at: new Date(now + STATS_JOB_PROCESSING_MS + STATS_JOB_KEPT_MS).toISOString(),
    cancelled_at: null,
  };
  await insertStatsJob(db, { ...row, result: gzipSync(JSON.stringify({ ...body, request: { params } })) });
  return row;
}

export const ACTIVE_ENTITIES = ['CAMPAIGN', 'FUNDING_INSTRUMENT', 'LINE_ITEM', 'MEDIA_CREATIVE', 'PROMOTED_ACCOUNT', 'PROMOTED_POST'] as const;

export const activeEntitiesParams = {
  entity: oneOf(ACTIVE_ENTITIES, { PROMOTED_TWEET: 'PROMOTED_POST' }).required(),
  start_time: time().required(),
  end_time: time().required(),
  funding_instrument_ids: idList({ max: 200 }),
  campaign_ids: idList({ max: 200 }),
  line_item_ids: idList({ max: 200 }),
};

/**
 * GET stats/accounts/:account_id/active_entities: the entities with delivery in the window (at
 * most 90 days), with their first and last activity in it, to ask stats for only those.
 */
export async function activeEntitiesOf(db: DbOrTx, account: AccountRow, r: Parsed<typeof activeEntitiesParams>) {
  checkWindow(r, MAX_ASYNC_DAYS, false);
  // Promoted accounts and media creatives never deliver in Plaza: nothing is active.
  if (r.entity === 'PROMOTED_ACCOUNT' || r.entity === 'MEDIA_CREATIVE') return { data_type: 'active_entities', data: [] };
  const filters = [
    { column: 'funding_instrument_id' as const, ids: r.funding_instrument_ids },
    { column: 'campaign_id' as const, ids: r.campaign_ids },
    { column: 'line_item_id' as const, ids: r.line_item_ids },
  ].flatMap((f) => (f.ids ? [{ column: f.column, ids: f.ids }] : []));
  const rows = await activeEntities(db, ENTITY_COLUMNS[r.entity], account.id, r.start_time, r.end_time, filters);
  return {
    data_type: 'active_entities',
    data: rows.map((e) => ({ entity_id: e.entity_id, activity_start_time: wireTime(e.first), activity_end_time: wireTime(e.last), placements: ['ALL_ON_PLATFORM'] })),
  };
}
