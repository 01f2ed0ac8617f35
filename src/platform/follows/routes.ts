import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
import type { Listener } from '../../http/server.js';
import { idParams, idString, listQuery, listRequest, timeListRequest, userAuth, userOrAppAuth } from '../graph/route-kit.js';
import { callerOf, userCallerOf } from '../route-auth.js';
import { defaultErrorResponse, pageBody, pageResponse, writeResponse } from '../schemas.js';
import { UserSchema } from '../users/schema.js';
import { userExpansions } from '../users/service.js';
import { viewOf } from '../view.js';
import { answerFollowRequest, followRequestsOf, followsOf, followUser, unfollowUser } from './service.js';

/** max_results of followers, following and follow requests. */
const FOLLOWS_RANGE = { min: 1, max: 1000, default: 100 };
const followsQuery = listQuery(FOLLOWS_RANGE, userExpansions);
const usersPage = { 200: pageResponse(UserSchema), default: defaultErrorResponse };

export async function followRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  for (const direction of ['followers', 'following'] as const) {
    app.get(
      `/2/users/:id/${direction}`,
      {
        config: { auth: userOrAppAuth('follows.read', 'post.read', 'users.read') },
        schema: {
          operationId: direction === 'followers' ? 'getUsersFollowers' : 'getUsersFollowing',
          summary: direction === 'followers' ? "A user's followers, newest first" : 'The accounts a user follows, newest first',
          tags: ['Users'],
          params: idParams('id'),
          querystring: followsQuery,
          response: usersPage,
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return pageBody(await followsOf(ctx, caller, viewOf(ctx.clock, caller), request.params.id, direction, timeListRequest(request.query, FOLLOWS_RANGE, userExpansions)));
      },
    );
  }

  app.post(
    '/2/users/:id/following',
    {
      config: { auth: userAuth('follows.write', 'post.read', 'users.read') },
      schema: {
        operationId: 'followUser',
        summary: 'Follow a user (a protected account gets a follow request)',
        tags: ['Users'],
        params: idParams('id'),
        body: Type.Object({ target_user_id: idString('The user to follow.') }, { additionalProperties: false }),
        response: { 200: writeResponse({ following: Type.Boolean(), pending_follow: Type.Boolean() }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await followUser(ctx, userCallerOf(ctx, request), request.params.id, request.body.target_user_id) }),
  );

  app.delete(
    '/2/users/:source_user_id/following/:target_user_id',
    {
      config: { auth: userAuth('follows.write', 'post.read', 'users.read') },
      schema: {
        operationId: 'unfollowUser',
        summary: 'Unfollow a user, or withdraw a pending follow request',
        tags: ['Users'],
        params: idParams('source_user_id', 'target_user_id'),
        response: { 200: writeResponse({ following: Type.Boolean() }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await unfollowUser(ctx, userCallerOf(ctx, request), request.params.source_user_id, request.params.target_user_id) }),
  );

  // Follow requests of protected accounts: the public platform has no v2 endpoint; these are Plaza's.
  app.get(
    '/2/users/:id/follow_requests',
    {
      config: { auth: userAuth('follows.read', 'post.read', 'users.read') },
      schema: {
        operationId: 'getUsersFollowRequests',
        summary: 'Pending requests to follow the authenticated (protected) user, newest first',
        tags: ['Users'],
        params: idParams('id'),
        querystring: followsQuery,
        response: usersPage,
      },
    },
    async (request) => {
      const caller = userCallerOf(ctx, request);
      return pageBody(await followRequestsOf(ctx, caller, viewOf(ctx.clock, caller), request.params.id, listRequest(request.query, FOLLOWS_RANGE, userExpansions)));
    },
  );

  for (const answer of ['accept', 'decline'] as const) {
    app.post(
      `/2/users/:id/follow_requests/:requester_id/${answer}`,
      {
        config: { auth: userAuth('follows.write', 'post.read', 'users.read') },
        schema: {
          operationId: answer === 'accept' ? 'acceptFollowRequest' : 'declineFollowRequest',
          summary: answer === 'accept' ? 'Accept a pending follow request: the requester now follows you' : 'Decline a pending follow request',
          tags: ['Users'],
          params: idParams('id', 'requester_id'),
          response: { 200: writeResponse({ accepted: Type.Boolean() }), default: defaultErrorResponse },
        },
      },
      async (request) => ({
        data: await answerFollowRequest(ctx, userCallerOf(ctx, request), request.params.id, request.params.requester_id, answer === 'accept'),
      }),
    );
  }
}
