import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
import type { Listener } from '../../http/server.js';
import { idParams, idString, listQuery, listRequest, userAuth, userOrAppAuth } from '../graph/route-kit.js';
import { postExpansions } from '../posts/service.js';
import { userExpansions } from '../users/service.js';
import { callerOf, userCallerOf } from '../route-auth.js';
import { defaultErrorResponse, pageBody, pageResponse, writeResponse } from '../schemas.js';
import { PostSchema } from '../posts/schema.js';
import { UserSchema } from '../users/schema.js';
import { viewOf } from '../view.js';
import { repostedBy, repostPost, repostsOf, repostsOfMe, unrepostPost } from './service.js';

const writeAuth = userAuth('post.write', 'post.read', 'users.read');
/** max_results of the repost lists. */
const REPOST_LISTS = { min: 1, max: 100, default: 100 };

export async function repostRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  app.post(
    '/2/users/:id/reposts',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'repostPost',
        summary: 'Repost a post',
        tags: ['Posts'],
        params: idParams('id'),
        body: Type.Object({ post_id: idString('The post to repost.') }, { additionalProperties: false }),
        response: { 200: writeResponse({ reposted: Type.Boolean(), rest_id: Type.String({ description: 'The id of the repost.' }) }), default: defaultErrorResponse },
      },
    },
    async (request) => {
      const caller = userCallerOf(ctx, request);
      return { data: await repostPost(ctx, caller, viewOf(ctx.clock, caller), request.params.id, request.body.post_id) };
    },
  );

  app.delete(
    '/2/users/:id/reposts/:source_post_id',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'unrepostPost',
        summary: 'Undo a repost',
        tags: ['Posts'],
        params: idParams('id', 'source_post_id'),
        response: { 200: writeResponse({ reposted: Type.Boolean() }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await unrepostPost(ctx, userCallerOf(ctx, request), request.params.id, request.params.source_post_id) }),
  );

  app.get(
    '/2/posts/:id/reposted_by',
    {
      config: { auth: userOrAppAuth('post.read', 'users.read') },
      schema: {
        operationId: 'getPostsRepostedBy',
        summary: 'The users who reposted a post, newest repost first',
        tags: ['Users'],
        params: idParams('id'),
        querystring: listQuery(REPOST_LISTS, userExpansions),
        response: { 200: pageResponse(UserSchema), default: defaultErrorResponse },
      },
    },
    async (request) => pageBody(await repostedBy(ctx, viewOf(ctx.clock, callerOf(request)), request.params.id, listRequest(request.query, REPOST_LISTS, userExpansions))),
  );

  app.get(
    '/2/posts/:id/reposts',
    {
      config: { auth: userOrAppAuth('post.read', 'users.read') },
      schema: {
        operationId: 'getPostsReposts',
        summary: 'The reposts of a post, newest first',
        tags: ['Posts'],
        params: idParams('id'),
        querystring: listQuery(REPOST_LISTS, postExpansions),
        response: { 200: pageResponse(PostSchema), default: defaultErrorResponse },
      },
    },
    async (request) => pageBody(await repostsOf(ctx, viewOf(ctx.clock, callerOf(request)), request.params.id, listRequest(request.query, REPOST_LISTS, postExpansions))),
  );

  app.get(
    '/2/users/reposts_of_me',
    {
      config: { auth: userAuth('timeline.read', 'post.read') },
      schema: {
        operationId: 'getUsersRepostsOfMe',
        summary: "The authenticated user's posts that others reposted, newest first",
        tags: ['Posts'],
        querystring: listQuery(REPOST_LISTS, postExpansions),
        response: { 200: pageResponse(PostSchema), default: defaultErrorResponse },
      },
    },
    async (request) => {
      const caller = userCallerOf(ctx, request);
      return pageBody(await repostsOfMe(ctx, caller, viewOf(ctx.clock, caller), listRequest(request.query, REPOST_LISTS, postExpansions)));
    },
  );
}
