import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
import { listParam, parseSelectionText } from '../../http/fields.js';
import type { Listener } from '../../http/server.js';
import { idParams, listQuery, listRequest, query, userAuth, userOrAppAuth } from '../graph/route-kit.js';
import { postExpansions } from '../posts/service.js';
import { callerOf } from '../route-auth.js';
import { CommunitySchema, defaultErrorResponse, pageBody, pageResponse, ProblemSchema } from '../schemas.js';
import { PostSchema } from '../posts/schema.js';
import { viewOf } from '../view.js';
import { communityPosts, lookupCommunity, parseCommunitySearch, searchCommunities } from './service.js';
import { communityFields } from './wire.js';

/** max_results of a community's posts. */
const COMMUNITY_POSTS = { min: 5, max: 100, default: 10 };
/** max_results of a community search (shared/reference S167: 10 to 100, default 10). */
const COMMUNITY_SEARCH = { min: 10, max: 100, default: 10 };
const COMMUNITY_FIELDS = Object.keys(communityFields).sort();

export async function communityRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  app.get(
    '/2/communities/:id',
    {
      config: { auth: userOrAppAuth('post.read', 'users.read', 'list.read') },
      schema: {
        operationId: 'getCommunitiesById',
        summary: 'Look up a community by id',
        tags: ['Users'],
        params: idParams('id'),
        querystring: query({ 'community.fields': listParam(COMMUNITY_FIELDS, 'A comma separated list of community fields to display.') }),
        response: { 200: Type.Object({ data: Type.Ref(CommunitySchema) }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await lookupCommunity(ctx, viewOf(ctx.clock, callerOf(request)), request.params.id, parseSelectionText('community.fields', request.query['community.fields'], COMMUNITY_FIELDS)) }),
  );

  app.get(
    '/2/communities/search',
    {
      config: { auth: userAuth('post.read', 'users.read') },
      schema: {
        operationId: 'searchCommunities',
        summary: 'Communities whose name or description holds every word of the query, largest first',
        tags: ['Communities'],
        querystring: query({
          query: Type.String({ minLength: 1, maxLength: 4096, description: 'Words to find in the name or description.' }),
          max_results: Type.Optional(Type.Integer({ minimum: 10, maximum: 100, default: 10, description: '10 to 100; default 10.' })),
          next_token: Type.Optional(Type.String({ minLength: 1, description: 'The next_token of the previous page.' })),
          pagination_token: Type.Optional(Type.String({ minLength: 1, description: 'The same as next_token.' })),
          'community.fields': listParam(COMMUNITY_FIELDS, 'A comma separated list of community fields to display.'),
        }),
        response: {
          200: Type.Object({
            data: Type.Optional(Type.Array(Type.Ref(CommunitySchema))),
            errors: Type.Optional(Type.Array(Type.Ref(ProblemSchema), { minItems: 1 })),
            meta: Type.Object({ result_count: Type.Integer({ format: 'int32' }), next_token: Type.Optional(Type.String()) }),
          }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => {
      const selected = parseSelectionText('community.fields', request.query['community.fields'], COMMUNITY_FIELDS);
      const result = await searchCommunities(ctx, viewOf(ctx.clock, callerOf(request)), parseCommunitySearch(request.query, COMMUNITY_SEARCH, selected));
      return { data: result.data.length > 0 ? result.data : undefined, meta: result.meta };
    },
  );

  app.get(
    '/2/communities/:id/posts',
    {
      config: { auth: userOrAppAuth('post.read', 'users.read') },
      schema: {
        operationId: 'getCommunitiesPosts',
        summary: "A community's posts, newest first (Plaza: the public platform shows them only in its apps)",
        tags: ['Posts'],
        params: idParams('id'),
        querystring: listQuery(COMMUNITY_POSTS, postExpansions),
        response: { 200: pageResponse(PostSchema), default: defaultErrorResponse },
      },
    },
    async (request) => pageBody(await communityPosts(ctx, viewOf(ctx.clock, callerOf(request)), request.params.id, listRequest(request.query, COMMUNITY_POSTS, postExpansions))),
  );
}
