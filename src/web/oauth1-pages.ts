import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  alreadyGranted,
  approveRequestToken,
  denyAuthorization,
  pendingAuthorization,
  type Approval,
  type PendingAuthorization,
} from '../auth/flows/oauth1-flow.js';
import { bodyParam, queryParam } from '../auth/flows/request.js';
import { ACCESS_LEVEL_TEXT } from '../auth/flows/scopes.js';
import { tierRefuses } from '../platform/graph/tiers.js';
import { SUMMONED_ONLY_FROM } from '../platform/posts/rules.js';
import type { AccessLevel, Tier } from '../store/schema.js';
import type { UserRow } from '../auth/store.js';
import type { PlatformContext } from '../platform/context.js';
import { checkCredentials } from './accounts.js';
import { html } from './html.js';
import { credentialFields, errorSummary, hidden, page } from './layout.js';
import { csrfToken, isTrue, PageError, sendHtml } from './respond.js';
import { startSession } from './sessions.js';

/**
 * Step 2 of the OAuth 1.0a flow (spec 000 "OAuth 1.0a three-legged flow"): GET /oauth/authorize
 * and GET /oauth/authenticate show the consent page (with the sign-in fields when needed); its
 * form posts to POST /oauth/authorize.
 */

type Mode = 'authorize' | 'authenticate';

const expired = () =>
  new PageError(400, 'This authorization request is no longer valid', 'The request token is unknown, expired or already used. Go back to the app and start signing in again.');

async function pendingOrFail(ctx: PlatformContext, token: string | undefined): Promise<PendingAuthorization> {
  if (!token) throw new PageError(400, 'This authorization request is incomplete', 'The oauth_token parameter is missing: the app sent you here with an incomplete link.');
  const pending = await pendingAuthorization(ctx, token);
  if (!pending) throw expired();
  return pending;
}

interface ConsentOptions {
  mode: Mode;
  pending: PendingAuthorization;
  csrf: string;
  /** The signed-in person, unless the page must ask for credentials anyway. */
  user?: UserRow;
  /** The signed-in person, for the page's header. */
  sessionUser?: UserRow;
  forceLogin: boolean;
  username?: string;
  error?: string;
  /** The address of this page, for "use another account". */
  selfUrl: string;
  /** The clock's now: which tier rules apply (they follow the release history). */
  now: Date;
}

const WRITE_LINE = 'Post, repost, like, follow and unfollow for you; update your profile.';

/**
 * What the consent page promises, by access level and by what the app's tier allows at `now`: a
 * self-serve app that lost likes and follows (release history, Apr 20, 2026) is not said to have
 * them, and the summoning rule's limit on replies and mentions is said. Returns what the app
 * will and will not be able to do.
 */
export function consentPermissions(level: AccessLevel, tier: Tier, now: Date): { can: string[]; cannot: string[] } {
  const can = ACCESS_LEVEL_TEXT[level].filter((t) => t !== WRITE_LINE);
  const cannot = ['See your password.'];
  if (level !== 'read') {
    const likes = !tierRefuses('manageLikes', tier, now);
    const follows = !tierRefuses('manageFollows', tier, now) && !tierRefuses('follows', tier, now);
    const acts = ['post', 'repost', ...(likes ? ['like'] : []), ...(follows ? ['follow and unfollow'] : [])];
    can.splice(2, 0, `${acts.slice(0, -1).join(', ')}${acts.length > 1 ? ' and ' : ''}${acts.at(-1)} for you; update your profile.`.replace(/^./, (c) => c.toUpperCase()));
    const summoned = tier !== 'enterprise' && now.toISOString().slice(0, 10) >= SUMMONED_ONLY_FROM;
    if (summoned) can.splice(3, 0, 'Reply to, quote or mention other accounts only where they mentioned you or quoted your posts first.');
    const lost = [...(likes ? [] : ['like posts']), ...(follows ? [] : ['follow or unfollow accounts'])];
    if (lost.length > 0) cannot.push(`${lost.join(' or ').replace(/^./, (c) => c.toUpperCase())} for you (not available to apps on the ${tier} tier).`);
  }
  if (level !== 'read-write-directmessages') cannot.push('Read or send your direct messages.');
  return { can, cannot };
}

function consentPage(o: ConsentOptions) {
  const { app, requestToken } = o.pending;
  const askCredentials = !o.user;
  const other = new URL(o.selfUrl, 'http://plaza.invalid');
  const permissions = consentPermissions(requestToken.access_level, app.tier, o.now);
  other.searchParams.set('force_login', 'true');
  return page({
    title: o.mode === 'authenticate' ? `Sign in to ${app.name} with Plaza` : `Authorize ${app.name} to use your account?`,
    user: o.sessionUser,
    csrf: o.csrf,
    body: html`${errorSummary(o.error ? [o.error] : [])}
<div class="app-card"><p><strong>${app.name}</strong> wants to use your Plaza account.</p></div>
<h2>This app will be able to</h2>
<ul class="permissions">${permissions.can.map((t) => html`<li>${t}</li>`)}</ul>
<h2>It will not be able to</h2>
<ul class="permissions">${permissions.cannot.map((t) => html`<li>${t}</li>`)}</ul>
<form method="post" action="/oauth/authorize" novalidate>
${hidden('_csrf', o.csrf)}${hidden('oauth_token', requestToken.token)}${hidden('force_login', o.forceLogin ? 'true' : 'false')}
${
  askCredentials
    ? html`<fieldset><legend>Sign in to Plaza${o.forceLogin ? ' (required by the app)' : ''}</legend>${credentialFields({ username: o.username, error: o.error, autofocus: true })}</fieldset>`
    : html`<p>You are signed in as <strong>@${o.user!.username}</strong>. <a href="${other.pathname}${other.search}">Use another account</a></p>`
}
<div class="actions">
<button type="submit" name="decision" value="allow">${askCredentials ? 'Sign in and authorize app' : 'Authorize app'}</button>
<button type="submit" name="decision" value="deny" class="secondary" formnovalidate>Cancel</button>
</div>
</form>
<p class="hint">You can revoke this app's access at any time; the app can also invalidate its token itself.</p>`,
  });
}

