import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PlatformContext } from '../platform/context.js';
import { ProblemError, problems } from '../http/problems.js';
import type { Listener } from '../http/server.js';
import { idString } from '../platform/graph/route-kit.js';
import type { ProfileChanges } from '../platform/users/profile.js';
import type { ClockControl } from './clock.js';
import { DISCONNECT_TYPES, type FaultBook, type NewFault } from './faults.js';
import { simulateAudience } from '../ads/delivery/simulate.js';
import { clickAs, deletePostAs, followAs, likeAs, messageAs, moveSpaceAs, postAs, repostAs, startSpaceAs, updateProfileAs } from './person.js';
import { isAdminAuthorization } from './token.js';
import { createPerson, listApps, listPeople, mintTokens, updateAppSettings } from './users.js';
import type { AppDialect } from '../store/schema.js';
import { deliveryFeed } from './feed.js';
import { replayProgress, startAdminReplay } from './replay.js';
import { buildSample } from './samples.js';
import { seedStore } from './seed.js';
import { SEEDS, SNAPSHOT_NAME, type Worlds } from '../worlds/registry.js';
import type { SettingsBus } from '../events/settings-bus.js';

/**
 * The admin interface (/admin/... on the platform listener): act as a person, move the clock,
 * inject faults. Only `Authorization: Bearer <admin_token>` opens it; no interface credential
 * does, and the admin token opens nothing else (it is no token of the interfaces' tables).
 * Errors are the platform's problems. The routes are hidden from /2/openapi.json and described
 * apart, at /admin/openapi.json, from the same declarations that validate them.
 */

export interface AdminDeps {
  tokenHash: string;
  /** The clock control and fault book of the request's world. */
  adminOf: () => { clock: ClockControl; faults: FaultBook };
  /** The id of the request's world (`default` for the credentials file's). */
  worldId: () => string;
  worlds: Worlds;
  /** Tells the other processes on the store of a change, and waits until they apply it. */
  settings: SettingsBus;
}

interface Operation {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  summary: string;
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  /** The success status and what its body holds, for the description. */
  status: number;
  response?: TSchema;
}

const id = (description: string) => idString(description);
const data = (schema: TSchema) => Type.Object({ data: schema });
const userParams = Type.Object({ id: id('The person acting.') });
const Loose = Type.Object({}, { additionalProperties: true });

const ClockStateSchema = Type.Object({
  now: Type.String({ format: 'date-time' }),
  mode: Type.String({ enum: ['real', 'frozen', 'running'] }),
  offset_ms: Type.Integer({ description: 'How far the clock reads from real time.' }),
});

const FaultBody = Type.Object(
  {
    kind: Type.String({ enum: ['disconnect', 'usage_cap', 'rate_limit', 'webhook_failures'] }),
    endpoint: Type.Optional(Type.String({ maxLength: 200, description: 'disconnect: a stream endpoint id (filtered_stream, sample_stream...). rate_limit: a route such as "POST /2/posts" or "/2/users/{id}/likes"; any when absent.' })),
    disconnect_type: Type.Optional(Type.String({ enum: [...DISCONNECT_TYPES], description: 'disconnect: OperationalDisconnect when absent.' })),
    app_id: Type.Optional(id('usage_cap, rate_limit: the app struck. disconnect: only this app\'s connections.')),
    period: Type.Optional(Type.String({ enum: ['Daily', 'Monthly'], description: 'usage_cap: Monthly when absent.' })),
    scope: Type.Optional(Type.String({ enum: ['Account', 'Product'], description: 'usage_cap: Product when absent.' })),
    webhook_id: Type.Optional(id('webhook_failures: the webhook whose deliveries fail.')),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'rate_limit, webhook_failures: how many times it strikes (1 when absent).' })),
    status: Type.Optional(Type.Integer({ minimum: 400, maximum: 599, description: 'webhook_failures: the status the receiver is taken to answer (503 when absent).' })),
  },
  { additionalProperties: false },
);

