import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
import { listParam } from '../../http/fields.js';
import { parseMaxResults } from '../../http/pagination.js';
import type { Listener } from '../../http/server.js';
import { query, userAuth, userOrAppAuth } from '../graph/route-kit.js';
import { userCallerOf } from '../route-auth.js';
import { defaultErrorResponse, ProblemSchema } from '../schemas.js';
import { MAX_TRENDS, parsePersonalizedTrendFields, parseTrendFields, PERSONALIZED_TREND_FIELDS, personalizedTrends, TREND_FIELDS, trendsByWoeid } from './service.js';

const TrendSchema = Type.Object({ trend_name: Type.Optional(Type.String()), post_count: Type.Optional(Type.Integer()) }, { additionalProperties: false });
const PersonalizedTrendSchema = Type.Object(
  {
    trend_name: Type.Optional(Type.String()),
    post_count: Type.Optional(Type.String({ description: 'The volume as the client shows it, e.g. "1,234 posts" or "12.5K posts".' })),
    category: Type.Optional(Type.String()),
    trending_since: Type.Optional(Type.String({ description: 'When the first counted post with the hashtag was created (ISO 8601).' })),
  },
  { additionalProperties: false },
);
const errors = Type.Optional(Type.Array(Type.Ref(ProblemSchema), { minItems: 1 }));
const body = (result: { data: unknown[]; errors: unknown[] }) => ({ data: result.data.length > 0 ? result.data : undefined, errors: result.errors.length > 0 ? result.errors : undefined });

/** Trends counted from the hashtags of the last 24 hours of posts. */
export async function trendRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  app.get(
    '/2/trends/by/woeid/:woeid',
    {
      config: { auth: userOrAppAuth() },
      schema: {
        operationId: 'getTrendsByWoeid',
        summary: 'The most used hashtags of the last 24 hours, worldwide (WOEID 1) or in a country',
        tags: ['Posts'],
        params: Type.Object({ woeid: Type.Integer({ format: 'int32', description: '1 for worldwide, or the WOEID of a country.' }) }),
        querystring: query({
          max_trends: Type.Optional(Type.Integer({ minimum: MAX_TRENDS.min, maximum: MAX_TRENDS.max, description: `${MAX_TRENDS.min} to ${MAX_TRENDS.max}; default ${MAX_TRENDS.default}.` })),
          'trend.fields': listParam(TREND_FIELDS, 'A comma separated list of Trend fields to display.'),
        }),
        response: { 200: Type.Object({ data: Type.Optional(Type.Array(TrendSchema)), errors }), default: defaultErrorResponse },
      },
    },
    async (request) => {
      const q = request.query;
      return body(
        await trendsByWoeid(ctx, {
          woeid: request.params.woeid,
          maxTrends: parseMaxResults(q.max_trends, MAX_TRENDS, 'max_trends'),
          fields: parseTrendFields(q['trend.fields']),
        }),
      );
    },
  );

  app.get(
    '/2/users/personalized_trends',
    {
      config: { auth: userAuth('post.read', 'users.read') },
      schema: {
        operationId: 'getTrendsPersonalizedTrends',
        summary: "Trends for the authenticated user: the hashtags of the last 24 hours among the posts of the accounts they follow and the posts they liked",
        tags: ['Users'],
        querystring: query({ 'personalized_trend.fields': listParam(PERSONALIZED_TREND_FIELDS, 'A comma separated list of PersonalizedTrend fields to display.') }),
        response: { 200: Type.Object({ data: Type.Optional(Type.Array(PersonalizedTrendSchema)), errors }), default: defaultErrorResponse },
      },
    },
    async (request) => body(await personalizedTrends(ctx, userCallerOf(ctx, request), parsePersonalizedTrendFields(request.query['personalized_trend.fields']))),
  );
}
