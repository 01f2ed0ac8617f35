import { Type, type Static, type TProperties } from '@sinclair/typebox';
import { LegacyEntitiesSchema, legacyEntities } from '../../platform/dm/legacy.js';
import type { PostEntities } from '../../platform/posts/entities.js';
import type { UserTable } from '../../store/schema.js';
import { fromJson } from '../../store/store.js';
import { AdsId, AdsTime, Entity, Nullable, OneOf, PlatformIdText } from '../http/entity-schema.js';
import { wireTime } from '../http/time.js';
import { V1UserSchema, v1Time, v1User } from '../../platform/v1/wire.js';
import { CONVERSATION_SETTINGS, conversationSettingsOf, type AdsPost } from './service.js';
import type { ScheduledPostRow } from './store.js';

/** The length of text in compat mode; longer text is cut and `truncated` (post_mode, shared/reference/ads.md §3). */
const COMPAT_LENGTH = 140;

export type PostMode = 'compat' | 'extended';

const text = Type.String();
const MediaKeys = Type.Array(Type.String({ pattern: '^[0-9]{1,3}_[0-9]{1,19}$' }));
const TextRange = Type.Array(Type.Integer({ minimum: 0 }), { minItems: 2, maxItems: 2 });

/** What every form of the post object has (spec 001 "Post created through the advertising interface"). */
const postFields = {
  created_at: Type.String({ description: 'The v1.1 form, e.g. Tue Aug 27 22:22:12 +0000 2019' }),
  id: PlatformIdText,
  id_str: PlatformIdText,
  name: Nullable(text),
  truncated: Type.Boolean(),
  entities: LegacyEntitiesSchema,
  source: Nullable(text),
  in_reply_to_status_id: Type.Null(),
  in_reply_to_status_id_str: Type.Null(),
  in_reply_to_user_id: Type.Null(),
  in_reply_to_user_id_str: Type.Null(),
  in_reply_to_screen_name: Type.Null(),
  user: Type.Union([V1UserSchema, Type.Object({ id: PlatformIdText, id_str: PlatformIdText }, { additionalProperties: false, description: 'With trim_user' })]),
  geo: Type.Null(),
  coordinates: Type.Null(),
  place: Type.Null(),
  contributors: Type.Null(),
  retweet_count: Type.Integer({ minimum: 0 }),
  favorite_count: Type.Integer({ minimum: 0 }),
  favorited: Type.Literal(false),
  retweeted: Type.Literal(false),
  scopes: Type.Object({ followers: Type.Literal(false) }, { additionalProperties: false }),
  lang: Nullable(text),
  card_uri: Nullable(text),
  media_keys: MediaKeys,
} satisfies TProperties;
const compatText = { text: Type.String({ description: 'Cut at 140 characters in compat mode (truncated)' }) };
const extendedText = { full_text: text, display_text_range: TextRange };

/** POST accounts/:id/post answers the post in the post_mode asked. */
export const CreatedAdsPostSchema = Type.Union([
  Entity('AdsPostCompat', 'A post made through the advertising interface, in compat mode', { ...postFields, ...compatText }),
  Entity('AdsPostExtended', 'A post made through the advertising interface, in extended mode', { ...postFields, ...extendedText }),
]);
export const AdsPostSchema = Entity('AdsPost', 'A post of the account, as GET and the name update answer it: "also conversation_settings, nullcast, ... post_type (value PUBLISHED), scheduled_at, scheduled_status, full_text, display_text_range, post_id" (spec 001)', {
  ...postFields,
  ...compatText,
  ...extendedText,
  conversation_settings: OneOf(CONVERSATION_SETTINGS),
  nullcast: Type.Boolean(),
  post_type: Type.Literal('PUBLISHED'),
  scheduled_at: Type.Null(),
  scheduled_status: Type.Null(),
  post_id: PlatformIdText,
});
type PostBase = Omit<Static<typeof AdsPostSchema>, keyof typeof compatText | keyof typeof extendedText | 'conversation_settings' | 'nullcast' | 'post_type' | 'scheduled_at' | 'scheduled_status' | 'post_id'>;

/** The author: the v1.1 user object, or only its ids with `trim_user`. */
function userWire(u: UserTable, trim: boolean) {
  return trim ? { id: u.id, id_str: u.id } : v1User(u);
}