const operations = {
  clock: { method: 'GET', url: '/admin/clock', summary: 'The time every rule of Plaza reads', status: 200, response: data(ClockStateSchema) },
  moveClock: {
    method: 'POST',
    url: '/admin/clock',
    summary: 'Move the clock: {set: ISO 8601 date-time}, {advance: ISO 8601 duration such as PT2H}, or {real: true}; `frozen` stops it at the instant, otherwise it runs on from there',
    body: Type.Object(
      {
        set: Type.Optional(Type.String({ maxLength: 64 })),
        advance: Type.Optional(Type.String({ maxLength: 64 })),
        real: Type.Optional(Type.Boolean()),
        frozen: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    status: 200,
    response: data(ClockStateSchema),
  },
  faults: { method: 'GET', url: '/admin/faults', summary: 'The faults waiting to strike', status: 200, response: data(Type.Array(Loose)) },
  addFault: { method: 'POST', url: '/admin/faults', summary: 'Inject a fault: disconnect (at once), usage_cap (until cleared), rate_limit (next request), webhook_failures (next N deliveries)', body: FaultBody, status: 201, response: data(Loose) },
  clearFaults: { method: 'DELETE', url: '/admin/faults', summary: 'Clear every fault', status: 200, response: data(Type.Object({ deleted: Type.Integer() })) },
  clearFault: { method: 'DELETE', url: '/admin/faults/:fault_id', summary: 'Clear one fault', params: Type.Object({ fault_id: id('The fault.') }), status: 200, response: data(Type.Object({ deleted: Type.Integer() })) },
  createUser: {
    method: 'POST',
    url: '/admin/users',
    summary: 'Create a person, with OAuth 1.0a and OAuth 2.0 tokens for an app (returned once)',
    body: Type.Object(
      {
        username: Type.String({ minLength: 1, maxLength: 15 }),
        name: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
        email: Type.Optional(Type.String({ maxLength: 254 })),
        password: Type.Optional(Type.String({ minLength: 8, maxLength: 128 })),
        app: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'The id or name of the app the tokens are for; the first app when absent.' })),
      },
      { additionalProperties: false },
    ),
    status: 201,
    response: data(Loose),
  },
  users: { method: 'GET', url: '/admin/users', summary: 'Every user: id, username, name, email, phone_number, created_at (no secrets)', status: 200, response: data(Type.Array(Loose)) },
  apps: { method: 'GET', url: '/admin/apps', summary: 'Every app: id, name, tier, dialect, created_at (no secrets)', status: 200, response: data(Type.Array(Loose)) },
  updateApp: {
    method: 'PATCH',
    url: '/admin/apps/:app',
    summary: "Change an app's dialect: 'tweet' answers all its requests and delivers everything to it in the public platform's names, 'post' in Plaza's (except to a request that uses the public platform's names)",
    params: Type.Object({ app: Type.String({ minLength: 1, maxLength: 100, description: 'The app: id or name.' }) }),
    body: Type.Object({ dialect: Type.Optional(Type.String({ enum: ['post', 'tweet'] })) }, { additionalProperties: false }),
    status: 200,
    response: data(Loose),
  },
  mintTokens: {
    method: 'POST',
    url: '/admin/tokens',
    summary: 'Fresh OAuth 1.0a and OAuth 2.0 tokens of a user (id or username) for an app (id or name), returned once',
    body: Type.Object(
      { user: Type.String({ minLength: 1, maxLength: 100 }), app: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'The first app when absent.' })) },
      { additionalProperties: false },
    ),
    status: 201,
    response: data(Loose),
  },
  post: {
    method: 'POST',
    url: '/admin/users/:id/posts',
    summary: 'Post, reply or quote as the person, from the platform\'s own client (self-serve app rules do not bind it)',
    params: userParams,
    body: Type.Object(
      {
        text: Type.Optional(Type.String({ maxLength: 100_000 })),
        reply_to: Type.Optional(id('The post replied to.')),
        quote_of: Type.Optional(id('The post quoted.')),
        media_keys: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { minItems: 1, maxItems: 4 })),
      },
      { additionalProperties: false },
    ),
    status: 201,
    response: data(Loose),
  },
  deletePost: { method: 'DELETE', url: '/admin/users/:id/posts/:post_id', summary: 'Delete one of the person\'s posts', params: Type.Object({ id: id('The person acting.'), post_id: id('The post.') }), status: 200, response: data(Loose) },
  like: { method: 'POST', url: '/admin/users/:id/likes', summary: 'Like a post as the person', params: userParams, body: Type.Object({ post_id: id('The post.') }, { additionalProperties: false }), status: 200, response: data(Loose) },
  unlike: { method: 'DELETE', url: '/admin/users/:id/likes/:post_id', summary: 'Unlike a post as the person', params: Type.Object({ id: id('The person acting.'), post_id: id('The post.') }), status: 200, response: data(Loose) },
  click: {
    method: 'POST',
    url: '/admin/users/:id/clicks',
    summary: 'Click a post as the person (with url, follow one of its links); a click on a promoted post the person was shown counts for its line item',
    params: userParams,
    body: Type.Object({ post_id: id('The post.'), url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'One of the post\'s links, as its entities list it.' })) }, { additionalProperties: false }),
    status: 200,
    response: data(Loose),
  },
  simulateAds: {
    method: 'POST',
    url: '/admin/ads/simulate',
    summary: "An audience reading home timelines at volume: each read an impression of the line item's promoted posts, served through the same delivery code as a timeline (targeting, budgets, charges), a share of them clicked",
    body: Type.Object(
      {
        line_item_id: Type.String({ pattern: '^[0-9a-z]{1,40}$', description: 'A line item of a production account.' }),
        timeline_reads: Type.Integer({ minimum: 1, maximum: 100_000, description: 'How many timeline reads to serve.' }),
        engagement_rate: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'The share of reads followed by a click (0 when absent).' })),
      },
      { additionalProperties: false },
    ),
    status: 200,
    response: data(Loose),
  },
  repost: { method: 'POST', url: '/admin/users/:id/reposts', summary: 'Repost a post as the person', params: userParams, body: Type.Object({ post_id: id('The post.') }, { additionalProperties: false }), status: 200, response: data(Loose) },
  follow: { method: 'POST', url: '/admin/users/:id/following', summary: 'Follow a user as the person', params: userParams, body: Type.Object({ target_user_id: id('The user followed.') }, { additionalProperties: false }), status: 200, response: data(Loose) },
  unfollow: { method: 'DELETE', url: '/admin/users/:id/following/:target_user_id', summary: 'Unfollow a user as the person', params: Type.Object({ id: id('The person acting.'), target_user_id: id('The user.') }), status: 200, response: data(Loose) },
  message: {
    method: 'POST',
    url: '/admin/users/:id/dm',
    summary: 'Send a direct message as the person',
    params: userParams,
    body: Type.Object({ participant_id: id('The recipient.'), text: Type.String({ maxLength: 20_000 }) }, { additionalProperties: false }),
    status: 201,
    response: data(Loose),
  },
  profile: {
    method: 'PATCH',
    url: '/admin/users/:id/profile',
    summary: 'Change the person\'s profile (each change emits its profile.update.* event)',
    params: userParams,
    body: Type.Object(
      {
        name: Type.Optional(Type.String({ maxLength: 50 })),
        username: Type.Optional(Type.String({ maxLength: 15 })),
        description: Type.Optional(Type.String({ maxLength: 640 })),
        location: Type.Optional(Type.String({ maxLength: 120 })),
        url: Type.Optional(Type.String({ maxLength: 400 })),
        profile_image_url: Type.Optional(Type.String({ maxLength: 1000 })),
        protected: Type.Optional(Type.Boolean()),
        verified_type: Type.Optional(Type.String({ enum: ['none', 'blue', 'business', 'government'] })),
        affiliation: Type.Optional(
          Type.Union([
            Type.Null(),
            Type.Object(
              { description: Type.Optional(Type.String({ maxLength: 100 })), url: Type.Optional(Type.String({ maxLength: 400 })), badge_url: Type.Optional(Type.String({ maxLength: 1000 })), user_id: Type.Optional(Type.Array(id('An organisation the person is affiliated with.'), { maxItems: 10 })) },
              { additionalProperties: false },
            ),
          ], { description: 'The affiliation badge: the organisations (user_id) the person is affiliated with; null removes it.' }),
        ),
      },
      { additionalProperties: false, minProperties: 1 },
    ),
    status: 200,
    response: data(Loose),
  },
  startSpace: {
    method: 'POST',
    url: '/admin/users/:id/spaces',
    summary: 'Start a space as the person (live at once, or scheduled with scheduled_start)',
    params: userParams,
    body: Type.Object(
      { title: Type.String({ minLength: 1, maxLength: 70 }), scheduled_start: Type.Optional(Type.String({ maxLength: 64 })), lang: Type.Optional(Type.String({ pattern: '^[a-z]{2,3}$' })) },
      { additionalProperties: false },
    ),
    status: 201,
    response: data(Loose),
  },
  sample: {
    method: 'POST',
    url: '/admin/samples',
    summary: 'A sample delivery of an event type (an Account Activity kind or an Activity API event type), built and signed as a real one is, never stored nor sent (plaza trigger)',
    body: Type.Object(
      {
        event_type: Type.String({ minLength: 1, maxLength: 100 }),
        app: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'The app (id or name) whose consumer secret signs it; the first app when absent.' })),
        user: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'The user (id or username) it concerns; the first user when absent.' })),
      },
      { additionalProperties: false },
    ),
    status: 200,
    response: data(Loose),
  },
  deliveries: {
    method: 'GET',
    url: '/admin/apps/:app/deliveries',
    summary: 'The deliveries made for an app\'s webhooks, and the events of its Activity subscriptions without a webhook, past a cursor (the log seq), signed as deliveries; without `after`, the cursor of the log\'s end (plaza listen)',
    params: Type.Object({ app: Type.String({ minLength: 1, maxLength: 100, description: 'The app: id or name.' }) }),
    query: Type.Object({ after: Type.Optional(Type.String({ pattern: '^[0-9]{1,19}$', description: 'The cursor of the previous answer.' })) }, { additionalProperties: false }),
    status: 200,
    response: data(Loose),
  },
  seed: {
    method: 'POST',
    url: '/admin/seed',
    summary: 'Write generated authors (seed_user_N) and posts into the store, spread over the days before `until`; a long run is sent in chunks (`first` of `of`), as plaza seed does. Seeded posts are history: no event is emitted for them',
    body: Type.Object(
      {
        posts: Type.Integer({ minimum: 1, maximum: 10_000, description: 'Posts this request writes.' }),
        users: Type.Optional(Type.Integer({ minimum: 1, maximum: 9_999, description: 'Authors seed_user_0..users-1, created when missing (50 when absent).' })),
        days: Type.Optional(Type.Integer({ minimum: 1, maximum: 30, description: 'The run spreads over this many days (7 when absent).' })),
        until: Type.Optional(Type.String({ maxLength: 64, description: 'The newest post\'s time, ISO 8601, not after the clock (now when absent). Pass the first answer\'s `until` back with every chunk of a run.' })),
        first: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000, description: 'The index of this request\'s first post in the run (0 when absent).' })),
        of: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000, description: 'The run\'s posts, every chunk together (first + posts when absent).' })),
        seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'The generator\'s seed: the same seed writes the same posts (1 when absent).' })),
        contacts: Type.Optional(Type.Boolean({ description: 'The authors get e-mail addresses (seed_user_N@seed.plaza.example) and phone numbers (+1555NNNNNNN), listed by GET /admin/users, so custom audiences built from their hashes match them.' })),
      },
      { additionalProperties: false },
    ),
    status: 201,
    response: data(Loose),
  },
  startReplay: {
    method: 'POST',
    url: '/admin/replays',
    summary: 'Start a replay job of any app\'s webhook (as POST /2/webhooks/replay), with ISO 8601 or yyyymmddhhmm times; answers its progress (plaza replay)',
    body: Type.Object(
      {
        webhook_id: id('The webhook.'),
        from_date: Type.String({ minLength: 1, maxLength: 64, description: 'ISO 8601 or yyyymmddhhmm, UTC; seconds are dropped.' }),
        to_date: Type.String({ minLength: 1, maxLength: 64, description: 'ISO 8601 or yyyymmddhhmm, UTC; seconds are dropped.' }),
      },
      { additionalProperties: false },
    ),
    status: 201,
    response: data(Loose),
  },
  replay: {
    method: 'GET',
    url: '/admin/replays/:job_id',
    summary: 'A replay job\'s state and progress: deliveries to re-send, delivered, failed, pending',
    params: Type.Object({ job_id: id('The replay job.') }),
    status: 200,
    response: data(Loose),
  },
  moveSpace: {
    method: 'POST',
    url: '/admin/users/:id/spaces/:space_id/:transition',
    summary: 'Start a scheduled space or end a live one, as its creator',
    params: Type.Object({ id: id('The person acting.'), space_id: Type.String({ pattern: '^[A-Za-z0-9]{1,20}$' }), transition: Type.String({ enum: ['start', 'end'] }) }),
    status: 200,
    response: data(Loose),
  },
} satisfies Record<string, Operation>;

