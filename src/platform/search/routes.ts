import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
import type { Listener } from '../../http/server.js';
import { idString, query, userOrAppAuth } from '../graph/route-kit.js';
import { callerOf } from '../route-auth.js';
import { selectionParams } from '../expansions.js';
import { postExpansions } from '../posts/service.js';
import { defaultErrorResponse, pageBody, pageResponse } from '../schemas.js';
import { PostSchema } from '../posts/schema.js';
import { viewOf } from '../view.js';
import { parseCountsRequest, parseSearchRequest } from './request.js';
import { countPosts, SEARCH_RANGES, searchPosts, type SearchIndex } from './service.js';

const windowParams = {
  query: Type.String({ minLength: 1, description: 'The search query (shared/reference/platform.md §6 grammar): up to 512 characters on self-serve tiers (1,024 for the full archive), 4,096 on enterprise.' }),
  start_time: Type.Optional(Type.String({ description: 'Oldest creation time, inclusive (RFC 3339).' })),
  end_time: Type.Optional(Type.String({ description: 'Newest creation time, exclusive (RFC 3339); default now minus 30 seconds.' })),
  since_id: Type.Optional(idString('Only posts newer than this id (not with start_time).')),
  until_id: Type.Optional(idString('Only posts older than this id (not with end_time).')),
  next_token: Type.Optional(Type.String({ minLength: 1, description: 'The next_token of the previous page.' })),
  pagination_token: Type.Optional(Type.String({ minLength: 1, description: 'The same as next_token.' })),
};

const CountsResponse = Type.Object({
  data: Type.Array(Type.Object({ start: Type.String(), end: Type.String(), post_count: Type.Integer() })),
  meta: Type.Object({ total_post_count: Type.Integer(), next_token: Type.Optional(Type.String()) }),
});

const NAMES: Record<SearchIndex, { search: string; counts: string; what: string }> = {
  recent: { search: 'searchPostsRecent', counts: 'getPostsCountsRecent', what: 'the last 7 days' },
  all: { search: 'searchPostsAll', counts: 'getPostsCountsAll', what: 'the full archive' },
};

export async function searchRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  for (const index of ['recent', 'all'] as const) {
    const range = SEARCH_RANGES[index];
    app.get(
      `/2/posts/search/${index}`,
      {
        config: { auth: userOrAppAuth('post.read', 'users.read') },
        schema: {
          operationId: NAMES[index].search,
          summary: `Posts of ${NAMES[index].what} matching a query`,
          tags: ['Posts'],
          querystring: query({
            ...windowParams,
            max_results: Type.Optional(Type.Integer({ minimum: range.min, maximum: range.max, description: `${range.min} to ${range.max}; default ${range.default}.` })),
            sort_order: Type.Optional(Type.Union([Type.Literal('recency'), Type.Literal('relevancy')])),
            ...selectionParams(postExpansions),
          }),
          response: { 200: pageResponse(PostSchema), default: defaultErrorResponse },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        const view = viewOf(ctx.clock, caller);
        return pageBody(await searchPosts(ctx, view, parseSearchRequest(ctx, caller, view, index, request.query)));
      },
    );
    app.get(
      `/2/posts/counts/${index}`,
      {
        config: { auth: userOrAppAuth('post.read', 'users.read') },
        schema: {
          operationId: NAMES[index].counts,
          summary: `How many posts of ${NAMES[index].what} match a query, per minute, hour or day`,
          tags: ['Posts'],
          querystring: query({
            ...windowParams,
            granularity: Type.Optional(Type.Union([Type.Literal('minute'), Type.Literal('hour'), Type.Literal('day')], { description: 'Default hour.' })),
          }),
          response: { 200: CountsResponse, default: defaultErrorResponse },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return countPosts(ctx, parseCountsRequest(ctx, caller, viewOf(ctx.clock, caller), index, request.query));
      },
    );
  }
}
