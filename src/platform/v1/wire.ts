import { Type, type Static } from '@sinclair/typebox';
import { legacyEntities } from '../dm/legacy.js';
import type { PostEntities } from '../posts/entities.js';
import type { PostWire } from '../posts/schema.js';
import { postDeclaration, type PostRow } from '../posts/wire.js';
import { selectFields } from '../../http/fields.js';
import type { UserRow } from '../users/wire.js';

/**
 * The v1.1 status and user objects, which the public platform still sends where v1.1 lives on:
 * Account Activity deliveries (tweet_create_events, favorite_events, follow_events...) and the
 * v1.1 endpoints SDKs call on startup (account/verify_credentials). One converter per object.
 *
 * `id` is written as a string equal to `id_str`: the public platform writes a JSON number, which
 * JavaScript cannot hold exactly for 64-bit ids; clients read `id_str`, as its documentation says.
 */

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** A time as v1.1 writes it: `Wed Oct 10 20:19:24 +0000 2018`. */
export function v1Time(iso: string): string {
  const d = new Date(iso);
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000 ${d.getUTCFullYear()}`;
}

/** The length of a status's `text` before the rest moves to `extended_tweet` (v1.1 compatibility mode). */
const COMPAT_LENGTH = 140;

const V1IdText = Type.String({ pattern: '^[0-9]{1,19}$' });
const V1Time = Type.String({ description: 'e.g. Wed Oct 10 20:19:24 +0000 2018' });
const nullableText = Type.Union([Type.String(), Type.Null()]);

/** The v1.1 user object, as v1User writes it. */
export const V1UserSchema = Type.Object(
  {
    id: V1IdText,
    id_str: V1IdText,
    name: Type.String(),
    screen_name: Type.String(),
    location: nullableText,
    url: nullableText,
    description: nullableText,
    protected: Type.Boolean(),
    verified: Type.Boolean(),
    followers_count: Type.Integer(),
    friends_count: Type.Integer(),
    listed_count: Type.Integer(),
    favourites_count: Type.Integer(),
    statuses_count: Type.Integer(),
    media_count: Type.Integer(),
    created_at: V1Time,
    utc_offset: Type.Null(),
    time_zone: Type.Null(),
    geo_enabled: Type.Boolean(),
    lang: Type.Null(),
    contributors_enabled: Type.Boolean(),
    is_translator: Type.Boolean(),
    profile_image_url: Type.String(),
    profile_image_url_https: Type.String(),
    profile_banner_url: Type.Optional(Type.String()),
    default_profile: Type.Boolean(),
    default_profile_image: Type.Boolean(),
    following: Type.Null(),
    follow_request_sent: Type.Null(),
    notifications: Type.Null(),
  },
  { title: 'V1User', description: 'A v1.1 user object', additionalProperties: false },
);

/** A v1.1 user object. */
export function v1User(u: UserRow): Static<typeof V1UserSchema> {
  return {
    id: u.id,
    id_str: u.id,
    name: u.name,
    screen_name: u.username,
    location: u.location,
    url: u.url,
    description: u.description,
    protected: u.protected === 1,
    verified: u.verified === 1,
    followers_count: u.followers_count,
    friends_count: u.following_count,
    listed_count: u.listed_count,
    favourites_count: u.like_count,
    statuses_count: u.post_count,
    media_count: u.media_count,
    created_at: v1Time(u.created_at),
    utc_offset: null,
    time_zone: null,
    geo_enabled: false,
    lang: null,
    contributors_enabled: false,
    is_translator: false,
    profile_image_url: u.profile_image_url.replace(/^https:/, 'http:'),
    profile_image_url_https: u.profile_image_url,
    ...(u.profile_banner_url ? { profile_banner_url: u.profile_banner_url } : {}),
    default_profile: true,
    default_profile_image: false,
    following: null,
    follow_request_sent: null,
    notifications: null,
  };
}

/** What a status names beyond its own wire post: its author, and the posts it replies to, quotes or reposts. */
export interface V1Related {
  author: UserRow;
  /** The screen name of the author replied to. */
  inReplyToScreenName?: string;
  quoted?: { post: PostWire; author: UserRow };
  reposted?: { post: PostWire; author: UserRow };
}

/**
 * A v1.1 status from the v2 post (all fields, as the event log holds it): text over 140 characters
 * is cut in `text` (`truncated`) and whole in `extended_tweet` (full_text, display_text_range,
 * entities), as v1.1 compatibility mode sends it.
 */
export function v1Status(p: PostWire, related: V1Related): Record<string, unknown> {
  // A long post's whole text is its note (its `text` shows the first 280 weighted characters).
  const whole = p.note_post?.text ?? p.text;
  const chars = [...whole];
  const long = chars.length > COMPAT_LENGTH;
  const v2Entities = (p.note_post?.entities ?? p.entities ?? {}) as PostEntities;
  const entities = legacyEntities(v2Entities);
  const reply = p.referenced_posts?.find((r) => r.type === 'replied_to')?.id ?? null;
  const metrics = p.public_metrics;
  const createdAt = p.created_at ?? new Date(0).toISOString();
  return {
    created_at: v1Time(createdAt),
    id: p.id,
    id_str: p.id,
    text: long ? `${chars.slice(0, COMPAT_LENGTH - 1).join('')}…` : whole,
    display_text_range: [0, Math.min(chars.length, COMPAT_LENGTH)],
    source: p.source ?? null,
    truncated: long,
    in_reply_to_status_id: reply,
    in_reply_to_status_id_str: reply,
    in_reply_to_user_id: p.in_reply_to_user_id ?? null,
    in_reply_to_user_id_str: p.in_reply_to_user_id ?? null,
    in_reply_to_screen_name: related.inReplyToScreenName ?? null,
    user: v1User(related.author),
    geo: null,
    coordinates: null,
    place: null,
    contributors: null,
    ...(related.quoted
      ? { quoted_status_id: related.quoted.post.id, quoted_status_id_str: related.quoted.post.id, quoted_status: v1Status(related.quoted.post, { author: related.quoted.author }) }
      : {}),
    ...(related.reposted ? { retweeted_status: v1Status(related.reposted.post, { author: related.reposted.author }) } : {}),
    is_quote_status: p.referenced_posts?.some((r) => r.type === 'quoted') ?? false,
    ...(long ? { extended_tweet: { full_text: whole, display_text_range: [0, chars.length], entities } } : {}),
    quote_count: metrics?.quote_count ?? 0,
    reply_count: metrics?.reply_count ?? 0,
    retweet_count: metrics?.retweet_count ?? 0,
    favorite_count: metrics?.like_count ?? 0,
    entities: long ? legacyEntities(truncatedEntities(v2Entities)) : entities,
    favorited: false,
    retweeted: false,
    ...(p.possibly_sensitive ? { possibly_sensitive: true } : {}),
    filter_level: 'low',
    lang: p.lang ?? 'und',
    timestamp_ms: String(Date.parse(createdAt)),
  };
}

/** The entities that fall within a cut text's first 139 characters. */
function truncatedEntities(entities: PostEntities): PostEntities {
  const within = <T extends { end: number }>(list: T[] | undefined) => list?.filter((e) => e.end <= COMPAT_LENGTH - 1);
  return { urls: within(entities.urls), mentions: within(entities.mentions), hashtags: within(entities.hashtags), cashtags: within(entities.cashtags) };
}

const ALL_POST_FIELDS: ReadonlySet<string> = new Set(Object.keys(postDeclaration.fields));

/** A stored post as the event log holds one (every field), which v1Status reads. */
export function allPostFields(row: PostRow, now: Date): PostWire {
  return selectFields(postDeclaration, row, ALL_POST_FIELDS, { now }) as PostWire;
}
