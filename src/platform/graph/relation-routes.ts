import { Type } from '@sinclair/typebox';
import type { UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import type { Listener } from '../../http/server.js';
import { userCallerOf } from '../route-auth.js';
import { defaultErrorResponse, pageBody, pageResponse, writeResponse } from '../schemas.js';
import { UserSchema } from '../users/schema.js';
import { userExpansions } from '../users/service.js';
import { viewOf, type View } from '../view.js';
import type { ListRequest } from './query.js';
import { idParams, idString, listQuery, listRequest, userAuth } from './route-kit.js';

/** max_results of the relation lists. */
const RELATION_LIST = { min: 1, max: 1000, default: 100 };

/**
 * The three routes of a one-way relation the caller keeps towards other users (blocking,
 * muting): list, create, remove. One declaration per relation; the rules live in its service.
 */
export interface UserRelation {
  /** The path segment and the flag of the write responses: `blocking`, `muting`. */
  name: string;
  /** The OAuth 2.0 scope family: `block`, `mute`. */
  scope: string;
  operationIds: { list: string; create: string; remove: string };
  summaries: { list: string; create: string; remove: string };
  targetDescription: string;
  list(ctx: PlatformContext, caller: UserCaller, view: View, userId: string, request: ListRequest): Promise<Parameters<typeof pageBody>[0]>;
  create(ctx: PlatformContext, caller: UserCaller, sourceId: string, targetId: string): Promise<unknown>;
  remove(ctx: PlatformContext, caller: UserCaller, sourceId: string, targetId: string): Promise<unknown>;
}

export async function userRelationRoutes(app: Listener, ctx: PlatformContext, relation: UserRelation): Promise<void> {
  const flag = writeResponse({ [relation.name]: Type.Boolean() });
  app.get(
    `/2/users/:id/${relation.name}`,
    {
      config: { auth: userAuth(`${relation.scope}.read`, 'post.read', 'users.read') },
      schema: {
        operationId: relation.operationIds.list,
        summary: relation.summaries.list,
        tags: ['Users'],
        params: idParams('id'),
        querystring: listQuery(RELATION_LIST, userExpansions),
        response: { 200: pageResponse(UserSchema), default: defaultErrorResponse },
      },
    },
    async (request) => {
      const caller = userCallerOf(ctx, request);
      return pageBody(await relation.list(ctx, caller, viewOf(ctx.clock, caller), request.params.id, listRequest(request.query, RELATION_LIST, userExpansions)));
    },
  );

  app.post(
    `/2/users/:id/${relation.name}`,
    {
      config: { auth: userAuth(`${relation.scope}.write`, 'post.read', 'users.read') },
      schema: {
        operationId: relation.operationIds.create,
        summary: relation.summaries.create,
        tags: ['Users'],
        params: idParams('id'),
        body: Type.Object({ target_user_id: idString(relation.targetDescription) }, { additionalProperties: false }),
        response: { 200: flag, default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await relation.create(ctx, userCallerOf(ctx, request), request.params.id, request.body.target_user_id) }),
  );

  app.delete(
    `/2/users/:source_user_id/${relation.name}/:target_user_id`,
    {
      config: { auth: userAuth(`${relation.scope}.write`, 'post.read', 'users.read') },
      schema: {
        operationId: relation.operationIds.remove,
        summary: relation.summaries.remove,
        tags: ['Users'],
        params: idParams('source_user_id', 'target_user_id'),
        response: { 200: flag, default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await relation.remove(ctx, userCallerOf(ctx, request), request.params.source_user_id, request.params.target_user_id) }),
  );
}
