import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
import type { Listener } from '../../http/server.js';
import { parsePage } from '../graph/query.js';
import { idParams, idString, listQuery, listRequest, pageParams, query, userAuth } from '../graph/route-kit.js';
import { postExpansions } from '../posts/service.js';
import { userCallerOf } from '../route-auth.js';
import { defaultErrorResponse, pageBody, PageMetaSchema, pageResponse, ProblemSchema, writeResponse } from '../schemas.js';
import { PostSchema } from '../posts/schema.js';
import { viewOf } from '../view.js';
import { bookmarkFolderPosts, bookmarkFoldersOf, bookmarkPost, bookmarksOf, createBookmarkFolder, removeBookmark } from './service.js';

const bookmarked = { 200: writeResponse({ bookmarked: Type.Boolean() }), default: defaultErrorResponse };

/** max_results of a user's bookmarks. */
const BOOKMARKS = { min: 1, max: 100, default: 100 };
/** max_results of bookmark folders and of a folder's posts. */
const FOLDERS = { min: 1, max: 100, default: 100 };
const FolderSchema = Type.Object({ id: Type.String(), name: Type.String() });

export async function bookmarkRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
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
      return pageBody(await bookmarksOf(ctx, caller, viewOf(ctx.clock, caller), request.params.id, listRequest(request.query, BOOKMARKS, postExpansions)));
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
        body: Type.Object(
          {
            post_id: idString('The post to bookmark.'),
            folder_id: Type.Optional(idString("Plaza: one of the user's bookmark folders to file the bookmark in (moving it out of any other).")),
          },
          { additionalProperties: false },
        ),
        response: bookmarked,
      },
    },
    async (request) => {
      const caller = userCallerOf(ctx, request);
      return { data: await bookmarkPost(ctx, caller, viewOf(ctx.clock, caller), request.params.id, request.body.post_id, request.body.folder_id) };
    },
  );

  app.get(
    '/2/users/:id/bookmarks/folders',
    {
      config: { auth: userAuth('users.read', 'bookmark.read') },
      schema: {
        operationId: 'getUsersBookmarkFolders',
        summary: "The authenticated user's bookmark folders, newest first",
        tags: ['Bookmarks'],
        params: idParams('id'),
        querystring: query(pageParams(FOLDERS)),
        response: {
          200: Type.Object({ data: Type.Optional(Type.Array(FolderSchema)), errors: Type.Optional(Type.Array(Type.Ref(ProblemSchema), { minItems: 1 })), meta: Type.Optional(PageMetaSchema) }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => pageBody(await bookmarkFoldersOf(ctx, userCallerOf(ctx, request), request.params.id, parsePage(request.query, FOLDERS))),
  );

  app.post(
    '/2/users/:id/bookmarks/folders',
    {
      config: { auth: userAuth('bookmark.write', 'users.read') },
      schema: {
        operationId: 'createUsersBookmarkFolder',
        summary: 'Create a bookmark folder for the authenticated user',
        tags: ['Bookmarks'],
        params: idParams('id'),
        body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 25, description: 'Name of the folder (1 to 25 characters).' }) }, { additionalProperties: false }),
        response: { 201: Type.Object({ data: FolderSchema, errors: Type.Optional(Type.Array(Type.Ref(ProblemSchema), { minItems: 1 })) }), default: defaultErrorResponse },
      },
    },
    async (request, reply) => {
      const data = await createBookmarkFolder(ctx, userCallerOf(ctx, request), request.params.id, request.body.name);
      return reply.code(201).send({ data });
    },
  );

  app.get(
    '/2/users/:id/bookmarks/folders/:folder_id',
    {
      config: { auth: userAuth('bookmark.read', 'users.read', 'post.read') },
      schema: {
        operationId: 'getUsersBookmarksByFolderId',
        summary: 'The ids of the posts in one of the authenticated user\'s bookmark folders, newest filing first',
        tags: ['Bookmarks'],
        params: idParams('id', 'folder_id'),
        querystring: query(pageParams(FOLDERS)),
        response: {
          200: Type.Object({
            data: Type.Optional(Type.Array(Type.Object({ id: Type.String() }))),
            errors: Type.Optional(Type.Array(Type.Ref(ProblemSchema), { minItems: 1 })),
            meta: Type.Optional(PageMetaSchema),
          }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => {
      const caller = userCallerOf(ctx, request);
      return pageBody(await bookmarkFolderPosts(ctx, caller, viewOf(ctx.clock, caller), request.params.id, request.params.folder_id, parsePage(request.query, FOLDERS)));
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