const worldParams = Type.Object({ world: Type.String({ pattern: '^(default|w[0-9a-z]{10})$', description: 'The world: `default` (the credentials file\'s) or an id POST /admin/worlds answered.' }) });
const snapshotParams = Type.Object({ ...worldParams.properties, name: Type.String({ pattern: SNAPSHOT_NAME.source, description: 'The snapshot.' }) });
const SnapshotSchema = Type.Object({ name: Type.String(), created_at: Type.String({ format: 'date-time' }) });

/** Worlds (issue #36): isolated stores, each with credentials of its own, reset and snapshotted at will. */
const worldOperations = {
  createWorld: {
    method: 'POST',
    url: '/admin/worlds',
    summary: 'Make a world: a store of its own seeded with the demo workspace (or, `empty`, its first app and user only; or the state a snapshot file holds), and credentials of its own in the credentials file\'s shape',
    body: Type.Object(
      {
        seed: Type.Optional(Type.String({ enum: [...SEEDS], description: 'demo when absent.' })),
        snapshot_file: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: 'A file written by POST /admin/worlds/{world}/snapshots with `file`: the world starts in its state.' })),
      },
      { additionalProperties: false },
    ),
    status: 201,
    response: data(Type.Object({ id: Type.String(), credentials: Loose })),
  },
  worlds: {
    method: 'GET',
    url: '/admin/worlds',
    summary: 'Every world made: id, created_at, seed, and the names of its snapshots',
    status: 200,
    response: data(Type.Array(Type.Object({ id: Type.String(), created_at: Type.String({ format: 'date-time' }), seed: Type.String(), snapshots: Type.Array(Type.String()) }))),
  },
  worldCredentials: { method: 'GET', url: '/admin/worlds/:world/credentials', summary: 'A world\'s credentials, as POST /admin/worlds answered them', params: worldParams, status: 200, response: data(Loose) },
  deleteWorld: { method: 'DELETE', url: '/admin/worlds/:world', summary: 'Delete a world, its store and its snapshots: its credentials get 401 at once', params: worldParams, status: 200, response: data(Type.Object({ deleted: Type.Boolean() })) },
  resetWorld: { method: 'POST', url: '/admin/worlds/:world/reset', summary: 'Put a world back in its seed state; its credentials stay the same. Its streams end (operational disconnect)', params: worldParams, status: 200, response: data(Type.Object({ reset: Type.Boolean() })) },
  createSnapshot: {
    method: 'POST',
    url: '/admin/worlds/:world/snapshots',
    summary: 'Record the world\'s whole state under a name (replacing a snapshot of that name); with `file`, also write it there, for POST /admin/worlds with `snapshot_file`',
    params: worldParams,
    body: Type.Object(
      { name: Type.String({ pattern: SNAPSHOT_NAME.source, description: 'Letters, digits, dot, dash, underscore; 64 at most.' }), file: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: 'A path on Plaza\'s machine.' })) },
      { additionalProperties: false },
    ),
    status: 201,
    response: data(SnapshotSchema),
  },
  snapshots: { method: 'GET', url: '/admin/worlds/:world/snapshots', summary: 'The snapshots of a world', params: worldParams, status: 200, response: data(Type.Array(SnapshotSchema)) },
  restoreSnapshot: {
    method: 'POST',
    url: '/admin/worlds/:world/snapshots/:name/restore',
    summary: 'Bring a snapshot\'s state back: the world\'s streams end (operational disconnect) and its queued deliveries are dropped',
    params: snapshotParams,
    status: 200,
    response: data(Type.Object({ restored: Type.Boolean() })),
  },
  deleteSnapshot: { method: 'DELETE', url: '/admin/worlds/:world/snapshots/:name', summary: 'Delete a snapshot', params: snapshotParams, status: 200, response: data(Type.Object({ deleted: Type.Boolean() })) },
} satisfies Record<string, Operation>;

