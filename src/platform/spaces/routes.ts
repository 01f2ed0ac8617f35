import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
import { fieldsParamOf, listParam, parseSelectionText } from '../../http/fields.js';
import { parseMaxResults } from '../../http/pagination.js';
import { invalidParameter, parseList, splitList } from '../../http/params.js';
import type { Listener } from '../../http/server.js';
import { expansionsParam, parsePrimaryFields, parseSelection } from '../expansions.js';
import { idString, listQuery, listRequest, query, timeListRequest, userAuth, userOrAppAuth } from '../graph/route-kit.js';
import { postExpansions } from '../posts/service.js';
import { userExpansions } from '../users/service.js';
import { userDeclaration } from '../users/wire.js';
import { callerOf, userCallerOf } from '../route-auth.js';
import { defaultErrorResponse, lookupBody, lookupResponse, pageBody, pageResponse, SpaceSchema } from '../schemas.js';
import { PostSchema } from '../posts/schema.js';
import { UserSchema } from '../users/schema.js';
import { viewOf } from '../view.js';
import { buyersOfSpace, createSpace, findSpaces, lookupSpaces, moveSpace, postsOfSpace, spacesOfCreators, type SpaceSearch, type SpaceSelection } from './service.js';
import { spaceDeclaration, spaceExpansions, TOPIC_FIELDS } from './wire.js';

const SPACE_ID = /^[a-zA-Z0-9]{1,13}$/;
const SPACE_ID_TEXT = '^[a-zA-Z0-9]{1,13}$';
/** The selection parameters of space objects. */
const spaceSelection = {
  'space.fields': fieldsParamOf(spaceDeclaration),
  expansions: expansionsParam(spaceExpansions),
  'user.fields': fieldsParamOf(userDeclaration),
  'topic.fields': listParam(TOPIC_FIELDS, 'A comma separated list of topic fields to display.'),
};

function parseSpaceSelection(q: Record<string, unknown>): SpaceSelection {
  parseSelectionText('topic.fields', typeof q['topic.fields'] === 'string' ? q['topic.fields'] : undefined, TOPIC_FIELDS);
  const rest = parseSelection(q, spaceExpansions);
  return { space: parsePrimaryFields(spaceDeclaration, q, rest, spaceExpansions), rest };
}

function parseSpaceSearch(q: { query: string; state?: string; max_results?: number }): SpaceSearch {
  const words = splitList(q.query.replace(/\s+/g, ',')).slice(0, 50);
  if (words.length === 0) throw invalidParameter('query', [q.query], 'The `query` query parameter can not be blank');
  return {
    words,
    state: (q.state as SpaceSearch['state'] | undefined) ?? 'all',
    maxResults: parseMaxResults(q.max_results, { min: 1, max: 100, default: 100 }),
    selection: parseSpaceSelection(q),
  };
}
const readAuth = userOrAppAuth('space.read', 'post.read', 'users.read');
// The public platform has no endpoint that writes spaces, hence no write scope: Plaza's writes ask
// for the read scopes of spaces, plus write access for OAuth 1.0a tokens.
const writeAuth = userAuth('space.read', 'post.read', 'users.read');
const spaceParams = Type.Object({ id: Type.String({ pattern: SPACE_ID_TEXT }) });
/** max_results of the posts and buyers of a space (the reference: 1 to 100, default 100). */
const SPACE_LIST_RANGE = { min: 1, max: 100, default: 100 };
const written = { 200: Type.Object({ data: Type.Ref(SpaceSchema) }), default: defaultErrorResponse };

