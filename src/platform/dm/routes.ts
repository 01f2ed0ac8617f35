import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
import type { Listener } from '../../http/server.js';
import { fieldsParamOf, listParam, parseSelectionText } from '../../http/fields.js';
import { expansionsParam, parsePrimaryFields, parseSelection } from '../expansions.js';
import { parsePage } from '../graph/query.js';
import { idParams, idString, pageParams, query, userAuth } from '../graph/route-kit.js';
import { postDeclaration } from '../posts/wire.js';
import { mediaDeclaration } from '../media/wire.js';
import { userDeclaration } from '../users/wire.js';
import { userCallerOf } from '../route-auth.js';
import { defaultErrorResponse, DmEventSchema, lookupBody, lookupResponse, pageBody, pageResponse, writeResponse } from '../schemas.js';
import { viewOf } from '../view.js';
import {
  addParticipants,
  createGroup,
  deleteDmEvent,
  indicateTyping,
  leaveConversation,
  listDmEvents,
  markRead,
  sendToConversation,
  sendToParticipant,
  type DmEventsRequest,
  type DmScope,
} from './service.js';
import { blockDms, unblockDms } from './blocking.js';
import { dmMediaFile } from './media.js';
import { DM_CONVERSATION_ID_TEXT, DM_EVENT_TYPES, dmEventDeclaration, dmEventExpansions } from './wire.js';

const readAuth = userAuth('dm.read', 'post.read', 'users.read');
const writeAuth = userAuth('dm.write', 'post.read', 'users.read');
const conversationParams = Type.Object({ dm_conversation_id: Type.String({ pattern: DM_CONVERSATION_ID_TEXT }) });
/** The selection parameters of DM events. */
const dmSelection = {
  'dm_event.fields': fieldsParamOf(dmEventDeclaration),
  expansions: expansionsParam(dmEventExpansions),
  'user.fields': fieldsParamOf(userDeclaration),
  'post.fields': fieldsParamOf(postDeclaration),
  'media.fields': fieldsParamOf(mediaDeclaration),
};
const DM_EVENTS = { min: 1, max: 100, default: 100 };
const listQuery = query({
  ...pageParams(DM_EVENTS),
  event_types: listParam(DM_EVENT_TYPES, 'A comma separated list of event types to list; default all.'),
  ...dmSelection,
});

/** dm_event.fields, the selection and event_types; the page of a list, or the one event of a lookup. */
function dmEventsRequest(q: Record<string, unknown>, single: boolean): DmEventsRequest {
  const selection = parseSelection(q, dmEventExpansions);
  return {
    fields: parsePrimaryFields(dmEventDeclaration, q, selection, dmEventExpansions),
    selection,
    types: parseSelectionText('event_types', typeof q.event_types === 'string' ? q.event_types : undefined, DM_EVENT_TYPES),
    page: single ? { maxResults: 1 } : parsePage(q, DM_EVENTS),
  };
}
const message = {
  text: Type.Optional(Type.String({ minLength: 1 })),
  attachments: Type.Optional(Type.Array(Type.Object({ media_id: idString('An uploaded media id of the sender.') }, { additionalProperties: false }), { maxItems: 1 })),
};
const sent = { 201: writeResponse({ dm_conversation_id: Type.String(), dm_event_id: Type.String() }), default: defaultErrorResponse };
const eventsPage = { 200: pageResponse(DmEventSchema), default: defaultErrorResponse };

