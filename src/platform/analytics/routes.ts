import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
import { listParam, parseSelectionText } from '../../http/fields.js';
import { invalidParameter, parseIdList } from '../../http/params.js';
import type { Listener } from '../../http/server.js';
import { query, userAuth } from '../graph/route-kit.js';
import { userCallerOf } from '../route-auth.js';
import { defaultErrorResponse, ProblemSchema } from '../schemas.js';
import { ANALYTICS_FIELDS, checkWindow, GRANULARITIES, postsAnalytics, type AnalyticsRequest, type Granularity } from './service.js';
import { flushImpressions } from './recording.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

function parseTime(name: string, raw: string): Date {
  const time = RFC3339.test(raw) ? new Date(raw) : new Date(NaN);
  if (Number.isNaN(time.getTime())) {
    throw invalidParameter(name, [raw], `The \`${name}\` query parameter value [${raw}] is not a valid RFC 3339 date-time, e.g. 2026-01-31T12:00:00Z`);
  }
  return time;
}

interface AnalyticsQuery {
  ids: string;
  start_time: string;
  end_time: string;
  granularity?: string;
  'analytics.fields'?: string;
}

/** Parses the query at the edge: every check before anything is read. */
function analyticsRequest(q: AnalyticsQuery): AnalyticsRequest {
  const ids = parseIdList('ids', q.ids);
  const fields = parseSelectionText('analytics.fields', q['analytics.fields'], ANALYTICS_FIELDS);
  const req: AnalyticsRequest = {
    ids,
    start: parseTime('start_time', q.start_time),
    end: parseTime('end_time', q.end_time),
    granularity: (q.granularity ?? 'total') as Granularity,
    fields,
  };
  checkWindow(req, q.end_time);
  return req;
}

const metric = Type.Optional(Type.Integer());
const AnalyticsSchema = Type.Object(
  {
    id: Type.Optional(Type.String()),
    timestamp: Type.Optional(Type.String()),
    timestamped_metrics: Type.Optional(Type.Array(Type.Object({ timestamp: Type.String(), metrics: Type.Record(Type.String(), Type.Integer()) }))),
  },
  { additionalProperties: metric },
);

/** Post analytics (the reference's GET /2/tweets/analytics, 'tweet' renamed 'post'), and the impression ledger it reads. */
export async function analyticsRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  // The listener closes before the store: impressions counted and not yet written are kept.
  app.addHook('onClose', async () => flushImpressions(ctx));

  app.get(
    '/2/posts/analytics',
    {
      config: { auth: userAuth('post.read', 'users.read') },
      schema: {
        operationId: 'getPostsAnalytics',
        summary: "Engagement of the authenticated user's own posts over a time window",
        tags: ['Posts'],
        querystring: query({
          ids: Type.String({ description: 'Comma-separated ids of your own posts, 1 to 100.' }),
          start_time: Type.String({ description: 'Start of the window, inclusive (RFC 3339).' }),
          end_time: Type.String({ description: 'End of the window, exclusive (RFC 3339).' }),
          granularity: Type.Optional(Type.String({ enum: [...GRANULARITIES], description: 'Bucket size of timestamped_metrics; default total.' })),
          'analytics.fields': listParam(ANALYTICS_FIELDS, 'A comma separated list of Analytics fields to display.'),
        }),
        response: {
          200: Type.Object({ data: Type.Optional(Type.Array(AnalyticsSchema)), errors: Type.Optional(Type.Array(Type.Ref(ProblemSchema), { minItems: 1 })) }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => {
      const result = await postsAnalytics(ctx, userCallerOf(ctx, request), analyticsRequest(request.query));
      return { ...(result.data.length ? { data: result.data } : {}), ...(result.errors.length ? { errors: result.errors } : {}) };
    },
  );
}
