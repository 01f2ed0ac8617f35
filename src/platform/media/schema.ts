import { Type, type Static } from '@sinclair/typebox';

/**
 * The media object on the wire (spec 000's data dictionary): every field Plaza can return, typed.
 * The field table in wire.ts is typed from it (`FieldTable`); the OpenAPI description is
 * generated from it.
 */

const count = Type.Integer({ minimum: 0 });
const closed = { additionalProperties: false } as const;
const playbacks = {
  playback_0_count: count,
  playback_25_count: count,
  playback_50_count: count,
  playback_75_count: count,
  playback_100_count: count,
};

export const MediaSchema = Type.Object(
  {
    media_key: Type.String({ pattern: '^[0-9]+_[0-9]+$' }),
    type: Type.Union([Type.Literal('photo'), Type.Literal('video'), Type.Literal('animated_gif'), Type.Literal('subtitles')]),
    alt_text: Type.Optional(Type.String()),
    duration_ms: Type.Optional(count),
    height: Type.Optional(count),
    non_public_metrics: Type.Optional(Type.Object(playbacks, { ...closed, description: "The uploader's own, of a video or GIF." })),
    organic_metrics: Type.Optional(Type.Object({ ...playbacks, view_count: count }, { ...closed, description: "The uploader's own, of a video or GIF." })),
    preview_image_url: Type.Optional(Type.String()),
    promoted_metrics: Type.Optional(Type.Object({ ...playbacks, view_count: count }, { ...closed, description: "The uploader's own, of a video or GIF shown only in promoted-only posts." })),
    public_metrics: Type.Optional(Type.Object({ view_count: count }, closed)),
    url: Type.Optional(Type.String()),
    variants: Type.Optional(
      Type.Array(Type.Object({ bit_rate: Type.Optional(count), content_type: Type.String(), url: Type.String() }, closed), { minItems: 1 }),
    ),
    width: Type.Optional(count),
  },
  { $id: 'Media', ...closed },
);

export type MediaWire = Static<typeof MediaSchema>;
