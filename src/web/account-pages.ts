import type { FastifyInstance } from 'fastify';
import { bodyParam, queryParam } from '../auth/flows/request.js';
import type { PlatformContext } from '../platform/context.js';
import { checkCredentials, signUp, type SignUp } from './accounts.js';
import { html } from './html.js';
import { credentialFields, errorSummary, field, hidden, page } from './layout.js';
import { csrfToken, safeNext, sendHtml } from './respond.js';
import { endSession, startSession } from './sessions.js';

/** Sign in, sign up, sign out. */
export async function accountPages(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  const config = { webRateLimit: 'account' };

  const signInPage = (o: { csrf: string; next: string; username?: string; error?: string }) =>
    page({
      title: 'Sign in to Plaza',
      body: html`${errorSummary(o.error ? [o.error] : [])}
<form method="post" action="/login" novalidate>
${hidden('_csrf', o.csrf)}${hidden('next', o.next)}
${credentialFields({ username: o.username, error: o.error, autofocus: true })}
<div class="actions"><button type="submit">Sign in</button></div>
</form>
<p>New to Plaza? <a href="/signup?next=${encodeURIComponent(o.next)}">Create an account</a>.</p>`,
    });

  app.get('/login', { schema: { hide: true }, config }, async (request, reply) => {
    const next = safeNext(queryParam(request, 'next'));
    if (request.web) return reply.redirect(next, 303);
    return sendHtml(reply, 200, signInPage({ csrf: csrfToken(reply), next, username: queryParam(request, 'screen_name') }));
  });

  app.post('/login', { schema: { hide: true }, config, preHandler: app.csrfProtection }, async (request, reply) => {
    const next = safeNext(bodyParam(request, 'next'));
    const username = bodyParam(request, 'username') ?? '';
    const user = await checkCredentials(ctx, username, bodyParam(request, 'password') ?? '');
    if (!user) {
      return sendHtml(reply, 401, signInPage({ csrf: csrfToken(reply), next, username, error: 'The username or password is wrong.' }));
    }
    await startSession(ctx, request, reply, user);
    return reply.redirect(next, 303);
  });

  const signUpPage = (o: { csrf: string; next: string; values?: Partial<SignUp>; errors?: Partial<Record<keyof SignUp, string>> }) => {
    const errors = o.errors ?? {};
    return page({
      title: 'Create your Plaza account',
      body: html`${errorSummary(Object.values(errors).filter((m): m is string => !!m))}
<form method="post" action="/signup" novalidate>
${hidden('_csrf', o.csrf)}${hidden('next', o.next)}
${field({ label: 'Name', name: 'name', value: o.values?.name ?? '', autocomplete: 'name', required: true, error: errors.name, autofocus: true })}
${field({ label: 'Username', name: 'username', value: o.values?.username ?? '', autocomplete: 'username', required: true, hint: '1 to 15 letters, digits or underscores.', error: errors.username })}
${field({ label: 'Email', name: 'email', type: 'email', value: o.values?.email ?? '', autocomplete: 'email', required: true, error: errors.email })}
${field({ label: 'Password', name: 'password', type: 'password', autocomplete: 'new-password', required: true, hint: 'At least 8 characters.', error: errors.password })}
<div class="actions"><button type="submit">Create account</button></div>
</form>
<p>Already have an account? <a href="/login?next=${encodeURIComponent(o.next)}">Sign in</a>.</p>`,
    });
  };

  app.get('/signup', { schema: { hide: true }, config }, async (request, reply) => {
    const next = safeNext(queryParam(request, 'next'));
    return sendHtml(reply, 200, signUpPage({ csrf: csrfToken(reply), next }));
  });

  app.post('/signup', { schema: { hide: true }, config, preHandler: app.csrfProtection }, async (request, reply) => {
    const next = safeNext(bodyParam(request, 'next'));
    const values: SignUp = {
      name: bodyParam(request, 'name') ?? '',
      username: bodyParam(request, 'username') ?? '',
      email: bodyParam(request, 'email') ?? '',
      password: bodyParam(request, 'password') ?? '',
    };
    const result = await signUp(ctx, values);
    if (!result.ok) {
      return sendHtml(reply, 400, signUpPage({ csrf: csrfToken(reply), next, values: { ...values, password: '' }, errors: result.errors }));
    }
    await startSession(ctx, request, reply, result.user);
    return reply.redirect(next, 303);
  });

  app.post('/logout', { schema: { hide: true }, config, preHandler: app.csrfProtection }, async (request, reply) => {
    await endSession(ctx, request, reply);
    return reply.redirect('/login', 303);
  });
}
