import { Type } from '@sinclair/typebox';
import { worldCredential } from '../../worlds/tags.js';
import { AdsError } from '../http/errors.js';
import { count, cursor, pageArray } from '../http/list.js';
import { idList, PLATFORM_ID } from '../http/params.js';
import { one, type AdsRoutes } from '../http/route.js';
import {
  activeEntitiesOf,
  activeEntitiesParams,
  createStatsJob,
  statsOf,
  statsParams,
  UNSEGMENTED,
} from './service.js';
import { cancelStatsJob, statsJobResult, statsJobsOf } from './store.js';
import { ActiveEntitySchema, StatsJobSchema, StatsSchema, statsJobWire } from './wire.js';

/** Where a job's result file is fetched: no credentials, so the file name names its world. */
const FILES_PATH = '/12/stats/jobs/files';
/** Creating and deleting a job changes no entity: whoever may read the account's analytics may. */
const ANALYTICS_PERMISSIONS = ['ACCOUNT_ADMIN', 'AD_MANAGER', 'CREATIVE_MANAGER', 'CAMPAIGN_ANALYST', 'ANALYST'];
const FILE_NAME = /^(?:w[0-9a-z]{10}(?:~|%7[Ee]))?([0-9]{1,19})\.json\.gz$/;

export function statsRoutes(ads: AdsRoutes): void {
  const ctx = ads.ctx;
  const fileUrl = (origin: string) => (id: string) => `${origin}${FILES_PATH}/${worldCredential(ctx, id)}.json.gz`;

  ads.route({
    method: 'GET',
    url: '/stats/accounts/:account_id',
    rate: 'account-read',
    params: statsParams,
    response: Type.Array(StatsSchema),
    handler: async (call) => {
      for (const [name, value] of Object.entries(UNSEGMENTED)) call.echo(name, value);
      return statsOf(ctx, call.db, call.account, call.params);
    },
  });

  ads.route({
    method: 'GET',
    url: '/stats/accounts/:account_id/active_entities',
    rate: 'account-read',
    params: activeEntitiesParams,
    response: Type.Array(ActiveEntitySchema),
    handler: async (call) => activeEntitiesOf(call.db, call.account, call.params),
  });

  ads.route({
    method: 'POST',
    url: '/stats/jobs/accounts/:account_id',
    rate: 'write',
    writePermissions: ANALYTICS_PERMISSIONS,
    params: statsParams,
    response: StatsJobSchema,
    handler: async (call) => {
      for (const [name, value] of Object.entries(UNSEGMENTED)) call.echo(name, value);
      const job = await createStatsJob(ctx, call.db, call.account, call.params);
      return one(statsJobWire(job, ctx.clock.now(), fileUrl(call.origin)));
    },
  });

  ads.route({
    method: 'GET',
    url: '/stats/jobs/accounts/:account_id',
    rate: 'account-read',
    params: { job_ids: idList({ max: 200, pattern: PLATFORM_ID, patternText: 'a job id' }), count: count({ min: 1, max: 1000, default: 200 }), cursor: cursor() },
    response: Type.Array(StatsJobSchema),
    handler: async (call) => {
      const jobs = await statsJobsOf(call.db, call.account.id, call.params.job_ids).execute();
      const page = pageArray(jobs, call.params);
      const now = ctx.clock.now();
      return { next_cursor: page.next_cursor, data: page.rows.map((job) => statsJobWire(job, now, fileUrl(call.origin))) };
    },
  });

  ads.route({
    method: 'DELETE',
    url: '/stats/jobs/accounts/:account_id/:job_id',
    rate: 'write',
    writePermissions: ANALYTICS_PERMISSIONS,
    params: {},
    response: StatsJobSchema,
    handler: async (call) => {
      const id = call.path.job_id ?? '';
      const job = PLATFORM_ID.test(id) ? await cancelStatsJob(call.db, call.account.id, id, ctx.clock.now().toISOString()) : undefined;
      if (!job) throw AdsError.notFound(`Job ${id} was not found`, 'job_id');
      return one(statsJobWire(job, ctx.clock.now(), fileUrl(call.origin)));
    },
  });

  // The result file, as the public platform serves it from its file host: gzipped JSON, no credentials.
  ads.app.get(`${FILES_PATH}/:file`, async (request, reply) => {
    const id = FILE_NAME.exec((request.params as { file: string }).file)?.[1];
    const bytes = id === undefined ? undefined : await statsJobResult(ctx.store.db, id, ctx.clock.now().toISOString());
    if (!bytes) throw AdsError.notFound('No such file, or it has expired');
    return reply.type('application/gzip').send(Buffer.from(bytes));
  });
}
