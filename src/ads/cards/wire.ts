import { Type, type Static, type TProperties } from '@sinclair/typebox';
import type { MediaTable } from '../../store/schema.js';
import { AdsId, AdsTime, Entity, Nullable, OneOf, PlatformIdText } from '../http/entity-schema.js';
import { wireTime } from '../http/time.js';
import { aspectRatio } from '../media-library/wire.js';
import { CARD_TYPES, LABEL_VALUES } from './components.js';
import type { CardRow } from './store.js';

/** card_uri of a card: `card://<id>`. */
export const cardUri = (id: string) => `card://${id}`;
/** The id a card_uri names, if it is one. */
export const cardIdOf = (uri: string) => /^card:\/\/([0-9a-z]{1,40})$/.exec(uri)?.[1];

/** The media behind a card's media keys (poll and video conversation cards show their files). */
export type CardMedia = ReadonlyMap<string, MediaTable>;

/** Numbers of poll and video conversation cards are strings on the wire (shared/reference/ads.md §3). */
const NumberText = Type.String({ pattern: '^[0-9]+$' });
const text = Type.String();
const MediaKey = Type.String({ pattern: '^[0-9]{1,3}_[0-9]{1,19}$' });

/** What every kind of card has, after its own fields. */
function commonFields<T extends readonly string[]>(cardTypes: T) {
  return {
    id: AdsId,
    card_uri: Type.String({ pattern: '^card://[0-9a-z]{1,40}$', description: 'card://<card_id>' }),
    card_type: OneOf(cardTypes),
    created_at: AdsTime,
    updated_at: AdsTime,
    deleted: Type.Boolean(),
  };
}

const common = <T extends string>(c: CardRow) => ({
  id: c.id,
  card_uri: cardUri(c.id),
  card_type: c.card_type as T,
  created_at: wireTime(c.created_at),
  updated_at: wireTime(c.updated_at),
  deleted: c.deleted === 1,
});

const str = (n: number | null | undefined) => (n === null || n === undefined ? null : String(n));

const MediaMetadata = Type.Record(
  MediaKey,
  Type.Object(
    {
      type: OneOf(['IMAGE', 'VIDEO', 'GIF', 'SUBTITLES']),
      url: Nullable(text),
      width: Nullable(Type.Integer()),
      height: Nullable(Type.Integer()),
      video_duration: Type.Optional(Nullable(Type.Integer({ minimum: 0, description: 'Milliseconds' }))),
      video_aspect_ratio: Type.Optional(Nullable(text)),
    },
    { additionalProperties: false },
  ),
  { description: 'What the component shows of each of its media, by media key' },
);
const component = (type: string, properties: TProperties) => Type.Object({ type: Type.Literal(type), ...properties }, { additionalProperties: false });
const WebsiteDestination = Type.Object({ type: Type.Literal('WEBSITE'), url: text }, { additionalProperties: false });
const AppDestination = Type.Object(
  {
    type: Type.Literal('APP'),
    country_code: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$' })),
    android_store_app_id: Type.Optional(text),
    android_store_deep_link: Type.Optional(text),
    ios_app_store_identifier: Type.Optional(text),
    ios_deep_link: Type.Optional(text),
  },
  { additionalProperties: false },
);
/**
 * "a card needs one media component (MEDIA, or SWIPEABLE_MEDIA with 2 to 6 media) and a DETAILS
 * or a BUTTON component, in render order" (spec 001 "Cards").
 */
const CardComponent = Type.Union([
  component('MEDIA', { media_key: MediaKey, media_metadata: MediaMetadata }),
  component('SWIPEABLE_MEDIA', { media_keys: Type.Array(MediaKey, { minItems: 2, maxItems: 6 }), media_metadata: MediaMetadata }),
  component('DETAILS', { title: text, destination: WebsiteDestination }),
  component('BUTTON', { label: Type.Object({ type: Type.Literal('ENUM'), value: OneOf(LABEL_VALUES) }, { additionalProperties: false }), destination: AppDestination }),
]);
type Component = Static<typeof CardComponent>;

export const CardSchema = Entity('Card', 'A card of components in render order (spec 001 "Card")', { name: text, components: Type.Array(CardComponent), ...commonFields(CARD_TYPES) });
export const MultiDestinationCardSchema = Entity('MultiDestinationCard', 'A multi-destination carousel: "`slides` make a multi-destination carousel: each slide a full card" (spec 001 "Cards")', {
  name: text,
  slides: Type.Array(Type.Array(CardComponent), { minItems: 2, maxItems: 6 }),
  ...commonFields(['IMAGE_MULTI_DEST_CAROUSEL_WEBSITE', 'MIXED_MEDIA_MULTI_DEST_CAROUSEL_WEBSITE', 'VIDEO_MULTI_DEST_CAROUSEL_WEBSITE']),
});

