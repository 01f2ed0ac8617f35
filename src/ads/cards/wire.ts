import type { MediaTable } from '../../store/schema.js';
import { wireTime } from '../http/time.js';
import type { CardRow } from './store.js';

/** card_uri of a card: `card://<id>`. */
export const cardUri = (id: string) => `card://${id}`;
/** The id a card_uri names, if it is one. */
export const cardIdOf = (uri: string) => /^card:\/\/([0-9a-z]{1,40})$/.exec(uri)?.[1];

/** The media behind a card's media keys (poll and video conversation cards show their files). */
export type CardMedia = ReadonlyMap<string, MediaTable>;

const common = (c: CardRow) => ({
  id: c.id,
  card_uri: cardUri(c.id),
  card_type: c.card_type,
  created_at: wireTime(c.created_at),
  updated_at: wireTime(c.updated_at),
  deleted: c.deleted === 1,
});

/** Numbers of poll and video conversation cards are strings on the wire (shared/reference/ads.md §3). */
const str = (n: number | null | undefined) => (n === null || n === undefined ? null : String(n));

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

const MEDIA_TYPE: Record<MediaTable['type'], string> = { photo: 'IMAGE', video: 'VIDEO', animated_gif: 'GIF', subtitles: 'SUBTITLES' };
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * What a media component shows of each of its media (the public platform's `media_metadata`):
 * type, file URL and dimensions; for a video its duration in milliseconds and aspect ratio.
 */
function mediaMetadata(keys: readonly string[], media: CardMedia) {
  const out: Record<string, Record<string, unknown>> = {};
  for (const key of keys) {
    const m = media.get(key);
    if (!m) continue;
    const variants = JSON.parse(m.variants) as Array<{ bit_rate?: number; content_type: string; url: string }>;
    const file = m.url ?? variants.filter((v) => v.content_type === 'video/mp4').sort((a, b) => (b.bit_rate ?? 0) - (a.bit_rate ?? 0))[0]?.url ?? null;
    const entry: Record<string, unknown> = { type: MEDIA_TYPE[m.type], url: file, width: m.width, height: m.height };
    if (m.type === 'video') {
      entry.video_duration = m.duration_ms;
      const d = m.width && m.height ? gcd(m.width, m.height) : 0;
      entry.video_aspect_ratio = d ? `${m.width! / d}:${m.height! / d}` : null;
    }
    out[key] = entry;
  }
  return out;
}

/** A component as answered: media components carry their media's metadata. */
function componentWire(k: StoredComponent, media: CardMedia) {
  if (k.type === 'MEDIA' && k.media_key) return { ...k, media_metadata: mediaMetadata([k.media_key], media) };
  if (k.type === 'SWIPEABLE_MEDIA' && k.media_keys) return { ...k, media_metadata: mediaMetadata(k.media_keys, media) };
  return k;
}

/** The card object (spec 001 "Card"): components (or slides) in render order. */
export function cardWire(c: CardRow, media: CardMedia) {
  const content = storedComponents(c);
  const { id, card_uri, card_type, created_at, updated_at, deleted } = common(c);
  const components = content.slides
    ? { slides: content.slides.map((slide) => slide.map((k) => componentWire(k, media))) }
    : { components: (content.components ?? []).map((k) => componentWire(k, media)) };
  return { name: c.name, ...components, card_uri, id, card_type, created_at, updated_at, deleted };
}

export interface PollContent {
  choices: string[];
  duration_in_minutes: number;
  start_time: string;
  end_time: string;
  media_key: string | null;
  poster_media_key: string | null;
}

/** The poll card object (spec 001 "Poll card"). */
export function pollCardWire(c: CardRow, media: CardMedia) {
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
    duration_in_minutes: str(p.duration_in_minutes),
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
    ...common(c),
  };
}

export interface VideoConversationContent {
  ctas: Array<{ cta: string; post: string }>;
  thank_you_text: string;
  title: string | null;
  media_key: string;
  poster_media_key: string | null;
}

const ORDINALS = ['first', 'second', 'third', 'fourth'] as const;

/** The video conversation card object (spec 001 "Video conversation card"). */
export function videoConversationCardWire(c: CardRow, media: CardMedia) {
  const v = JSON.parse(c.content) as VideoConversationContent;
  const video = media.get(v.media_key);
  const poster = v.poster_media_key ? media.get(v.poster_media_key) : undefined;
  const ctas: Record<string, string | null> = {};
  ORDINALS.forEach((o, i) => {
    ctas[`${o}_cta`] = v.ctas[i]?.cta ?? null;
    ctas[`${o}_cta_post`] = v.ctas[i]?.post ?? null;
  });
  return {
    name: c.name,
    ...ctas,
    thank_you_text: v.thank_you_text,
    title: v.title,
    media_url: video?.url ?? null,
    media_key: v.media_key,
    poster_media_url: poster?.url ?? video?.preview_image_url ?? null,
    poster_media_key: v.poster_media_key,
    video_owner_id: video?.owner_user_id ?? null,
    video_width: str(video?.width),
    video_height: str(video?.height),
    ...common(c),
  };
}
