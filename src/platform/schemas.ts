import { PlaceSchema } from './places/gazetteer.js';
import { Type, type TProperties, type TSchema } from '@sinclair/typebox';
import { jsonBody, type WireItem } from '../http/json-body.js';
import type { Includes } from './expansions.js';
import { MediaSchema } from './media/schema.js';
import { PostSchema } from './posts/schema.js';
import { UserSchema } from './users/schema.js';

/**
 * Shared wire schemas of the platform interface: they document the responses in the OpenAPI
 * description. The post, user and media objects are declared with their resources
 * (`<resource>/schema.ts`), closed and typed field by field, and their converters are typed from
 * them; the objects below stay open (additionalProperties) until theirs are too.
 */
export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Optional(Type.Integer()),
    detail: Type.Optional(Type.String()),
  },
  { $id: 'Problem', additionalProperties: true, description: 'An RFC 7807 problem; `type` selects its extra fields.' },
);

export const ErrorSchema = Type.Object(
  { code: Type.Integer({ format: 'int32' }), message: Type.String() },
  { $id: 'Error' },
);

const open = { additionalProperties: true };

export const PollSchema = Type.Object(
  {
    id: Type.String(),
    options: Type.Array(Type.Object({ position: Type.Integer(), label: Type.String(), votes: Type.Integer() })),
    duration_minutes: Type.Optional(Type.Integer()),
    end_datetime: Type.Optional(Type.String({ format: 'date-time' })),
    voting_status: Type.Optional(Type.String({ enum: ['open', 'closed'] })),
  },
  { $id: 'Poll', additionalProperties: false },
);

export const ExpansionsSchema = Type.Object(
  {
    users: Type.Optional(Type.Array(Type.Ref(UserSchema))),
    posts: Type.Optional(Type.Array(Type.Ref(PostSchema))),
    media: Type.Optional(Type.Array(Type.Ref(MediaSchema))),
    polls: Type.Optional(Type.Array(Type.Ref(PollSchema))),
    places: Type.Optional(Type.Array(Type.Ref(PlaceSchema))),
  },
  { $id: 'Expansions' },
);

export const CommunitySchema = Type.Object(
  {
    id: Type.String({ pattern: '^[0-9]{1,19}$' }),
    name: Type.String(),
    description: Type.Optional(Type.String()),
    access: Type.Optional(Type.String()),
    join_policy: Type.Optional(Type.String()),
    member_count: Type.Optional(Type.Integer()),
    created_at: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { $id: 'Community', additionalProperties: false },
);

export const ListSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    created_at: Type.Optional(Type.String({ format: 'date-time' })),
    description: Type.Optional(Type.String()),
    follower_count: Type.Optional(Type.Integer()),
    member_count: Type.Optional(Type.Integer()),
    owner_id: Type.Optional(Type.String()),
    private: Type.Optional(Type.Boolean()),
  },
  { $id: 'List', additionalProperties: false },
);