function pinPage(pending: PendingAuthorization, pin: string, user: UserRow) {
  return page({
    title: `You authorized ${pending.app.name}`,
    user,
    body: html`<p>Go back to <strong>${pending.app.name}</strong> and enter this PIN to finish signing in:</p>
<p class="pin" id="oauth-pin">${pin}</p>
<p class="hint">The PIN works once, for a few minutes.</p>`,
  });
}

export async function oauth1Pages(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  const config = { webRateLimit: 'oauth/authorize' };

  const finish = (reply: FastifyReply, pending: PendingAuthorization, approval: Approval | undefined, user: UserRow) => {
    if (!approval) throw expired();
    if (approval.kind === 'redirect') return reply.redirect(approval.location, 302);
    return sendHtml(reply, 200, pinPage(pending, approval.pin, user));
  };

  const show = (mode: Mode) => async (request: FastifyRequest, reply: FastifyReply) => {
    // Spec 000 rule 1: "oauth_callback is never sent to authorize; it belongs to request_token."
    if (queryParam(request, 'oauth_callback') !== undefined) {
      throw new PageError(
        400,
        'oauth_callback is not accepted here',
        `The app sent oauth_callback to /oauth/${mode}. It belongs to POST /oauth/request_token, where the app names its registered callback URL (or oob).`,
      );
    }
    const pending = await pendingOrFail(ctx, queryParam(request, 'oauth_token'));
    // Spec 000 rule 2: "Desktop applications must use authorize, not authenticate."
    if (mode === 'authenticate' && pending.requestToken.callback === 'oob') {
      throw new PageError(
        400,
        'Use /oauth/authorize for PIN sign-in',
        'This app asked for PIN (out-of-band) mode, which desktop applications use with /oauth/authorize, not /oauth/authenticate.',
      );
    }
    const forceLogin = isTrue(queryParam(request, 'force_login'));
    const user = forceLogin ? undefined : request.web?.user;
    // "When the user already granted access, the redirect occurs without re-approval if the app
    // setting for the sign-in flow is enabled; the logged-in user is used unless force_login is true."
    if (mode === 'authenticate' && user && pending.app.sign_in_enabled === 1 && (await alreadyGranted(ctx, pending, user.id))) {
      return finish(reply, pending, await approveRequestToken(ctx, pending, user), user);
    }
    return sendHtml(
      reply,
      200,
      consentPage({ mode, pending, csrf: csrfToken(reply), user, sessionUser: request.web?.user, forceLogin, username: queryParam(request, 'screen_name'), selfUrl: request.url, now: ctx.clock.now() }),
    );
  };

  app.get('/oauth/authorize', { schema: { hide: true }, config }, show('authorize'));
  app.get('/oauth/authenticate', { schema: { hide: true }, config }, show('authenticate'));

  app.post('/oauth/authorize', { schema: { hide: true }, config, preHandler: app.csrfProtection }, async (request, reply) => {
    const pending = await pendingOrFail(ctx, bodyParam(request, 'oauth_token'));
    const decision = bodyParam(request, 'decision');
    if (decision === 'deny') {
      const location = await denyAuthorization(ctx, pending);
      if (location) return reply.redirect(location, 302);
      return sendHtml(
        reply,
        200,
        page({ title: `You did not authorize ${pending.app.name}`, user: request.web?.user, body: html`<p>${pending.app.name} has no access to your account. You can close this page.</p>` }),
      );
    }
    if (decision !== 'allow') throw new PageError(400, 'Choose to authorize or cancel', 'The form was sent without a decision. Go back and press Authorize app or Cancel.');
    const forceLogin = bodyParam(request, 'force_login') === 'true';
    let user = forceLogin ? undefined : request.web?.user;
    if (!user) {
      const username = bodyParam(request, 'username') ?? '';
      const found = await checkCredentials(ctx, username, bodyParam(request, 'password') ?? '');
      if (!found) {
        return sendHtml(
          reply,
          401,
          consentPage({
            mode: 'authorize',
            pending,
            csrf: csrfToken(reply),
            sessionUser: request.web?.user,
            forceLogin,
            username,
            error: 'The username or password is wrong.',
            selfUrl: `/oauth/authorize?oauth_token=${encodeURIComponent(pending.requestToken.token)}`,
            now: ctx.clock.now(),
          }),
        );
      }
      user = (await startSession(ctx, request, reply, found)).user;
    }
    return finish(reply, pending, await approveRequestToken(ctx, pending, user), user);
  });
}
