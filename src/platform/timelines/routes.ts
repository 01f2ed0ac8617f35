import type { PlatformContext } from '../context.js';
import type { Listener } from '../../http/server.js';
import type { MaxResultsRange } from '../../http/pagination.js';
import { parseSelection, selectionParams } from '../expansions.js';
import { parseTimePage, parseTimeWindow } from '../graph/query.js';
import { idParams, pageParams, query, timeWindowParams, userAuth, userOrAppAuth } from '../graph/route-kit.js';
import { postExpansions } from '../posts/service.js';
import { callerOf, userCallerOf } from '../route-auth.js';
import { defaultErrorResponse, pageBody, pageResponse } from '../schemas.js';
import { PostSchema } from '../posts/schema.js';
import { viewOf } from '../view.js';
import { homeTimeline, mentionsTimeline, userPostsTimeline, type TimelineRequest } from './service.js';

const response = { 200: pageResponse(PostSchema), default: defaultErrorResponse };

/** max_results of the user timelines (5 to 100, default 10) and of the home timeline (1 to 100, default 100). */
const USER_TIMELINE: MaxResultsRange = { min: 5, max: 100, default: 10 };
const HOME_TIMELINE: MaxResultsRange = { min: 1, max: 100, default: 100 };

const timelineQuery = (range: MaxResultsRange) => query({ ...pageParams(range), ...timeWindowParams, ...selectionParams(postExpansions) });

function timelineRequest(q: Record<string, unknown>, range: MaxResultsRange): TimelineRequest {
  return { selection: parseSelection(q, postExpansions), page: parseTimePage(q, range), window: parseTimeWindow(q) };
}

export async function timelineRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  app.get(
    '/2/users/:id/posts',
    {
      config: { auth: userOrAppAuth('post.read', 'users.read') },
      schema: {
        operationId: 'getUsersPosts',
        summary: "A user's posts, newest first",
        tags: ['Posts'],
        params: idParams('id'),
        querystring: timelineQuery(USER_TIMELINE),
        response,
      },
    },
    async (request) => pageBody(await userPostsTimeline(ctx, viewOf(ctx.clock, callerOf(request)), request.params.id, timelineRequest(request.query, USER_TIMELINE))),
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
        querystring: timelineQuery(USER_TIMELINE),
        response,
      },
    },
    async (request) => pageBody(await mentionsTimeline(ctx, viewOf(ctx.clock, callerOf(request)), request.params.id, timelineRequest(request.query, USER_TIMELINE))),
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
        querystring: timelineQuery(HOME_TIMELINE),
        response,
      },
    },
    async (request) => {
      const caller = userCallerOf(ctx, request);
      return pageBody(await homeTimeline(ctx, caller, viewOf(ctx.clock, caller), request.params.id, timelineRequest(request.query, HOME_TIMELINE)));
    },
  );
}
