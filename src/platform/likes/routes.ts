import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
import type { Listener } from '../../http/server.js';
import { idParams, idString, listQuery, listRequest, userAuth } from '../graph/route-kit.js';
import { postExpansions } from '../posts/service.js';
import { userExpansions } from '../users/service.js';
import { userCallerOf } from '../route-auth.js';
import { defaultErrorResponse, pageBody, pageResponse, writeResponse } from '../schemas.js';
import { PostSchema } from '../posts/schema.js';
import { UserSchema } from '../users/schema.js';
import { viewOf } from '../view.js';
import { likedPosts, likePost, likingUsers, unlikePost } from './service.js';

const liked = { 200: writeResponse({ liked: Type.Boolean() }), default: defaultErrorResponse };

/** max_results of the users who liked a post, and of a user's liked posts. */
const LIKING_USERS = { min: 1, max: 100, default: 100 };
const LIKED_POSTS = { min: 5, max: 100, default: 100 };

export async function likeRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  app.post(
    '/2/users/:id/likes',
    {
      config: { auth: userAuth('like.write', 'post.read', 'users.read') },
      schema: {
        operationId: 'likePost',
        summary: 'Like a post (enterprise tier)',
        tags: ['Posts'],
        params: idParams('id'),
        body: Type.Object({ post_id: idString('The post to like.') }, { additionalProperties: false }),
        response: liked,
      },
    },
    async (request) => {
      const caller = userCallerOf(ctx, request);
      return { data: await likePost(ctx, caller, viewOf(ctx.clock, caller), request.params.id, request.body.post_id) };
    },
  );

  app.delete(
    '/2/users/:id/likes/:post_id',
    {
      config: { auth: userAuth('like.write', 'post.read', 'users.read') },
      schema: { operationId: 'unlikePost', summary: 'Unlike a post', tags: ['Posts'], params: idParams('id', 'post_id'), response: liked },
    },
    async (request) => ({ data: await unlikePost(ctx, userCallerOf(ctx, request), request.params.id, request.params.post_id) }),
  );

  app.get(
    '/2/posts/:id/liking_users',
    {
      config: { auth: userAuth('like.read', 'post.read', 'users.read') },
      schema: {
        operationId: 'getPostsLikingUsers',
        summary: 'The users who liked a post, newest like first',
        tags: ['Users'],
        params: idParams('id'),
        querystring: listQuery(LIKING_USERS, userExpansions),
        response: { 200: pageResponse(UserSchema), default: defaultErrorResponse },
      },
    },
    async (request) => pageBody(await likingUsers(ctx, viewOf(ctx.clock, userCallerOf(ctx, request)), request.params.id, listRequest(request.query, LIKING_USERS, userExpansions))),
  );

  app.get(
    '/2/users/:id/liked_posts',
    {
      config: { auth: userAuth('like.read', 'post.read', 'users.read') },
      schema: {
        operationId: 'getUsersLikedPosts',
        summary: 'The posts a user liked, newest like first',
        tags: ['Posts'],
        params: idParams('id'),
        querystring: listQuery(LIKED_POSTS, postExpansions),
        response: { 200: pageResponse(PostSchema), default: defaultErrorResponse },
      },
    },
    async (request) => pageBody(await likedPosts(ctx, viewOf(ctx.clock, userCallerOf(ctx, request)), request.params.id, listRequest(request.query, LIKED_POSTS, postExpansions))),
  );
}
