import type { FastifyInstance } from 'fastify';
import type { PlatformContext } from '../platform/context.js';
import { html } from './html.js';
import { page } from './layout.js';
import { sendHtml } from './respond.js';

/** A browser's request: it names text/html among the types it accepts. API clients do not. */
const wantsHtml = (accept: string | undefined) => (accept ?? '').toLowerCase().includes('text/html');

/**
 * GET / on the platform listener: to a browser, a small page saying what Plaza is and where
 * things are; to an API client, the same JSON 404 as any unknown path.
 */
export async function homePage(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  app.get('/', { schema: { hide: true }, config: { webHome: true } }, async (request, reply) => {
    if (!wantsHtml(request.headers.accept)) return reply.callNotFound();
    return sendHtml(
      reply,
      200,
      page({
        title: 'Plaza',
        user: request.web?.user,
        body: html`<p>Plaza is a self-hosted server for the platform interface v2 (posts, users, media, webhooks, streams, OAuth) and the advertising interface v12 of a social platform. Point your apps, SDKs and tests at it: they meet the same paths, shapes, rules and errors, with real state behind them.</p>
<h2>Where things are</h2>
<ul>
<li><a href="/home">Home timeline</a>: post, reply, quote, like and follow as a signed-in person, to set a scene for your app.</li>
<li><a href="/developer">Developer console</a>: your apps, their keys and tokens, tier and callback URLs, webhook deliveries, usage and stream connections.</li>
<li><a href="/login">Sign in</a> or <a href="/signup">sign up</a>${ctx.config.seedDemo ? ' (the demo users\u2019 passwords are in the credentials file)' : ''}.</li>
<li><a href="/2/openapi.json">/2/openapi.json</a>: the OpenAPI description of the platform interface (the advertising interface has its own listener).</li>
<li><a href="/healthz">/healthz</a> (alive) and <a href="/readyz">/readyz</a> (store migrated, demo seeded, credentials written).</li>
</ul>
<p class="hint">API calls go to paths under <code>/2/</code> with a bearer token or OAuth 1.0a signature; see the README of the repository for the whole manual.</p>`,
      }),
    );
  });
}
