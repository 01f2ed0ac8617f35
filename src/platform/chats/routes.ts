import { acceptMultipart } from '../media/routes.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
import { fieldsParamOf, parseFieldSelection } from '../../http/fields.js';
import { jsonBody } from '../../http/json-body.js';
import { parseIdList, invalidValue } from '../../http/params.js';
import type { Listener } from '../../http/server.js';
import { expansionsParam, parsePrimaryFields, parseSelection } from '../expansions.js';
import { parsePage } from '../graph/query.js';
import { idParams, idString, pageParams, query, userAuth } from '../graph/route-kit.js';
import { userCallerOf } from '../route-auth.js';
import { defaultErrorResponse, ExpansionsSchema, ProblemSchema, writeResponse } from '../schemas.js';
import { userDeclaration } from '../users/wire.js';
import { viewOf } from '../view.js';
import { appendChatMedia, downloadChatMedia, finalizeChatMedia, initializeChatMedia } from './media.js';
import { addPublicKey, userPublicKeys, usersPublicKeys } from './public-keys.js';
import {
  addConversationKeys,
  addGroupMembers,
  createGroup,
  getConversation,
  initializeGroup,
  listConversations,
  listEvents,
  markRead,
  parseInboxPage,
  sendMessage,
  sendTyping,
  type ConversationRequest,
} from './service.js';
import { CHAT_CONVERSATION_ID_TEXT, chatConversationDeclaration, chatConversationExpansions, chatMessageEventDeclaration, publicKeyDeclaration } from './wire.js';

// The public description's security of each operation, 'tweet' read as 'post'.
const readAuth = userAuth('dm.read', 'users.read');
const lookupAuth = userAuth('users.read', 'post.read', 'dm.read');
const writeAuth = userAuth('users.read', 'dm.write', 'post.read');
const initAuth = userAuth('dm.write');
const mediaAuth = userAuth('media.write');

const tags = ['Chats'];
const conversationParams = Type.Object({ id: Type.String({ pattern: CHAT_CONVERSATION_ID_TEXT, description: 'A group id (g…), a one-to-one id (two user ids), or the other user’s id.' }) });
const PAGE = { min: 1, max: 100, default: 10 };

