import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
import type { Listener } from '../../http/server.js';
import { fieldsParamOf } from '../../http/fields.js';
import { expansionsParam, parsePrimaryFields, parseSelection } from '../expansions.js';
import { parsePage } from '../graph/query.js';
import { idParams, idString, listQuery, listRequest, pageParams, query, timeListRequest, userAuth, userOrAppAuth } from '../graph/route-kit.js';
import { postExpansions } from '../posts/service.js';
import { userExpansions } from '../users/service.js';
import { userDeclaration } from '../users/wire.js';
import { listDeclaration, listExpansions } from './wire.js';
import { callerOf, userCallerOf } from '../route-auth.js';
import { defaultErrorResponse, ExpansionsSchema, ListSchema, lookupBody, pageBody, pageResponse, ProblemSchema, writeResponse } from '../schemas.js';
import { PostSchema } from '../posts/schema.js';
import { UserSchema } from '../users/schema.js';
import { viewOf } from '../view.js';
import {
  addMember,
  createList,
  deleteList,
  followList,
  listPosts,
  listsOfUser,
  lookupList,
  pinList,
  pinnedListsOf,
  removeMember,
  unfollowList,
  unpinList,
  updateList,
  usersOf,
  type ListSelection,
} from './service.js';

const listRange = { min: 1, max: 100, default: 100 };
/** The selection parameters of list objects. */
const listSelection = { 'list.fields': fieldsParamOf(listDeclaration), expansions: expansionsParam(listExpansions), 'user.fields': fieldsParamOf(userDeclaration) };

function parseListSelection(q: Record<string, unknown>): ListSelection {
  const rest = parseSelection(q, listExpansions);
  return { list: parsePrimaryFields(listDeclaration, q, rest, listExpansions), rest };
}
const listsPage = { 200: pageResponse(ListSchema), default: defaultErrorResponse };
const name = Type.String({ minLength: 1, maxLength: 25 });
const description = Type.String({ maxLength: 100 });
const readAuth = userOrAppAuth('list.read', 'post.read', 'users.read');
const writeAuth = userAuth('list.write', 'post.read', 'users.read');