/** The fields every form has, in the public platform's order, its text fields after id_str. */
function postWithText<T extends object>(p: AdsPost, trimUser: boolean, textFields: T, truncated = false): PostBase & T {
  const { post, adsPost, user } = p;
  return {
    // The v1.1 form (`Tue Aug 27 22:22:12 +0000 2019`), as the public platform writes its posts' times here.
    created_at: v1Time(post.created_at),
    id: post.id,
    id_str: post.id,
    ...textFields,
    name: adsPost.name,
    truncated,
    entities: legacyEntities(fromJson<PostEntities>(post.entities) ?? {}),
    source: post.source,
    in_reply_to_status_id: null,
    in_reply_to_status_id_str: null,
    in_reply_to_user_id: null,
    in_reply_to_user_id_str: null,
    in_reply_to_screen_name: null,
    user: userWire(user, trimUser),
    geo: null,
    coordinates: null,
    place: null,
    contributors: null,
    retweet_count: post.retweet_count,
    favorite_count: post.like_count,
    favorited: false,
    retweeted: false,
    scopes: { followers: false },
    lang: post.lang,
    card_uri: adsPost.card_uri,
    media_keys: fromJson<string[]>(post.media_keys) ?? [],
  };
}

/** The post with its text as compat mode writes it: longer text is cut and `truncated`. */
function compatPost(p: AdsPost, trimUser: boolean) {
  const chars = [...p.post.text];
  const cut = chars.length > COMPAT_LENGTH;
  return postWithText(p, trimUser, { text: cut ? `${chars.slice(0, COMPAT_LENGTH - 1).join('')}…` : p.post.text }, cut);
}

const extended = (text: string) => ({ full_text: text, display_text_range: [0, [...text].length] });

/** The post as POST accounts/:id/post answers it (spec 001 "Post created through the advertising interface"). */
export function adsPostWire(p: AdsPost, o: { mode?: PostMode; trimUser?: boolean } = {}): Static<typeof CreatedAdsPostSchema> {
  const trim = o.trimUser ?? false;
  return o.mode === 'extended' ? postWithText(p, trim, extended(p.post.text)) : compatPost(p, trim);
}

/** The post as GET and the name update answer it: with conversation_settings, nullcast, post_type, the scheduling fields, full_text and display_text_range. */
export function fullAdsPostWire(p: AdsPost, trimUser = false): Static<typeof AdsPostSchema> {
  const { post } = p;
  return {
    ...compatPost(p, trimUser),
    conversation_settings: conversationSettingsOf(post) as Static<typeof AdsPostSchema>['conversation_settings'],
    nullcast: post.nullcast === 1,
    post_type: 'PUBLISHED',
    scheduled_at: null,
    scheduled_status: null,
    ...extended(post.text),
    post_id: post.id,
  };
}

const draftFields = {
  id: AdsId,
  name: Nullable(text),
  text: Nullable(text),
  user_id: PlatformIdText,
  nullcast: Type.Boolean(),
  card_uri: Nullable(text),
  media_keys: MediaKeys,
  created_at: AdsTime,
  updated_at: AdsTime,
};
const scheduledFields = {
  ...draftFields,
  scheduled_status: Nullable(OneOf(['SCHEDULED', 'PUBLISHING', 'COMPLETED', 'FAILED'])),
  scheduled_at: Nullable(AdsTime),
  completed_at: Nullable(AdsTime),
  post_id: Nullable(PlatformIdText),
};
export const ScheduledPostSchema = Entity('ScheduledPost', 'A post to be published at scheduled_at (shared/reference/ads.md §3)', scheduledFields);
export const DraftPostSchema = Entity('DraftPost', "A draft post: a scheduled post's shape without the scheduling", draftFields);
/** GET accounts/:id/posts lists scheduled and draft posts marked with their post_type. */
export const ListedPostSchema = Type.Union([
  AdsPostSchema,
  Entity('ListedScheduledPost', 'A scheduled post as GET posts lists it', { ...scheduledFields, post_type: Type.Literal('SCHEDULED') }),
  Entity('ListedDraftPost', 'A draft post as GET posts lists it', { ...draftFields, post_type: Type.Literal('DRAFT') }),
]);

/** A scheduled post (shared/reference/ads.md §3). */
export function scheduledPostWire(s: ScheduledPostRow): Static<typeof ScheduledPostSchema> {
  return {
    id: s.id,
    name: s.name,
    text: s.text,
    user_id: s.user_id,
    scheduled_status: s.scheduled_status as Static<typeof ScheduledPostSchema>['scheduled_status'],
    nullcast: s.nullcast === 1,
    scheduled_at: s.scheduled_at && wireTime(s.scheduled_at),
    completed_at: s.completed_at && wireTime(s.completed_at),
    card_uri: s.card_uri,
    post_id: s.post_id,
    media_keys: fromJson<string[]>(s.media_keys) ?? [],
    created_at: wireTime(s.created_at),
    updated_at: wireTime(s.updated_at),
  };
}

/** A draft post: a scheduled post's shape without the scheduling. */
export function draftPostWire(s: ScheduledPostRow): Static<typeof DraftPostSchema> {
  const { scheduled_status: _s, scheduled_at: _a, completed_at: _c, post_id: _p, ...draft } = scheduledPostWire(s);
  return draft;
}
