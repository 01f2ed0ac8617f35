import { Type, type TSchema } from '@sinclair/typebox';
import { PostSchema } from '../posts/schema.js';
import { ExpansionsSchema, ProblemSchema } from '../schemas.js';
import { UserSchema } from '../users/schema.js';

/**
 * The lines of the persistent streams, for the 200 responses of the OpenAPI description: a
 * stream's body is not one JSON document but a line at a time, so each schema here is ONE line,
 * declared from what the channels write (posts.ts, compliance.ts, ../activity/fanout.ts) and,
 * for every stream, the operational-disconnect line the engine ends it with (engine.ts `cut`).
 */

const closed = { additionalProperties: false } as const;
const idString = Type.String({ pattern: '^[0-9]{1,19}$' });
const eventAt = Type.String({ format: 'date-time', description: 'When the event happened.' });
/** Problems of related objects the reader may not see, only when there are some. */
const partialErrors = Type.Optional(Type.Array(Type.Ref(ProblemSchema), { minItems: 1 }));

/** The last line of a stream the server ends: why, as one operational-disconnect problem. */
const DisconnectLine = Type.Object(
  { errors: Type.Array(Type.Ref(ProblemSchema), { minItems: 1, maxItems: 1 }) },
  { ...closed, description: 'The last line when the server ends the stream: an operational-disconnect problem naming its disconnect_type.' },
);

/** The sample, sample10 and firehose streams (and its language variants): one post per line. */
export const PostMessage = Type.Object(
  { data: Type.Ref(PostSchema), includes: Type.Optional(Type.Ref(ExpansionsSchema)), errors: partialErrors },
  closed,
);

/** The filtered stream: a post and the app's rules it matched (an edit matches its earlier version's too). */
export const FilteredPostMessage = Type.Object(
  {
    ...PostMessage.properties,
    matching_rules: Type.Array(Type.Object({ id: idString, tag: Type.Optional(Type.String()) }, closed), { minItems: 1 }),
  },
  closed,
);

/** The posts compliance stream: a delete, or an edit (a new version of a post). */
export const PostComplianceMessage = Type.Object(
  {
    data: Type.Union([
      Type.Object({ delete: Type.Object({ post: Type.Object({ id: idString, author_id: idString }, closed), event_at: eventAt }, closed) }, closed),
      Type.Object(
        {
          post_edit: Type.Object(
            {
              post: Type.Object({ id: idString }, { ...closed, description: 'The new version.' }),
              event_at: eventAt,
              initial_post_id: idString,
              edit_post_ids: Type.Array(idString, { minItems: 2, description: 'Every version, the first one first.' }),
            },
            closed,
          ),
        },
        closed,
      ),
    ]),
  },
  closed,
);

const userRef = Type.Object({ id: idString }, closed);

/** The users compliance stream: a protect, an unprotect, or a change of a profile field. */
export const UserComplianceMessage = Type.Object(
  {
    data: Type.Union([
      Type.Object({ user_protect: Type.Object({ user: userRef, event_at: eventAt }, closed) }, closed),
      Type.Object({ user_unprotect: Type.Object({ user: userRef, event_at: eventAt }, closed) }, closed),
      Type.Object(
        {
          user_profile_modification: Type.Object(
            {
              user: userRef,
              profile_field: Type.String({ description: 'The changed field, by its user.fields name.' }),
              new_value: Type.String({ description: 'Its new value; one that is not a string, as JSON text.' }),
              event_at: eventAt,
            },
            closed,
          ),
        },
        closed,
      ),
    ]),
  },
  closed,
);

/** The likes compliance stream: an unlike. */
export const LikeComplianceMessage = Type.Object(
  { data: Type.Object({ delete: Type.Object({ favorite: Type.Object({ id: idString, user_id: idString }, closed), event_at: eventAt }, closed) }, closed) },
  closed,
);

/** The likes firehose and sample10 streams: a like with its post's author, the fields like_with_post_author.fields selects. */
export const LikeMessage = Type.Object(
  {
    data: Type.Object(
      {
        id: Type.Optional(idString),
        created_at: Type.Optional(Type.String({ format: 'date-time' })),
        timestamp_ms: Type.Optional(Type.Integer()),
        liked_post_id: Type.Optional(idString),
        liked_post_author_id: Type.Optional(idString),
        attachments_media_keys: Type.Optional(Type.Array(Type.String())),
      },
      closed,
    ),
    includes: Type.Optional(Type.Ref(ExpansionsSchema)),
    errors: partialErrors,
  },
  closed,
);

/** The activity stream's envelope (reference §7), `filter` being the subscription's (its schema is the subscriptions'). */
export function activityMessage(filter: TSchema) {
  return Type.Object(
    {
      data: Type.Object(
        {
          event_uuid: Type.String({ description: "The event's id in the event log." }),
          filter,
          event_type: Type.String({ description: 'The event type as the subscription names it.' }),
          tag: Type.Optional(Type.String({ description: "The subscription's tag." })),
          payload: Type.Object({}, { additionalProperties: true, description: 'The event itself; its fields depend on event_type.' }),
          includes: Type.Object({ users: Type.Optional(Type.Array(Type.Ref(UserSchema), { description: "A post event's author." })) }, closed),
        },
        closed,
      ),
    },
    closed,
  );
}

/**
 * The 200 response of a stream whose lines are `message`, or, for one that writes keep-alives
 * only (no message), whose only line is the disconnect.
 */
export function streamResponse(message?: TSchema) {
  return {
    description:
      'A persistent stream of lines: each one JSON object followed by `\\r\\n`, a bare `\\r\\n` being a keep-alive. The schema is that of one line' +
      (message ? '; the last one, when the server ends the stream, is an operational disconnect `{errors:[Problem]}`.' : ': this stream carries keep-alives only, and ends with an operational disconnect `{errors:[Problem]}` when the server ends it.'),
    content: { 'application/json': { schema: message ? Type.Union([message, DisconnectLine]) : DisconnectLine } },
  };
}
