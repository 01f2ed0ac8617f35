import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
import type { Listener } from '../../http/server.js';
import { startReplay } from '../../events/replay.js';
import { callerOf, userCallerOf } from '../route-auth.js';
import { defaultErrorResponse } from '../schemas.js';
import { replayDeprecation } from './deprecation.js';
import { checkSubscription, listWebhookSubscriptions, subscribe, subscriptionCount, unsubscribe } from './service.js';

const WebhookId = Type.String({ pattern: '^[0-9]{1,19}$', description: 'The webhook config id: 1 to 19 decimal digits.' });
const UserId = Type.String({ pattern: '^[0-9]{1,19}$', description: 'A user id.' });
const Subscribed = Type.Object({ data: Type.Object({ subscribed: Type.Boolean() }) });
const tags = ['Account Activity'];

export async function accountActivityRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  app.post(
    '/2/account_activity/webhooks/:webhook_id/subscriptions/all',
    {
      config: { auth: { schemes: ['user'] } },
      schema: {
        operationId: 'createAccountActivitySubscription',
        summary: 'Subscribe the authenticated user to a webhook',
        tags,
        params: Type.Object({ webhook_id: WebhookId }),
        response: { 200: Subscribed, default: defaultErrorResponse },
      },
    },
    async (request) => subscribe(ctx, userCallerOf(ctx, request), request.params.webhook_id),
  );

  app.get(
    '/2/account_activity/webhooks/:webhook_id/subscriptions/all',
    {
      config: { auth: { schemes: ['user'] } },
      schema: {
        operationId: 'validateAccountActivitySubscription',
        summary: 'Check whether the authenticated user is subscribed to a webhook',
        tags,
        params: Type.Object({ webhook_id: WebhookId }),
        response: { 200: Subscribed, default: defaultErrorResponse },
      },
    },
    async (request) => checkSubscription(ctx, userCallerOf(ctx, request), request.params.webhook_id),
  );

  app.get(
    '/2/account_activity/webhooks/:webhook_id/subscriptions/all/list',
    {
      config: { auth: { schemes: ['app'] } },
      schema: {
        operationId: 'getAccountActivitySubscriptions',
        summary: "List a webhook's subscriptions",
        tags,
        params: Type.Object({ webhook_id: WebhookId }),
        response: {
          200: Type.Object({
            data: Type.Object({ application_id: Type.String(), webhook_id: Type.String(), webhook_url: Type.String(), subscriptions: Type.Array(Type.Object({ user_id: Type.String() })) }),
          }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => listWebhookSubscriptions(ctx, callerOf(request).app, request.params.webhook_id),
  );

  app.delete(
    '/2/account_activity/webhooks/:webhook_id/subscriptions/:user_id/all',
    {
      config: { auth: { schemes: ['app', 'user'] } },
      schema: {
        operationId: 'deleteAccountActivitySubscription',
        summary: "Delete a user's subscription to a webhook",
        tags,
        params: Type.Object({ webhook_id: WebhookId, user_id: UserId }),
        response: { 200: Subscribed, default: defaultErrorResponse },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return unsubscribe(ctx, caller.app, caller.kind === 'app' ? undefined : caller.user.id, request.params.webhook_id, request.params.user_id);
    },
  );

  app.get(
    '/2/account_activity/subscriptions/count',
    {
      config: { auth: { schemes: ['app'] } },
      schema: {
        operationId: 'getAccountActivitySubscriptionCount',
        summary: "Count the app's subscriptions",
        tags,
        response: {
          200: Type.Object({
            data: Type.Object({
              account_name: Type.String(),
              provisioned_count: Type.String(),
              subscriptions_count_all: Type.String(),
              subscriptions_count_direct_messages: Type.String(),
            }),
          }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => subscriptionCount(ctx, callerOf(request).app),
  );

  app.post(
    '/2/account_activity/replay/webhooks/:webhook_id/subscriptions/all',
    {
      config: { auth: { schemes: ['app'] } },
      schema: {
        operationId: 'createAccountActivityReplayJob',
        summary: 'Replay Account Activity events (deprecated: use POST /2/webhooks/replay)',
        description: 'Deprecated from Mar 25, 2026 12:00 PM ET in favour of POST /2/webhooks/replay; it still answers, with Deprecation and Link headers.',
        deprecated: true,
        tags,
        params: Type.Object({ webhook_id: WebhookId }),
        querystring: Type.Object({ from_date: Type.Optional(Type.String()), to_date: Type.Optional(Type.String()) }),
        response: { 200: Type.Object({ data: Type.Object({ job_id: Type.String(), created_at: Type.String() }) }), default: defaultErrorResponse },
      },
    },
    async (request, reply) => {
      for (const [name, value] of Object.entries(replayDeprecation(ctx))) reply.header(name, value);
      return startReplay(ctx, callerOf(request).app, request.params.webhook_id, request.query.from_date, request.query.to_date, { legacy: true });
    },
  );
}