const conversationSelection = {
  'chat_conversation.fields': fieldsParamOf(chatConversationDeclaration),
  expansions: expansionsParam(chatConversationExpansions),
  'user.fields': fieldsParamOf(userDeclaration),
};
const ChatConversationSchema = Type.Object(
  {
    id: Type.String(),
    type: Type.Optional(Type.String({ enum: ['one_to_one', 'group'] })),
    admin_ids: Type.Optional(Type.Array(Type.String())),
    member_ids: Type.Optional(Type.Array(Type.String())),
    participant_ids: Type.Optional(Type.Array(Type.String())),
    created_at: Type.Optional(Type.String({ format: 'date-time' })),
    updated_at: Type.Optional(Type.String({ format: 'date-time' })),
    group_name: Type.Optional(Type.String()),
    group_avatar_url: Type.Optional(Type.String()),
    is_muted: Type.Optional(Type.Boolean()),
    message_ttl_ms: Type.Optional(Type.Integer()),
    screen_capture_blocking_enabled: Type.Optional(Type.Boolean()),
    screen_capture_detection_enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);
const ChatMessageEventSchema = Type.Object(
  {
    id: Type.String(),
    sender_id: Type.Optional(Type.String()),
    encoded_event: Type.Optional(Type.String()),
    conversation_id: Type.Optional(Type.String()),
    conversation_token: Type.Optional(Type.String()),
    created_at: Type.Optional(Type.String({ format: 'date-time' })),
    is_trusted: Type.Optional(Type.Boolean()),
    message_event_signature: Type.Optional(Type.Object({}, { additionalProperties: true })),
    previous_id: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);
const PublicKeySchema = Type.Object(
  {
    public_key: Type.Optional(Type.String()),
    public_key_version: Type.Optional(Type.String()),
    signing_public_key: Type.Optional(Type.String()),
    identity_public_key_signature: Type.Optional(Type.String()),
    juicebox_config: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: true },
);
const errorsField = Type.Optional(Type.Array(Type.Ref(ProblemSchema), { minItems: 1 }));

const base64Text = (description: string) => Type.String({ minLength: 1, pattern: '^[A-Za-z0-9+/=_-]+$', description });
const messageEventSignature = Type.Object({
  signature: base64Text('The signature of the message event.'),
  public_key_version: Type.String({ pattern: '^[0-9]+$' }),
  signature_version: Type.String({ pattern: '^[0-9]+$' }),
  signing_public_key: Type.Optional(Type.String()),
  message_signing_key_info_list: Type.Optional(
    Type.Array(Type.Object({ member_id: Type.Optional(Type.String()), public_key_version: Type.Optional(Type.String()), signing_public_key: Type.Optional(Type.String()) })),
  ),
});
const participantKeys = Type.Array(
  Type.Object({
    user_id: Type.Optional(idString('Participant user ID.')),
    encrypted_conversation_key: Type.Optional(Type.String({ description: "Conversation key encrypted with this participant's public key." })),
    public_key_version: Type.Optional(Type.String({ description: "Version of the participant's public key used for encryption." })),
  }),
  { maxItems: 100 },
);
const keyChangeFields = {
  action_signatures: Type.Optional(
    Type.Array(
      Type.Object({
        message_id: Type.String({ minLength: 1 }),
        encoded_message_event_detail: base64Text('Base64-encoded message event detail.'),
        message_event_signature: messageEventSignature,
        signature_payload: Type.Optional(Type.String()),
      }),
    ),
  ),
  conversation_participant_keys: Type.Optional(participantKeys),
  conversation_key_version: Type.Optional(Type.String({ description: 'Version of the conversation key (typically a time in milliseconds).' })),
};

function conversationRequest(q: Record<string, unknown>): ConversationRequest {
  const selection = parseSelection(q, chatConversationExpansions);
  return { fields: parsePrimaryFields(chatConversationDeclaration, q, selection, chatConversationExpansions), selection };
}

/** The Chats tag of the public description: encrypted conversations, their keys, messages and media, and users' public keys. */
export async function chatRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  app.get(
    '/2/chat/conversations',
    {
      config: { auth: readAuth },
      schema: {
        operationId: 'getChatConversations',
        summary: "The authenticated user's chat inbox, most recently active first",
        tags,
        querystring: query({ ...pageParams(PAGE), ...conversationSelection }),
        response: {
          200: Type.Object({
            data: Type.Optional(Type.Array(ChatConversationSchema)),
            includes: Type.Optional(Type.Ref(ExpansionsSchema)),
            errors: errorsField,
            meta: Type.Object({
              result_count: Type.Integer({ format: 'int32' }),
              has_more: Type.Boolean(),
              has_message_requests: Type.Boolean(),
              next_token: Type.Optional(Type.String()),
            }),
          }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => {
      const caller = userCallerOf(ctx, request);
      const q = request.query as Record<string, unknown>;
      const result = await listConversations(ctx, caller, viewOf(ctx.clock, caller), parseInboxPage(ctx, q, PAGE), conversationRequest(q));
      return jsonBody({ data: result.data.length > 0 ? result.data : undefined, includes: result.includes as never, errors: result.errors.length > 0 ? result.errors : undefined, meta: result.meta });
    },
  );

  app.post(
    '/2/chat/conversations/group/initialize',
    {
      config: { auth: initAuth },
      schema: { operationId: 'initializeChatGroup', summary: 'Reserve the id of a new group conversation', tags, response: { 200: writeResponse({ conversation_id: Type.String() }), default: defaultErrorResponse } },
    },
    async (request) => ({ data: await initializeGroup(ctx, userCallerOf(ctx, request)) }),
  );

  app.post(
    '/2/chat/conversations/group',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'createChatConversation',
        summary: 'Create an encrypted group conversation under an initialized id',
        tags,
        body: Type.Object({
          ...keyChangeFields,
          conversation_id: Type.String({ pattern: '^g[0-9]{1,19}$', description: 'The id POST /2/chat/conversations/group/initialize returned.' }),
          conversation_key_version: Type.String(),
          conversation_participant_keys: participantKeys,
          group_members: Type.Array(idString(), { minItems: 1, maxItems: 100 }),
          group_admins: Type.Optional(Type.Array(idString(), { maxItems: 100 })),
          group_name: Type.Optional(Type.String({ maxLength: 1000 })),
          group_description: Type.Optional(Type.String({ maxLength: 1000 })),
          group_avatar_url: Type.Optional(Type.String({ maxLength: 2000 })),
          base64_encoded_key_rotation: Type.Optional(Type.String()),
          ttl_msec: Type.Optional(Type.String({ description: 'Message time-to-live in milliseconds.' })),
        }),
        response: { 201: writeResponse({ conversation_id: Type.String(), conversation_key_change_sequence_id: Type.String() }), default: defaultErrorResponse },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await createGroup(ctx, userCallerOf(ctx, request), request.body as never) }),
  );

  app.get(
    '/2/chat/conversations/:id',
    {
      config: { auth: lookupAuth },
      schema: {
        operationId: 'getChatConversation',
        summary: 'A chat conversation the authenticated user is a member of',
        tags,
        params: conversationParams,
        querystring: query(conversationSelection),
        response: { 200: Type.Object({ data: Type.Optional(ChatConversationSchema), includes: Type.Optional(Type.Ref(ExpansionsSchema)), errors: errorsField }), default: defaultErrorResponse },
      },
    },
    async (request) => {
      const caller = userCallerOf(ctx, request);
      const result = await getConversation(ctx, caller, viewOf(ctx.clock, caller), request.params.id, conversationRequest(request.query as Record<string, unknown>));
      return jsonBody({ data: result.data[0], includes: result.includes as never, errors: result.errors.length > 0 ? result.errors : undefined });
    },
  );

  app.get(
    '/2/chat/conversations/:id/events',
    {
      config: { auth: lookupAuth },
      schema: {
        operationId: 'getChatConversationEvents',
        summary: 'The messages of a chat conversation, newest first, with the conversation keys encrypted for the caller',
        tags,
        params: conversationParams,
        querystring: query({ ...pageParams(PAGE), 'chat_message_event.fields': fieldsParamOf(chatMessageEventDeclaration) }),
        response: {
          200: Type.Object({
            data: Type.Optional(Type.Array(ChatMessageEventSchema)),
            errors: errorsField,
            meta: Type.Object({
              result_count: Type.Integer({ format: 'int32' }),
              has_more: Type.Boolean(),
              next_token: Type.Optional(Type.String()),
              conversation_key_events: Type.Optional(Type.Array(Type.String())),
            }),
          }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => {
      const q = request.query as Record<string, unknown>;
      const result = await listEvents(ctx, userCallerOf(ctx, request), request.params.id, {
        fields: parseFieldSelection(chatMessageEventDeclaration, q),
        page: parsePage(q, PAGE),
      });
      return { data: result.data.length > 0 ? result.data : undefined, meta: result.meta };
    },
  );

  app.post(
    '/2/chat/conversations/:id/keys',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'addConversationKeys',
        summary: 'Initialize or rotate the conversation key (the first keys open a one-to-one conversation)',
        tags,
        params: conversationParams,
        body: Type.Object({
          ...keyChangeFields,
          conversation_key_version: Type.String(),
          conversation_participant_keys: participantKeys,
          base64_encoded_key_rotation: Type.Optional(Type.String()),
        }),
        response: { 200: writeResponse({ conversation_id: Type.String(), sequence_id: Type.String() }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await addConversationKeys(ctx, userCallerOf(ctx, request), request.params.id, request.body as never) }),
  );

  app.post(
    '/2/chat/conversations/:id/members',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'addChatGroupMembers',
        summary: 'A group admin adds members, rotating the conversation key',
        tags,
        params: conversationParams,
        body: Type.Object({
          ...keyChangeFields,
          user_ids: Type.Array(idString(), { minItems: 1, maxItems: 100 }),
          encrypted_title: Type.Optional(Type.String({ maxLength: 2000 })),
          encrypted_avatar_url: Type.Optional(Type.String({ maxLength: 2000 })),
        }),
        response: { 200: writeResponse({ conversation_id: Type.String(), sequence_id: Type.String() }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await addGroupMembers(ctx, userCallerOf(ctx, request), request.params.id, request.body as never) }),
  );

  app.post(
    '/2/chat/conversations/:id/messages',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'sendChatMessage',
        summary: 'Send an encrypted message to a chat conversation',
        tags,
        params: conversationParams,
        body: Type.Object({
          message_id: Type.String({ minLength: 1, maxLength: 100, description: 'The client’s unique id of this message.' }),
          encoded_message_create_event: Type.String({ minLength: 1, description: 'Base64-encoded MessageCreateEvent (ciphertext).' }),
          encoded_message_event_signature: Type.Optional(Type.String({ description: 'Base64-encoded MessageEventSignature.' })),
          conversation_token: Type.Optional(Type.String({ maxLength: 1000 })),
        }),
        response: {
          201: writeResponse({ encoded_message_event: Type.String(), sequence_id: Type.Optional(Type.String()), conversation_id: Type.Optional(Type.String()) }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await sendMessage(ctx, userCallerOf(ctx, request), request.params.id, request.body) }),
  );

  app.post(
    '/2/chat/conversations/:id/read',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'markChatConversationRead',
        summary: 'Mark a chat conversation read up to a sequence id',
        tags,
        params: conversationParams,
        body: Type.Object({ seen_until_sequence_id: Type.String({ description: 'The sequence id of the last event read.' }) }),
        response: { 200: writeResponse({ success: Type.Boolean() }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await markRead(ctx, userCallerOf(ctx, request), request.params.id, request.body.seen_until_sequence_id) }),
  );

  app.post(
    '/2/chat/conversations/:id/typing',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'sendChatTypingIndicator',
        summary: 'Tell the other members you are typing',
        tags,
        params: conversationParams,
        response: { 200: writeResponse({ success: Type.Boolean() }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await sendTyping(ctx, userCallerOf(ctx, request), request.params.id) }),
  );

  app.post(
    '/2/chat/media/upload/initialize',
    {
      config: { auth: mediaAuth },
      schema: {
        operationId: 'chatMediaUploadInitialize',
        summary: 'Open an upload of encrypted media for a chat conversation',
        tags,
        body: Type.Object({ conversation_id: Type.String({ pattern: CHAT_CONVERSATION_ID_TEXT }), total_bytes: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
        response: { 200: writeResponse({ session_id: Type.String(), media_hash_key: Type.String(), conversation_id: Type.String() }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await initializeChatMedia(ctx, userCallerOf(ctx, request), request.body) }),
  );

  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
    // Segments come base64 in JSON or raw in multipart (the description allows both).
    await acceptMultipart(scope as never, { fileSize: 16 * 1024 * 1024, files: 1, fields: 10 });
    const appendFields = {
      conversation_id: Type.String({ pattern: CHAT_CONVERSATION_ID_TEXT }),
      media_hash_key: Type.String({ pattern: '^[a-zA-Z0-9]{1,50}$' }),
      segment_index: Type.Integer({ minimum: 0, maximum: 999 }),
    };
    scope.post(
      '/2/chat/media/upload/:id/append',
      {
        bodyLimit: 24 * 1024 * 1024,
        config: { auth: mediaAuth },
        schema: {
          operationId: 'chatMediaUploadAppend',
          summary: 'Append one segment to a chat media upload',
          tags,
          params: idParams('id'),
          body: {
            content: {
              'application/json': { schema: Type.Object({ ...appendFields, media: Type.String({ description: 'The segment, base64-encoded.' }) }, { additionalProperties: false }) },
              'multipart/form-data': { schema: Type.Object({ ...appendFields, media: Type.Unknown({ description: 'The segment, as raw bytes.' }) }, { additionalProperties: false }) },
            },
          } as never,
          response: { 200: writeResponse({ expires_at: Type.Integer({ description: 'Epoch seconds when the upload session expires.' }) }), default: defaultErrorResponse },
        },
      },
      async (request) => {
        // Only JSON and multipart bodies are described (and validated); anything else carries no segment.
        const type = String(request.headers['content-type'] ?? '');
        if (!request.body || typeof request.body !== 'object' || !/^(application\/json|multipart\/form-data)\b/i.test(type)) {
          throw invalidValue('media', undefined, 'The segment goes in a JSON body (`media` base64-encoded) or a multipart/form-data body (`media` as raw bytes).');
        }
        const body = request.body as { conversation_id: string; media_hash_key: string; segment_index: number | string; media: unknown };
        let bytes: Buffer;
        if (Buffer.isBuffer(body.media)) bytes = body.media;
        else if (typeof body.media === 'string' && /^[A-Za-z0-9+/_\-\s]*={0,2}\s*$/.test(body.media)) bytes = Buffer.from(body.media, 'base64');
        else throw invalidValue('media', undefined, 'The `media` field is not base64-encoded data.');
        const params = request.params as { id: string };
        return { data: await appendChatMedia(ctx, userCallerOf(ctx, request), params.id, { ...body, segment_index: Number(body.segment_index), bytes }) };
      },
    );
  });

  app.post(
    '/2/chat/media/upload/:id/finalize',
    {
      config: { auth: mediaAuth },
      schema: {
        operationId: 'chatMediaUploadFinalize',
        summary: 'Finish a chat media upload and store it',
        tags,
        params: idParams('id'),
        body: Type.Object(
          {
            conversation_id: Type.String({ pattern: CHAT_CONVERSATION_ID_TEXT }),
            media_hash_key: Type.String({ pattern: '^[a-zA-Z0-9]{1,50}$' }),
            num_parts: Type.String({ description: 'Total number of uploaded parts, as a numeric string.' }),
            message_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'The message the media is attached to.' })),
            ttl_msec: Type.Optional(Type.String({ description: 'How long the media is served, in milliseconds.' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: writeResponse({ success: Type.Boolean() }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await finalizeChatMedia(ctx, userCallerOf(ctx, request), request.params.id, request.body) }),
  );

  app.get(
    '/2/chat/media/:id/:media_hash_key',
    {
      config: { auth: mediaAuth },
      schema: {
        operationId: 'chatMediaDownload',
        summary: 'Download the encrypted bytes of chat media',
        tags,
        params: Type.Object({ id: Type.String({ pattern: CHAT_CONVERSATION_ID_TEXT }), media_hash_key: Type.String({ pattern: '^[a-zA-Z0-9]{1,50}$' }) }),
        response: { 200: { description: 'The raw bytes.', content: { 'application/octet-stream': { schema: Type.String({ format: 'binary' }) } } }, default: defaultErrorResponse } as never,
      },
    },
    async (request, reply) => {
      const params = request.params as { id: string; media_hash_key: string };
      const file = await downloadChatMedia(ctx, userCallerOf(ctx, request), params.id, params.media_hash_key);
      return reply.type('application/octet-stream').header('content-length', String(file.size)).send(file.stream());
    },
  );

  app.get(
    '/2/users/public_keys',
    {
      config: { auth: lookupAuth },
      schema: {
        operationId: 'getUsersPublicKeys',
        summary: 'The current chat public key of each of up to 100 users',
        tags,
        querystring: query({ ids: Type.String({ description: 'A comma separated list of user ids, 1 to 100.' }), 'public_key.fields': fieldsParamOf(publicKeyDeclaration) }),
        response: { 200: Type.Object({ data: Type.Optional(Type.Array(PublicKeySchema)), errors: errorsField }), default: defaultErrorResponse },
      },
    },
    async (request) => {
      const q = request.query as Record<string, unknown>;
      const ids = parseIdList('ids', q.ids as string, 100);
      const result = await usersPublicKeys(ctx, ids, parseFieldSelection(publicKeyDeclaration, q));
      return { data: result.data.length > 0 ? result.data : undefined, errors: result.errors.length > 0 ? result.errors : undefined };
    },
  );

  app.get(
    '/2/users/:id/public_keys',
    {
      config: { auth: lookupAuth },
      schema: {
        operationId: 'getUsersPublicKey',
        summary: "Every version of a user's chat public key, newest first",
        tags,
        params: idParams('id'),
        querystring: query({ 'public_key.fields': fieldsParamOf(publicKeyDeclaration) }),
        response: { 200: Type.Object({ data: Type.Optional(Type.Array(PublicKeySchema)), errors: errorsField }), default: defaultErrorResponse },
      },
    },
    async (request) => {
      const result = await userPublicKeys(ctx, request.params.id, parseFieldSelection(publicKeyDeclaration, request.query as Record<string, unknown>));
      return { data: result.data.length > 0 ? result.data : undefined, errors: result.errors.length > 0 ? result.errors : undefined };
    },
  );

  app.post(
    '/2/users/:id/public_keys',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'addUserPublicKey',
        summary: "Register a version of the authenticated user's chat public key",
        tags,
        params: idParams('id'),
        body: Type.Object({
          version: Type.String({ description: 'Public key version (decimal).' }),
          generate_version: Type.Optional(Type.Boolean({ description: 'When true, Plaza gives the next version after your newest.' })),
          public_key: Type.Object({
            public_key: Type.Optional(Type.String({ description: 'Identity public key (base64 encoded).' })),
            signing_public_key: Type.Optional(Type.String({ description: 'Signing public key (base64 encoded).' })),
            identity_public_key_signature: Type.Optional(Type.String()),
            signing_public_key_signature: Type.Optional(Type.String()),
            public_key_fingerprint: Type.Optional(Type.String()),
            registration_method: Type.Optional(Type.String()),
          }),
        }),
        response: { 200: writeResponse({ public_key_version: Type.String(), juicebox_config: Type.Optional(Type.Object({}, { additionalProperties: true })) }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await addPublicKey(ctx, userCallerOf(ctx, request), request.params.id, request.body) }),
  );
}
