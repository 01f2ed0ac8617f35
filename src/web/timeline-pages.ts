import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { followAs, likeAs, personCaller, postAs } from '../admin/person.js';
import { bodyParam, queryParam } from '../auth/flows/request.js';
import type { UserRow } from '../auth/store.js';
import type { PlatformContext } from '../platform/context.js';
import { ProblemError, type Problem } from '../http/problems.js';
import { parseSelection } from '../platform/expansions.js';
import { parseTimePage } from '../platform/graph/query.js';
import { ALL_TIME } from '../platform/timelines/store.js';
import { likesOf } from '../platform/likes/store.js';
import { MAX_POST_LENGTH } from '../platform/posts/rules.js';
import { lookupPosts, postExpansions } from '../platform/posts/service.js';
import { homeTimeline } from '../platform/timelines/service.js';
import { viewOf } from '../platform/view.js';
import { html, type Html } from './html.js';
import { errorSummary, hidden, notice, page } from './layout.js';
import { csrfToken, PageError, sendHtml } from './respond.js';

/**
 * The home timeline of a signed-in person (/home) with a composer: post, reply, quote, like and
 * follow. Every action goes through the platform's services as the platform's own client for its
 * signed-in user (src/admin/person.ts, the admin interface's "act as a person"), so the content
 * rules and the events (webhooks, streams) are those of the public interfaces.
 */

/** What the timeline shows of each post, read through the same pipeline as GET /2/users/{id}/timelines/reverse_chronological. */
const TIMELINE_SELECTION = {
  'post.fields': 'created_at,author_id,public_metrics,referenced_posts,in_reply_to_user_id',
  'user.fields': 'name,username',
  expansions: 'author_id,referenced_posts.id,referenced_posts.id.author_id,in_reply_to_user_id',
};
const PAGE_RANGE = { min: 1, max: 100, default: 20 };
const SUGGESTIONS = 5;
const ID = /^[0-9]{1,19}$/;

interface WirePost {
  id: string;
  text: string;
  author_id?: string;
  created_at?: string;
  in_reply_to_user_id?: string;
  referenced_posts?: Array<{ type: string; id: string }>;
  public_metrics?: { like_count?: number; reply_count?: number; repost_count?: number; retweet_count?: number; quote_count?: number };
}
interface WireUser {
  id: string;
  name: string;
  username: string;
}

const plain = (item: unknown): any => JSON.parse(JSON.stringify(item));

/** The messages a problem carries for a person: each invalid parameter's message, or its detail. */
export function problemMessages(problem: Problem): string[] {
  const errors = (problem.errors as Array<{ message?: string }> | undefined)?.map((e) => e.message).filter((m): m is string => !!m) ?? [];
  return errors.length > 0 ? errors : [problem.detail ?? problem.title];
}

export const NOTICES: Record<string, string> = {
  posted: 'Your post was sent.',
  replied: 'Your reply was sent.',
  quoted: 'Your quote was sent.',
  liked: 'Post liked.',
  unliked: 'Like removed.',
  followed: 'You follow this account now.',
  requested: 'This account is protected: your request to follow it waits for its approval.',
  unfollowed: 'You no longer follow this account.',
};

interface Composer {
  replyTo?: string;
  quoteOf?: string;
  text?: string;
}

interface Timeline {
  posts: WirePost[];
  users: Map<string, WireUser>;
  referenced: Map<string, WirePost>;
  liked: Set<string>;
  nextToken?: string;
}

