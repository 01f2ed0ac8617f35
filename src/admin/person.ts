import type { UserCaller } from '../auth/authenticate.js';
import type { AppRow } from '../auth/store.js';
import type { PlatformContext } from '../platform/context.js';
import { invalidParameter } from '../http/params.js';
import { parseSelection } from '../platform/expansions.js';
import { sendToParticipant, type NewMessage, type Sent } from '../platform/dm/service.js';
import { followUser, requireUser, unfollowUser } from '../platform/follows/service.js';
import { likePost, unlikePost } from '../platform/likes/service.js';
import { createPost, type CreatedPost } from '../platform/posts/create.js';
import { deletePost } from '../platform/posts/delete.js';
import { repostPost } from '../platform/reposts/service.js';
import { createSpace, moveSpace, type NewSpace } from '../platform/spaces/service.js';
import { updateProfile, type ProfileChanges } from '../platform/users/profile.js';
import { userExpansions, type UsersResult } from '../platform/users/service.js';
import { viewOf } from '../platform/view.js';
import { recordPromotedEngagement } from '../ads/delivery/service.js';
import { requireVisiblePost } from '../platform/graph/visibility.js';
import type { PostEntities } from '../platform/posts/entities.js';
import { fromJson } from '../store/store.js';

/**
 * Acting as a person (POST /admin/users/{id}/...): what the platform's own client does for its
 * user, through the services the public routes call, so every rule about the content and every
 * event is the same. Only the rules that bind third-party apps by tier (summoned-only replies,
 * likes and follows removed from self-serve tiers) do not apply: the platform's client is no
 * self-serve app. It holds no stored credentials, so it cannot be used anywhere else.
 */
export const FIRST_PARTY_APP: AppRow = {
  id: '0',
  name: 'Plaza Web App',
  tier: 'enterprise',
  owner_user_id: null,
  consumer_key: '',
  consumer_secret: '',
  client_id: '',
  client_secret: '',
  callback_urls: '[]',
  sign_in_enabled: 0,
  dialect: 'post',
  created_at: '2010-11-04T00:00:00.000Z',
};

/** The person as the first-party client's signed-in user: full permissions, as their own client has. */
export async function personCaller(ctx: PlatformContext, userId: string): Promise<UserCaller> {
  const user = await requireUser(ctx.store.db, userId, 'id');
  return { kind: 'oauth1', app: FIRST_PARTY_APP, user, accessLevel: 'read-write-directmessages', token: '' };
}

export interface PersonPost {
  text?: string;
  reply_to?: string;
  quote_of?: string;
  media_keys?: string[];
}

/** media_keys (what reads show) become the media ids POST /2/posts takes: a key is `<type digit>_<media id>`. */
function mediaIdsOf(keys: string[]): string[] {
  return keys.map((key) => {
    const m = /^\d+_(\d{1,19})$/.exec(key);
    if (!m) throw invalidParameter('media_keys', [key], `The \`media_keys\` value [${key}] is not a media key, such as 3_1234567890`);
    return m[1];
  });
}

export async function postAs(ctx: PlatformContext, userId: string, body: PersonPost): Promise<CreatedPost> {
  const caller = await personCaller(ctx, userId);
  return createPost(ctx, caller, {
    text: body.text,
    ...(body.reply_to !== undefined ? { reply: { in_reply_to_post_id: body.reply_to } } : {}),
    ...(body.quote_of !== undefined ? { quote_post_id: body.quote_of } : {}),
    ...(body.media_keys?.length ? { media: { media_ids: mediaIdsOf(body.media_keys) } } : {}),
  });
}

export async function deletePostAs(ctx: PlatformContext, userId: string, postId: string): Promise<{ deleted: boolean }> {
  return deletePost(ctx, await personCaller(ctx, userId), postId);
}

export async function likeAs(ctx: PlatformContext, userId: string, postId: string, like: boolean): Promise<{ liked: boolean }> {
  const caller = await personCaller(ctx, userId);
  return like ? likePost(ctx, caller, viewOf(ctx.clock, caller), userId, postId) : unlikePost(ctx, caller, userId, postId);
}

/**
 * A click on a post as the person (the post opened, or with `url` one of its links followed).
 * Plaza counts clicks only where a promotion is paying for them: a click on a promoted post the
 * person was shown counts for its line item (src/ads/delivery/); `promoted` says whether it did.
 */
export async function clickAs(ctx: PlatformContext, userId: string, postId: string, url?: string): Promise<{ post_id: string; url: string | null; promoted: boolean }> {
  const caller = await personCaller(ctx, userId);
  const post = await requireVisiblePost(ctx, ctx.store.db, viewOf(ctx.clock, caller), postId, 'post_id');
  const links = (fromJson<PostEntities>(post.entities)?.urls ?? []).flatMap((u) => [u.url, u.expanded_url]);
  if (url !== undefined && !links.includes(url)) throw invalidParameter('url', [url], `Post ${post.id} holds no link ${url}`);
  const promoted = await ctx.store.db
    .transaction()
    .execute((tx) => recordPromotedEngagement(ctx, tx, userId, { postId: post.id }, url === undefined ? 'click' : 'url_click'));
  return { post_id: post.id, url: url ?? null, promoted };
}

export async function repostAs(ctx: PlatformContext, userId: string, postId: string): Promise<{ reposted: boolean; rest_id: string }> {
  const caller = await personCaller(ctx, userId);
  return repostPost(ctx, caller, viewOf(ctx.clock, caller), userId, postId);
}

export async function followAs(ctx: PlatformContext, userId: string, targetId: string, follow: boolean): Promise<{ following: boolean; pending_follow?: boolean }> {
  const caller = await personCaller(ctx, userId);
  return follow ? followUser(ctx, caller, userId, targetId) : unfollowUser(ctx, caller, userId, targetId);
}

export async function messageAs(ctx: PlatformContext, userId: string, participantId: string, message: NewMessage): Promise<Sent> {
  return sendToParticipant(ctx, await personCaller(ctx, userId), participantId, message);
}

/** What a profile change answers with: the fields a person edits. */
const PROFILE_FIELDS = 'created_at,description,location,url,profile_image_url,protected,verified_type';

export async function updateProfileAs(ctx: PlatformContext, userId: string, changes: ProfileChanges): Promise<UsersResult> {
  return updateProfile(ctx, await personCaller(ctx, userId), changes, parseSelection({ 'user.fields': PROFILE_FIELDS }, userExpansions));
}

export async function startSpaceAs(ctx: PlatformContext, userId: string, body: NewSpace): Promise<Record<string, unknown>> {
  return createSpace(ctx, await personCaller(ctx, userId), body);
}

export async function moveSpaceAs(ctx: PlatformContext, userId: string, spaceId: string, to: 'live' | 'ended'): Promise<Record<string, unknown>> {
  return moveSpace(ctx, await personCaller(ctx, userId), spaceId, to);
}
