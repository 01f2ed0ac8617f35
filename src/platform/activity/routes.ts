import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
// Registers the router that sends the events of subscriptions with a webhook_id to that webhook.
import '../../events/activity-router.js';
import type { Listener } from '../../http/server.js';
import { callerOf } from '../route-auth.js';
import { defaultErrorResponse } from '../schemas.js';
import { activityMessage, streamResponse } from '../streams/messages.js';
import { createSubscription, deleteSubscription, deleteSubscriptions, listSubscriptions, updateSubscription } from './service.js';
import { openActivityStream } from './stream.js';
import { sharedConnectionCap } from './connection-cap.js';

const Id = Type.String({ pattern: '^[0-9]{1,19}$' });
const Direction = Type.Union([Type.Literal('sent'), Type.Literal('received')]);
const Filter = Type.Object(
  {
    user_id: Type.Optional(Type.String({ pattern: '^[0-9]{1,19}$', description: 'The user the subscription is about.' })),
    keyword: Type.Optional(Type.String({ description: 'A keyword (1 to 150 characters), for high-volume event types such as news.' })),
    direction: Type.Optional(
      Type.Union([Direction, Type.Array(Direction)], { description: 'Direct-message and chat events: sent, received, or both (from Mar 18, 2026).' }),
    ),
  },
  { additionalProperties: false },
);
const Tag = Type.String({ minLength: 1, maxLength: 200, description: 'A tag of the caller, sent back with every event.' });
const Subscription = Type.Object({
  subscription_id: Type.String(),
  event_type: Type.String(),
  filter: Filter,
  created_at: Type.String(),
  updated_at: Type.String(),
  tag: Type.Optional(Type.String()),
  webhook_id: Type.Optional(Type.String()),
});
const TotalMeta = Type.Object({ total_subscriptions: Type.Integer() });
const appOrUser = { schemes: ['app', 'user'] as ('app' | 'user')[] };
const tags = ['Account Activity'];

export async function activityRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  // The stream's per-app cap, shared by the processes on the store when Redis is configured.
  const shared = sharedConnectionCap(app, ctx);
  // Before the listener waits for its connections to end: streams end themselves, saying why.
  app.addHook('preClose', async () => ctx.streams.close());

  app.post(
    '/2/activity/subscriptions',
    {
      config: { auth: appOrUser },
      schema: {
        operationId: 'createActivitySubscription',
        summary: 'Create an activity subscription',
        description: 'Events of the type that pass the filter go to the activity stream, and to the webhook when one is named.',
        tags,
        body: Type.Object(
          { event_type: Type.String({ minLength: 1, maxLength: 100 }), filter: Filter, tag: Type.Optional(Tag), webhook_id: Type.Optional(Id) },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ data: Type.Object({ subscription: Subscription }) }), default: defaultErrorResponse },
      },
    },
    async (request) => createSubscription(ctx, callerOf(request), request.body),
  );

  app.get(
    '/2/activity/subscriptions',
    {
      config: { auth: appOrUser },
      schema: {
        operationId: 'getActivitySubscriptions',
        summary: "List the app's activity subscriptions",
        tags,
        querystring: Type.Object(
          { max_results: Type.Optional(Type.String()), pagination_token: Type.Optional(Type.String()) },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            data: Type.Optional(Type.Array(Subscription)),
            meta: Type.Object({ result_count: Type.Integer(), total_subscriptions: Type.Integer(), next_token: Type.Optional(Type.String()) }),
          }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => listSubscriptions(ctx, callerOf(request).app, request.query),
  );

  app.put(
    '/2/activity/subscriptions/:subscription_id',
    {
      config: { auth: appOrUser },
      schema: {
        operationId: 'updateActivitySubscription',
        summary: 'Change the tag or the webhook of an activity subscription',
        tags,
        params: Type.Object({ subscription_id: Id }),
        body: Type.Object({ tag: Type.Optional(Tag), webhook_id: Type.Optional(Id) }, { additionalProperties: false }),
        response: {
          200: Type.Object({ data: Type.Object({ subscription: Subscription, total_subscriptions: Type.Integer() }) }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => updateSubscription(ctx, callerOf(request).app, request.params.subscription_id, request.body),
  );

  app.delete(
    '/2/activity/subscriptions/:subscription_id',
    {
      config: { auth: appOrUser },
      schema: {
        operationId: 'deleteActivitySubscription',
        summary: 'Delete an activity subscription',
        tags,
        params: Type.Object({ subscription_id: Id }),
        response: { 200: Type.Object({ data: Type.Object({ deleted: Type.Boolean() }), meta: TotalMeta }), default: defaultErrorResponse },
      },
    },
    async (request) => deleteSubscription(ctx, callerOf(request).app, request.params.subscription_id),
  );

  app.delete(
    '/2/activity/subscriptions',
    {
      config: { auth: appOrUser },
      schema: {
        operationId: 'deleteActivitySubscriptionsByIds',
        summary: 'Delete activity subscriptions by id (1 to 100 ids)',
        tags,
        querystring: Type.Object({ ids: Type.Optional(Type.String()) }, { additionalProperties: false }),
        response: {
          200: Type.Object({
            data: Type.Array(Type.Object({ subscription_id: Type.String(), deleted: Type.Boolean() })),
            errors: Type.Optional(Type.Array(Type.Object({ subscription_id: Type.String(), reason: Type.String(), message: Type.String() }))),
            meta: TotalMeta,
          }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => deleteSubscriptions(ctx, callerOf(request).app, request.query.ids),
  );

  app.get(
    '/2/activity/stream',
    {
      config: { auth: { schemes: ['app'] } },
      schema: {
        operationId: 'activityStream',
        summary: 'Stream activity events',
        description:
          'A persistent HTTP stream: one `{data:{event_uuid, filter, event_type, tag, payload, includes}}` line per event of the app\'s subscriptions, `\\r\\n` keep-alives, backfill_minutes (0 to 5) or start_time/end_time read from the event log.',
        tags: ['Stream'],
        querystring: Type.Object(
          {
            backfill_minutes: Type.Optional(Type.String()),
            start_time: Type.Optional(Type.String()),
            end_time: Type.Optional(Type.String()),
          },
          { additionalProperties: false },
        ),
        response: { 200: streamResponse(activityMessage(Filter)), default: defaultErrorResponse },
      },
    },
    async (request, reply) => openActivityStream(ctx, callerOf(request).app, request.query, request, reply, shared),
  );
}
