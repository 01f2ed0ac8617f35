import { sql } from 'kysely';
import type { Caller, UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { invalidParameter } from '../../http/params.js';
import { ProblemError, problems } from '../../http/problems.js';
import type { Tier } from '../../store/schema.js';
import type { DbOrTx } from '../../store/store.js';
import { summoningWayOut, tierWayOut } from '../../seed/way-out.js';
import { REGISTRATION_URL } from '../graph/tiers.js';
import { followedAmong, findUsersByUsernames } from '../users/store.js';
import { EDIT_WINDOW_MS, editControlsOf, isEditEligible, withinEditWindow } from './edit-window.js';
import { hasSummoned } from './store.js';
import { SHORT_POST_WEIGHT, shownText } from './shown-text.js';
import { mentionedUsernames, type PostRow } from './wire.js';

/**
 * The rules of spec 000 "Post creation and editing rules" and the release history's removals,
 * each in one place. Dated entries follow the injected clock, so a store whose clock reads an
 * earlier day behaves as the platform did then.
 */
const SELF_SERVE: readonly Tier[] = ['free', 'basic', 'pro', 'pay-per-use'];
/** Feb 23, 2026: "reply restrictions against automated replies" (rule 1 and its restrictions of mentions and quotes). */
export const SUMMONED_ONLY_FROM = '2026-02-23';
/** Apr 20, 2026: "likes, follows and quote-posts removed from self-serve tiers". */
export const QUOTE_POSTS_REMOVED_FROM = '2026-04-20';

/** rule 3: long-form posts up to 25,000 characters (the former limit was 4,000). */
export const MAX_POST_LENGTH = 25_000;

/** The public platform's wording of this refusal (observed on the wire in 2026), which clients match on. */
export const NOT_SUMMONED = 'You can only reply to or quote posts where you are mentioned or are the author.';

const today = (ctx: PlatformContext) => ctx.clock.now().toISOString().slice(0, 10);

/** Rule 1 binds self-serve apps (free, basic, pro, pay-per-use) from Feb 23, 2026; enterprise is exempt. */
export function summonedOnly(ctx: PlatformContext, caller: Caller): boolean {
  return SELF_SERVE.includes(caller.app.tier) && today(ctx) >= SUMMONED_ONLY_FROM;
}

/** Whether the author of `post` summoned the caller: the caller wrote it, is mentioned in it, or wrote the post it quotes. */
async function summonedBy(db: DbOrTx, post: PostRow, caller: UserCaller): Promise<boolean> {
  if (post.author_id === caller.user.id) return true;
  const username = caller.user.username.toLowerCase();
  if (mentionedUsernames(post).some((u) => u.toLowerCase() === username)) return true;
  if (!post.quoted_post_id) return false;
  const quoted = await db.selectFrom('posts').select('author_id').where('id', '=', post.quoted_post_id).executeTakeFirst();
  return quoted?.author_id === caller.user.id;
}

function notSummoned(ctx: PlatformContext, post: PostRow, parameter: string): ProblemError {
  const problem = problems.notAuthorizedForResource({ value: post.id, resource_id: post.id, resource_type: 'post', section: 'data', parameter });
  return new ProblemError(403, { ...problem, detail: `${NOT_SUMMONED}${summoningWayOut(ctx)}` });
}

/**
 * Rule 1: on self-serve tiers a programmatic reply is permitted only when the original post's
 * author summoned the replier, by mentioning the replying account or quoting one of its posts.
 * Replying to one's own post (a thread) is always allowed: the author summoned themselves.
 */
export async function checkReplySummoned(ctx: PlatformContext, db: DbOrTx, caller: UserCaller, target: PostRow): Promise<void> {
  if (summonedOnly(ctx, caller) && !(await summonedBy(db, target, caller))) throw notSummoned(ctx, target, 'reply.in_reply_to_post_id');
}

/** Rule 1's "further restrictions" of quotes: a self-serve app may quote only posts whose author summoned it (the same test as replies). */
export async function checkQuoteSummoned(ctx: PlatformContext, db: DbOrTx, caller: UserCaller, quoted: PostRow): Promise<void> {
  if (summonedOnly(ctx, caller) && !(await summonedBy(db, quoted, caller))) throw notSummoned(ctx, quoted, 'quote_post_id');
}

/**
 * Rule 1's "further restrictions" of mentions, the same way: a self-serve app may @mention an
 * account only when that account summoned the caller, with a live post that mentions it or
 * quotes one of its posts. A permitted reply may also name the people of the post it answers
 * (its author and those it mentions). Mentions of oneself and of names no account holds are
 * not restricted.
 */
export async function checkMentionsSummoned(ctx: PlatformContext, db: DbOrTx, caller: UserCaller, usernames: readonly string[], replyTo?: PostRow): Promise<void> {
  if (!summonedOnly(ctx, caller) || usernames.length === 0) return;
  const conversation = new Set(replyTo ? [replyTo.author_id] : []);
  const addressed = new Set((replyTo ? mentionedUsernames(replyTo) : []).map((u) => u.toLowerCase()));
  const users = await findUsersByUsernames(db, [...new Set(usernames.map((u) => u.toLowerCase()))]);
  for (const user of users) {
    if (user.id === caller.user.id || conversation.has(user.id) || addressed.has(user.username_lower)) continue;
    if (await hasSummoned(db, ctx.store.dialect, user.id, caller.user.id, caller.user.username)) continue;
    const problem = problems.notAuthorizedForResource({ value: user.username, resource_id: user.id, resource_type: 'user', section: 'data', parameter: 'text' });
    throw new ProblemError(403, {
      ...problem,
      detail: `You can only mention accounts that have mentioned you or quoted one of your posts; @${user.username} has not.${summoningWayOut(ctx)}`,
    });
  }
}

/**
 * The public platform's reply_settings: who may reply besides the author. "subscribers" names
 * paying subscribers of the author, which Plaza does not model, so only the author may reply.
 */
export async function checkReplySettings(db: DbOrTx, caller: UserCaller, target: PostRow): Promise<void> {
  if (target.reply_settings === 'everyone' || target.author_id === caller.user.id) return;
  const username = caller.user.username.toLowerCase();
  const allowed =
    target.reply_settings === 'following'
      ? (await followedAmong(db, target.author_id, [caller.user.id])).has(caller.user.id)
      : target.reply_settings === 'mentionedUsers'
        ? mentionedUsernames(target).some((u) => u.toLowerCase() === username)
        : target.reply_settings === 'verified'
          ? caller.user.verified === 1
          : false;
  if (allowed) return;
  const labels: Record<string, string> = { following: 'accounts they follow', mentionedUsers: 'accounts the post mentions', verified: 'verified accounts', subscribers: 'their subscribers' };
  const problem = problems.notAuthorizedForResource({ value: target.id, resource_id: target.id, resource_type: 'post', section: 'data', parameter: 'reply.in_reply_to_post_id' });
  throw new ProblemError(403, { ...problem, detail: `Reply to this conversation is not allowed: its author limited replies to ${labels[target.reply_settings] ?? target.reply_settings}.` });
}

/**
 * Rule 2: editing uses edit_options.previous_post_id; the caller needs a paid subscription, the
 * post must be the caller's own, and at most one hour old (the window runs from the first
 * version). Each violation has its own answer. Returns the version being edited.
 */
export function checkEditable(ctx: PlatformContext, caller: UserCaller, previousId: string, previous: PostRow | undefined): PostRow {
  const parameter = 'edit_options.previous_post_id';
  if (!previous) {
    throw new ProblemError(404, problems.resourceNotFound({ parameter, value: previousId, resource_id: previousId, resource_type: 'post' }));
  }
  if (previous.author_id !== caller.user.id) {
    const problem = problems.notAuthorizedForResource({ value: previousId, resource_id: previousId, resource_type: 'post', section: 'data', parameter });
    throw new ProblemError(403, { ...problem, detail: `You can only edit your own posts; post ${previousId} belongs to another account.` });
  }
  if (caller.user.subscription_type === 'None') {
    throw new ProblemError(
      403,
      problems.aboutBlank(403, 'Forbidden', `Editing posts needs a paid subscription (Basic, Premium or PremiumPlus); @${caller.user.username} has none.`),
    );
  }
  if (previous.superseded_by_id) {
    throw invalidParameter(parameter, [previousId], `The post [${previousId}] has been edited since; edit its latest version [${previous.superseded_by_id}]`);
  }
  if (!isEditEligible(previous)) {
    const why = previous.reposted_post_id ? 'is a repost; reposts cannot be edited' : 'has a poll; posts with polls cannot be edited';
    throw invalidParameter(parameter, [previousId], `The post [${previousId}] ${why}`);
  }
  const controls = editControlsOf(previous);
  if (!withinEditWindow(controls, ctx.clock.now())) {
    const firstVersion = new Date(Date.parse(controls.editable_until) - EDIT_WINDOW_MS);
    throw new ProblemError(
      403,
      problems.aboutBlank(403, 'Forbidden', `The post [${previousId}] can no longer be edited: posts can be edited for one hour after posting (posted ${firstVersion.toISOString()}, editable until ${controls.editable_until}).`),
    );
  }
  if (controls.edits_remaining <= 0) {
    throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', `The post [${previousId}] has no edits remaining.`));
  }
  return previous;
}

/**
 * Apr 20, 2026: quote-posts removed from self-serve tiers. The docs' "Quote Posts" endpoint
 * group is the lookup GET /2/posts/{id}/quote_posts; creating a quote stays possible under
 * rule 1 (the platform's July 2026 refusal still lets self-serve apps quote posts they were
 * summoned to), so the removal applies to the lookup. Enterprise keeps it.
 */
export function checkQuotePostsLookup(ctx: PlatformContext, caller: Caller): void {
  if (!SELF_SERVE.includes(caller.app.tier) || today(ctx) < QUOTE_POSTS_REMOVED_FROM) return;
  const problem = problems.clientForbidden({
    reason: 'client-not-enrolled',
    registration_url: REGISTRATION_URL,
    detail: `The quote posts lookup (GET /2/posts/:id/quote_posts) is not available to apps on the ${caller.app.tier} tier since ${QUOTE_POSTS_REMOVED_FROM}. Use an app on the enterprise tier.${tierWayOut(ctx, ['enterprise'])}`,
  });
  throw new ProblemError(403, { ...problem, client_id: caller.app.id, required_enrollment: 'Appropriate Level of API Access' });
}

/** How far back a post's text is compared with its author's earlier posts (the public platform does not publish its window). */
export const DUPLICATE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The public platform's wording of this refusal (observed on the wire), which clients match on. */
export const DUPLICATE_CONTENT = 'You are not allowed to create a Tweet with duplicate content.';

/**
 * The public platform refuses a post whose text repeats one of its author's recent posts (403,
 * about:blank, "duplicate content"). Plaza compares the exact text with the author's live posts
 * of the last 24 hours in the same place: the same post replied to and the same post quoted (a
 * reply of the same words in another conversation is another post). Reposts and text-less
 * (media-only) posts are not compared.
 */
export async function checkNotDuplicate(ctx: PlatformContext, db: DbOrTx, caller: UserCaller, text: string, replyTo?: PostRow, quoteOf?: PostRow): Promise<void> {
  if (text.trim() === '') return;
  const since = new Date(ctx.clock.now().getTime() - DUPLICATE_WINDOW_MS).toISOString();
  const same = await sameTextQuery(db, caller.user.id, since, text, replyTo?.id, quoteOf?.id).executeTakeFirst();
  if (same) throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', DUPLICATE_CONTENT));
}

/**
 * The author's comparable posts since `since` with this text. It states the start of the text as
 * the index posts_same_text (migration 0045) does, so that it reads only the posts that begin
 * alike, not every post of the author's day (a bot's thousands).
 */
export function sameTextQuery(db: DbOrTx, authorId: string, since: string, text: string, replyToId?: string, quoteOfId?: string) {
  return db
    .selectFrom('posts')
    .select('id')
    .where('author_id', '=', authorId)
    .where(sql<string>`substr(text, 1, 64)`, '=', sql<string>`substr(${text}, 1, 64)`)
    .where('created_at', '>=', since)
    .where('text', '=', text)
    .where('deleted_at', 'is', null)
    .where('reposted_post_id', 'is', null)
    .where('in_reply_to_post_id', replyToId ? '=' : 'is', replyToId ?? null)
    .where('quoted_post_id', quoteOfId ? '=' : 'is', quoteOfId ?? null);
}

/**
 * Issue 34: only subscribers (subscription_type other than None) post over 280 weighted
 * characters, as on the public platform; the 25,000-character limit (rule 3) holds for them.
 */
export function checkLongPostAllowed(caller: UserCaller, text: string): void {
  if (caller.user.subscription_type !== 'None' || shownText(text) === text) return;
  throw new ProblemError(
    403,
    problems.aboutBlank(403, 'Forbidden', `Posts longer than ${SHORT_POST_WEIGHT} characters need a paid subscription (Basic, Premium or PremiumPlus); @${caller.user.username} has none.`),
  );
}

/** Rule 3 counts characters as Unicode code points. */
export function postLength(text: string): number {
  return [...text].length;
}
