import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import type { Listener } from '../../http/server.js';
import { idParams, idString, listQuery, listRequest, userAuth } from '../graph/route-kit.js';
import { postExpansions } from '../posts/service.js';
import { userCallerOf } from '../route-auth.js';
import { defaultErrorResponse, pageBody, pageResponse, PostSchema, writeResponse } from '../schemas.js';
import { viewOf } from '../view.js';
import { bookmarkPost, bookmarksOf, removeBookmark } from './service.js';

const bookmarked = { 200: writeResponse({ bookmarked: Type.Boolean() }), default: defaultErrorResponse };

/** max_results of a user's bookmarks. */
const BOOKMARKS = { min: 1, max: 100, default: 100 };

export async function bookmarkRoutes(app: Listener, ctx: AppContext): Promise<void> {
  app.get(
    '/2/users/:id/bookmarks',
    {
      config: { auth: userAuth('bookmark.read', 'post.read', 'users.read') },
      schema: {
        operationId: 'getUsersBookmarks',
        summary: "The authenticated user's bookmarks, newest first",
        tags: ['Bookmarks'],
        params: idParams('id'),
        querystring: listQuery(BOOKMARKS, postExpansions),
        response: { 200: pageResponse(PostSchema), default: defaultErrorResponse },
      },
    },
    async (request) => {
      const caller = userCallerOf(ctx, request);
      return pageBody(await bookmarksOf(ctx, caller, viewOf(ctx.clock, caller), request.params.id, listRequest(ctx, request.query, BOOKMARKS, postExpansions)));
    },
  );

  app.post(
    '/2/users/:id/bookmarks',
    {
      config: { auth: userAuth('bookmark.write', 'post.read', 'users.read') },
      schema: {
        operationId: 'createUsersBookmark',
        summary: 'Bookmark a post',
        tags: ['Bookmarks'],
        params: idParams('id'),
        body: Type.Object({ post_id: idString('The post to bookmark.') }, { additionalProperties: false }),
        response: bookmarked,
      },
    },
    async (request) => {
      const caller = userCallerOf(ctx, request);
      return { data: await bookmarkPost(ctx, caller, viewOf(ctx.clock, caller), request.params.id, request.body.post_id) };
    },
  );

  app.delete(
    '/2/users/:id/bookmarks/:post_id',
    {
      config: { auth: userAuth('bookmark.write', 'post.read', 'users.read') },
      schema: { operationId: 'deleteUsersBookmark', summary: 'Remove a bookmark', tags: ['Bookmarks'], params: idParams('id', 'post_id'), response: bookmarked },
    },
    async (request) => ({ data: await removeBookmark(ctx, userCallerOf(ctx, request), request.params.id, request.params.post_id) }),
  );
}