interface StoredComponent {
  type: string;
  media_key?: string;
  media_keys?: string[];
  [other: string]: unknown;
}

function storedComponents(c: CardRow): { components?: StoredComponent[]; slides?: StoredComponent[][] } {
  return JSON.parse(c.content) as { components?: StoredComponent[]; slides?: StoredComponent[][] };
}

/** The media keys of a card's MEDIA and SWIPEABLE_MEDIA components (slides too). */
export function componentMediaKeys(c: CardRow): string[] {
  const content = storedComponents(c);
  return [...(content.components ?? []), ...(content.slides ?? []).flat()].flatMap((k) => (k.media_key ? [k.media_key] : (k.media_keys ?? [])));
}

type MediaMetadataEntry = Static<typeof MediaMetadata>[string];
const MEDIA_TYPE: Record<MediaTable['type'], MediaMetadataEntry['type']> = { photo: 'IMAGE', video: 'VIDEO', animated_gif: 'GIF', subtitles: 'SUBTITLES' };

/**
 * What a media component shows of each of its media (the public platform's `media_metadata`):
 * type, file URL and dimensions; for a video its duration in milliseconds and aspect ratio.
 */
function mediaMetadata(keys: readonly string[], media: CardMedia): Static<typeof MediaMetadata> {
  const out: Static<typeof MediaMetadata> = {};
  for (const key of keys) {
    const m = media.get(key);
    if (!m) continue;
    const variants = JSON.parse(m.variants) as Array<{ bit_rate?: number; content_type: string; url: string }>;
    const file = m.url ?? variants.filter((v) => v.content_type === 'video/mp4').sort((a, b) => (b.bit_rate ?? 0) - (a.bit_rate ?? 0))[0]?.url ?? null;
    const entry: MediaMetadataEntry = { type: MEDIA_TYPE[m.type], url: file, width: m.width, height: m.height };
    out[key] = m.type === 'video' ? { ...entry, video_duration: m.duration_ms, video_aspect_ratio: aspectRatio(m.width, m.height) } : entry;
  }
  return out;
}

/** A component as answered (as components.ts checked and stored it): media components carry their media's metadata. */
function componentWire(k: StoredComponent, media: CardMedia): Component {
  if (k.type === 'MEDIA' && k.media_key) return { ...k, media_metadata: mediaMetadata([k.media_key], media) } as Component;
  if (k.type === 'SWIPEABLE_MEDIA' && k.media_keys) return { ...k, media_metadata: mediaMetadata(k.media_keys, media) } as Component;
  return k as Component;
}

/** The card object (spec 001 "Card"): components (or slides) in render order. */
export function cardWire(c: CardRow, media: CardMedia): Static<typeof CardSchema> | Static<typeof MultiDestinationCardSchema> {
  const content = storedComponents(c);
  const { id, card_uri, created_at, updated_at, deleted } = common(c);
  if (content.slides) {
    const slides = content.slides.map((slide) => slide.map((k) => componentWire(k, media)));
    return { name: c.name, slides, card_uri, id, card_type: c.card_type as Static<typeof MultiDestinationCardSchema>['card_type'], created_at, updated_at, deleted };
  }
  const components = (content.components ?? []).map((k) => componentWire(k, media));
  return { name: c.name, components, card_uri, id, card_type: c.card_type as Static<typeof CardSchema>['card_type'], created_at, updated_at, deleted };
}

export interface PollContent {
  choices: string[];
  duration_in_minutes: number;
  start_time: string;
  end_time: string;
  media_key: string | null;
  poster_media_key: string | null;
}

const choice = Type.String({ maxLength: 25 });
export const PollCardSchema = Entity('PollCard', 'A poll of two to four choices; "numbers as strings" (spec 001 "Poll card")', {
  name: text,
  first_choice: choice,
  second_choice: choice,
  third_choice: Type.Optional(choice),
  fourth_choice: Type.Optional(choice),
  start_time: AdsTime,
  end_time: AdsTime,
  duration_in_minutes: NumberText,
  content_duration_seconds: Nullable(NumberText),
  media_key: Nullable(MediaKey),
  image_url: Nullable(text),
  video_url: Nullable(text),
  video_hls_url: Type.Null(),
  video_width: Nullable(NumberText),
  video_height: Nullable(NumberText),
  video_poster_url: Nullable(text),
  video_poster_width: Nullable(NumberText),
  video_poster_height: Nullable(NumberText),
  ...commonFields(['IMAGE_POLLS', 'TEXT_POLLS', 'VIDEO_POLLS']),
});
type PollCard = Static<typeof PollCardSchema>;

