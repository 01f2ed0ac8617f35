import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
import type { Listener } from '../../http/server.js';
import { parseIdList } from '../../http/params.js';
import { callerOf } from '../route-auth.js';
import { defaultErrorResponse, lookupBody, lookupResponse } from '../schemas.js';
import { PostSchema } from './schema.js';
import { viewOf } from '../view.js';
import { parseSelection, selectionParams } from '../expansions.js';
import { postExpansions, viewPosts } from './service.js';

const selection = selectionParams(postExpansions);
const readAuth = { schemes: ['user', 'app'] as ('user' | 'app')[], scopes: ['post.read', 'users.read'] };

export async function postRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  app.get(
    '/2/posts',
    {
      config: { auth: readAuth },
      schema: {
        operationId: 'getPostsByIds',
        summary: 'Look up posts by ids',
        tags: ['Posts'],
        querystring: Type.Object(
          { ids: Type.String({ description: 'Comma-separated post ids, 1 to 100.' }), ...selection },
          { additionalProperties: false },
        ),
        response: { 200: lookupResponse(PostSchema, true), default: defaultErrorResponse },
      },
    },
    async (request) => {
      const ids = parseIdList('ids', request.query.ids);
      const result = await viewPosts(ctx, viewOf(ctx.clock, callerOf(request)), ids, 'ids', parseSelection(request.query, postExpansions));
      return lookupBody(result, false);
    },
  );

  app.get(
    '/2/posts/:id',
    {
      config: { auth: readAuth },
      schema: {
        operationId: 'getPostsById',
        summary: 'Look up one post by id',
        tags: ['Posts'],
        params: Type.Object({ id: Type.String({ pattern: '^[0-9]{1,19}$' }) }),
        querystring: Type.Object(selection, { additionalProperties: false }),
        response: { 200: lookupResponse(PostSchema, false), default: defaultErrorResponse },
      },
    },
    async (request) => {
      const result = await viewPosts(ctx, viewOf(ctx.clock, callerOf(request)), [request.params.id], 'id', parseSelection(request.query, postExpansions));
      return lookupBody(result, true);
    },
  );
}