/** An operation that acts inside a world, as served under /admin/worlds/{world}/... */
function inWorld(op: Operation): Operation {
  const properties = (op.params as { properties?: Record<string, TSchema> } | undefined)?.properties ?? {};
  return { ...op, url: `/admin/worlds/:world${op.url.slice('/admin'.length)}`, params: Type.Object({ ...worldParams.properties, ...properties }) };
}

/** Every admin operation: the world-management ones, and each one acting in a world at /admin/... (the default world) and /admin/worlds/{world}/... */
function everyOperation(): Array<[string, Operation]> {
  return [
    ...(Object.entries(worldOperations) as Array<[string, Operation]>),
    ...(Object.entries(operations) as Array<[string, Operation]>).flatMap(([name, op]): Array<[string, Operation]> => [
      [name, op],
      [`${name}InWorld`, inWorld(op)],
    ]),
  ];
}

type Ops = typeof operations;
type WorldOps = typeof worldOperations;
type PartOf<O, K extends string> = O extends Record<K, infer S extends TSchema> ? Static<S> : undefined;
type Handler<O> = (request: FastifyRequest & { params: PartOf<O, 'params'>; query: PartOf<O, 'query'>; body: PartOf<O, 'body'> }, reply: FastifyReply) => Promise<unknown>;