/** The poll card object (spec 001 "Poll card"). */
export function pollCardWire(c: CardRow, media: CardMedia): PollCard {
  const p = JSON.parse(c.content) as PollContent;
  const m = p.media_key ? media.get(p.media_key) : undefined;
  const video = m?.type === 'video' ? m : undefined;
  const poster = p.poster_media_key ? media.get(p.poster_media_key) : undefined;
  const [first_choice, second_choice, third_choice, fourth_choice] = p.choices;
  return {
    name: c.name,
    first_choice,
    second_choice,
    ...(third_choice !== undefined ? { third_choice } : {}),
    ...(fourth_choice !== undefined ? { fourth_choice } : {}),
    start_time: wireTime(p.start_time),
    end_time: wireTime(p.end_time),
    duration_in_minutes: String(p.duration_in_minutes),
    content_duration_seconds: video ? str(Math.round((video.duration_ms ?? 0) / 1000)) : null,
    media_key: p.media_key,
    image_url: m && m.type === 'photo' ? m.url : null,
    video_url: video?.url ?? null,
    video_hls_url: null,
    video_width: str(video?.width),
    video_height: str(video?.height),
    video_poster_url: video ? (poster?.url ?? video.preview_image_url) : null,
    video_poster_width: video ? str(poster?.width) : null,
    video_poster_height: video ? str(poster?.height) : null,
    ...common<PollCard['card_type']>(c),
  };
}

export interface VideoConversationContent {
  ctas: Array<{ cta: string; post: string }>;
  thank_you_text: string;
  title: string | null;
  media_key: string;
  poster_media_key: string | null;
}

const Cta = Nullable(Type.String({ pattern: '^#', description: 'A hashtag' }));
const CtaPost = Nullable(Type.String({ description: 'The post made when the call to action is chosen' }));
export const VideoConversationCardSchema = Entity('VideoConversationCard', 'A video with up to four hashtag calls to action (spec 001 "Video conversation card")', {
  name: text,
  first_cta: Cta,
  first_cta_post: CtaPost,
  second_cta: Cta,
  second_cta_post: CtaPost,
  third_cta: Cta,
  third_cta_post: CtaPost,
  fourth_cta: Cta,
  fourth_cta_post: CtaPost,
  thank_you_text: text,
  title: Nullable(text),
  media_url: Nullable(text),
  media_key: MediaKey,
  poster_media_url: Nullable(text),
  poster_media_key: Nullable(MediaKey),
  video_owner_id: Nullable(PlatformIdText),
  video_width: Nullable(NumberText),
  video_height: Nullable(NumberText),
  ...commonFields(['VIDEO_CONVERSATION']),
});
type VideoConversationCard = Static<typeof VideoConversationCardSchema>;

/** The video conversation card object (spec 001 "Video conversation card"). */
export function videoConversationCardWire(c: CardRow, media: CardMedia): VideoConversationCard {
  const v = JSON.parse(c.content) as VideoConversationContent;
  const video = media.get(v.media_key);
  const poster = v.poster_media_key ? media.get(v.poster_media_key) : undefined;
  const cta = (i: number) => v.ctas[i]?.cta ?? null;
  const post = (i: number) => v.ctas[i]?.post ?? null;
  return {
    name: c.name,
    first_cta: cta(0),
    first_cta_post: post(0),
    second_cta: cta(1),
    second_cta_post: post(1),
    third_cta: cta(2),
    third_cta_post: post(2),
    fourth_cta: cta(3),
    fourth_cta_post: post(3),
    thank_you_text: v.thank_you_text,
    title: v.title,
    media_url: video?.url ?? null,
    media_key: v.media_key,
    poster_media_url: poster?.url ?? video?.preview_image_url ?? null,
    poster_media_key: v.poster_media_key,
    video_owner_id: video?.owner_user_id ?? null,
    video_width: str(video?.width),
    video_height: str(video?.height),
    ...common<VideoConversationCard['card_type']>(c),
  };
}

/** A card made by POST cards: its components, or its slides. */
export const ComponentCardSchema = Type.Union([CardSchema, MultiDestinationCardSchema]);
/** Any card, as lists of every kind answer it. */
export const AnyCardSchema = Type.Union([CardSchema, MultiDestinationCardSchema, PollCardSchema, VideoConversationCardSchema]);
