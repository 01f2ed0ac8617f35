import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
import type { Listener } from '../../http/server.js';
import { idString, pageParams, query, userAuth } from '../graph/route-kit.js';
import { userCallerOf } from '../route-auth.js';
import { parseSelection, selectionParams } from '../expansions.js';
import { defaultErrorResponse, lookupBody, lookupResponse, pageBody, pageResponse } from '../schemas.js';
import { UserSchema } from './schema.js';
import { viewOf } from '../view.js';
import { updateProfile, type ProfileChanges } from './profile.js';
import { parseUserSearch, searchUsers } from './search.js';
import { userExpansions } from './service.js';

/** Users search and profile update: extensions of the user routes. */
export async function userProfileRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  app.get(
    '/2/users/search',
    {
      config: { auth: userAuth('post.read', 'users.read') },
      schema: {
        operationId: 'searchUsers',
        summary: 'Users whose username or name matches a query',
        tags: ['Users'],
        querystring: query({
          query: Type.String({ pattern: "^[A-Za-z0-9_' ]{1,50}$", description: 'Words the username or name must hold.' }),
          ...pageParams({ min: 1, max: 1000, default: 100 }, 'next_token'),
          ...selectionParams(userExpansions),
        }),
        response: { 200: pageResponse(UserSchema), default: defaultErrorResponse },
      },
    },
    async (request) => pageBody(await searchUsers(ctx, viewOf(ctx.clock, userCallerOf(ctx, request)), parseUserSearch(request.query))),
  );

  app.patch(
    '/2/users/me',
    {
      config: { auth: userAuth('users.read', 'post.read') },
      schema: {
        operationId: 'updateMyUser',
        summary: "Change the authenticated user's profile or pinned post (Plaza: the public platform has no v2 endpoint)",
        tags: ['Users'],
        querystring: query(selectionParams(userExpansions)),
        body: Type.Object(
          {
            name: Type.Optional(Type.String({ maxLength: 50 })),
            username: Type.Optional(Type.String({ maxLength: 15 })),
            description: Type.Optional(Type.String({ maxLength: 640 })),
            location: Type.Optional(Type.String({ maxLength: 120 })),
            url: Type.Optional(Type.String({ maxLength: 400 })),
            profile_image_url: Type.Optional(Type.String({ maxLength: 1000 })),
            protected: Type.Optional(Type.Boolean()),
            pinned_post_id: Type.Optional(Type.Union([idString('One of your posts.'), Type.Null()])),
            verified_type: Type.Optional(Type.String({ enum: ['none', 'blue', 'business', 'government'] })),
            affiliation: Type.Optional(
              Type.Union([
                Type.Object(
                  {
                    description: Type.Optional(Type.String({ maxLength: 100 })),
                    url: Type.Optional(Type.String({ maxLength: 400 })),
                    badge_url: Type.Optional(Type.String({ maxLength: 1000 })),
                    user_id: Type.Optional(Type.Array(idString(), { maxItems: 10 })),
                  },
                  { additionalProperties: false },
                ),
                Type.Null(),
              ]),
            ),
          },
          { additionalProperties: false, minProperties: 1 },
        ),
        response: { 200: lookupResponse(UserSchema, false), default: defaultErrorResponse },
      },
    },
    async (request) => lookupBody(await updateProfile(ctx, userCallerOf(ctx, request), { ...request.body, verified_type: request.body.verified_type as ProfileChanges['verified_type'] }, parseSelection(request.query, userExpansions)), true),
  );
}
