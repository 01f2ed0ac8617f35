import { findUserById } from '../../auth/store.js';
import { newPostRow, recordPost } from '../../platform/posts/build.js';
import { insertPost } from '../../platform/posts/store.js';
import { MAX_POST_LENGTH, postLength } from '../../platform/posts/rules.js';
import type { PostRow } from '../../platform/posts/wire.js';
import type { UserTable } from '../../store/schema.js';
import type { DbOrTx } from '../../store/store.js';
import type { AccountRow, AdsActor } from '../actor.js';
import { cardByUri } from '../cards/service.js';
import { AdsError } from '../http/errors.js';
import { runList, type ListRequest } from '../http/list.js';
import { requireLibraryMedia } from '../media-library/service.js';
import { markPosted } from '../media-library/store.js';
import { accountUserIds } from '../promoted/store.js';
import { ADS_POST_SORTING, adsPostsOf, findAdsPost, insertAdsPost, updateAdsPost, type AdsPostRow, type TimelineType } from './store.js';

/**
 * Posts through the advertising interface (spec 001 "Posts through the advertising interface"):
 * posts of the platform's store, made on behalf of an advertiser (as_user_id) who granted the
 * caller access to the account. nullcast=true (the default) makes a promoted-only post: readable
 * by id, absent from timelines and search, and no news to streams or webhooks; nullcast=false is
 * an organic post, recorded as POST /2/posts records one.
 */
export const MAX_POST_NAME = 80;
export const MAX_VIDEO_TITLE = 70;
export const MAX_VIDEO_DESCRIPTION = 200;
export const CONVERSATION_SETTINGS = ['EVERYONE', 'FOLLOWING', 'MENTIONED_USERS'] as const;
export const VIDEO_CTAS = ['VISIT_SITE', 'WATCH_NOW'] as const;
const REPLY_SETTINGS: Record<(typeof CONVERSATION_SETTINGS)[number], string> = { EVERYONE: 'everyone', FOLLOWING: 'following', MENTIONED_USERS: 'mentionedUsers' };

/** conversation_settings as the post's reply_settings says it. */
export function conversationSettingsOf(post: PostRow): string {
  return (Object.keys(REPLY_SETTINGS) as Array<keyof typeof REPLY_SETTINGS>).find((k) => REPLY_SETTINGS[k] === post.reply_settings) ?? 'EVERYONE';
}

/** What a post, scheduled post or draft post may carry. */
export interface PostContent {
  as_user_id: string;
  text?: string | null;
  card_uri?: string | null;
  media_keys?: string[] | null;
  nullcast: boolean;
}

export interface PostInput extends PostContent {
  name?: string;
  conversation_settings?: (typeof CONVERSATION_SETTINGS)[number];
  video_cta?: string;
  video_cta_value?: string;
  video_title?: string;
  video_description?: string;
  /** The calling app's name, the post's source. */
  source: string;
}

/**
 * The advertiser: a user associated with the account (who thereby granted its users access).
 * nullcast=false (an organic post) is only for the authenticated user's own handle.
 */
export async function checkAdvertiser(actor: AdsActor, db: DbOrTx, account: AccountRow, asUserId: string, nullcast: boolean): Promise<UserTable> {
  const user = await findUserById(db, asUserId);
  if (!user) throw AdsError.invalidParameter('as_user_id', `User ${asUserId} was not found`, 'INVALID_USER_ID');
  if (!(await accountUserIds(db, account.id)).includes(user.id)) {
    throw new AdsError(403, [{ code: 'ACTION_NOT_ALLOWED', message: `User ${asUserId} has not granted access to Account ${account.id}; posts can be made only for the account's users`, parameter: 'as_user_id' }]);
  }
  if (!nullcast && user.id !== actor.userId) {
    throw AdsError.invalidParameter('nullcast', `nullcast=false (an organic post) is allowed only for the authenticated user ${actor.userId}, not for as_user_id ${asUserId}`);
  }
  return user;
}

/** Text, media and card of a post: text without media_keys; up to 4 images, or 1 GIF, or 1 video of the media library. */
export async function checkContent(db: DbOrTx, account: AccountRow, p: PostContent): Promise<{ text: string; mediaTypes: string[] }> {
  const text = p.text ?? '';
  const keys = p.media_keys ?? [];
  if (text.trim().length === 0 && keys.length === 0) throw new AdsError(400, [{ code: 'TWEET_CANNOT_BE_BLANK', message: 'text is required when no media_keys are given', parameter: 'text' }]);
  if (postLength(text) > MAX_POST_LENGTH) throw AdsError.invalidParameter('text', `text must be at most ${MAX_POST_LENGTH} characters, got ${postLength(text)}`);
  if (new Set(keys).size !== keys.length) throw AdsError.invalidParameter('media_keys', 'media_keys names a media twice');
  const types: string[] = [];
  for (const key of keys) types.push((await requireLibraryMedia(db, account, key, 'media_keys', ['IMAGE', 'GIF', 'VIDEO'])).entry.media_type);
  const single = types.find((t) => t !== 'IMAGE');
  if ((single && types.length > 1) || types.length > 4) {
    throw AdsError.invalidParameter('media_keys', `media_keys may hold up to 4 images, or 1 GIF, or 1 video; got ${types.join(', ')}`);
  }
  if (p.card_uri) await cardByUri(db, account, p.card_uri);
  return { text, mediaTypes: types };
}

