import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
import { parseFieldSelection } from '../../http/fields.js';
import type { Listener } from '../../http/server.js';
import { startReplay } from '../../events/replay.js';
import { callerOf } from '../route-auth.js';
import { defaultErrorResponse } from '../schemas.js';
import { createWebhook, deleteWebhook, listWebhooks, validateWebhook, webhookDeclaration } from './service.js';

const WebhookId = Type.String({ pattern: '^[0-9]{1,19}$', description: 'The webhook config id: 1 to 19 decimal digits.' });
const WebhookConfig = Type.Object({ id: Type.String(), url: Type.String(), valid: Type.Boolean(), created_at: Type.String({ format: 'date-time' }) });
const appOrUser = { schemes: ['app', 'user'] as ('app' | 'user')[] };

export async function webhookRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  app.post(
    '/2/webhooks',
    {
      config: { auth: appOrUser },
      schema: {
        operationId: 'createWebhooks',
        summary: 'Create a webhook config (runs the CRC check)',
        tags: ['Webhooks'],
        body: Type.Object({ url: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
        response: { 200: Type.Object({ data: WebhookConfig }), default: defaultErrorResponse },
      },
    },
    async (request) => createWebhook(ctx, callerOf(request).app, request.body.url),
  );

  app.get(
    '/2/webhooks',
    {
      config: { auth: { schemes: ['app'] } },
      schema: {
        operationId: 'getWebhooks',
        summary: "List the app's webhook configs",
        tags: ['Webhooks'],
        querystring: Type.Object({ 'webhook_config.fields': Type.Optional(Type.String()) }, { additionalProperties: false }),
        response: {
          200: Type.Object({ data: Type.Array(Type.Partial(WebhookConfig)), meta: Type.Object({ result_count: Type.Integer() }) }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => listWebhooks(ctx, callerOf(request).app, parseFieldSelection(webhookDeclaration, request.query)),
  );

  app.post(
    '/2/webhooks/replay',
    {
      config: { auth: { schemes: ['app'] } },
      schema: {
        operationId: 'createWebhookReplayJob',
        summary: 'Replay the events of a time window to a webhook',
        description: 'Re-delivers the events delivered or attempted to the webhook between from_date (inclusive) and to_date (exclusive), yyyymmddhhmm UTC within the last 24 hours, then a replay_job_status event.',
        tags: ['Webhooks'],
        body: Type.Object({ webhook_id: WebhookId, from_date: Type.String(), to_date: Type.String() }, { additionalProperties: false }),
        response: { 200: Type.Object({ data: Type.Object({ job_id: Type.String(), created_at: Type.String({ format: 'date-time' }) }) }), default: defaultErrorResponse },
      },
    },
    async (request) => startReplay(ctx, callerOf(request).app, request.body.webhook_id, request.body.from_date, request.body.to_date, { legacy: false }),
  );

  app.put(
    '/2/webhooks/:webhook_id',
    {
      config: { auth: appOrUser },
      schema: {
        operationId: 'validateWebhooks',
        summary: 'Validate webhook',
        description: 'Triggers a CRC check for the given webhook.',
        tags: ['Webhooks'],
        params: Type.Object({ webhook_id: WebhookId }),
        response: {
          200: Type.Object(
            { data: Type.Optional(Type.Object({ attempted: Type.Optional(Type.Boolean()), valid: Type.Optional(Type.Boolean()) })) },
            { description: 'WebhookConfigPutResponse' },
          ),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => validateWebhook(ctx, callerOf(request).app, request.params.webhook_id),
  );

  app.delete(
    '/2/webhooks/:webhook_id',
    {
      config: { auth: appOrUser },
      schema: {
        operationId: 'deleteWebhooks',
        summary: 'Delete a webhook config',
        tags: ['Webhooks'],
        params: Type.Object({ webhook_id: WebhookId }),
        response: { 200: Type.Object({ data: Type.Object({ deleted: Type.Boolean() }) }), default: defaultErrorResponse },
      },
    },
    async (request) => deleteWebhook(ctx, callerOf(request).app, request.params.webhook_id),
  );
}