export async function listRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  app.post(
    '/2/lists',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'createLists',
        summary: 'Create a list',
        tags: ['Lists'],
        body: Type.Object({ name, description: Type.Optional(description), private: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
        response: { 201: writeResponse({ id: Type.String(), name: Type.String() }), default: defaultErrorResponse },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await createList(ctx, userCallerOf(ctx, request), request.body) }),
  );

  app.get(
    '/2/lists/:id',
    {
      config: { auth: readAuth },
      schema: {
        operationId: 'getListsById',
        summary: 'Look up one list by id',
        tags: ['Lists'],
        params: idParams('id'),
        querystring: query(listSelection),
        response: {
          200: Type.Object({
            data: Type.Optional(Type.Ref(ListSchema)),
            includes: Type.Optional(Type.Ref(ExpansionsSchema)),
            errors: Type.Optional(Type.Array(Type.Ref(ProblemSchema), { minItems: 1 })),
          }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => lookupBody(await lookupList(ctx, viewOf(ctx.clock, callerOf(request)), request.params.id, parseListSelection(request.query)), true),
  );

  app.put(
    '/2/lists/:id',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'updateLists',
        summary: "Change a list's name, description or privacy (owner only)",
        tags: ['Lists'],
        params: idParams('id'),
        body: Type.Object({ name: Type.Optional(name), description: Type.Optional(description), private: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
        response: { 200: writeResponse({ updated: Type.Boolean() }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await updateList(ctx, userCallerOf(ctx, request), request.params.id, request.body) }),
  );

  app.delete(
    '/2/lists/:id',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'deleteLists',
        summary: 'Delete a list (owner only)',
        tags: ['Lists'],
        params: idParams('id'),
        response: { 200: writeResponse({ deleted: Type.Boolean() }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await deleteList(ctx, userCallerOf(ctx, request), request.params.id) }),
  );

  for (const [segment, table] of [['members', 'list_members'], ['followers', 'list_followers']] as const) {
    app.get(
      `/2/lists/:id/${segment}`,
      {
        config: { auth: readAuth },
        schema: {
          operationId: segment === 'members' ? 'getListsMembers' : 'getListsFollowers',
          summary: segment === 'members' ? 'The members of a list, newest first' : 'The followers of a list, newest first',
          tags: ['Lists'],
          params: idParams('id'),
          querystring: listQuery(listRange, userExpansions),
          response: { 200: pageResponse(UserSchema), default: defaultErrorResponse },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return pageBody(await usersOf(ctx, caller, viewOf(ctx.clock, caller), request.params.id, table, listRequest(request.query, listRange, userExpansions)));
      },
    );
  }

  app.post(
    '/2/lists/:id/members',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'addListsMember',
        summary: 'Add a member to a list (owner only)',
        tags: ['Lists'],
        params: idParams('id'),
        body: Type.Object({ user_id: idString('The user to add.') }, { additionalProperties: false }),
        response: { 200: writeResponse({ is_member: Type.Boolean() }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await addMember(ctx, userCallerOf(ctx, request), request.params.id, request.body.user_id) }),
  );

  app.delete(
    '/2/lists/:id/members/:user_id',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'removeListsMemberByUserId',
        summary: 'Remove a member from a list (owner only)',
        tags: ['Lists'],
        params: idParams('id', 'user_id'),
        response: { 200: writeResponse({ is_member: Type.Boolean() }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await removeMember(ctx, userCallerOf(ctx, request), request.params.id, request.params.user_id) }),
  );

  app.get(
    '/2/lists/:id/posts',
    {
      config: { auth: readAuth },
      schema: {
        operationId: 'getListsPosts',
        summary: "The posts of a list's members, newest first",
        tags: ['Lists'],
        params: idParams('id'),
        querystring: listQuery(listRange, postExpansions),
        response: { 200: pageResponse(PostSchema), default: defaultErrorResponse },
      },
    },
    async (request) => pageBody(await listPosts(ctx, viewOf(ctx.clock, callerOf(request)), request.params.id, timeListRequest(request.query, listRange, postExpansions))),
  );

  for (const [segment, kind, operationId, summary] of [
    ['owned_lists', 'owned', 'getUsersOwnedLists', 'The lists a user owns, newest first'],
    ['followed_lists', 'followed', 'getUsersFollowedLists', 'The lists a user follows, newest follow first'],
    ['list_memberships', 'memberships', 'getUsersListMemberships', 'The lists a user is a member of, newest first'],
  ] as const) {
    app.get(
      `/2/users/:id/${segment}`,
      {
        config: { auth: readAuth },
        schema: {
          operationId,
          summary,
          tags: ['Lists'],
          params: idParams('id'),
          querystring: query({ ...pageParams(listRange), ...listSelection }),
          response: listsPage,
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return pageBody(await listsOfUser(ctx, caller, viewOf(ctx.clock, caller), request.params.id, kind, { selection: parseListSelection(request.query), page: parsePage(request.query, listRange) }));
      },
    );
  }

  app.get(
    '/2/users/:id/pinned_lists',
    {
      config: { auth: userAuth('list.read', 'post.read', 'users.read') },
      schema: {
        operationId: 'getUsersPinnedLists',
        summary: "The authenticated user's pinned lists",
        tags: ['Lists'],
        params: idParams('id'),
        querystring: query(listSelection),
        response: listsPage,
      },
    },
    async (request) => {
      const caller = userCallerOf(ctx, request);
      return pageBody(await pinnedListsOf(ctx, caller, viewOf(ctx.clock, caller), request.params.id, parseListSelection(request.query)));
    },
  );

  for (const [segment, verb] of [['followed_lists', 'follow'], ['pinned_lists', 'pin']] as const) {
    app.post(
      `/2/users/:id/${segment}`,
      {
        config: { auth: writeAuth },
        schema: {
          operationId: verb === 'follow' ? 'followList' : 'pinList',
          summary: verb === 'follow' ? 'Follow a list' : 'Pin a list (at most five)',
          tags: ['Lists'],
          params: idParams('id'),
          body: Type.Object({ list_id: idString(`The list to ${verb}.`) }, { additionalProperties: false }),
          response: { 200: writeResponse(verb === 'follow' ? { following: Type.Boolean() } : { pinned: Type.Boolean() }), default: defaultErrorResponse },
        },
      },
      async (request) => {
        const caller = userCallerOf(ctx, request);
        const { id } = request.params;
        return { data: verb === 'follow' ? await followList(ctx, caller, id, request.body.list_id) : await pinList(ctx, caller, id, request.body.list_id) };
      },
    );

    app.delete(
      `/2/users/:id/${segment}/:list_id`,
      {
        config: { auth: writeAuth },
        schema: {
          operationId: verb === 'follow' ? 'unfollowList' : 'unpinList',
          summary: verb === 'follow' ? 'Unfollow a list' : 'Unpin a list',
          tags: ['Lists'],
          params: idParams('id', 'list_id'),
          response: { 200: writeResponse(verb === 'follow' ? { following: Type.Boolean() } : { pinned: Type.Boolean() }), default: defaultErrorResponse },
        },
      },
      async (request) => {
        const caller = userCallerOf(ctx, request);
        const { id, list_id } = request.params;
        return { data: verb === 'follow' ? await unfollowList(ctx, caller, id, list_id) : await unpinList(ctx, caller, id, list_id) };
      },
    );
  }
}
