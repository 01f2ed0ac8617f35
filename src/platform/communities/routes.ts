import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { listParam, parseSelectionText } from '../../http/fields.js';
import type { Listener } from '../../http/server.js';
import { idParams, listQuery, listRequest, query, userOrAppAuth } from '../graph/route-kit.js';
import { postExpansions } from '../posts/service.js';
import { callerOf } from '../route-auth.js';
import { CommunitySchema, defaultErrorResponse, pageBody, pageResponse, PostSchema } from '../schemas.js';
import { viewOf } from '../view.js';
import { communityPosts, lookupCommunity } from './service.js';
import { communityFields } from './wire.js';

/** max_results of a community's posts. */
const COMMUNITY_POSTS = { min: 5, max: 100, default: 10 };
const COMMUNITY_FIELDS = Object.keys(communityFields).sort();

export async function communityRoutes(app: Listener, ctx: AppContext): Promise<void> {
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
    async (request) => ({ data: await lookupCommunity(ctx, viewOf(ctx.clock, callerOf(request)), request.params.id, parseSelectionText(ctx.problems, 'community.fields', request.query['community.fields'], COMMUNITY_FIELDS)) }),
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
    async (request) => pageBody(await communityPosts(ctx, viewOf(ctx.clock, callerOf(request)), request.params.id, listRequest(ctx, request.query, COMMUNITY_POSTS, postExpansions))),
  );
}
