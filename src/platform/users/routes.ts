import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
import { parseIdList, parseList } from '../../http/params.js';
import type { Listener } from '../../http/server.js';
import { callerOf, userCallerOf } from '../route-auth.js';
import { parseSelection, selectionParams } from '../expansions.js';
import { defaultErrorResponse, lookupBody, lookupResponse } from '../schemas.js';
import { UserSchema } from './schema.js';
import { viewOf } from '../view.js';
import { lookupUsers, userExpansions } from './service.js';

const USERNAME = /^[A-Za-z0-9_]{1,15}$/;
const USERNAME_TEXT = '^[A-Za-z0-9_]{1,15}$';
const readAuth = { schemes: ['user', 'app'] as ('user' | 'app')[], scopes: ['post.read', 'users.read'] };
const many = { 200: lookupResponse(UserSchema, true), default: defaultErrorResponse };
const one = { 200: lookupResponse(UserSchema, false), default: defaultErrorResponse };
const selection = selectionParams(userExpansions);
const query = Type.Object(selection, { additionalProperties: false });

export async function userRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  app.get(
    '/2/users',
    {
      config: { auth: readAuth },
      schema: {
        operationId: 'findUsersById',
        summary: 'Look up users by ids',
        tags: ['Users'],
        querystring: Type.Object({ ids: Type.String({ description: 'Comma-separated user ids, 1 to 100.' }), ...selection }, { additionalProperties: false }),
        response: many,
      },
    },
    async (request) => {
      const ids = parseIdList('ids', request.query.ids);
      return lookupBody(await lookupUsers(ctx, viewOf(ctx.clock, callerOf(request)), ids, { by: 'id', parameter: 'ids' }, parseSelection(request.query, userExpansions)), false);
    },
  );

  app.get(
    '/2/users/me',
    {
      config: { auth: { schemes: ['user'], scopes: ['post.read', 'users.read'] } },
      schema: { operationId: 'findMyUser', summary: 'The authenticated user', tags: ['Users'], querystring: query, response: one },
    },
    async (request) => {
      const caller = userCallerOf(ctx, request);
      return lookupBody(await lookupUsers(ctx, viewOf(ctx.clock, caller), [caller.user.id], { by: 'id', parameter: 'id' }, parseSelection(request.query, userExpansions)), true);
    },
  );

  app.get(
    '/2/users/by',
    {
      config: { auth: readAuth },
      schema: {
        operationId: 'findUsersByUsername',
        summary: 'Look up users by usernames',
        tags: ['Users'],
        querystring: Type.Object({ usernames: Type.String({ description: 'Comma-separated usernames, 1 to 100.' }), ...selection }, { additionalProperties: false }),
        response: many,
      },
    },
    async (request) => {
      const usernames = parseList('usernames', request.query.usernames, { max: 100, pattern: USERNAME, patternText: USERNAME_TEXT });
      return lookupBody(await lookupUsers(ctx, viewOf(ctx.clock, callerOf(request)), usernames, { by: 'username', parameter: 'usernames' }, parseSelection(request.query, userExpansions)), false);
    },
  );

  app.get(
    '/2/users/by/username/:username',
    {
      config: { auth: readAuth },
      schema: {
        operationId: 'findUserByUsername',
        summary: 'Look up one user by username',
        tags: ['Users'],
        params: Type.Object({ username: Type.String({ pattern: USERNAME_TEXT }) }),
        querystring: query,
        response: one,
      },
    },
    async (request) => {
      const view = viewOf(ctx.clock, callerOf(request));
      return lookupBody(await lookupUsers(ctx, view, [request.params.username], { by: 'username', parameter: 'username' }, parseSelection(request.query, userExpansions)), true);
    },
  );

  app.get(
    '/2/users/:id',
    {
      config: { auth: readAuth },
      schema: {
        operationId: 'findUserById',
        summary: 'Look up one user by id',
        tags: ['Users'],
        params: Type.Object({ id: Type.String({ pattern: '^[0-9]{1,19}$' }) }),
        querystring: query,
        response: one,
      },
    },
    async (request) => {
      const view = viewOf(ctx.clock, callerOf(request));
      return lookupBody(await lookupUsers(ctx, view, [request.params.id], { by: 'id', parameter: 'id' }, parseSelection(request.query, userExpansions)), true);
    },
  );
}