async function readTimeline(ctx: PlatformContext, user: UserRow, pageToken: string | undefined): Promise<Timeline> {
  const caller = await personCaller(ctx, user.id);
  const request = {
    selection: parseSelection(TIMELINE_SELECTION, postExpansions),
    page: parseTimePage(pageToken === undefined ? {} : { pagination_token: pageToken }, PAGE_RANGE),
    window: ALL_TIME,
  };
  const result = await homeTimeline(ctx, caller, viewOf(ctx.clock, caller), user.id, request);
  const posts = result.data.map(plain) as WirePost[];
  const users = new Map(((result.includes?.users ?? []).map(plain) as WireUser[]).map((u) => [u.id, u]));
  const referenced = new Map(((result.includes?.posts ?? []).map(plain) as WirePost[]).map((p) => [p.id, p]));
  const liked = posts.length === 0 ? new Set<string>() : new Set((await likesOf(ctx.store.db, user.id, posts.map((p) => p.id))).map((l) => l.post_id));
  return { posts, users, referenced, liked, nextToken: (result.meta as { next_token?: string } | undefined)?.next_token };
}

/** Accounts the person does not follow yet, for the "who to follow" list. */
async function suggestions(ctx: PlatformContext, user: UserRow): Promise<UserRow[]> {
  return ctx.store.db
    .selectFrom('users')
    .selectAll()
    .where('id', '!=', user.id)
    .where('id', 'not in', (eb) => eb.selectFrom('follows').select('target_user_id').where('source_user_id', '=', user.id))
    .orderBy('followers_count', 'desc')
    .orderBy('id')
    .limit(SUGGESTIONS)
    .execute();
}