function checkVideoFields(p: PostInput, mediaTypes: string[]): void {
  const given = (['video_cta', 'video_cta_value', 'video_title', 'video_description'] as const).find((k) => p[k] !== undefined);
  if (given && !mediaTypes.includes('VIDEO')) throw AdsError.invalidParameter(given, `${given} applies to a video: media_keys must name one`);
  if (p.video_cta !== undefined && p.video_cta_value === undefined) throw AdsError.missingParameter('video_cta_value');
  if (p.video_cta_value !== undefined && p.video_cta === undefined) throw AdsError.missingParameter('video_cta');
}

export interface AdsPost {
  post: PostRow;
  adsPost: AdsPostRow;
  user: UserTable;
}

/** Writes the post on `db` (the caller's transaction). */
export async function createAdsPost(actor: AdsActor, db: DbOrTx, account: AccountRow, p: PostInput): Promise<AdsPost> {
  const user = await checkAdvertiser(actor, db, account, p.as_user_id, p.nullcast);
  const { text, mediaTypes } = await checkContent(db, account, p);
  checkVideoFields(p, mediaTypes);
  const now = actor.ctx.clock.now();
  const row: PostRow = {
    ...newPostRow(actor.ctx.ids.next(), {
      authorId: user.id,
      text,
      createdAt: now,
      mediaKeys: p.media_keys ?? [],
      source: p.source,
      replySettings: REPLY_SETTINGS[p.conversation_settings ?? 'EVERYONE'],
    }),
    nullcast: p.nullcast ? 1 : 0,
  };
  // A promoted-only post moves no counter of its author and is no event: it is not on the timeline.
  if (p.nullcast) await insertPost(db, row);
  else await recordPost(actor.ctx, db, row);
  const adsPost: AdsPostRow = {
    post_id: row.id,
    account_id: account.id,
    name: p.name ?? null,
    card_uri: p.card_uri ?? null,
    video_cta: p.video_cta ?? null,
    video_cta_value: p.video_cta_value ?? null,
    video_title: p.video_title ?? null,
    video_description: p.video_description ?? null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await insertAdsPost(db, adsPost);
  await markPosted(db, account.id, p.media_keys ?? []);
  return { post: row, adsPost, user };
}

async function withPost(db: DbOrTx, adsPost: AdsPostRow, account: AccountRow): Promise<AdsPost> {
  const post = await db.selectFrom('posts').selectAll().where('id', '=', adsPost.post_id).where('deleted_at', 'is', null).executeTakeFirst();
  const user = post ? await findUserById(db, post.author_id) : undefined;
  if (!post || !user) throw postNotFound(adsPost.post_id, account);
  return { post, adsPost, user };
}

const postNotFound = (id: string, account: AccountRow) => new AdsError(404, [{ code: 'TWEET_NOT_FOUND', message: `Post ${id} was not found for Account ${account.id}`, parameter: 'post_id' }]);

export async function getAdsPost(db: DbOrTx, account: AccountRow, postId: string | undefined): Promise<AdsPost> {
  const adsPost = postId === undefined ? undefined : await findAdsPost(db, account.id, postId);
  if (!adsPost) throw postNotFound(postId ?? '', account);
  return withPost(db, adsPost, account);
}

/** PUT posts/:post_id/name: the name only (max 80); an empty name unsets it. */
export async function renameAdsPost(actor: AdsActor, db: DbOrTx, account: AccountRow, postId: string | undefined, name: string | null | undefined): Promise<AdsPost> {
  const current = await getAdsPost(db, account, postId);
  if (name === undefined) return current;
  const adsPost = await updateAdsPost(db, current.adsPost.post_id, { name, updated_at: actor.ctx.clock.now().toISOString() });
  return { ...current, adsPost };
}

export async function listAdsPosts(db: DbOrTx, account: AccountRow, p: ListRequest & { post_ids?: string[]; timeline_type?: TimelineType; user_id?: string; name?: string }) {
  const page = await runList(db, adsPostsOf(db, account.id, { ids: p.post_ids, timelineType: p.timeline_type, userId: p.user_id, name: p.name }), ADS_POST_SORTING, p);
  const posts = new Map(
    page.rows.length ? (await db.selectFrom('posts').selectAll().where('id', 'in', page.rows.map((r) => r.post_id)).execute()).map((r) => [r.id, r]) : [],
  );
  const users = new Map(
    posts.size ? (await db.selectFrom('users').selectAll().where('id', 'in', [...new Set([...posts.values()].map((r) => r.author_id))]).execute()).map((u) => [u.id, u]) : [],
  );
  const rows = page.rows.flatMap((adsPost) => {
    const post = posts.get(adsPost.post_id);
    const user = post && users.get(post.author_id);
    return post && user && !post.deleted_at ? [{ post, adsPost, user }] : [];
  });
  return { ...page, rows };
}
