import type { UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { placeById } from '../places/gazetteer.js';
import { cardIdOf } from '../../ads/cards/wire.js';
import { invalidParameter } from '../../http/params.js';
import { ProblemError, problems } from '../../http/problems.js';
import type { DbOrTx } from '../../store/store.js';
import { isBlocking } from '../blocks/store.js';
import { requireCommunityMember } from '../communities/service.js';
import { requireWriteAccess } from '../graph/access.js';
import { requireVisiblePost } from '../graph/visibility.js';
import { attachableMedia } from '../media/service.js';
import { insertPoll } from '../polls/store.js';
import { findUsersByIds } from '../users/store.js';
import { viewOf } from '../view.js';
import { editedPostRow, newPostRow, recordPost } from './build.js';
import { parseEntities } from './entities.js';
import {
  MAX_POST_LENGTH,
  checkLongPostAllowed,
  checkEditable,
  checkMentionsSummoned,
  checkNotDuplicate,
  checkQuoteSummoned,
  checkReplySettings,
  checkReplySummoned,
  postLength,
} from './rules.js';
import { findPostsByIds, supersede, updateChain } from './store.js';
import { editHistoryOf, type PostRow } from './wire.js';

/** The body of POST /2/posts (shared/reference S167 CreatePostsRequest, 'tweet' renamed 'post'). */
export interface CreatePostBody {
  text?: string;
  reply?: { in_reply_to_post_id: string; exclude_reply_user_ids?: string[]; auto_populate_reply_metadata?: boolean };
  quote_post_id?: string;
  media?: { media_ids: string[]; tagged_user_ids?: string[] };
  poll?: { options: string[]; duration_minutes: number; reply_settings?: string };
  paid_partnership?: boolean;
  community_id?: string;
  share_with_followers?: boolean;
  reply_settings?: string;
  edit_options?: { previous_post_id: string };
  geo?: { place_id?: string };
  nullcast?: boolean;
  made_with_ai?: boolean;
  for_super_followers_only?: boolean;
  direct_message_deep_link?: string;
  card_uri?: string;
}

export interface CreatedPost {
  id: string;
  text: string;
  edit_history_post_ids: string[];
}

const bad = (name: string, values: string[], message: string) => invalidParameter(name, values, message);

/** What a request may hold together, checked before anything is read (bad input changes nothing). */
function checkShape(body: CreatePostBody): void {
  const text = body.text ?? '';
  const length = postLength(text);
  if (length > MAX_POST_LENGTH) {
    throw bad('text', [], `The \`text\` body field is ${length} characters long; posts may be at most ${MAX_POST_LENGTH} characters`);
  }
  if (text.trim().length === 0 && !body.media) {
    throw bad('text', [], 'The `text` body field is missing or empty: a post needs text, media, or both');
  }
  if (body.poll && body.media) throw bad('poll', [], 'A post cannot carry both a `poll` and `media`');
  if (body.poll && body.quote_post_id) throw bad('poll', [], 'A post cannot carry both a `poll` and a `quote_post_id`');
  if (body.poll) {
    const labels = body.poll.options.map((o) => o.trim().toLowerCase());
    const repeated = labels.find((l, i) => labels.indexOf(l) !== i);
    if (labels.some((l) => l.length === 0)) throw bad('poll.options', [], 'The `poll.options` must not be blank');
    if (repeated !== undefined) throw bad('poll.options', [repeated], `The \`poll.options\` list holds [${repeated}] twice`);
  }
  const placeId = body.geo?.place_id;
  if (placeId !== undefined && !placeById(placeId)) throw bad('geo.place_id', [placeId], `The \`geo.place_id\` body field value [${placeId}] is not a known place`);
  if (body.direct_message_deep_link !== undefined) checkDmDeepLink(body.direct_message_deep_link);
  if (body.card_uri !== undefined && cardIdOf(body.card_uri) === undefined) {
    throw bad('card_uri', [body.card_uri], `The \`card_uri\` body field value [${body.card_uri}] is not a card URI (card://<card id>)`);
  }
  if (body.card_uri !== undefined && (body.media || body.poll)) throw bad('card_uri', [body.card_uri], 'A post carries a `card_uri`, `media` or a `poll`, not several');
  if (body.share_with_followers !== undefined && body.community_id === undefined) {
    throw bad('share_with_followers', [String(body.share_with_followers)], 'The `share_with_followers` body field needs a `community_id`: it shares a community post with your followers');
  }
  if (body.edit_options) {
    const fixed = (['reply', 'quote_post_id', 'poll', 'community_id', 'share_with_followers', 'reply_settings'] as const).filter((k) => body[k] !== undefined);
    if (fixed.length > 0) {
      throw bad(fixed[0], [], `An edit keeps the post's ${fixed.join(', ')}: send only text, media and paid_partnership with \`edit_options\``);
    }
  }
}

/** A post referenced by a reply or quote: visible to the caller, its author not blocking them; a repost stands for its source. */
async function referencedPost(ctx: PlatformContext, db: DbOrTx, caller: UserCaller, id: string, parameter: string): Promise<PostRow> {
  let post = await requireVisiblePost(ctx, db, viewOf(ctx.clock, caller), id, parameter);
  if (post.reposted_post_id) post = await requireVisiblePost(ctx, db, viewOf(ctx.clock, caller), post.reposted_post_id, parameter);
  if (await isBlocking(db, post.author_id, caller.user.id)) {
    throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', `The author of post ${post.id} has blocked you.`));
  }
  return post;
}

async function checkTaggedUsers(db: DbOrTx, ids: readonly string[] | undefined): Promise<void> {
  if (!ids?.length) return;
  const found = new Set((await findUsersByIds(db, ids)).map((u) => u.id));
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw bad('media.tagged_user_ids', [missing], `The \`media.tagged_user_ids\` value [${missing}] is not a user`);
}

/**
 * POST /2/posts: a new post, reply, quote, poll or community post, or with edit_options a new
 * version of the caller's post. One transaction: every check reads inside it, and a refusal
 * leaves the store as it was.
 */
export async function createPost(ctx: PlatformContext, caller: UserCaller, body: CreatePostBody): Promise<CreatedPost> {
  requireWriteAccess(caller);
  checkShape(body);
  checkLongPostAllowed(caller, body.text ?? '');
  if (body.for_super_followers_only === true) {
    // Exclusive posts are for creators with Super Follows, which Plaza's accounts do not have.
    throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', `@${caller.user.username} does not have Super Follows: for_super_followers_only posts cannot be created.`));
  }
  if (body.edit_options) return editPost(ctx, caller, body, body.edit_options.previous_post_id);
  const text = body.text ?? '';
  const mentions = (parseEntities(text).mentions ?? []).map((m) => m.username);
  return ctx.store.db.transaction().execute(async (tx) => {
    const replyTo = body.reply ? await referencedPost(ctx, tx, caller, body.reply.in_reply_to_post_id, 'reply.in_reply_to_post_id') : undefined;
    const quoteOf = body.quote_post_id ? await referencedPost(ctx, tx, caller, body.quote_post_id, 'quote_post_id') : undefined;
    if (replyTo) {
      await checkReplySettings(tx, caller, replyTo);
      await checkReplySummoned(ctx, tx, caller, replyTo);
    }
    if (quoteOf) await checkQuoteSummoned(ctx, tx, caller, quoteOf);
    await checkMentionsSummoned(ctx, tx, caller, mentions, replyTo);
    await checkNotDuplicate(ctx, tx, caller, text, replyTo, quoteOf);

    // A reply to a community post stays in the community, so only members can reply.
    const communityId = replyTo?.community_id ?? body.community_id;
    if (replyTo?.community_id && body.community_id !== undefined && body.community_id !== replyTo.community_id) {
      throw bad('community_id', [body.community_id], `The \`community_id\` body field must be ${replyTo.community_id}, the community of the post you reply to`);
    }
    if (communityId) await requireCommunityMember(tx, communityId, caller.user.id);

    const media = body.media ? await attachableMedia(ctx, tx, caller, body.media.media_ids) : [];
    await checkTaggedUsers(tx, body.media?.tagged_user_ids);
    const card = body.card_uri === undefined ? undefined : await attachableCard(tx, caller, body.card_uri);

    const id = ctx.ids.next();
    const now = ctx.clock.now();
    const pollIds: string[] = [];
    if (body.poll) {
      const poll = await insertPoll(tx, { id: ctx.ids.next(), postId: id, labels: body.poll.options, durationMinutes: body.poll.duration_minutes, createdAt: now });
      pollIds.push(poll.id);
    }
    const row = newPostRow(id, {
      authorId: caller.user.id,
      text,
      createdAt: now,
      replyTo,
      quoteOf,
      mediaKeys: media.map((m) => m.media_key),
      pollIds,
      source: caller.app.name,
      paidPartnership: body.paid_partnership,
      communityId,
      shareWithFollowers: body.share_with_followers,
      replySettings: body.reply_settings ?? body.poll?.reply_settings,
      placeId: body.geo?.place_id,
      nullcast: body.nullcast,
      madeWithAi: body.made_with_ai,
      dmDeepLink: body.direct_message_deep_link,
    });
    await recordPost(ctx, tx, row);
    if (card) await attachCard(tx, id, card, now);
    return { id, text, edit_history_post_ids: [id] };
  });
}

/**
 * Rule 2: a new version of the caller's post. It joins the chain's edit_history_post_ids (every
 * version is updated, so a lookup of any id shows the whole chain), takes one edit off
 * edits_remaining, and supersedes the version it edits; the old ids stay readable.
 */
async function editPost(ctx: PlatformContext, caller: UserCaller, body: CreatePostBody, previousId: string): Promise<CreatedPost> {
  const text = body.text ?? '';
  const mentions = (parseEntities(text).mentions ?? []).map((m) => m.username);
  return ctx.store.db.transaction().execute(async (tx) => {
    const [found] = await findPostsByIds(tx, [previousId]);
    const previous = checkEditable(ctx, caller, previousId, found);
    const [replyTo] = previous.in_reply_to_post_id ? await findPostsByIds(tx, [previous.in_reply_to_post_id]) : [];
    await checkMentionsSummoned(ctx, tx, caller, mentions, replyTo);
    const media = body.media ? await attachableMedia(ctx, tx, caller, body.media.media_ids) : [];
    await checkTaggedUsers(tx, body.media?.tagged_user_ids);

    const id = ctx.ids.next();
    const row = editedPostRow(id, previous, {
      text,
      createdAt: ctx.clock.now(),
      mediaKeys: media.map((m) => m.media_key),
      paidPartnership: body.paid_partnership ?? previous.paid_partnership === 1,
      source: caller.app.name,
    });
    // Two edits of one version at once: the first wins, the second is told to edit the latest.
    if (!(await supersede(tx, previous.id, id))) {
      throw bad('edit_options.previous_post_id', [previousId], `The post [${previousId}] has been edited since; edit its latest version`);
    }
    await recordPost(ctx, tx, row, { edit: true });
    await updateChain(tx, editHistoryOf(previous), row.edit_history_post_ids, row.edit_controls);
    return { id, text, edit_history_post_ids: editHistoryOf(row) };
  });
}

/** direct_message_deep_link: a link that opens a direct message, as the public platform forms it. */
function checkDmDeepLink(link: string): void {
  let url: URL | undefined;
  try {
    url = new URL(link);
  } catch {
    url = undefined;
  }
  const ok = url !== undefined && url.protocol === 'https:' && /^(www\.)?(twitter|x)\.com$/.test(url.hostname) && url.pathname === '/messages/compose' && /^[0-9]{1,19}$/.test(url.searchParams.get('recipient_id') ?? '');
  if (!ok) {
    throw bad('direct_message_deep_link', [link], 'The `direct_message_deep_link` body field must be a link such as https://x.com/messages/compose?recipient_id=<user id>');
  }
}

/**
 * card_uri: a live card made through the advertising interface, on an ads account of the author
 * (its own, or one that granted the author access). The post is then that card's post, as a post
 * made through the advertising interface with a card is (ads_posts), and its card_uri field says so.
 */
/** The ads account permissions that let a user post for the account. */
const COMPOSING = new Set(['ACCOUNT_ADMIN', 'AD_MANAGER', 'CREATIVE_MANAGER', 'TWEET_COMPOSER']);

async function attachableCard(tx: DbOrTx, caller: UserCaller, uri: string): Promise<{ uri: string; accountId: string }> {
  const cardId = cardIdOf(uri)!;
  const card = await tx
    .selectFrom('ads_cards as c')
    .innerJoin('ads_account_users as u', 'u.account_id', 'c.account_id')
    .select(['c.account_id', 'u.permissions'])
    .where('c.id', '=', cardId)
    .where('c.deleted', '=', 0)
    .where('u.user_id', '=', caller.user.id)
    .executeTakeFirst();
  const permissions = card ? (JSON.parse(card.permissions) as string[]) : [];
  if (!card || !permissions.some((p) => COMPOSING.has(p))) {
    throw bad('card_uri', [uri], `The \`card_uri\` body field value [${uri}] is not a card of an advertising account you may post for`);
  }
  return { uri, accountId: card.account_id };
}

async function attachCard(tx: DbOrTx, postId: string, card: { uri: string; accountId: string }, now: Date): Promise<void> {
  const at = now.toISOString();
  await tx
    .insertInto('ads_posts')
    .values({ post_id: postId, account_id: card.accountId, name: null, card_uri: card.uri, video_cta: null, video_cta_value: null, video_title: null, video_description: null, created_at: at, updated_at: at })
    .execute();
}
