import { listWorlds, type WorldListing } from '../worlds/registry.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bodyParam, queryParam } from '../auth/flows/request.js';
import type { AppRow, UserRow } from '../auth/store.js';
import type { PlatformContext } from '../platform/context.js';
import {
  appsOf,
  createApp,
  credentialsOf,
  DIALECTS,
  REGENERABLE,
  regenerate,
  TIERS,
  updateApp,
  validateSettings,
  type AppSettings,
  type Regenerable,
  type SettingsErrors,
} from './console.js';
import { owned as ownedOrNotFound, signedIn as signedInPerson } from './console-access.js';
import { appNav, consolePanels } from './console-panels.js';
import { html, type Html } from './html.js';
import { errorSummary, field, hidden, notice, page } from './layout.js';
import { csrfToken, PageError, sendHtml } from './respond.js';

/**
 * The developer console: a signed-in person creates apps, sees and regenerates their keys and
 * tokens, and sets callback URLs, tier and the "sign in with Plaza" setting.
 */

function settingsFields(values: AppSettings, errors: SettingsErrors): Html {
  const tierId = 'f-tier';
  const cbId = 'f-callback_urls';
  return html`${field({ label: 'App name', name: 'name', value: values.name, required: true, error: errors.name })}
<div class="field${errors.tier ? ' invalid' : ''}">
<label for="${tierId}">Tier</label>
${errors.tier ? html`<p class="error" id="${tierId}-error">${errors.tier}</p>` : ''}
<select id="${tierId}" name="tier"${errors.tier ? html` aria-describedby="${tierId}-error" aria-invalid="true"` : ''}>
${TIERS.map((t) => html`<option value="${t}"${t === values.tier ? html` selected` : ''}>${t}</option>`)}
</select>
</div>
<div class="field${errors.callback_urls ? ' invalid' : ''}">
<label for="${cbId}">Callback URLs</label>
<p class="hint" id="${cbId}-hint">One per line, up to 10. OAuth 1.0a callbacks and OAuth 2.0 redirect URIs must be one of these.</p>
${errors.callback_urls ? html`<p class="error" id="${cbId}-error">${errors.callback_urls}</p>` : ''}
<textarea id="${cbId}" name="callback_urls" aria-describedby="${cbId}-hint${errors.callback_urls ? ` ${cbId}-error` : ''}"${errors.callback_urls ? html` aria-invalid="true"` : ''}>${values.callbackUrls}</textarea>
</div>
<div class="field check">
<input type="checkbox" id="f-sign_in_enabled" name="sign_in_enabled" value="on"${values.signInEnabled ? html` checked` : ''} aria-describedby="f-sign_in_enabled-hint">
<div><label for="f-sign_in_enabled">Allow this app to be used to sign in with Plaza</label>
<p class="hint" id="f-sign_in_enabled-hint">People who already authorized the app go straight back to it from /oauth/authenticate, without approving again.</p></div>
</div>
<div class="field${errors.dialect ? ' invalid' : ''}">
<label for="f-dialect">Names in answers</label>
<p class="hint" id="f-dialect-hint">post: Plaza's names (post_count, /2/posts), and the public platform's to a request that uses them. tweet: the public platform's names (tweet_count, edit_history_tweet_ids) in every answer and delivery, as SDKs written for it expect.</p>
${errors.dialect ? html`<p class="error" id="f-dialect-error">${errors.dialect}</p>` : ''}
<select id="f-dialect" name="dialect" aria-describedby="f-dialect-hint${errors.dialect ? ' f-dialect-error' : ''}"${errors.dialect ? html` aria-invalid="true"` : ''}>
${DIALECTS.map((d) => html`<option value="${d}"${d === values.dialect ? html` selected` : ''}>${d}</option>`)}
</select>
</div>`;
}

function settingsFrom(request: FastifyRequest): AppSettings {
  return {
    name: bodyParam(request, 'name') ?? '',
    tier: bodyParam(request, 'tier') ?? '',
    callbackUrls: bodyParam(request, 'callback_urls') ?? '',
    signInEnabled: bodyParam(request, 'sign_in_enabled') === 'on',
    dialect: bodyParam(request, 'dialect') ?? 'post',
  };
}

