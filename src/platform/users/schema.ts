import { Type, type Static } from '@sinclair/typebox';
import { PostEntitiesSchema } from '../posts/schema.js';

/**
 * The user object on the wire (spec 000's data dictionary, in Plaza's names): every field Plaza
 * can return, typed. The field table in wire.ts is typed from it (`FieldTable`); the OpenAPI
 * description is generated from it.
 */

const count = Type.Integer({ minimum: 0 });
const idString = Type.String({ pattern: '^[0-9]{1,19}$' });
const closed = { additionalProperties: false } as const;

export const CONNECTION_STATUSES = ['following', 'followed_by', 'follow_request_sent', 'follow_request_received', 'blocking', 'muting'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

export const UserSchema = Type.Object(
  {
    id: idString,
    name: Type.String(),
    username: Type.String({ pattern: '^[A-Za-z0-9_]{1,15}$' }),
    affiliation: Type.Optional(
      Type.Object(
        {
          badge_url: Type.Optional(Type.String()),
          description: Type.Optional(Type.String()),
          url: Type.Optional(Type.String()),
          user_id: Type.Optional(Type.Array(idString)),
        },
        closed,
      ),
    ),
    confirmed_email: Type.Optional(Type.String({ description: "The user's own confirmed email, with the users.email scope." })),
    connection_status: Type.Optional(Type.Array(Type.Union(CONNECTION_STATUSES.map((s) => Type.Literal(s))), { description: 'How the viewer and this user are connected.' })),
    created_at: Type.Optional(Type.String({ format: 'date-time' })),
    description: Type.Optional(Type.String()),
    entities: Type.Optional(
      Type.Object(
        {
          url: Type.Optional(Type.Object({ urls: Type.Optional(PostEntitiesSchema.properties.urls) }, closed)),
          description: Type.Optional(PostEntitiesSchema),
        },
        closed,
      ),
    ),
    is_identity_verified: Type.Optional(Type.Boolean()),
    location: Type.Optional(Type.String()),
    most_recent_post_id: Type.Optional(idString),
    parody: Type.Optional(Type.Boolean()),
    pinned_post_id: Type.Optional(idString),
    profile_banner_url: Type.Optional(Type.String()),
    profile_image_url: Type.Optional(Type.String()),
    protected: Type.Optional(Type.Boolean()),
    receives_your_dm: Type.Optional(Type.Boolean()),
    subscribes_to_you: Type.Optional(Type.Boolean()),
    subscription: Type.Optional(Type.Object({ subscribes_to_you: Type.Boolean() }, closed)),
    public_metrics: Type.Optional(
      Type.Object({ followers_count: count, following_count: count, post_count: count, listed_count: count, like_count: count, media_count: count }, closed),
    ),
    subscription_type: Type.Optional(Type.String()),
    url: Type.Optional(Type.String()),
    verified: Type.Optional(Type.Boolean()),
    verified_followers_count: Type.Optional(count),
    verified_type: Type.Optional(Type.String()),
    withheld: Type.Optional(Type.Object({ country_codes: Type.Array(Type.String()), scope: Type.Optional(Type.String()) }, closed)),
  },
  { $id: 'User', ...closed },
);

export type UserWire = Static<typeof UserSchema>;
