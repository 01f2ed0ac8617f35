import { Type, type Static } from '@sinclair/typebox';

/**
 * The post object on the wire (spec 000's data dictionary, in Plaza's names; the tweet dialect
 * renames it): every field Plaza can return, typed. The field table in wire.ts is typed from this
 * schema (`FieldTable`), so a field cannot be returned without being described here, and the
 * OpenAPI description (`/2/openapi.json`) is generated from it.
 */

const count = Type.Integer({ minimum: 0 });
const idString = Type.String({ pattern: '^[0-9]{1,19}$' });
const closed = { additionalProperties: false } as const;
const span = { start: Type.Integer({ minimum: 0 }), end: Type.Integer({ minimum: 0 }) };

/** Entities parsed from a text, offsets in code points (src/platform/posts/entities.ts). */
export const PostEntitiesSchema = Type.Object(
  {
    urls: Type.Optional(Type.Array(Type.Object({ ...span, url: Type.String(), expanded_url: Type.String(), display_url: Type.String() }, closed), { minItems: 1 })),
    mentions: Type.Optional(Type.Array(Type.Object({ ...span, username: Type.String(), id: Type.Optional(idString) }, closed), { minItems: 1 })),
    hashtags: Type.Optional(Type.Array(Type.Object({ ...span, tag: Type.String() }, closed), { minItems: 1 })),
    cashtags: Type.Optional(Type.Array(Type.Object({ ...span, tag: Type.String() }, closed), { minItems: 1 })),
    annotations: Type.Optional(
      Type.Array(Type.Object({ ...span, probability: Type.Number(), type: Type.String(), normalized_text: Type.String() }, closed), { minItems: 1 }),
    ),
  },
  { ...closed, description: 'Entities found in the text; a kind with none is left out.' },
);

const engagement = {
  impression_count: count,
  like_count: count,
  reply_count: count,
  retweet_count: count,
  url_link_clicks: count,
  user_profile_clicks: count,
};

export const PostSchema = Type.Object(
  {
    id: idString,
    text: Type.String(),
    attachments: Type.Optional(
      Type.Object(
        {
          media_keys: Type.Optional(Type.Array(Type.String(), { description: 'Media keys of the media attached to this post.' })),
          media_source_post_id: Type.Optional(Type.Array(idString, { description: 'Ids of the posts that first showed media attached to this post.' })),
          poll_ids: Type.Optional(Type.Array(idString, { description: 'Ids of the polls attached to this post.' })),
        },
        closed,
      ),
    ),
    author_id: Type.Optional(idString),
    community_id: Type.Optional(idString),
    context_annotations: Type.Optional(
      Type.Array(
        Type.Object(
          {
            domain: Type.Object({ id: Type.String(), name: Type.Optional(Type.String()), description: Type.Optional(Type.String()) }, closed),
            entity: Type.Object({ id: Type.String(), name: Type.Optional(Type.String()), description: Type.Optional(Type.String()) }, closed),
          },
          closed,
        ),
      ),
    ),
    conversation_id: Type.Optional(idString),
    created_at: Type.Optional(Type.String({ format: 'date-time' })),
    display_text_range: Type.Optional(Type.Array(Type.Integer({ minimum: 0 }), { minItems: 2, maxItems: 2, description: 'The code points of the text that are shown: [start, end).' })),
    edit_controls: Type.Optional(
      Type.Object(
        {
          edits_remaining: Type.Integer({ minimum: 0 }),
          is_edit_eligible: Type.Boolean({ description: 'Whether the post could be edited when it was published (a post with a poll cannot); it does not change with time.' }),
          editable_until: Type.String({ format: 'date-time', description: 'One hour after the post was published; an edit at exactly this time is accepted.' }),
        },
        closed,
      ),
    ),
    edit_history_post_ids: Type.Optional(Type.Array(idString, { minItems: 1 })),
    entities: Type.Optional(PostEntitiesSchema),
    geo: Type.Optional(
      Type.Object(
        {
          coordinates: Type.Optional(Type.Object({ type: Type.String(), coordinates: Type.Array(Type.Number(), { minItems: 2, maxItems: 2 }) }, closed)),
          place_id: Type.Optional(Type.String()),
        },
        closed,
      ),
    ),
    impression_count: Type.Optional(count),
    in_reply_to_user_id: Type.Optional(idString),
    lang: Type.Optional(Type.String()),
    paid_partnership: Type.Optional(Type.Boolean()),
    possibly_sensitive: Type.Optional(Type.Boolean()),
    public_metrics: Type.Optional(
      Type.Object(
        { retweet_count: count, reply_count: count, like_count: count, quote_count: count, bookmark_count: count, impression_count: count },
        closed,
      ),
    ),
    referenced_posts: Type.Optional(
      Type.Array(Type.Object({ type: Type.Union([Type.Literal('reposted'), Type.Literal('quoted'), Type.Literal('replied_to')]), id: idString }, closed), { minItems: 1 }),
    ),
    reply_settings: Type.Optional(Type.String()),
    scopes: Type.Optional(Type.Object({ followers: Type.Boolean() }, closed)),
    source: Type.Optional(Type.String()),
    withheld: Type.Optional(
      Type.Object({ copyright: Type.Optional(Type.Boolean()), country_codes: Type.Array(Type.String()), scope: Type.Optional(Type.String()) }, closed),
    ),
    article: Type.Optional(
      Type.Object(
        {
          title: Type.String(),
          preview_text: Type.Optional(Type.String()),
          plain_text: Type.Optional(Type.String()),
          cover_media: Type.Optional(Type.String()),
          media_entities: Type.Optional(Type.Array(Type.String())),
        },
        closed,
      ),
    ),
    article_title: Type.Optional(Type.Object({ title: Type.String() }, closed)),
    note_post: Type.Optional(Type.Object({ text: Type.String(), entities: Type.Optional(PostEntitiesSchema) }, { ...closed, description: 'A post longer than 280 code points: its whole text again, with its entities.' })),
    card_uri: Type.Optional(Type.String({ description: 'The card of a post made through the advertising interface with one.' })),
    media_metadata: Type.Optional(Type.Array(Type.Object({ media_key: Type.String(), alt_text: Type.Optional(Type.String()) }, closed), { minItems: 1 })),
    matched_media_notes: Type.Optional(Type.Array(Type.Object({ id: idString }, closed), { description: 'Never present: Plaza shows no community notes on posts.' })),
    note_request_suggestions: Type.Optional(Type.Array(Type.Object({ id: idString }, closed), { description: 'Never present.' })),
    suggested_source_links: Type.Optional(Type.Array(Type.String(), { description: 'Never present.' })),
    suggested_source_links_with_counts: Type.Optional(Type.Array(Type.Object({ url: Type.String(), count }, closed), { description: 'Never present.' })),
    non_public_metrics: Type.Optional(Type.Object({ impression_count: count, url_link_clicks: count, user_profile_clicks: count }, { ...closed, description: "The author's own." })),
    organic_metrics: Type.Optional(Type.Object(engagement, { ...closed, description: "The author's own." })),
    promoted_metrics: Type.Optional(Type.Object(engagement, { ...closed, description: "The author's own, of a promoted-only post." })),
  },
  { $id: 'Post', ...closed },
);

export type PostWire = Static<typeof PostSchema>;
