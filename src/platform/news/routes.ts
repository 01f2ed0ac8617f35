import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
import type { Listener } from '../../http/server.js';
import { listParam } from '../../http/fields.js';
import { idParams, query, userOrAppAuth } from '../graph/route-kit.js';
import { callerOf } from '../route-auth.js';
import { defaultErrorResponse, ProblemSchema } from '../schemas.js';
import { viewOf } from '../view.js';
import { lookupNews, NEWS_QUERY_MAX, NEWS_SEARCH_RANGES, parseNewsFields, parseNewsSearch, searchNews } from './service.js';
import { NEWS_FIELD_NAMES } from './wire.js';

const strings = Type.Array(Type.String());
export const NewsSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.Optional(Type.String()),
    category: Type.Optional(Type.String()),
    hook: Type.Optional(Type.String()),
    summary: Type.Optional(Type.String()),
    disclaimer: Type.Optional(Type.String()),
    keywords: Type.Optional(strings),
    contexts: Type.Optional(
      Type.Object({
        topics: strings,
        entities: Type.Object({ events: strings, organizations: strings, people: strings, places: strings, products: strings }),
        finance: Type.Object({ tickers: strings }),
        sports: Type.Object({ teams: strings }),
      }),
    ),
    cluster_posts_results: Type.Optional(Type.Array(Type.Object({ post_id: Type.String() }))),
    updated_at: Type.Optional(Type.String({ format: 'date-time' })),
    last_updated_at_ms: Type.Optional(Type.String({ description: 'The last update, in milliseconds since the epoch.' })),
  },
  { additionalProperties: true },
);

const errors = Type.Optional(Type.Array(Type.Ref(ProblemSchema), { minItems: 1 }));
const newsFields = { 'news.fields': listParam(NEWS_FIELD_NAMES, 'A comma separated list of news fields to display.') };
const auth = userOrAppAuth('post.read', 'users.read');

/** News stories (spec 000, Nov 19, 2025): search and lookup. */
export async function newsRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  const { maxResults, maxAgeHours } = NEWS_SEARCH_RANGES;
  app.get(
    '/2/news/search',
    {
      config: { auth },
      schema: {
        operationId: 'searchNews',
        summary: 'News stories matching a query (the query language of post search), newest update first',
        tags: ['News'],
        querystring: query({
          query: Type.String({ minLength: 1, maxLength: NEWS_QUERY_MAX, description: `The query, 1 to ${NEWS_QUERY_MAX} characters.` }),
          max_results: Type.Optional(Type.Integer({ minimum: maxResults.min, maximum: maxResults.max, description: `${maxResults.min} to ${maxResults.max}; default ${maxResults.default}.` })),
          max_age_hours: Type.Optional(Type.Integer({ minimum: maxAgeHours.min, maximum: maxAgeHours.max, description: `Only stories updated within this many hours: ${maxAgeHours.min} to ${maxAgeHours.max}; default ${maxAgeHours.default}.` })),
          ...newsFields,
        }),
        response: {
          200: Type.Object({ data: Type.Optional(Type.Array(NewsSchema)), errors, meta: Type.Object({ result_count: Type.Integer({ format: 'int32' }) }) }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return searchNews(ctx, viewOf(ctx.clock, caller), parseNewsSearch(request.query));
    },
  );

  app.get(
    '/2/news/:id',
    {
      config: { auth },
      schema: {
        operationId: 'getNews',
        summary: 'One news story by id',
        tags: ['News'],
        params: idParams('id'),
        querystring: query(newsFields),
        response: { 200: Type.Object({ data: NewsSchema, errors }), default: defaultErrorResponse },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return lookupNews(ctx, viewOf(ctx.clock, caller), request.params.id, parseNewsFields(request.query['news.fields']));
    },
  );
}
