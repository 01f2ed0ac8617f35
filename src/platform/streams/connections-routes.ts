import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
import type { Listener } from '../../http/server.js';
import { callerOf } from '../route-auth.js';
import { defaultErrorResponse } from '../schemas.js';
import { deleteAllConnections, deleteConnectionsByEndpoint, deleteConnectionsByUuids, ENDPOINT_IDS, getConnectionHistory, type EndpointId } from './connections.js';

const ConnectionSchema = Type.Object({
  id: Type.String(),
  client_ip: Type.Optional(Type.String()),
  connected_at: Type.Optional(Type.String({ format: 'date-time' })),
  disconnected_at: Type.Optional(Type.String({ format: 'date-time' })),
  disconnect_reason: Type.Optional(Type.String()),
  endpoint_name: Type.Optional(Type.String()),
});
const KillResponse = Type.Object({
  data: Type.Object({
    successful_kills: Type.Integer(),
    failed_kills: Type.Integer(),
    results: Type.Array(Type.Object({ uuid: Type.String(), success: Type.Boolean(), error_message: Type.Optional(Type.String()) })),
  }),
});
const EndpointIdSchema = Type.Union(ENDPOINT_IDS.map((id) => Type.Literal(id)));
const appOnly = { schemes: ['app'] as 'app'[] };
const tags = ['Connections'];

/** GET /2/connections and the three DELETE operations (spec 000, Sep 19, 2025; shared/reference/platform.md §8). */
export async function connectionRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  app.get(
    '/2/connections',
    {
      config: { auth: appOnly },
      schema: {
        operationId: 'getConnectionHistory',
        summary: "List the app's active and past streaming connections",
        tags,
        querystring: Type.Object(
          {
            status: Type.Optional(Type.String({ description: 'active (default), inactive or all.' })),
            endpoints: Type.Optional(Type.String({ description: `Comma-separated endpoint ids: ${ENDPOINT_IDS.join(', ')}.` })),
            max_results: Type.Optional(Type.String({ description: '1 to 100, default 10.' })),
            pagination_token: Type.Optional(Type.String()),
            'connection.fields': Type.Optional(Type.String({ description: 'Comma-separated connection field names.' })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            data: Type.Optional(Type.Array(ConnectionSchema)),
            meta: Type.Object({ result_count: Type.Integer(), next_token: Type.Optional(Type.String()) }),
          }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => getConnectionHistory(ctx, callerOf(request).app, request.query),
  );

  app.delete(
    '/2/connections/all',
    {
      config: { auth: appOnly },
      schema: {
        operationId: 'deleteAllConnections',
        summary: "Terminate all of the app's active streaming connections",
        tags,
        response: { 200: KillResponse, default: defaultErrorResponse },
      },
    },
    async (request) => deleteAllConnections(ctx, callerOf(request).app),
  );

  app.delete(
    '/2/connections/:endpoint_id',
    {
      config: { auth: appOnly },
      schema: {
        operationId: 'deleteConnectionsByEndpoint',
        summary: "Terminate the app's active connections to one streaming endpoint",
        tags,
        params: Type.Object({ endpoint_id: EndpointIdSchema }),
        response: { 200: KillResponse, default: defaultErrorResponse },
      },
    },
    async (request) => deleteConnectionsByEndpoint(ctx, callerOf(request).app, request.params.endpoint_id as EndpointId),
  );

  app.delete(
    '/2/connections',
    {
      config: { auth: appOnly },
      schema: {
        operationId: 'deleteConnectionsByUuids',
        summary: 'Terminate streaming connections by uuid (1 to 100)',
        tags,
        body: Type.Object({ uuids: Type.Array(Type.String(), { description: 'Connection uuids to terminate (1-100).' }) }, { additionalProperties: false }),
        response: { 200: KillResponse, default: defaultErrorResponse },
      },
    },
    async (request) => deleteConnectionsByUuids(ctx, callerOf(request).app, request.body.uuids),
  );
}
