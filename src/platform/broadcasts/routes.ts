import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
import { parseMaxResults } from '../../http/pagination.js';
import type { Listener } from '../../http/server.js';
import { query, userAuth } from '../graph/route-kit.js';
import { userCallerOf } from '../route-auth.js';
import { defaultErrorResponse, ProblemSchema, writeResponse } from '../schemas.js';
import {
  BROADCAST_LIST_RANGE,
  createBroadcast,
  deleteBroadcast,
  getBroadcast,
  goLive,
  listBroadcasts,
  parseBroadcastCursor,
  parseStartBound,
  sendChat,
  updateBroadcastSchedule,
} from './service.js';

const BROADCAST_ID_TEXT = '^[a-zA-Z0-9]{1,13}$';
const NUMERIC = '^[0-9]{1,19}$';
const numeric = (description: string) => Type.String({ pattern: NUMERIC, description });

/** The scheduled broadcast object (ScheduledBroadcastResponseData of the description). */
const BroadcastSchema = Type.Object(
  {
    broadcast_id: Type.String({ description: 'Alphanumeric broadcast id (path `:id` for get/update/delete/live).' }),
    scheduled_broadcast_id: Type.String({ description: 'Numeric scheduler id. Required in the update request body.' }),
    state: Type.String({ enum: ['Scheduled', 'Running', 'Ended'], description: 'Scheduler state at the time of the request.' }),
    source_id: Type.String(),
    title: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    locale: Type.Optional(Type.String()),
    chat_option: Type.Optional(Type.String()),
    telecast_id: Type.Optional(Type.String()),
    thumbnail_media_id: Type.Optional(Type.String()),
    recurring_schedule_id: Type.Optional(Type.String({ description: 'Set when this occurrence belongs to a recurrence.' })),
    available_for_replay: Type.Boolean(),
    manual_publish: Type.Boolean(),
    scheduled_start_ms: Type.String({ description: 'Scheduled start, milliseconds since Unix epoch (decimal string).' }),
    scheduled_end_ms: Type.String({ description: 'Scheduled end, milliseconds since Unix epoch (decimal string).' }),
  },
  { additionalProperties: false },
);

const errors = Type.Optional(Type.Array(Type.Ref(ProblemSchema), { minItems: 1 }));
const one = Type.Object({ data: BroadcastSchema, errors });

const scheduleFields = {
  scheduled_start_ms: numeric('Start time, ms since Unix epoch (decimal string); in the future.'),
  scheduled_end_ms: numeric('End time, ms since Unix epoch (decimal string); after the start.'),
  title: Type.Optional(Type.String({ maxLength: 280, description: 'Title / status text.' })),
  description: Type.Optional(Type.String({ maxLength: 1000 })),
  locale: Type.Optional(Type.String({ maxLength: 35 })),
  chat_option: Type.Optional(numeric('Chat permission option (numeric string).')),
  thumbnail_media_id: Type.Optional(numeric('Pre-live slate media id: media the authenticated user uploaded.')),
  available_for_replay: Type.Optional(Type.Boolean()),
  is_locked: Type.Optional(Type.Boolean()),
  manual_publish: Type.Optional(Type.Boolean({ description: 'If true, do not auto-publish at start; call POST .../live when ready.' })),
};

const readAuth = userAuth('broadcast.read');
const writeAuth = userAuth('broadcast.read', 'broadcast.write');
const idParams = Type.Object({ id: Type.String({ pattern: BROADCAST_ID_TEXT }) });
const TAGS = ['Broadcasts'];

