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

/** The card object (spec 001 "Card"): components (or slides) in render order. */
export function cardWire(c: CardRow) {
  const content = JSON.parse(c.content) as { components?: unknown[]; slides?: unknown[][] };
  const { id, card_uri, card_type, created_at, updated_at, deleted } = common(c);
  return { name: c.name, ...(content.slides ? { slides: content.slides } : { components: content.components }), card_uri, id, card_type, created_at, updated_at, deleted };
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