/** The OpenAPI 3.0 description of the admin routes, from their declarations. */
export function adminOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [operationId, op] of everyOperation()) {
    const path = op.url.replace(/:([A-Za-z_]+)/g, '{$1}');
    const properties = (op.params as { properties?: Record<string, TSchema> } | undefined)?.properties ?? {};
    const queryProperties = (op.query as { properties?: Record<string, TSchema> } | undefined)?.properties ?? {};
    (paths[path] ??= {})[op.method.toLowerCase()] = {
      operationId,
      summary: op.summary,
      tags: ['Admin'],
      security: [{ AdminToken: [] }],
      ...(Object.keys(properties).length + Object.keys(queryProperties).length
        ? {
            parameters: [
              ...Object.entries(properties).map(([name, schema]) => ({ name, in: 'path', required: true, schema })),
              ...Object.entries(queryProperties).map(([name, schema]) => ({ name, in: 'query', required: false, schema })),
            ],
          }
        : {}),
      ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: op.body } } } } : {}),
      responses: {
        [op.status]: { description: 'The result.', content: { 'application/json': { schema: op.response ?? Loose } } },
        default: { description: 'A problem (application/problem+json), as on the platform interface.', content: { 'application/problem+json': { schema: Loose } } },
      },
    };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Plaza admin interface', version: '1', description: 'Act as a person, move the clock, inject faults. Authorization: Bearer <admin_token> (admin_token in the credentials file).' },
    tags: [{ name: 'Admin' }],
    components: { securitySchemes: { AdminToken: { type: 'http', scheme: 'bearer' } } },
    paths,
  };
}