/** Scheduled broadcasts (description 2.167): the owner's schedule, going live, and chat. */
export async function broadcastRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  app.get(
    '/2/broadcasts/scheduled',
    {
      config: { auth: readAuth },
      schema: {
        operationId: 'listScheduledBroadcasts',
        summary: 'Scheduled broadcasts owned by the authenticated user, earliest start first',
        tags: TAGS,
        querystring: query({
          max_results: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: '1 to 100; default 100.' })),
          oldest_start_time: Type.Optional(Type.String({ description: 'Only broadcasts starting at or after this time (ms since Unix epoch, or RFC 3339).' })),
          newest_start_time: Type.Optional(Type.String({ description: 'Only broadcasts starting at or before this time (ms since Unix epoch, or RFC 3339).' })),
          pagination_token: Type.Optional(Type.String({ minLength: 1, description: 'The next_token of the previous page.' })),
        }),
        response: {
          200: Type.Object({
            data: Type.Optional(Type.Array(BroadcastSchema)),
            errors,
            meta: Type.Object({ result_count: Type.Integer({ format: 'int32' }), next_token: Type.Optional(Type.String()) }),
          }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => {
      const q = request.query;
      const caller = userCallerOf(ctx, request);
      const oldestStart = parseStartBound('oldest_start_time', q.oldest_start_time);
      const newestStart = parseStartBound('newest_start_time', q.newest_start_time);
      const result = await listBroadcasts(ctx, caller, {
        maxResults: parseMaxResults(q.max_results, BROADCAST_LIST_RANGE),
        oldestStart,
        newestStart,
        after: parseBroadcastCursor(q.pagination_token),
      });
      return { data: result.data.length > 0 ? result.data : undefined, meta: result.meta };
    },
  );

  app.post(
    '/2/broadcasts/scheduled',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'createScheduledBroadcast',
        summary: 'Schedule a one-off or recurring broadcast for the authenticated user',
        tags: TAGS,
        body: Type.Object(
          {
            source_id: Type.String({ minLength: 1, maxLength: 256, description: 'Ingest / source id to bind (required at create time).' }),
            telecast_id: Type.Optional(numeric('Optional telecast id (numeric string).')),
            recurrence: Type.Optional(
              Type.Object(
                {
                  frequency: Type.String({ enum: ['Daily', 'Weekly'] }),
                  repeats: Type.String({ pattern: NUMERIC, description: 'How many occurrences the series holds, 1 to 100.' }),
                },
                { additionalProperties: false },
              ),
            ),
            ...scheduleFields,
          },
          { additionalProperties: false },
        ),
        response: { 201: one, default: defaultErrorResponse },
      },
    },
    async (request, reply) => {
      const body = request.body as Parameters<typeof createBroadcast>[2];
      return reply.code(201).send({ data: await createBroadcast(ctx, userCallerOf(ctx, request), body) });
    },
  );

  app.get(
    '/2/broadcasts/scheduled/:id',
    {
      config: { auth: readAuth },
      schema: { operationId: 'getScheduledBroadcast', summary: 'One scheduled broadcast of the authenticated user', tags: TAGS, params: idParams, response: { 200: one, default: defaultErrorResponse } },
    },
    async (request) => ({ data: await getBroadcast(ctx, userCallerOf(ctx, request), request.params.id) }),
  );

  app.put(
    '/2/broadcasts/scheduled/:id',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'updateScheduledBroadcast',
        summary: 'Replace the schedule of a broadcast that has not started (re-send every field to keep)',
        tags: TAGS,
        params: idParams,
        body: Type.Object(
          {
            scheduled_broadcast_id: numeric('The numeric scheduler id from create, list or get.'),
            source_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'Ingest / source id; the bound one is kept when left out.' })),
            roll_forward: Type.Optional(Type.Boolean({ description: 'On an occurrence of a recurring series: the later occurrences follow the new start and duration.' })),
            ...scheduleFields,
          },
          { additionalProperties: false },
        ),
        response: { 200: one, default: defaultErrorResponse },
      },
    },
    async (request) => {
      const body = request.body as Parameters<typeof updateBroadcastSchedule>[3];
      return { data: await updateBroadcastSchedule(ctx, userCallerOf(ctx, request), request.params.id, body) };
    },
  );

  app.delete(
    '/2/broadcasts/scheduled/:id',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'deleteScheduledBroadcast',
        summary: 'Delete a scheduled broadcast (an occurrence of a series: the rest of the series too, unless roll_forward)',
        tags: TAGS,
        params: idParams,
        querystring: query({
          roll_forward: Type.Optional(Type.Boolean({ description: 'On an occurrence of a recurring series: delete only this one; the series rolls forward to its next occurrence.' })),
        }),
        response: { 200: writeResponse({ deleted: Type.Boolean() }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await deleteBroadcast(ctx, userCallerOf(ctx, request), request.params.id, request.query.roll_forward === true) }),
  );

  app.post(
    '/2/broadcasts/scheduled/:id/live',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'goLiveScheduledBroadcast',
        summary: 'Publish a broadcast scheduled with manual_publish',
        tags: TAGS,
        params: idParams,
        response: { 200: one, default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await goLive(ctx, userCallerOf(ctx, request), request.params.id) }),
  );

  app.post(
    '/2/broadcasts/:id/chat',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'sendBroadcastChat',
        summary: 'Send a chat message to a running broadcast, attributed to the authenticated user',
        tags: TAGS,
        params: idParams,
        body: Type.Object({ text: Type.String({ minLength: 1, maxLength: 140 }) }, { additionalProperties: false }),
        response: {
          200: writeResponse({ success: Type.Boolean(), timestamp: Type.String({ description: 'Server timestamp of the message, in nanoseconds.' }) }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => ({ data: await sendChat(ctx, userCallerOf(ctx, request), request.params.id, request.body.text) }),
  );
}
