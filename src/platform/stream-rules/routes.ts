import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
import type { Listener } from '../../http/server.js';
import { idString, query } from '../graph/route-kit.js';
import { callerOf } from '../route-auth.js';
import { defaultErrorResponse, ProblemSchema } from '../schemas.js';
import { changeStreamRules, enterpriseStreamRules, LIST_RANGE, listStreamRules, ruleCounts } from './service.js';
import { streamWebhookRoutes } from './webhooks.js';

const Rule = Type.Object({ id: Type.String(), value: Type.String(), tag: Type.Optional(Type.String()) });
const Errors = Type.Optional(Type.Array(Type.Ref(ProblemSchema), { minItems: 1 }));
const appAuth = { schemes: ['app'] as 'app'[] };
const tags = ['Stream'];

const listQuery = {
  ids: Type.Optional(Type.String({ description: 'Comma-separated rule ids (up to 1,000): only these rules.' })),
  max_results: Type.Optional(Type.Integer({ minimum: LIST_RANGE.min, maximum: LIST_RANGE.max, description: `${LIST_RANGE.min} to ${LIST_RANGE.max}; default ${LIST_RANGE.default}.` })),
  pagination_token: Type.Optional(Type.String({ minLength: 1, description: 'The next_token of the previous page.' })),
};
const ListMeta = Type.Object({ sent: Type.String(), result_count: Type.Integer({ format: 'int32' }), next_token: Type.Optional(Type.String()) });

export async function streamRuleRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  app.get(
    '/2/posts/search/stream/rules',
    {
      config: { auth: appAuth },
      schema: {
        operationId: 'getRules',
        summary: "The app's filtered-stream rules",
        tags,
        querystring: query(listQuery),
        response: { 200: Type.Object({ data: Type.Optional(Type.Array(Rule)), errors: Errors, meta: ListMeta }), default: defaultErrorResponse },
      },
    },
    async (request) => listStreamRules(ctx, callerOf(request).app, request.query),
  );

  app.post(
    '/2/posts/search/stream/rules',
    {
      config: { auth: appAuth },
      // ?delete_all=true needs no body: an absent one is an empty object to the schema.
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        operationId: 'updateRules',
        summary: 'Add or delete filtered-stream rules',
        description:
          'Exactly one of `add` or `delete` (by `ids` or `values`) in the body, or `delete_all=true`. Duplicate and invalid rules come back in `errors` while the others are added; a set past the cap (1,000 rules on self-serve tiers, 25,000 and more on enterprise) is refused whole. Rules hold up to 1,024 characters on self-serve tiers, 2,048 on enterprise.',
        tags,
        querystring: query({
          dry_run: Type.Optional(Type.Boolean({ description: 'Validate the rules without changing anything.' })),
          delete_all: Type.Optional(Type.Boolean({ description: "Delete every rule of the app (no body needed)." })),
        }),
        body: Type.Object(
          {
            add: Type.Optional(Type.Array(Type.Object({ value: Type.String(), tag: Type.Optional(Type.String()) }, { additionalProperties: false }))),
            delete: Type.Optional(
              Type.Object(
                { ids: Type.Optional(Type.Array(idString())), values: Type.Optional(Type.Array(Type.String())) },
                { additionalProperties: false },
              ),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            data: Type.Optional(Type.Array(Rule)),
            errors: Errors,
            meta: Type.Object({
              sent: Type.String(),
              summary: Type.Union([
                Type.Object({ created: Type.Integer(), not_created: Type.Integer(), valid: Type.Integer(), invalid: Type.Integer() }),
                Type.Object({ deleted: Type.Integer(), not_deleted: Type.Integer() }),
              ]),
            }),
          }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => changeStreamRules(ctx, callerOf(request).app, request.query, request.body),
  );

  app.get(
    '/2/posts/search/stream/rules/counts',
    {
      config: { auth: appAuth },
      schema: {
        operationId: 'getRuleCounts',
        summary: "How many filtered-stream rules the app has, and its cap",
        tags,
        querystring: query({ 'rules_count.fields': Type.Optional(Type.String({ description: 'Comma-separated rules_count field names.' })) }),
        response: {
          200: Type.Object({
            data: Type.Object({
              all_project_client_apps: Type.Optional(Type.Array(Type.Object({ client_app_id: Type.String(), rule_count: Type.Integer() }))),
              cap_per_client_app: Type.String(),
              cap_per_project: Type.String(),
              client_app_rules_count: Type.Object({ client_app_id: Type.String(), rule_count: Type.Integer() }),
              project_rules_count: Type.String(),
            }),
            errors: Errors,
          }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => ruleCounts(ctx, callerOf(request).app, request.query),
  );

  app.get(
    '/2/enterprise_stream/rules',
    {
      config: { auth: appAuth },
      schema: {
        operationId: 'getEnterpriseStreamRules',
        summary: 'The rules configured on the enterprise stream instances (enterprise apps)',
        description: "An app has one filtered-stream instance in Plaza; `instance_id` names it (the app's id).",
        tags,
        querystring: query(listQuery),
        response: {
          200: Type.Object({ data: Type.Optional(Type.Array(Type.Object({ ...Rule.properties, instance_id: Type.String() }))), errors: Errors, meta: ListMeta }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => enterpriseStreamRules(ctx, callerOf(request).app, request.query),
  );

  await streamWebhookRoutes(app, ctx);
}
