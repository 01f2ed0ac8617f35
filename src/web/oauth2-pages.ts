import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { approveAuthorizeRequest, checkAuthorizeRequest, denialRedirect, type AuthorizeRequest } from '../auth/flows/oauth2-flow.js';
import { bodyParam, queryParam } from '../auth/flows/request.js';
import { OAUTH2_SCOPES, scopeName } from '../auth/flows/scopes.js';
import type { UserRow } from '../auth/store.js';
import type { PlatformContext } from '../platform/context.js';
import { checkCredentials } from './accounts.js';
import { html } from './html.js';
import { credentialFields, errorSummary, hidden, page } from './layout.js';
import { csrfToken, PageError, sendHtml } from './respond.js';
import { startSession } from './sessions.js';

/**
 * The OAuth 2.0 authorize page (shared/reference/platform.md §4): GET shows who asks for what
 * (the scopes, in the names the app used), with the sign-in fields when needed; the form posts
 * back to the same address, which redirects to the app with `code` and `state`, or `error`.
 */

const FORWARDED = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;

function consentPage(o: { path: string; request: AuthorizeRequest; csrf: string; user?: UserRow; username?: string; error?: string }) {
  const r = o.request;
  const fields = {
    response_type: 'code',
    client_id: r.app.client_id,
    redirect_uri: r.redirectUri,
    scope: r.scopeParam,
    state: r.state,
    code_challenge: r.codeChallenge,
    code_challenge_method: r.codeChallengeMethod,
  };
  return page({
    title: `${r.app.name} wants to access your Plaza account`,
    user: o.user,
    csrf: o.csrf,
    body: html`${errorSummary(o.error ? [o.error] : [])}
<div class="app-card"><p><strong>${r.app.name}</strong> is asking for these permissions. It will be able to:</p>
<ul class="scopes">${r.scopes.map((s) => html`<li>${OAUTH2_SCOPES[s]} <code>${scopeName(s, r.dialect)}</code></li>`)}</ul></div>
<p>After you decide, Plaza sends you back to <strong>${new URL(r.redirectUri).host || r.redirectUri}</strong>.</p>
<form method="post" action="${o.path}" novalidate>
${hidden('_csrf', o.csrf)}${FORWARDED.map((name) => hidden(name, fields[name]))}
${
  o.user
    ? html`<p>You are signed in as <strong>@${o.user.username}</strong>.</p>`
    : html`<fieldset><legend>Sign in to Plaza</legend>${credentialFields({ username: o.username, error: o.error, autofocus: true })}</fieldset>`
}
<div class="actions">
<button type="submit" name="decision" value="allow">${o.user ? 'Authorize app' : 'Sign in and authorize app'}</button>
<button type="submit" name="decision" value="deny" class="secondary" formnovalidate>Cancel</button>
</div>
</form>`,
  });
}

export async function oauth2Pages(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  const config = { webRateLimit: 'oauth2/authorize' };

  const checked = async (reply: FastifyReply, input: (name: string) => string | undefined): Promise<AuthorizeRequest | undefined> => {
    const check = await checkAuthorizeRequest(ctx, input);
    if (check.ok) return check.request;
    if ('page' in check) throw new PageError(400, 'This authorization request is not valid', check.page);
    reply.redirect(check.redirect, 302);
    return undefined;
  };

  const show = async (request: FastifyRequest, reply: FastifyReply) => {
    const authorize = await checked(reply, (name) => queryParam(request, name));
    if (!authorize) return reply;
    return sendHtml(reply, 200, consentPage({ path: request.url.split('?')[0], request: authorize, csrf: csrfToken(reply), user: request.web?.user }));
  };

  const decide = async (request: FastifyRequest, reply: FastifyReply) => {
    const authorize = await checked(reply, (name) => bodyParam(request, name));
    if (!authorize) return reply;
    const decision = bodyParam(request, 'decision');
    if (decision === 'deny') return reply.redirect(denialRedirect(authorize), 302);
    if (decision !== 'allow') throw new PageError(400, 'Choose to authorize or cancel', 'The form was sent without a decision. Go back and press Authorize app or Cancel.');
    let user = request.web?.user;
    if (!user) {
      const username = bodyParam(request, 'username') ?? '';
      const found = await checkCredentials(ctx, username, bodyParam(request, 'password') ?? '');
      if (!found) {
        const path = request.url.split('?')[0];
        return sendHtml(reply, 401, consentPage({ path, request: authorize, csrf: csrfToken(reply), username, error: 'The username or password is wrong.' }));
      }
      user = (await startSession(ctx, request, reply, found)).user;
    }
    return reply.redirect(await approveAuthorizeRequest(ctx, authorize, user.id), 302);
  };

  // The public platform's authorize page is /i/oauth2/authorize; its API description names /2/oauth2/authorize.
  for (const path of ['/i/oauth2/authorize', '/2/oauth2/authorize']) {
    app.get(path, { schema: { hide: true }, config }, show);
    app.post(path, { schema: { hide: true }, config, preHandler: app.csrfProtection }, decide);
  }
}
