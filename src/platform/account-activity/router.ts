import type { PlatformContext } from '../context.js';
import type { EventRow } from '../../events/log.js';
import { registerWebhookRouter } from '../../events/webhook-routers.js';
import { selectFields } from '../../http/fields.js';
import type { DbOrTx } from '../../store/store.js';
import { eventUser } from '../graph/render.js';
import { findPostsAnyState } from '../posts/store.js';
import { postDeclaration } from '../posts/wire.js';
import { findUsersByIds, findUsersByUsernames } from '../users/store.js';
import { subscribedWebhooks } from './store.js';

/**
 * The Account Activity v2 deliveries (shared/reference/platform.md §1 "Account Activity v2"):
 * `{for_user_id, <kind>: [...]}` to every webhook a concerned user is subscribed to, built from
 * the event log. Which users an event concerns, and what each is sent, is decided here alone.
 */
type Delivery = { userId: string; body: Record<string, unknown> };

const ms = (iso: string) => String(Date.parse(iso));

/** A post as the Account Activity payloads carry it: the full wire object. */
async function wirePost(ctx: PlatformContext, db: DbOrTx, id: string): Promise<Record<string, unknown> | undefined> {
  const [row] = await findPostsAnyState(db, [id]);
  // The lead's renderer will replace this converter call (all fields, as post.create's payload).
  return row ? (selectFields(postDeclaration, row, new Set(Object.keys(postDeclaration.fields)), { now: ctx.clock.now() }) as Record<string, unknown>) : undefined;
}

export async function deliveriesFor(ctx: PlatformContext, db: DbOrTx, event: EventRow): Promise<Delivery[]> {
  const p = JSON.parse(event.payload) as any;
  const to = (userIds: Array<string | undefined | null>, body: Record<string, unknown>): Delivery[] =>
    [...new Set(userIds.filter((u): u is string => typeof u === 'string' && u !== ''))].map((userId) => ({ userId, body: { for_user_id: userId, ...body } }));
  switch (event.type) {
    case 'post.create': {
      // The author, whoever it replies to and whoever it mentions (the post's entities name mentions by username).
      const usernames = ((p.entities?.mentions ?? []) as Array<{ username?: string }>).flatMap((m) => (m.username ? [m.username] : []));
      const mentioned = (await findUsersByUsernames(db, usernames)).map((u) => u.id);
      return to([p.author_id, p.in_reply_to_user_id, ...mentioned], { tweet_create_events: [p] });
    }
    case 'post.delete':
      return to([p.author_id], { tweet_delete_events: [{ status: { id: p.id, user_id: p.author_id }, timestamp_ms: ms(event.created_at) }] });
    case 'like.create': {
      const post = await wirePost(ctx, db, p.liked_post_id);
      const [liker] = await usersOf(ctx, db, [p.liking_user_id]);
      const like = { id: p.id, created_at: p.created_at, timestamp_ms: String(p.timestamp_ms), favorited_status: post ?? { id: p.liked_post_id }, user: liker };
      return to([p.liking_user_id, p.post_author_id], { favorite_events: [like] });
    }
    case 'follow.follow':
    case 'follow.unfollow': {
      const kind = event.type === 'follow.follow' ? 'follow' : 'unfollow';
      const item = { type: kind, created_timestamp: ms(event.created_at), source: p.source?.data, target: p.target?.data };
      // Both sides hear of a follow; only the one who unfollowed hears of an unfollow.
      const users = kind === 'follow' ? [p.source?.data?.id, p.target?.data?.id] : [p.source?.data?.id];
      return to(users, { [`${kind}_events`]: [item] });
    }
    case 'block.block':
    case 'block.unblock':
    case 'mute.mute':
    case 'mute.unmute': {
      const action = event.type.split('.')[1]!;
      const item = { type: action, created_timestamp: ms(event.created_at), source: p.source?.data, target: p.target?.data };
      return to([p.source?.data?.id], { [`${action}_events`]: [item] });
    }
    case 'dm.sent':
    case 'dm.received':
      // Each side has its own event (dm.sent for the sender, dm.received per recipient).
      return to([event.subject], { direct_message_events: p.direct_message_events ?? [], users: p.users ?? {} });
    case 'dm.indicate_typing':
    case 'dm.read': {
      const key = event.type === 'dm.read' ? 'direct_message_mark_read_events' : 'direct_message_indicate_typing_events';
      const items = (p.direct_message_events ?? []) as Array<Record<string, any>>;
      // The other participants are told; the one who typed or read is the event's subject.
      const targets = items.map((i) => i.target?.recipient_id ?? i.recipient_id);
      return to(targets, { [key]: items, users: p.users ?? {} });
    }
    case 'oauth.revoke':
      return to([p.user_id], { user_event: { revoke: { date_time: p.date_time, target: { app_id: p.app_id }, source: { user_id: p.user_id } } } });
    default:
      return [];
  }
}

async function usersOf(ctx: PlatformContext, db: DbOrTx, ids: string[]) {
  const rows = await findUsersByIds(db, ids);
  return ids.map((id) => {
    const row = rows.find((r) => r.id === id);
    return row ? eventUser(ctx, row) : { id };
  });
}

/** The Account Activity router: one delivery per (subscribed webhook, concerned user). */
export async function accountActivityRouter(ctx: PlatformContext, db: DbOrTx, event: EventRow) {
  const deliveries = await deliveriesFor(ctx, db, event);
  if (deliveries.length === 0) return [];
  const subs = await subscribedWebhooks(db, deliveries.map((d) => d.userId));
  const out: Array<{ webhookId: string; body: unknown }> = [];
  for (const d of deliveries) {
    for (const s of subs) {
      if (s.user_id !== d.userId) continue;
      // An app revocation goes only to the revoked app's webhooks.
      if (event.type === 'oauth.revoke' && s.app_id !== (JSON.parse(event.payload) as { app_id?: string }).app_id) continue;
      // Direct-message activity goes only where the subscribing token could read direct messages.
      if (event.type.startsWith('dm.') && s.direct_messages !== 1) continue;
      out.push({ webhookId: s.webhook_id, body: d.body });
    }
  }
  return out;
}

registerWebhookRouter(accountActivityRouter);
