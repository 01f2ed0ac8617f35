import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
import type { Listener } from '../../http/server.js';
import { listParam } from '../../http/fields.js';
import { query } from '../graph/route-kit.js';
import { callerOf } from '../route-auth.js';
import { defaultErrorResponse, ProblemSchema } from '../schemas.js';
import { flushPostReads } from './post-reads.js';
import { parseUsageRequest, USAGE_DAYS, USAGE_FIELDS, usageOfPosts } from './service.js';

const dayUsage = Type.Array(Type.Object({ date: Type.String({ format: 'date-time' }), usage: Type.String({ description: 'Posts used that day.' }) }));

/** GET /2/usage/posts: the posts the app's project read. */
export async function usageRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  app.addHook('onClose', async () => flushPostReads(ctx));
  app.get(
    '/2/usage/posts',
    {
      config: { auth: { schemes: ['app'], scopes: [] } },
      schema: {
        operationId: 'getUsage',
        summary: "The posts the app's project read per day and in the current monthly period",
        tags: ['Usage'],
        querystring: query({
          days: Type.Optional(Type.Integer({ minimum: USAGE_DAYS.min, maximum: USAGE_DAYS.max, description: `${USAGE_DAYS.min} to ${USAGE_DAYS.max}; default ${USAGE_DAYS.default}.` })),
          'usage.fields': listParam(USAGE_FIELDS, 'A comma separated list of usage fields to display.'),
        }),
        response: {
          200: Type.Object({
            data: Type.Object({
              cap_reset_day: Type.Optional(Type.Integer()),
              project_id: Type.Optional(Type.String()),
              project_cap: Type.Optional(Type.String({ description: "The tier's monthly post cap." })),
              project_usage: Type.Optional(Type.String()),
              daily_project_usage: Type.Optional(Type.Object({ project_id: Type.String(), usage: dayUsage })),
              daily_client_app_usage: Type.Optional(Type.Array(Type.Object({ client_app_id: Type.String(), usage: dayUsage, usage_result_count: Type.Integer() }))),
            }),
            errors: Type.Optional(Type.Array(Type.Ref(ProblemSchema), { minItems: 1 })),
          }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => usageOfPosts(ctx, callerOf(request).app, parseUsageRequest(request.query)),
  );
}