export async function dmRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  for (const [verb, operationId, summary, action] of [
    ['block', 'blockUsersDms', 'Block direct messages to and from a user', blockDms],
    ['unblock', 'unblockUsersDms', 'Unblock direct messages to and from a user', unblockDms],
  ] as const) {
    app.post(
      `/2/users/:id/dm/${verb}`,
      {
        config: { auth: writeAuth },
        schema: {
          operationId,
          summary,
          tags: ['Direct Messages'],
          params: idParams('id'),
          response: { 200: writeResponse({ blocked: Type.Boolean({ description: 'Whether the user is DM-blocked now.' }) }), default: defaultErrorResponse },
        },
      },
      async (request) => ({ data: await action(ctx, userCallerOf(ctx, request), request.params.id) }),
    );
  }

  app.post(
    '/2/dm_conversations/with/:participant_id/messages',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'createDirectMessagesByParticipantId',
        summary: 'Send a message in the one-to-one conversation with a user',
        tags: ['Direct Messages'],
        params: idParams('participant_id'),
        body: Type.Object(message, { additionalProperties: false }),
        response: sent,
      },
    },
    async (request, reply) => reply.code(201).send({ data: await sendToParticipant(ctx, userCallerOf(ctx, request), request.params.participant_id, request.body) }),
  );

  app.post(
    '/2/dm_conversations',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'createDirectMessagesConversation',
        summary: 'Create a group conversation with a first message',
        tags: ['Direct Messages'],
        body: Type.Object(
          {
            conversation_type: Type.String({ enum: ['Group'] }),
            participant_ids: Type.Array(idString(), { minItems: 2, maxItems: 49 }),
            message: Type.Object(message, { additionalProperties: false }),
          },
          { additionalProperties: false },
        ),
        response: sent,
      },
    },
    async (request, reply) => reply.code(201).send({ data: await createGroup(ctx, userCallerOf(ctx, request), request.body.participant_ids, request.body.message) }),
  );

  app.post(
    '/2/dm_conversations/:dm_conversation_id/messages',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'createDirectMessagesByConversationId',
        summary: 'Send a message in a conversation you take part in',
        tags: ['Direct Messages'],
        params: conversationParams,
        body: Type.Object(message, { additionalProperties: false }),
        response: sent,
      },
    },
    async (request, reply) =>
      reply.code(201).send({ data: await sendToConversation(ctx, userCallerOf(ctx, request), request.params.dm_conversation_id, request.body) }),
  );

  const list = (scopeOf: (params: Record<string, string>) => DmScope) => async (request: { params: unknown; query: unknown }) => {
    const caller = userCallerOf(ctx, request as never);
    return pageBody(await listDmEvents(ctx, caller, viewOf(ctx.clock, caller), scopeOf(request.params as Record<string, string>), dmEventsRequest(request.query as Record<string, unknown>, false)));
  };

  app.get(
    '/2/dm_conversations/media/:dm_id/:media_id/:resource_id',
    {
      config: { auth: userAuth('dm.read') },
      schema: {
        operationId: 'dmConversationsMediaDownload',
        summary: 'The bytes of a media attached to a DM event, for participants of its conversation',
        tags: ['Direct Messages'],
        params: Type.Object({
          dm_id: idString('The DM event the media is attached to.'),
          media_id: idString('The media id.'),
          resource_id: Type.String({ pattern: '^[0-9]+_[0-9]+(\\.[a-z0-9]+)?$', description: 'The file name of the media (the last segment of its url), or its media key.' }),
        }),
        response: { 200: { description: 'The media file.', content: { 'application/octet-stream': { schema: Type.String({ format: 'binary' }) } } }, default: defaultErrorResponse },
      },
    },
    async (request, reply) => {
      const file = await dmMediaFile(ctx, userCallerOf(ctx, request), request.params.dm_id, request.params.media_id, request.params.resource_id);
      return reply.type(file.mimeType).header('content-length', String(file.size)).header('cache-control', 'private, no-store').send(file.stream());
    },
  );

  app.get(
    '/2/dm_events',
    {
      config: { auth: readAuth },
      schema: { operationId: 'getDirectMessagesEvents', summary: "The authenticated user's direct-message events, newest first", tags: ['Direct Messages'], querystring: listQuery, response: eventsPage },
    },
    list(() => ({ kind: 'all' })),
  );

  app.get(
    '/2/dm_conversations/with/:participant_id/dm_events',
    {
      config: { auth: readAuth },
      schema: {
        operationId: 'getDirectMessagesEventsByParticipantId',
        summary: 'The events of the one-to-one conversation with a user, newest first',
        tags: ['Direct Messages'],
        params: idParams('participant_id'),
        querystring: listQuery,
        response: eventsPage,
      },
    },
    list((p) => ({ kind: 'participant', id: p.participant_id })),
  );

  app.get(
    '/2/dm_conversations/:dm_conversation_id/dm_events',
    {
      config: { auth: readAuth },
      schema: {
        operationId: 'getDirectMessagesEventsByConversationId',
        summary: 'The events of a conversation, newest first',
        tags: ['Direct Messages'],
        params: conversationParams,
        querystring: listQuery,
        response: eventsPage,
      },
    },
    list((p) => ({ kind: 'conversation', id: p.dm_conversation_id })),
  );

  app.get(
    '/2/dm_events/:event_id',
    {
      config: { auth: readAuth },
      schema: {
        operationId: 'getDirectMessagesEventsById',
        summary: 'Look up one direct-message event',
        tags: ['Direct Messages'],
        params: idParams('event_id'),
        querystring: query(dmSelection),
        response: { 200: lookupResponse(DmEventSchema, false), default: defaultErrorResponse },
      },
    },
    async (request) => {
      const caller = userCallerOf(ctx, request);
      return lookupBody(await listDmEvents(ctx, caller, viewOf(ctx.clock, caller), { kind: 'event', id: request.params.event_id }, dmEventsRequest(request.query, true)), true);
    },
  );

  app.delete(
    '/2/dm_events/:event_id',
    {
      config: { auth: userAuth('dm.write', 'dm.read') },
      schema: {
        operationId: 'deleteDirectMessagesEvents',
        summary: 'Delete a message you sent',
        tags: ['Direct Messages'],
        params: idParams('event_id'),
        response: { 200: writeResponse({ deleted: Type.Boolean() }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await deleteDmEvent(ctx, userCallerOf(ctx, request), request.params.event_id) }),
  );

  // Participants, read receipts and typing: the public platform's v2 has no such DM endpoints;
  // these are Plaza's, shaped like its chat endpoints.
  app.post(
    '/2/dm_conversations/:dm_conversation_id/participants',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'addDirectMessagesParticipants',
        summary: 'Add participants to a group conversation (ParticipantsJoin)',
        tags: ['Direct Messages'],
        params: conversationParams,
        body: Type.Object({ participant_ids: Type.Array(idString(), { minItems: 1, maxItems: 49 }) }, { additionalProperties: false }),
        response: { 200: writeResponse({ dm_event_id: Type.String() }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await addParticipants(ctx, userCallerOf(ctx, request), request.params.dm_conversation_id, request.body.participant_ids) }),
  );

  app.delete(
    '/2/dm_conversations/:dm_conversation_id/participants/:user_id',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'leaveDirectMessagesConversation',
        summary: 'Leave a group conversation (ParticipantsLeave); user_id is the authenticated user',
        tags: ['Direct Messages'],
        params: Type.Object({ dm_conversation_id: Type.String({ pattern: DM_CONVERSATION_ID_TEXT }), user_id: idString() }),
        response: { 200: writeResponse({ dm_event_id: Type.String() }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await leaveConversation(ctx, userCallerOf(ctx, request), request.params.dm_conversation_id, request.params.user_id) }),
  );

  app.post(
    '/2/dm_conversations/:dm_conversation_id/read',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'markDirectMessagesRead',
        summary: 'Mark the conversation read up to an event (dm.read)',
        tags: ['Direct Messages'],
        params: conversationParams,
        body: Type.Object({ last_read_event_id: idString('The newest event read.') }, { additionalProperties: false }),
        response: { 200: writeResponse({ success: Type.Boolean() }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await markRead(ctx, userCallerOf(ctx, request), request.params.dm_conversation_id, request.body.last_read_event_id) }),
  );

  app.post(
    '/2/dm_conversations/:dm_conversation_id/typing',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'sendDirectMessagesTypingIndicator',
        summary: 'Show the other participants that you are typing (dm.indicate_typing)',
        tags: ['Direct Messages'],
        params: conversationParams,
        response: { 200: writeResponse({ success: Type.Boolean() }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await indicateTyping(ctx, userCallerOf(ctx, request), request.params.dm_conversation_id) }),
  );
}
