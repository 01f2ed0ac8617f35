import { legacyEntities } from '../../platform/dm/legacy.js';
import type { PostEntities } from '../../platform/posts/entities.js';
import type { UserTable } from '../../store/schema.js';
import { fromJson } from '../../store/store.js';
import { wireTime } from '../http/time.js';
import { v1Time, v1User } from '../../platform/v1/wire.js';
import { conversationSettingsOf, type AdsPost } from './service.js';
import type { ScheduledPostRow } from './store.js';

/** The length of text in compat mode; longer text is cut and `truncated` (post_mode, shared/reference/ads.md §3). */
const COMPAT_LENGTH = 140;

export type PostMode = 'compat' | 'extended';

/** The author: the v1.1 user object, or only its ids with `trim_user`. */
function userWire(u: UserTable, trim: boolean) {
  return trim ? { id: u.id, id_str: u.id } : v1User(u);
}

/**
 * The post object of the advertising interface (spec 001 "Post created through the advertising
 * interface"). `full`: the form the name update (and GET) answers, with conversation_settings,
 * nullcast, post_type, the scheduling fields, full_text and display_text_range.
 */
export function adsPostWire(p: AdsPost, o: { mode?: PostMode; trimUser?: boolean; full?: boolean } = {}) {
  const { post, adsPost, user } = p;
  const chars = [...post.text];
  const cut = chars.length > COMPAT_LENGTH;
  const extended = o.mode === 'extended';
  const textFields = extended && !o.full ? { full_text: post.text, display_text_range: [0, chars.length] } : { text: cut ? `${chars.slice(0, COMPAT_LENGTH - 1).join('')}…` : post.text };
  const base = {
    // The v1.1 form (`Tue Aug 27 22:22:12 +0000 2019`), as the public platform writes its posts' times here.
    created_at: v1Time(post.created_at),
    id: post.id,
    id_str: post.id,
    ...textFields,
    name: adsPost.name,
    truncated: !extended && cut,
    entities: legacyEntities(fromJson<PostEntities>(post.entities) ?? {}),
    source: post.source,
    in_reply_to_status_id: null,
    in_reply_to_status_id_str: null,
    in_reply_to_user_id: null,
    in_reply_to_user_id_str: null,
    in_reply_to_screen_name: null,
    user: userWire(user, o.trimUser ?? false),
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
  if (!o.full) return base;
  return {
    ...base,
    conversation_settings: conversationSettingsOf(post),
    nullcast: post.nullcast === 1,
    post_type: 'PUBLISHED',
    scheduled_at: null,
    scheduled_status: null,
    full_text: post.text,
    display_text_range: [0, chars.length],
    post_id: post.id,
  };
}

/** A scheduled post (shared/reference/ads.md §3). */
export function scheduledPostWire(s: ScheduledPostRow) {
  return {
    id: s.id,
    name: s.name,
    text: s.text,
    user_id: s.user_id,
    scheduled_status: s.scheduled_status,
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
export function draftPostWire(s: ScheduledPostRow) {
  const { scheduled_status: _s, scheduled_at: _a, completed_at: _c, post_id: _p, ...draft } = scheduledPostWire(s);
  return draft;
}