export const SpaceSchema = Type.Object(
  {
    id: Type.String({ pattern: '^[a-zA-Z0-9]{1,13}$' }),
    state: Type.String({ enum: ['live', 'scheduled', 'ended'] }),
    title: Type.Optional(Type.String()),
    creator_id: Type.Optional(Type.String()),
    host_ids: Type.Optional(Type.Array(Type.String())),
    speaker_ids: Type.Optional(Type.Array(Type.String())),
    invited_user_ids: Type.Optional(Type.Array(Type.String())),
    topic_ids: Type.Optional(Type.Array(Type.String())),
    lang: Type.Optional(Type.String()),
    is_ticketed: Type.Optional(Type.Boolean()),
    participant_count: Type.Optional(Type.Integer()),
    subscriber_count: Type.Optional(Type.Integer()),
    scheduled_start: Type.Optional(Type.String({ format: 'date-time' })),
    started_at: Type.Optional(Type.String({ format: 'date-time' })),
    ended_at: Type.Optional(Type.String({ format: 'date-time' })),
    created_at: Type.Optional(Type.String({ format: 'date-time' })),
    updated_at: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { $id: 'Space', additionalProperties: false },
);

export const DmEventSchema = Type.Object(
  {
    id: Type.String(),
    event_type: Type.String({ enum: ['MessageCreate', 'ParticipantsJoin', 'ParticipantsLeave'] }),
    text: Type.Optional(Type.String()),
    sender_id: Type.Optional(Type.String()),
    dm_conversation_id: Type.Optional(Type.String()),
    created_at: Type.Optional(Type.String({ format: 'date-time' })),
    participant_ids: Type.Optional(Type.Array(Type.String())),
    attachments: Type.Optional(Type.Object({}, open)),
    referenced_posts: Type.Optional(Type.Array(Type.Object({ id: Type.String() }))),
    entities: Type.Optional(Type.Object({}, open)),
  },
  { $id: 'DmEvent', additionalProperties: false },
);

export const sharedSchemas: TSchema[] = [ProblemSchema, ErrorSchema, PostSchema, UserSchema, MediaSchema, PollSchema, PlaceSchema, CommunitySchema, ExpansionsSchema, ListSchema, SpaceSchema, DmEventSchema];

/** The 200 body of a lookup: `data` (one object or a list), `includes`, and partial `errors`. */
export function lookupResponse(item: TSchema, many: boolean) {
  return Type.Object({
    data: Type.Optional(many ? Type.Array(Type.Ref(item)) : Type.Ref(item)),
    includes: Type.Optional(Type.Ref(ExpansionsSchema)),
    errors: Type.Optional(Type.Array(Type.Ref(ProblemSchema), { minItems: 1 })),
  });
}

/** Any status other than the success: an Error object or a Problem (spec 000 "Validate webhook"). */
export const defaultErrorResponse = {
  description: 'The request has failed.',
  content: {
    'application/json': { schema: Type.Ref(ErrorSchema) },
    'application/problem+json': { schema: Type.Ref(ProblemSchema) },
  },
};

/** Drops the empty parts of a lookup result: `data` only when something was found. */
export function lookupBody(result: { data: WireItem[]; includes?: Includes; errors: unknown[] }, single: boolean): Buffer | string {
  return jsonBody({
    data: result.data.length === 0 ? undefined : single ? result.data[0] : result.data,
    includes: result.includes as Record<string, WireItem[]> | undefined,
    errors: result.errors.length > 0 ? result.errors : undefined,
  });
}

/** `meta` of a paginated list (shared/reference: next_token, and newest_id/oldest_id on post timelines). */
export const PageMetaSchema = Type.Object({
  result_count: Type.Integer({ format: 'int32' }),
  next_token: Type.Optional(Type.String()),
  newest_id: Type.Optional(Type.String()),
  oldest_id: Type.Optional(Type.String()),
});

/** The 200 body of a list endpoint: `data` (absent when empty), `includes`, partial `errors` and `meta`. */
export function pageResponse(item: TSchema) {
  return Type.Object({
    data: Type.Optional(Type.Array(Type.Ref(item))),
    includes: Type.Optional(Type.Ref(ExpansionsSchema)),
    errors: Type.Optional(Type.Array(Type.Ref(ProblemSchema), { minItems: 1 })),
    meta: Type.Optional(PageMetaSchema),
  });
}

/** Drops the empty parts of a page: `data` only when something is listed, `meta` when given. */
export function pageBody(result: { data: WireItem[]; includes?: Includes; errors: unknown[]; meta?: unknown }): Buffer | string {
  return jsonBody({
    data: result.data.length > 0 ? result.data : undefined,
    includes: result.includes as Record<string, WireItem[]> | undefined,
    errors: result.errors.length > 0 ? result.errors : undefined,
    meta: result.meta || undefined,
  });
}

/** The 200 body of a write: `data` with the named boolean (or string) fields, as the public platform answers. */
export function writeResponse<T extends TProperties>(data: T) {
  return Type.Object({
    data: Type.Object(data),
    errors: Type.Optional(Type.Array(Type.Ref(ProblemSchema), { minItems: 1 })),
  });
}
