import type { AppContext } from '../../context.js';
import type { Listener } from '../../http/server.js';
import { idParams, pageParams, query, timeWindowParams, userAuth, userOrAppAuth } from '../graph/route-kit.js';
import { callerOf, userCallerOf } from '../route-auth.js';
import { defaultErrorResponse, pageBody, pageResponse, PostSchema, selectionQuery } from '../schemas.js';
import { viewOf } from '../view.js';
import { homeTimeline, mentionsTimeline, userPostsTimeline } from './service.js';

const response = { 200: pageResponse(PostSchema), default: defaultErrorResponse };

export async function timelineRoutes(app: Listener, ctx: AppContext): Promise<void> {
  app.get(
    '/2/users/:id/posts',
    {
      config: { auth: userOrAppAuth('post.read', 'users.read') },
      schema: {
        operationId: 'getUsersPosts',
        summary: "A user's posts, newest first",
        tags: ['Posts'],
        params: idParams('id'),
        querystring: query({ ...pageParams({ min: 5, max: 100, default: 10 }), ...timeWindowParams, ...selectionQuery }),
        response,
      },
    },
    async (request) => pageBody(await userPostsTimeline(ctx, viewOf(ctx.clock, callerOf(request)), request.params.id, request.query)),
  );

  app.get(
    '/2/users/:id/mentions',
    {
      config: { auth: userOrAppAuth('post.read', 'users.read') },
      schema: {
        operationId: 'getUsersMentions',
        summary: 'Posts mentioning a user, newest first',
        tags: ['Posts'],
        params: idParams('id'),
        querystring: query({ ...pageParams({ min: 5, max: 100, default: 10 }), ...timeWindowParams, ...selectionQuery }),
        response,
      },
    },
    async (request) => pageBody(await mentionsTimeline(ctx, viewOf(ctx.clock, callerOf(request)), request.params.id, request.query)),
  );

  app.get(
    '/2/users/:id/timelines/reverse_chronological',
    {
      config: { auth: userAuth('post.read', 'users.read') },
      schema: {
        operationId: 'getUsersTimeline',
        summary: 'The home timeline of the authenticated user, newest first',
        tags: ['Posts'],
        params: idParams('id'),
        querystring: query({ ...pageParams({ min: 1, max: 100, default: 100 }), ...timeWindowParams, ...selectionQuery }),
        response,
      },
    },
    async (request) => {
      const caller = userCallerOf(ctx, request);
      return pageBody(await homeTimeline(ctx, caller, viewOf(ctx.clock, caller), request.params.id, request.query));
    },
  );
}
