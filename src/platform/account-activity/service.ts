import type { UserCaller } from '../../auth/authenticate.js';
import type { AppRow } from '../../auth/store.js';
import type { PlatformContext } from '../context.js';
import { invalidParameter } from '../../http/params.js';
import { ProblemError, problems } from '../../http/problems.js';
import type { Tier } from '../../store/schema.js';
import { findWebhookOfApp, type WebhookRow } from '../webhooks/store.js';
import { countSubscriptionsOfApp, deleteSubscription, findSubscription, listSubscriptions, upsertSubscription } from './store.js';

/**
 * Account Activity v2 subscriptions (shared/reference/platform.md §1 "Account Activity v2"): a
 * user subscribes one of the app's webhooks to their own activity; the router (router.ts) then
 * delivers it. OAuth 2.0 user tokens are accepted (spec 000, Jan 15, 2026) with the scopes the
 * caller has after OAuth 1.0a permissions override them (src/auth/flows/scopes.ts).
 */

/** Subscriptions one app may hold, by tier (the count endpoint's provisioned_count). */
export const PROVISIONED_SUBSCRIPTIONS: Record<Tier, number> = { free: 1, basic: 15, 'pay-per-use': 15, pro: 1000, enterprise: 50_000 };

/** OAuth 2.0 scopes a user token needs to subscribe; dm.read in addition brings direct-message events. */
export const SUBSCRIBE_SCOPES = ['users.read', 'post.read'];

async function webhookOf(ctx: PlatformContext, app: AppRow, id: string): Promise<WebhookRow> {
  const row = await findWebhookOfApp(ctx.store.db, app.id, id);
  if (!row) throw invalidParameter('webhook_id', [id], `WebhookIdInvalid: no webhook with id [${id}] belongs to this app`);
  return row;
}

/** Whether this caller's authorization reaches the person's direct messages. */
function readsDirectMessages(caller: UserCaller): boolean {
  if (caller.kind === 'oauth1') return caller.accessLevel === 'read-write-directmessages';
  return caller.scopes.has('dm.read');
}

function requireScopes(caller: UserCaller): void {
  if (caller.kind !== 'oauth2') return;
  const missing = SUBSCRIBE_SCOPES.filter((s) => !caller.scopes.has(s));
  if (missing.length > 0) {
    const overridden = caller.oauth1AccessLevel ? ` (after the OAuth 1.0a permission [${caller.oauth1AccessLevel}] of this app, which overrides the token's scopes)` : '';
    throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', `Missing required OAuth 2.0 scopes: [${missing.join(', ')}]${overridden}.`));
  }
}

/** POST /2/account_activity/webhooks/{webhook_id}/subscriptions/all: the caller subscribes. */
export async function subscribe(ctx: PlatformContext, caller: UserCaller, webhookId: string) {
  const webhook = await webhookOf(ctx, caller.app, webhookId);
  requireScopes(caller);
  if (webhook.valid !== 1) {
    throw invalidParameter('webhook_id', [webhookId], `CrcValidationFailed: webhook [${webhookId}] is not valid; validate it with PUT /2/webhooks/${webhookId} first`);
  }
  await ctx.store.db.transaction().execute(async (tx) => {
    const existing = await findSubscription(tx, webhookId, caller.user.id);
    if (!existing) {
      const provisioned = PROVISIONED_SUBSCRIPTIONS[caller.app.tier] ?? 1;
      if ((await countSubscriptionsOfApp(tx, caller.app.id)).all >= provisioned) {
        throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', `SubscriptionLimitExceeded: this app has its ${provisioned} provisioned subscriptions`));
      }
    }
    await upsertSubscription(tx, {
      webhook_id: webhookId,
      user_id: caller.user.id,
      app_id: caller.app.id,
      direct_messages: readsDirectMessages(caller) ? 1 : 0,
      created_at: existing?.created_at ?? ctx.clock.now().toISOString(),
    });
  });
  return { data: { subscribed: true } };
}

/** GET /2/account_activity/webhooks/{webhook_id}/subscriptions/all: is the caller subscribed? */
export async function checkSubscription(ctx: PlatformContext, caller: UserCaller, webhookId: string) {
  await webhookOf(ctx, caller.app, webhookId);
  return { data: { subscribed: (await findSubscription(ctx.store.db, webhookId, caller.user.id)) !== undefined } };
}

/** GET .../subscriptions/all/list (app-only). */
export async function listWebhookSubscriptions(ctx: PlatformContext, app: AppRow, webhookId: string) {
  const webhook = await webhookOf(ctx, app, webhookId);
  const rows = await listSubscriptions(ctx.store.db, webhookId);
  return { data: { application_id: app.id, webhook_id: webhook.id, webhook_url: webhook.url, subscriptions: rows.map((r) => ({ user_id: r.user_id })) } };
}

/** DELETE .../subscriptions/{user_id}/all: the app, or the user themself, ends a subscription. */
export async function unsubscribe(ctx: PlatformContext, app: AppRow, callerUserId: string | undefined, webhookId: string, userId: string) {
  await webhookOf(ctx, app, webhookId);
  if (callerUserId !== undefined && callerUserId !== userId) {
    throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', `A user token may only end its own user's subscription, not user [${userId}]'s.`));
  }
  if (!(await deleteSubscription(ctx.store.db, webhookId, userId))) {
    throw invalidParameter('user_id', [userId], `SubscriptionNotFound: user [${userId}] is not subscribed to webhook [${webhookId}]`);
  }
  return { data: { subscribed: false } };
}

/** GET /2/account_activity/subscriptions/count (app-only): every value a string, as the reference says. */
export async function subscriptionCount(ctx: PlatformContext, app: AppRow) {
  const counts = await countSubscriptionsOfApp(ctx.store.db, app.id);
  return {
    data: {
      account_name: app.name,
      provisioned_count: String(PROVISIONED_SUBSCRIPTIONS[app.tier] ?? 1),
      subscriptions_count_all: String(counts.all),
      subscriptions_count_direct_messages: String(counts.directMessages),
    },
  };
}