const when = (iso: string | undefined) => (iso ? html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>` : '');

function byline(t: Timeline, post: WirePost): Html {
  const author = post.author_id ? t.users.get(post.author_id) : undefined;
  return html`<p class="hint"><strong>${author?.name ?? 'Unknown'}</strong> @${author?.username ?? post.author_id ?? '?'} · ${when(post.created_at)}</p>`;
}

function postCard(t: Timeline, post: WirePost, csrf: string): Html {
  const refs = post.referenced_posts ?? [];
  const quoted = refs.find((r) => r.type === 'quoted');
  const repliedTo = refs.find((r) => r.type === 'replied_to');
  const replyUser = post.in_reply_to_user_id ? t.users.get(post.in_reply_to_user_id) : undefined;
  const quotedPost = quoted ? t.referenced.get(quoted.id) : undefined;
  const m = post.public_metrics ?? {};
  const liked = t.liked.has(post.id);
  const label = `post ${post.id}`;
  return html`<article class="app-card post" id="post-${post.id}" aria-label="${label}">
${byline(t, post)}
${repliedTo ? html`<p class="hint">Replying to ${replyUser ? `@${replyUser.username}` : `post ${repliedTo.id}`}</p>` : ''}
<p class="post-text">${post.text}</p>
${
  quoted
    ? html`<blockquote class="quoted">${quotedPost ? html`${byline(t, quotedPost)}<p>${quotedPost.text}</p>` : html`<p class="hint">This post is unavailable.</p>`}</blockquote>`
    : ''
}
<p class="hint">${m.reply_count ?? 0} replies · ${m.repost_count ?? m.retweet_count ?? 0} reposts · ${m.quote_count ?? 0} quotes · ${m.like_count ?? 0} likes</p>
<div class="actions">
<a href="/home?reply_to=${post.id}#composer">Reply<span class="skip"> to ${label}</span></a>
<a href="/home?quote_of=${post.id}#composer">Quote<span class="skip"> ${label}</span></a>
<form method="post" action="/home/likes" class="inline">${hidden('_csrf', csrf)}${hidden('post_id', post.id)}${hidden('like', liked ? 'false' : 'true')}<button type="submit" class="secondary" aria-pressed="${liked ? 'true' : 'false'}">${liked ? 'Unlike' : 'Like'}</button></form>
</div>
</article>`;
}

function composerForm(o: { csrf: string; composer: Composer; target?: WirePost; targetAuthor?: WireUser; errors: boolean }): Html {
  const c = o.composer;
  const verb = c.replyTo ? 'Reply' : c.quoteOf ? 'Quote' : 'Post';
  const about = o.target
    ? html`<div class="app-card"><p class="hint">${c.replyTo ? 'Replying to' : 'Quoting'} @${o.targetAuthor?.username ?? o.target.author_id ?? '?'}</p><p>${o.target.text}</p><p><a href="/home">Cancel</a></p></div>`
    : '';
  return html`<h2 id="composer">${c.replyTo ? 'Write a reply' : c.quoteOf ? 'Quote a post' : 'Write a post'}</h2>
${about}
<form method="post" action="/home/posts" novalidate aria-labelledby="composer">
${hidden('_csrf', o.csrf)}${c.replyTo ? hidden('reply_to', c.replyTo) : ''}${c.quoteOf ? hidden('quote_of', c.quoteOf) : ''}
<div class="field${o.errors ? ' invalid' : ''}">
<label for="f-text">Post text</label>
<p class="hint" id="f-text-hint">Up to ${MAX_POST_LENGTH.toLocaleString('en')} characters. Mention people with @username.</p>
<textarea id="f-text" name="text" aria-describedby="f-text-hint"${o.errors ? html` aria-invalid="true"` : ''}>${c.text ?? ''}</textarea>
</div>
<div class="actions"><button type="submit">${verb}</button></div>
</form>`;
}

export async function timelinePages(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  const config = { webRateLimit: 'home' };

  const signedIn = (request: FastifyRequest, reply: FastifyReply): UserRow | undefined => {
    if (request.web) return request.web.user;
    reply.redirect(`/login?next=${encodeURIComponent(request.method === 'GET' ? request.url : '/home')}`, 303);
    return undefined;
  };

  /** The post a reply or quote is about, read as the person sees it; undefined when it is not visible. */
  const targetOf = async (user: UserRow, id: string): Promise<{ post: WirePost; author?: WireUser } | undefined> => {
    if (!ID.test(id)) return undefined;
    const caller = await personCaller(ctx, user.id);
    const found = await lookupPosts(ctx, viewOf(ctx.clock, caller), [id], 'id', parseSelection(TIMELINE_SELECTION, postExpansions));
    if (found.data.length === 0) return undefined;
    const post = plain(found.data[0]) as WirePost;
    const author = ((found.includes?.users ?? []).map(plain) as WireUser[]).find((u) => u.id === post.author_id);
    return { post, author };
  };

  const render = async (
    reply: FastifyReply,
    user: UserRow,
    o: { status?: number; composer?: Composer; errors?: string[]; notice?: string; pageToken?: string },
  ): Promise<FastifyReply> => {
    const csrf = csrfToken(reply);
    const composer = o.composer ?? {};
    const targetId = composer.replyTo ?? composer.quoteOf;
    const target = targetId ? await targetOf(user, targetId) : undefined;
    if (targetId && !target) {
      throw new PageError(404, 'Post not found', 'There is no post with this id that you can see. Go back to your home timeline and choose another one.');
    }
    let timeline: Timeline;
    try {
      timeline = await readTimeline(ctx, user, o.pageToken);
    } catch (err) {
      if (err instanceof ProblemError) throw new PageError(err.status, 'This page of your timeline cannot be shown', problemMessages(err.problem).join(' '));
      throw err;
    }
    const who = await suggestions(ctx, user);
    const errors = o.errors ?? [];
    return sendHtml(
      reply,
      o.status ?? 200,
      page({
        title: 'Home',
        user,
        csrf,
        body: html`${notice(o.notice)}${errorSummary(errors)}
<p><a href="/developer">Developer console</a></p>
${composerForm({ csrf, composer, target: target?.post, targetAuthor: target?.author, errors: errors.length > 0 })}
<h2 id="timeline">Your timeline</h2>
${
  timeline.posts.length === 0
    ? html`<p>No posts yet. Write one, or follow some accounts below.</p>`
    : html`<div class="timeline" aria-labelledby="timeline">${timeline.posts.map((p) => postCard(timeline, p, csrf))}</div>`
}
${timeline.nextToken ? html`<p><a href="/home?page=${encodeURIComponent(timeline.nextToken)}">Older posts</a></p>` : ''}
<h2 id="follow">Follow accounts</h2>
<form method="post" action="/home/follows" novalidate aria-labelledby="follow">
${hidden('_csrf', csrf)}
<div class="field"><label for="f-username">Username to follow</label><input id="f-username" name="username" type="text" autocomplete="off"></div>
<div class="actions"><button type="submit">Follow</button></div>
</form>
${
  who.length === 0
    ? ''
    : html`<h3>Who to follow</h3><ul class="suggestions">${who.map(
        (u) =>
          html`<li><strong>${u.name}</strong> @${u.username} <form method="post" action="/home/follows" class="inline">${hidden('_csrf', csrf)}${hidden('user_id', u.id)}<button type="submit" class="secondary">Follow @${u.username}</button></form></li>`,
      )}</ul>`
}`,
      }),
    );
  };

  /** Runs a person's action; a refusal of the service shows the page again with its messages. */
  const act = async (
    reply: FastifyReply,
    user: UserRow,
    action: () => Promise<string>,
    composer?: Composer,
  ): Promise<FastifyReply> => {
    try {
      const done = await action();
      return reply.redirect(`/home?notice=${done}`, 303);
    } catch (err) {
      if (!(err instanceof ProblemError)) throw err;
      const status = err.status >= 400 && err.status < 500 ? err.status : 400;
      return render(reply, user, { status, composer, errors: problemMessages(err.problem) });
    }
  };

  app.get('/home', { schema: { hide: true }, config }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const replyTo = queryParam(request, 'reply_to');
    const quoteOf = queryParam(request, 'quote_of');
    return render(reply, user, {
      composer: { replyTo: replyTo || undefined, quoteOf: replyTo ? undefined : quoteOf || undefined },
      notice: NOTICES[queryParam(request, 'notice') ?? ''],
      pageToken: queryParam(request, 'page') || undefined,
    });
  });

  app.post('/home/posts', { schema: { hide: true }, config, preHandler: app.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const composer: Composer = {
      text: bodyParam(request, 'text') ?? '',
      replyTo: bodyParam(request, 'reply_to') || undefined,
      quoteOf: bodyParam(request, 'quote_of') || undefined,
    };
    if (composer.replyTo && composer.quoteOf) throw new PageError(400, 'Reply or quote', 'A post can reply to a post or quote one, not both at once here. Go back and choose one.');
    return act(reply, user, async () => {
      await postAs(ctx, user.id, { text: composer.text, reply_to: composer.replyTo, quote_of: composer.quoteOf });
      return composer.replyTo ? 'replied' : composer.quoteOf ? 'quoted' : 'posted';
    }, composer);
  });

  app.post('/home/likes', { schema: { hide: true }, config, preHandler: app.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const postId = bodyParam(request, 'post_id') ?? '';
    const like = bodyParam(request, 'like') !== 'false';
    if (!ID.test(postId)) throw new PageError(400, 'No post to like', 'The form named no post. Go back to your home timeline and use a Like button.');
    return act(reply, user, async () => {
      await likeAs(ctx, user.id, postId, like);
      return like ? 'liked' : 'unliked';
    });
  });

  app.post('/home/follows', { schema: { hide: true }, config, preHandler: app.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const follow = bodyParam(request, 'follow') !== 'false';
    let targetId = bodyParam(request, 'user_id') ?? '';
    const username = (bodyParam(request, 'username') ?? '').trim().replace(/^@/, '');
    if (!targetId) {
      if (!username) return render(reply, user, { status: 400, errors: ['Enter the username of the account to follow.'] });
      const target = await ctx.store.db.selectFrom('users').select('id').where('username_lower', '=', username.toLowerCase()).executeTakeFirst();
      if (!target) return render(reply, user, { status: 404, errors: [`There is no account @${username}.`] });
      targetId = target.id;
    }
    if (!ID.test(targetId)) throw new PageError(400, 'No account to follow', 'The form named no account. Go back to your home timeline and use a Follow button.');
    return act(reply, user, async () => {
      const result = await followAs(ctx, user.id, targetId, follow);
      return !follow ? 'unfollowed' : result.following ? 'followed' : 'requested';
    });
  });
}