export function adminRoutes(ctx: PlatformContext, deps: AdminDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    const doc = adminOpenApi();
    app.get('/admin/openapi.json', { schema: { hide: true } }, async () => doc);

    await app.register(async (admin: FastifyInstance) => {
      admin.addHook('onRequest', (request, _reply, done) => {
        if (isAdminAuthorization(request.headers.authorization, deps.tokenHash)) return done();
        done(new ProblemError(401, problems.aboutBlank(401, 'Unauthorized', 'The admin interface takes only `Authorization: Bearer <admin_token>`, the admin_token of the credentials file.')));
      });
      admin.addHook('onSend', async (request, reply, payload) => {
        reply.header('cache-control', 'no-store');
        // A change is answered once every other process has applied it: the next request, through
        // any of them, sees it (the clock, faults, usage caps, a reset, a world's store).
        if (request.method !== 'GET' && reply.statusCode < 400) await deps.settings.announce(deps.worldId());
        return payload;
      });
      const serve = (op: Operation, handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) => {
        admin.route({
          method: op.method,
          url: op.url,
          schema: { hide: true, ...(op.params ? { params: op.params } : {}), ...(op.query ? { querystring: op.query } : {}), ...(op.body ? { body: op.body } : {}) },
          handler: async (request, reply) => {
            const result = await handler(request, reply);
            reply.code(op.status).type('application/json; charset=utf-8');
            return { data: result };
          },
        });
      };
      // Each at /admin/... in the default world, and at /admin/worlds/{world}/... in the world named
      // (which src/worlds/routing.ts entered before this runs, when there is one of that id).
      const route = <K extends keyof Ops>(name: K, handler: Handler<Ops[K]>) => {
        const op: Operation = operations[name];
        serve(op, (request, reply) => handler(request as never, reply));
        serve(inWorld(op), (request, reply) => {
          const world = (request.params as { world: string }).world;
          if (deps.worldId() !== world) throw new ProblemError(404, problems.aboutBlank(404, 'Not Found', `No world ${JSON.stringify(world)} (GET /admin/worlds lists them).`));
          return handler(request as never, reply);
        });
      };
      const worldRoute = <K extends keyof WorldOps>(name: K, handler: Handler<WorldOps[K]>) => serve(worldOperations[name], (request, reply) => handler(request as never, reply));
      const worlds = deps.worlds;
      worldRoute('createWorld', async (request) => worlds.create(request.body));
      worldRoute('worlds', async () => worlds.list());
      worldRoute('worldCredentials', async (request) => worlds.credentials(request.params.world));
      worldRoute('deleteWorld', async (request) => (await worlds.delete(request.params.world), { deleted: true }));
      worldRoute('resetWorld', async (request) => (await worlds.reset(request.params.world), { reset: true }));
      worldRoute('createSnapshot', async (request) => worlds.snapshot(request.params.world, request.body.name, request.body.file));
      worldRoute('snapshots', async (request) => worlds.snapshots(request.params.world));
      worldRoute('restoreSnapshot', async (request) => (await worlds.restore(request.params.world, request.params.name), { restored: true }));
      worldRoute('deleteSnapshot', async (request) => (await worlds.deleteSnapshot(request.params.world, request.params.name), { deleted: true }));

      route('clock', async () => deps.adminOf().clock.state());
      route('moveClock', async (request) => deps.adminOf().clock.change(request.body));
      route('faults', async () => deps.adminOf().faults.list());
      route('addFault', async (request) => deps.adminOf().faults.add(request.body as NewFault));
      route('clearFaults', async () => deps.adminOf().faults.clear());
      route('clearFault', async (request) => deps.adminOf().faults.clear(request.params.fault_id));
      route('createUser', async (request) => createPerson(ctx, request.body));
      route('users', async () => listPeople(ctx));
      route('apps', async () => listApps(ctx));
      route('updateApp', async (request) => updateAppSettings(ctx, request.params.app, request.body as { dialect?: AppDialect }));
      route('mintTokens', async (request) => mintTokens(ctx, request.body));
      route('post', async (request) => postAs(ctx, request.params.id, request.body));
      route('deletePost', async (request) => deletePostAs(ctx, request.params.id, request.params.post_id));
      route('like', async (request) => likeAs(ctx, request.params.id, request.body.post_id, true));
      route('unlike', async (request) => likeAs(ctx, request.params.id, request.params.post_id, false));
      route('click', async (request) => clickAs(ctx, request.params.id, request.body.post_id, request.body.url));
      route('simulateAds', async (request) => simulateAudience(ctx, request.body));
      route('repost', async (request) => repostAs(ctx, request.params.id, request.body.post_id));
      route('follow', async (request) => followAs(ctx, request.params.id, request.body.target_user_id, true));
      route('unfollow', async (request) => followAs(ctx, request.params.id, request.params.target_user_id, false));
      route('message', async (request) => messageAs(ctx, request.params.id, request.body.participant_id, { text: request.body.text }));
      route('profile', async (request) => (await updateProfileAs(ctx, request.params.id, { ...request.body, verified_type: request.body.verified_type as ProfileChanges['verified_type'] })).data[0]);
      route('startSpace', async (request) => startSpaceAs(ctx, request.params.id, request.body));
      route('sample', async (request) => buildSample(ctx, request.body));
      route('deliveries', async (request) => deliveryFeed(ctx, request.params.app, request.query.after === undefined ? undefined : Number(request.query.after)));
      route('seed', async (request) => seedStore(ctx, request.body));
      route('startReplay', async (request) => startAdminReplay(ctx, request.body));
      route('replay', async (request) => replayProgress(ctx, request.params.job_id));
      route('moveSpace', async (request) => moveSpaceAs(ctx, request.params.id, request.params.space_id, request.params.transition === 'start' ? 'live' : 'ended'));
    });
  };
}

export type { Listener };
