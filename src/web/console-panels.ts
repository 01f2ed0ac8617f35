import type { FastifyInstance } from 'fastify';
import { bodyParam, queryParam } from '../auth/flows/request.js';
import type { AppRow, UserRow } from '../auth/store.js';
import type { PlatformContext } from '../platform/context.js';
import { rateLimitWindowsOf } from '../platform/rate-limits/windows.js';
import { owned, signedIn } from './console-access.js';
import {
  connectionsOf,
  DELIVERIES_SHOWN,
  disconnect,
  pendingRateLimitFaults,
  rateLimitTable,
  recentDeliveries,
  resendDelivery,
  usageFigures,
  webhooksOf,
  type ConnectionView,
  type DeliveryView,
} from './console-activity.js';
import { html, type Html } from './html.js';
import { hidden, notice, page } from './layout.js';
import { csrfToken, PageError, sendHtml } from './respond.js';

/**
 * The console's panels of one app (issue #17 "The developer console"), like the public platform's
 * portal and Stripe's dashboard: webhook deliveries with their bodies and a resend button, usage
 * and rate-limit figures, and the open stream connections with a disconnect button.
 */

type Panel = 'keys' | 'webhooks' | 'usage' | 'connections';

const PANELS: Array<[Panel, string, string]> = [
  ['keys', 'Keys and settings', ''],
  ['webhooks', 'Webhook deliveries', '/webhooks'],
  ['usage', 'Usage and rate limits', '/usage'],
  ['connections', 'Stream connections', '/connections'],
];

/** The links between an app's pages; the current one is marked for assistive technology. */
export function appNav(app: AppRow, current: Panel): Html {
  return html`<nav aria-label="App pages"><p><a href="/developer">All your apps</a></p><ul class="app-nav">${PANELS.map(([id, label, path]) =>
    id === current ? html`<li><a href="/developer/apps/${app.id}${path}" aria-current="page"><strong>${label}</strong></a></li>` : html`<li><a href="/developer/apps/${app.id}${path}">${label}</a></li>`,
  )}</ul></nav>`;
}

const NOTICES: Record<string, string> = {
  resent: 'Delivery queued again: the delivery workers send it within a second or two.',
  disconnected: 'Connection ended. The client received a ForceDisconnect.',
};

const when = (iso: string | null | undefined) => (iso ? html`<time datetime="${iso}">${iso.slice(0, 19).replace('T', ' ')}</time>` : '');