function settingsOf(app: AppRow, callbackUrls: string[]): AppSettings {
  return { name: app.name, tier: app.tier, callbackUrls: callbackUrls.join('\n'), signInEnabled: app.sign_in_enabled === 1, dialect: app.dialect };
}

const NOTICES: Record<string, string> = {
  created: 'App created. Its keys and tokens are below.',
  saved: 'Settings saved.',
  ...REGENERABLE,
};

export async function consolePages(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  const config = { webRateLimit: 'developer' };

  const signedIn = signedInPerson;
  const owned = (request: FastifyRequest, user: UserRow) => ownedOrNotFound(ctx, request, user);

  const listPage = (o: { user: UserRow; csrf: string; apps: AppRow[]; worlds: WorldListing[]; values: AppSettings; errors: SettingsErrors }) =>
    page({
      title: 'Developer console',
      user: o.user,
      csrf: o.csrf,
      body: html`<h2>Your apps</h2>
${
  o.apps.length === 0
    ? html`<p>You have no apps yet.</p>`
    : html`<table><caption class="hint">Apps you created</caption><thead><tr><th scope="col">Name</th><th scope="col">Tier</th><th scope="col">Created</th></tr></thead><tbody>
${o.apps.map((a) => html`<tr><td><a href="/developer/apps/${a.id}">${a.name}</a></td><td>${a.tier}</td><td>${a.created_at.slice(0, 10)}</td></tr>`)}
</tbody></table>`
}
<h2 id="worlds">Worlds</h2>
${
  o.worlds.length === 0
    ? html`<p>No worlds yet. A world is a store of its own with credentials of its own, for a test suite: make one with <code>npm run plaza -- worlds create</code> or <code>POST /admin/worlds</code>.</p>`
    : html`<table aria-labelledby="worlds"><caption class="hint">Made through the admin interface (POST /admin/worlds, plaza worlds create); each has its own store and credentials.</caption><thead><tr><th scope="col">World</th><th scope="col">Seed</th><th scope="col">Created</th><th scope="col">Snapshots</th></tr></thead><tbody>
${o.worlds.map((w) => html`<tr><td><code>${w.id}</code></td><td>${w.seed}</td><td>${w.created_at.slice(0, 19).replace('T', ' ')}</td><td>${w.snapshots.join(', ') || 'none'}</td></tr>`)}
</tbody></table>`
}
<h2 id="create">Create an app</h2>
${errorSummary(Object.values(o.errors).filter((m): m is string => !!m))}
<form method="post" action="/developer/apps" novalidate aria-labelledby="create">
${hidden('_csrf', o.csrf)}
${settingsFields(o.values, o.errors)}
<div class="actions"><button type="submit">Create app</button></div>
</form>`,
    });

  app.get('/developer', { schema: { hide: true }, config }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const values = { name: '', tier: 'pro', callbackUrls: '', signInEnabled: true, dialect: 'post' };
    return sendHtml(reply, 200, listPage({ user, csrf: csrfToken(reply), apps: await appsOf(ctx, user), worlds: await listWorlds(ctx.store.db), values, errors: {} }));
  });

  app.post('/developer/apps', { schema: { hide: true }, config, preHandler: app.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const values = settingsFrom(request);
    const valid = validateSettings(values);
    if (!valid.ok) return sendHtml(reply, 400, listPage({ user, csrf: csrfToken(reply), apps: await appsOf(ctx, user), worlds: await listWorlds(ctx.store.db), values, errors: valid.errors }));
    const created = await createApp(ctx, user, valid.value);
    return reply.redirect(`/developer/apps/${created.id}?notice=created`, 303);
  });

  const detailPage = async (o: { user: UserRow; csrf: string; app: AppRow; values?: AppSettings; errors?: SettingsErrors; notice?: string }) => {
    const creds = await credentialsOf(ctx, o.app, o.user);
    const regen = (what: Regenerable, label: string) =>
      html`<form method="post" action="/developer/apps/${o.app.id}/regenerate" class="inline">${hidden('_csrf', o.csrf)}${hidden('what', what)}<button type="submit" class="secondary">${label}</button></form>`;
    return page({
      title: o.app.name,
      user: o.user,
      csrf: o.csrf,
      body: html`${notice(o.notice)}
${appNav(o.app, 'keys')}
<h2>Keys and tokens</h2>
<h3>Consumer keys (OAuth 1.0a)</h3>
<dl class="keys"><dt>API key</dt><dd id="consumer-key">${o.app.consumer_key}</dd><dt>API key secret</dt><dd id="consumer-secret">${o.app.consumer_secret}</dd></dl>
<div class="actions">${regen('consumer_keys', 'Regenerate API key and secret')}</div>
<h3>Bearer token (app-only)</h3>
<dl class="keys"><dt>Bearer token</dt><dd id="bearer-token">${creds.bearerToken ?? 'None: generate one, or obtain it with POST /oauth2/token.'}</dd></dl>
<div class="actions">${regen('bearer_token', creds.bearerToken ? 'Regenerate bearer token' : 'Generate bearer token')}</div>
<h3>Access token and secret for @${o.user.username}</h3>
${
  creds.accessToken
    ? html`<dl class="keys"><dt>Access token</dt><dd id="access-token">${creds.accessToken.token}</dd><dt>Access token secret</dt><dd id="access-token-secret">${creds.accessToken.secret}</dd><dt>Permission</dt><dd>${creds.accessToken.level}</dd></dl>`
    : html`<p>None yet.</p>`
}
<div class="actions">${regen('access_token', creds.accessToken ? 'Regenerate access token and secret' : 'Generate access token and secret')}</div>
<h3>OAuth 2.0 client</h3>
<dl class="keys"><dt>Client ID</dt><dd id="client-id">${o.app.client_id}</dd><dt>Client secret</dt><dd id="client-secret">${o.app.client_secret}</dd></dl>
<div class="actions">${regen('client_secret', 'Regenerate client secret')}</div>
<h2 id="settings">Settings</h2>
${errorSummary(Object.values(o.errors ?? {}).filter((m): m is string => !!m))}
<form method="post" action="/developer/apps/${o.app.id}/settings" novalidate aria-labelledby="settings">
${hidden('_csrf', o.csrf)}
${settingsFields(o.values ?? settingsOf(o.app, creds.callbackUrls), o.errors ?? {})}
<div class="actions"><button type="submit">Save settings</button></div>
</form>`,
    });
  };

  app.get('/developer/apps/:id', { schema: { hide: true }, config }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const found = await owned(request, user);
    return sendHtml(reply, 200, await detailPage({ user, csrf: csrfToken(reply), app: found, notice: NOTICES[queryParam(request, 'notice') ?? ''] }));
  });

  app.post('/developer/apps/:id/settings', { schema: { hide: true }, config, preHandler: app.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const found = await owned(request, user);
    const values = settingsFrom(request);
    const valid = validateSettings(values);
    if (!valid.ok) return sendHtml(reply, 400, await detailPage({ user, csrf: csrfToken(reply), app: found, values, errors: valid.errors }));
    await updateApp(ctx, found, valid.value);
    return reply.redirect(`/developer/apps/${found.id}?notice=saved`, 303);
  });

  app.post('/developer/apps/:id/regenerate', { schema: { hide: true }, config, preHandler: app.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const found = await owned(request, user);
    const what = bodyParam(request, 'what') ?? '';
    if (!(what in REGENERABLE)) throw new PageError(400, 'Nothing to regenerate', 'The form named no credential to regenerate. Go back and use one of the buttons.');
    await regenerate(ctx, found, user, what as Regenerable);
    return reply.redirect(`/developer/apps/${found.id}?notice=${what}`, 303);
  });

  await consolePanels(app, ctx);
}