export async function spaceRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  app.get(
    '/2/spaces',
    {
      config: { auth: readAuth },
      schema: {
        operationId: 'getSpacesByIds',
        summary: 'Look up spaces by ids',
        tags: ['Spaces'],
        querystring: query({ ids: Type.String({ description: 'Comma-separated space ids, 1 to 100.' }), ...spaceSelection }),
        response: { 200: lookupResponse(SpaceSchema, true), default: defaultErrorResponse },
      },
    },
    async (request) => {
      const ids = parseList('ids', request.query.ids, { max: 100, pattern: SPACE_ID, patternText: SPACE_ID_TEXT });
      return lookupBody(await lookupSpaces(ctx, viewOf(ctx.clock, callerOf(request)), ids, 'ids', parseSpaceSelection(request.query)), false);
    },
  );

  app.get(
    '/2/spaces/by/creator_ids',
    {
      config: { auth: readAuth },
      schema: {
        operationId: 'getSpacesByCreatorIds',
        summary: 'Live and scheduled spaces created by these users',
        tags: ['Spaces'],
        querystring: query({ user_ids: Type.String({ description: 'Comma-separated user ids, 1 to 100.' }), ...spaceSelection }),
        response: { 200: pageResponse(SpaceSchema), default: defaultErrorResponse },
      },
    },
    async (request) => {
      const ids = parseList('user_ids', request.query.user_ids, { max: 100, pattern: /^[0-9]{1,19}$/, patternText: '^[0-9]{1,19}$' });
      return pageBody(await spacesOfCreators(ctx, viewOf(ctx.clock, callerOf(request)), ids, parseSpaceSelection(request.query)));
    },
  );

  app.get(
    '/2/spaces/search',
    {
      config: { auth: readAuth },
      schema: {
        operationId: 'searchSpaces',
        summary: 'Live or scheduled spaces whose title matches a query',
        tags: ['Spaces'],
        querystring: query({
          query: Type.String({ minLength: 1, maxLength: 2048, description: 'Words the title must hold.' }),
          state: Type.Optional(Type.String({ enum: ['live', 'scheduled', 'all'], description: 'Default all.' })),
          max_results: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: '1 to 100; default 100.' })),
          ...spaceSelection,
        }),
        response: { 200: pageResponse(SpaceSchema), default: defaultErrorResponse },
      },
    },
    async (request) => pageBody(await findSpaces(ctx, viewOf(ctx.clock, callerOf(request)), parseSpaceSearch(request.query))),
  );

  app.get(
    '/2/spaces/:id',
    {
      config: { auth: readAuth },
      schema: {
        operationId: 'getSpacesById',
        summary: 'Look up one space by id',
        tags: ['Spaces'],
        params: spaceParams,
        querystring: query(spaceSelection),
        response: { 200: lookupResponse(SpaceSchema, false), default: defaultErrorResponse },
      },
    },
    async (request) => lookupBody(await lookupSpaces(ctx, viewOf(ctx.clock, callerOf(request)), [request.params.id], 'id', parseSpaceSelection(request.query)), true),
  );

  app.get(
    '/2/spaces/:id/posts',
    {
      config: { auth: readAuth },
      schema: {
        operationId: 'getSpacesPosts',
        summary: 'The posts shared in a space (posts linking to it), newest first',
        tags: ['Spaces'],
        params: spaceParams,
        querystring: listQuery(SPACE_LIST_RANGE, postExpansions),
        response: { 200: pageResponse(PostSchema), default: defaultErrorResponse },
      },
    },
    async (request) => pageBody(await postsOfSpace(ctx, viewOf(ctx.clock, callerOf(request)), request.params.id, timeListRequest(request.query, SPACE_LIST_RANGE, postExpansions))),
  );

  app.get(
    '/2/spaces/:id/buyers',
    {
      config: { auth: userAuth('space.read', 'post.read', 'users.read') },
      schema: {
        operationId: 'getSpacesBuyers',
        summary: "The users who bought tickets to a space, newest purchase first (the space's creator only)",
        tags: ['Spaces'],
        params: spaceParams,
        querystring: listQuery(SPACE_LIST_RANGE, userExpansions),
        response: { 200: pageResponse(UserSchema), default: defaultErrorResponse },
      },
    },
    async (request) => {
      const caller = userCallerOf(ctx, request);
      return pageBody(await buyersOfSpace(ctx, caller, viewOf(ctx.clock, caller), request.params.id, listRequest(request.query, SPACE_LIST_RANGE, userExpansions)));
    },
  );

  app.post(
    '/2/spaces',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'createSpace',
        summary: 'Create a space: live at once, or scheduled when scheduled_start is given (Plaza)',
        tags: ['Spaces'],
        body: Type.Object(
          {
            title: Type.String({ minLength: 1, maxLength: 70 }),
            scheduled_start: Type.Optional(Type.String({ description: 'RFC 3339 date-time in the future.' })),
            lang: Type.Optional(Type.String({ pattern: '^[a-z]{2,3}$' })),
            is_ticketed: Type.Optional(Type.Boolean()),
            host_ids: Type.Optional(Type.Array(idString(), { maxItems: 10 })),
            speaker_ids: Type.Optional(Type.Array(idString(), { maxItems: 100 })),
            invited_user_ids: Type.Optional(Type.Array(idString(), { maxItems: 100 })),
          },
          { additionalProperties: false },
        ),
        response: { 201: Type.Object({ data: Type.Ref(SpaceSchema) }), default: defaultErrorResponse },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await createSpace(ctx, userCallerOf(ctx, request), request.body) }),
  );

  for (const [verb, to] of [['start', 'live'], ['end', 'ended']] as const) {
    app.post(
      `/2/spaces/:id/${verb}`,
      {
        config: { auth: writeAuth },
        schema: {
          operationId: verb === 'start' ? 'startSpace' : 'endSpace',
          summary: verb === 'start' ? 'Start a scheduled space (Plaza)' : 'End a live space (Plaza)',
          tags: ['Spaces'],
          params: spaceParams,
          response: written,
        },
      },
      async (request) => ({ data: await moveSpace(ctx, userCallerOf(ctx, request), request.params.id, to) }),
    );
  }
}