function prettyJson(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function statusOf(d: DeliveryView, webhookValid: boolean): Html {
  const r = d.row;
  const http = r.last_status !== null ? ` (HTTP ${r.last_status})` : '';
  // A failure without an HTTP status (time-out, refused connection, TLS) says what happened instead.
  const why = r.last_status === null && r.last_error ? html`<br><span class="hint">${r.last_error}</span>` : '';
  if (r.status === 'delivered') return html`Delivered${http}`;
  if (r.status === 'failed') return html`Failed${http}${why}`;
  if (!webhookValid) return html`Waiting: the webhook is not valid`;
  if (r.attempts === 0) return html`Pending`;
  return html`Retrying at ${when(r.next_attempt_at)}${http}${why}`;
}

export async function consolePanels(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  const config = { webRateLimit: 'developer' };

  const frame = (o: { user: UserRow; csrf: string; app: AppRow; panel: Panel; title: string; notice?: string; body: Html }) =>
    page({ title: `${o.title} · ${o.app.name}`, user: o.user, csrf: o.csrf, body: html`${notice(o.notice)}${appNav(o.app, o.panel)}${o.body}` });

  app.get('/developer/apps/:id/webhooks', { schema: { hide: true }, config }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const found = await owned(ctx, request, user);
    const csrf = csrfToken(reply);
    const [hooks, deliveries] = await Promise.all([webhooksOf(ctx, found), recentDeliveries(ctx, found)]);
    const valid = new Map(hooks.map((h) => [h.id, h.valid === 1]));
    // The body folds out on a row of its own under the delivery, the table's full width.
    const row = (d: DeliveryView) => html`<tr id="delivery-${d.row.id}">
<td>${when(d.row.created_at)}</td>
<td><code>${d.eventType}</code>${d.origin !== 'live' ? html` <span class="hint">(${d.origin})</span>` : ''}</td>
<td>${statusOf(d, valid.get(d.row.webhook_id) ?? false)}</td>
<td>${d.row.attempts}</td>
<td><form method="post" action="/developer/apps/${found.id}/deliveries/resend" class="inline">${hidden('_csrf', csrf)}${hidden('delivery_id', d.row.id)}<button type="submit" class="secondary">Resend<span class="skip"> delivery ${d.row.id}</span></button></form></td>
</tr>
<tr id="delivery-${d.row.id}-body"><td colspan="5"><details><summary>Body<span class="skip"> of delivery ${d.row.id}</span></summary><p class="hint">To ${d.webhookUrl} · delivery ${d.row.id} · event ${d.row.event_id}</p><pre>${prettyJson(d.row.body)}</pre></details></td></tr>`;
    return sendHtml(
      reply,
      200,
      frame({
        user,
        csrf,
        app: found,
        panel: 'webhooks',
        title: 'Webhook deliveries',
        notice: NOTICES[queryParam(request, 'notice') ?? ''],
        body: html`<h2>Webhooks</h2>
${
  hooks.length === 0
    ? html`<p>This app has no webhooks. Register one with <code>POST /2/webhooks</code>.</p>`
    : html`<table><thead><tr><th scope="col">Id</th><th scope="col">URL</th><th scope="col">Valid</th></tr></thead><tbody>
${hooks.map((h) => html`<tr><td>${h.id}</td><td>${h.url}</td><td>${h.valid === 1 ? 'Yes' : html`No${h.invalid_reason ? html`: ${h.invalid_reason}` : ''}`}</td></tr>`)}
</tbody></table>`
}
<h2 id="deliveries">Recent deliveries</h2>
${
  deliveries.length === 0
    ? html`<p>No deliveries yet.</p>`
    : html`<table aria-labelledby="deliveries"><caption class="hint">The latest ${DELIVERIES_SHOWN} deliveries to this app's webhooks, newest first. Resend queues a new delivery of the same body.</caption>
<thead><tr><th scope="col">Time (UTC)</th><th scope="col">Event type</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col"><span class="skip">Actions</span></th></tr></thead>
<tbody>${deliveries.map(row)}</tbody></table>`
}`,
      }),
    );
  });

  app.post('/developer/apps/:id/deliveries/resend', { schema: { hide: true }, config, preHandler: app.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const found = await owned(ctx, request, user);
    const resent = await resendDelivery(ctx, found, bodyParam(request, 'delivery_id') ?? '');
    if (!resent) throw new PageError(404, 'Delivery not found', 'This app has no delivery with this id (deliveries are kept 48 hours). Go back to the deliveries and choose another.');
    return reply.redirect(`/developer/apps/${found.id}/webhooks?notice=resent#delivery-${resent}`, 303);
  });

  app.get('/developer/apps/:id/usage', { schema: { hide: true }, config }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const found = await owned(ctx, request, user);
    const csrf = csrfToken(reply);
    const [usage, faults, windows] = await Promise.all([usageFigures(ctx, found), pendingRateLimitFaults(ctx, found), rateLimitWindowsOf(ctx, found.id)]);
    const limits = rateLimitTable(ctx);
    return sendHtml(
      reply,
      200,
      frame({
        user,
        csrf,
        app: found,
        panel: 'usage',
        title: 'Usage and rate limits',
        body: html`<h2>Usage</h2>
${usage.charged ? '' : html`<p class="notice">This app is on the ${found.tier} tier: only pay-per-use apps are charged credits. The posts it reads are counted on every tier.</p>`}
<dl class="keys" aria-label="Usage figures">
<dt>Credits spent today</dt><dd id="spent-today">${usage.spentToday}</dd>
<dt>Credits spent this month</dt><dd id="spent-month">${usage.spentThisMonth}</dd>
<dt>Posts read this month</dt><dd id="posts-month">${usage.postsThisMonth}</dd>
<dt>Monthly post cap</dt><dd id="post-cap">${usage.postCap ?? 'none'}</dd>
</dl>
<h3 id="caps">Caps</h3>
${
  usage.caps.length === 0
    ? html`<p>No spending caps are set.</p>`
    : html`<table aria-labelledby="caps"><thead><tr><th scope="col">Period</th><th scope="col">Scope</th><th scope="col">Spent</th><th scope="col">Cap</th></tr></thead><tbody>
${usage.caps.map((c) => html`<tr><td>${c.period}</td><td>${c.scope}</td><td>${c.spent}</td><td>${c.limit}</td></tr>`)}</tbody></table>`
}
<h3 id="kinds">Charges this month</h3>
${
  usage.byKind.length === 0
    ? html`<p>No charges this month.</p>`
    : html`<table aria-labelledby="kinds"><thead><tr><th scope="col">Charge</th><th scope="col">Units</th><th scope="col">Credits</th></tr></thead><tbody>
${usage.byKind.map((k) => html`<tr><td><code>${k.kind}</code></td><td>${k.units}</td><td>${k.amount}</td></tr>`)}</tbody></table>`
}
<h3 id="daily">Posts read per day</h3>
<table aria-labelledby="daily"><thead><tr><th scope="col">Day (UTC)</th><th scope="col">Posts</th></tr></thead><tbody>
${usage.daily.map((d) => html`<tr><td>${d.date.slice(0, 10)}</td><td>${d.usage}</td></tr>`)}</tbody></table>
<h2 id="rate-limits">Rate limits</h2>
${
  limits.enforced
    ? html`<p>Each endpoint allows a number of requests per window, per app with the app's bearer token and per person with a person's token. Every answer carries <code>x-rate-limit-limit</code>, <code>x-rate-limit-remaining</code> and <code>x-rate-limit-reset</code>. Endpoints not listed allow ${limits.defaultLimit}.</p>
<h3 id="rate-windows">Remaining requests</h3>
${
  !windows || windows.length === 0
    ? html`<p>No window is open: this app has made no request in its current windows.</p>`
    : html`<table aria-labelledby="rate-windows"><caption class="hint">Each endpoint this app has called in a window still open, per caller: what <code>x-rate-limit-remaining</code> would say now. Reading this page spends nothing.</caption>
<thead><tr><th scope="col">Endpoint</th><th scope="col">Caller</th><th scope="col">Limit</th><th scope="col">Remaining</th><th scope="col">Resets (UTC)</th></tr></thead><tbody>
${windows.map(
  (w) =>
    html`<tr><td><code>${w.endpoint}</code></td><td>${w.caller.kind === 'app' ? 'App (bearer token)' : w.caller.username ? `@${w.caller.username}` : `user ${w.caller.id}`}</td><td>${w.limit}</td><td>${w.remaining}${w.remaining === 0 ? html` <strong>(refused until the reset)</strong>` : ''}</td><td>${when(w.reset)}</td></tr>`,
)}</tbody></table>`
}
<details><summary>Limits of every endpoint</summary>
<table id="rate-limit-table"><thead><tr><th scope="col">Endpoint</th><th scope="col">Per app</th><th scope="col">Per person</th></tr></thead><tbody>
${limits.rows.map((r) => html`<tr><td><code>${r.route}</code></td><td>${r.app}</td><td>${r.user}</td></tr>`)}</tbody></table></details>`
    : html`<p>This Plaza runs without rate limits (PLAZA_RATE_LIMITS=off).</p>`
}
<h3 id="rate-faults">Injected rate limits</h3>
${
  faults.length === 0
    ? html`<p>No injected rate limit is waiting for this app.</p>`
    : html`<table aria-labelledby="rate-faults"><caption class="hint">Set through the admin interface (POST /admin/faults): each refuses the app's next requests with 429.</caption><thead><tr><th scope="col">Fault</th><th scope="col">Endpoint</th><th scope="col">Requests it will refuse</th></tr></thead><tbody>
${faults.map((f) => html`<tr><td>${f.id}</td><td><code>${f.endpoint}</code></td><td>${f.remaining}</td></tr>`)}</tbody></table>`
}`,
      }),
    );
  });

  app.get('/developer/apps/:id/connections', { schema: { hide: true }, config }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const found = await owned(ctx, request, user);
    const csrf = csrfToken(reply);
    const { open, closed } = await connectionsOf(ctx, found);
    const openRow = (c: ConnectionView) => html`<tr id="connection-${c.id}"><td><code>${c.endpoint_name}</code></td><td>${when(c.connected_at)}</td><td>${c.client_ip}</td><td><code>${c.id}</code></td>
<td><form method="post" action="/developer/apps/${found.id}/connections/disconnect" class="inline">${hidden('_csrf', csrf)}${hidden('connection_id', c.id)}<button type="submit" class="secondary">Disconnect<span class="skip"> ${c.endpoint_name} connection ${c.id}</span></button></form></td></tr>`;
    return sendHtml(
      reply,
      200,
      frame({
        user,
        csrf,
        app: found,
        panel: 'connections',
        title: 'Stream connections',
        notice: NOTICES[queryParam(request, 'notice') ?? ''],
        body: html`<h2 id="open">Open connections</h2>
${
  open.length === 0
    ? html`<p>No stream is connected.</p>`
    : html`<table aria-labelledby="open"><thead><tr><th scope="col">Endpoint</th><th scope="col">Connected (UTC)</th><th scope="col">Client</th><th scope="col">Id</th><th scope="col"><span class="skip">Actions</span></th></tr></thead><tbody>${open.map(openRow)}</tbody></table>`
}
<h2 id="closed">Recently closed</h2>
${
  closed.length === 0
    ? html`<p>None.</p>`
    : html`<table aria-labelledby="closed"><thead><tr><th scope="col">Endpoint</th><th scope="col">Connected</th><th scope="col">Disconnected</th><th scope="col">Reason</th></tr></thead><tbody>
${closed.map((c) => html`<tr><td><code>${c.endpoint_name}</code></td><td>${when(c.connected_at)}</td><td>${when(c.disconnected_at)}</td><td>${c.disconnect_reason ?? ''}</td></tr>`)}</tbody></table>`
}`,
      }),
    );
  });

  app.post('/developer/apps/:id/connections/disconnect', { schema: { hide: true }, config, preHandler: app.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const found = await owned(ctx, request, user);
    if (!(await disconnect(ctx, found, bodyParam(request, 'connection_id') ?? ''))) {
      throw new PageError(404, 'Connection not found', 'This app has no open connection with this id: it may have ended already. Go back to the connections and reload.');
    }
    return reply.redirect(`/developer/apps/${found.id}/connections?notice=disconnected`, 303);
  });
}
