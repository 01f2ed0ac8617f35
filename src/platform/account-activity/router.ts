import type { PlatformContext } from '../context.js';
import type { EventRow } from '../../events/log.js';
import { registerWebhookRouter } from '../../events/webhook-routers.js';
import { bodyToPost } from '../../http/dialect/translate.js';
import type { DbOrTx } from '../../store/store.js';
import type { AppDialect } from '../../store/schema.js';
import { findPostsAnyState } from '../posts/store.js';
import type { PostWire } from '../posts/schema.js';
import { findUsersByIds, findUsersByUsernames } from '../users/store.js';
import { allPostFields, v1Status, v1User } from '../v1/wire.js';
import { subscribedWebhooks } from './store.js';

/**
 * The Account Activity deliveries (shared/reference/platform.md §1 "Account Activity v2"):
 * `{for_user_id, <kind>: [...]}` to every webhook a concerned user is subscribed to, built from
 * the event log, with the v1.1 status and user objects the public platform sends (issue 34):
 * `id_str`, `user`, v1.1 `created_at` and `entities`, `extended_tweet` for long text. An app in
 * the tweet dialect receives them as the public platform names them; an app in the post dialect
 * receives the same objects in Plaza's names. Which users an event concerns, and what each is
 * sent, is decided here alone.
 */
type Delivery = { userId: string; body: Record<string, unknown> };

const ms = (iso: string) => String(Date.parse(iso));

/**
 * The v1.1 status of a post (its v2 wire object, all fields, as the event log holds it) with its
 * author, the screen name it replies to and what it quotes or reposts, read from the store.
 */
async function statusOf(ctx: PlatformContext, db: DbOrTx, post: PostWire): Promise<Record<string, unknown> | undefined> {
  const refs = post.referenced_posts ?? [];
  const quotedId = refs.find((r) => r.type === 'quoted')?.id;
  const repostedId = refs.find((r) => r.type === 'reposted')?.id;
  const related = await findPostsAnyState(db, [quotedId, repostedId].filter((id): id is string => id !== undefined));
  const userIds = [post.author_id, post.in_reply_to_user_id, ...related.map((r) => r.author_id)].filter((id): id is string => id !== undefined);
  const users = new Map((await findUsersByIds(db, [...new Set(userIds)])).map((u) => [u.id, u]));
  const author = post.author_id === undefined ? undefined : users.get(post.author_id);
  if (!author) return undefined;
  const withAuthor = (id: string | undefined) => {
    const row = related.find((r) => r.id === id);
    const by = row && users.get(row.author_id);
    return row && by ? { post: allPostFields(row, ctx.clock.now()), author: by } : undefined;
  };
  return v1Status(post, {
    author,
    inReplyToScreenName: post.in_reply_to_user_id ? users.get(post.in_reply_to_user_id)?.username : undefined,
    quoted: withAuthor(quotedId),
    reposted: withAuthor(repostedId),
  });
}

async function v1UsersOf(db: DbOrTx, ids: string[]): Promise<Map<string, Record<string, unknown>>> {
  return new Map((await findUsersByIds(db, ids)).map((u) => [u.id, v1User(u)]));
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
      const status = await statusOf(ctx, db, p);
      return status ? to([p.author_id, p.in_reply_to_user_id, ...mentioned], { tweet_create_events: [status] }) : [];
    }
    case 'post.delete':
      return to([p.author_id], { tweet_delete_events: [{ status: { id: p.id, user_id: p.author_id }, timestamp_ms: ms(event.created_at) }] });
    case 'like.create': {
      const [liked] = await findPostsAnyState(db, [p.liked_post_id]);
      const post = liked && (await statusOf(ctx, db, allPostFields(liked, ctx.clock.now())));
      const liker = (await v1UsersOf(db, [p.liking_user_id])).get(p.liking_user_id);
      if (!post || !liker) return [];
      const like = { id: p.id, created_at: p.created_at, timestamp_ms: String(p.timestamp_ms), favorited_status: post, user: liker };
      return to([p.liking_user_id, p.post_author_id], { favorite_events: [like] });
    }
    case 'follow.follow':
    case 'follow.unfollow': {
      const kind = event.type === 'follow.follow' ? 'follow' : 'unfollow';
      const item = { type: kind, created_timestamp: ms(event.created_at), ...(await sourceAndTarget(db, p)) };
      // Both sides hear of a follow; only the one who unfollowed hears of an unfollow.
      const users = kind === 'follow' ? [p.source?.data?.id, p.target?.data?.id] : [p.source?.data?.id];
      return to(users, { [`${kind}_events`]: [item] });
    }
    case 'block.block':
    case 'block.unblock':
    case 'mute.mute':
    case 'mute.unmute': {
      const action = event.type.split('.')[1]!;
      const item = { type: action, created_timestamp: ms(event.created_at), ...(await sourceAndTarget(db, p)) };
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

/** The v1.1 user objects of a graph event's two sides (each falls back to the v2 user the log holds). */
async function sourceAndTarget(db: DbOrTx, p: { source?: { data?: { id: string } }; target?: { data?: { id: string } } }) {
  const source = p.source?.data;
  const target = p.target?.data;
  const users = await v1UsersOf(db, [source?.id, target?.id].filter((id): id is string => id !== undefined));
  return { source: (source && users.get(source.id)) ?? source, target: (target && users.get(target.id)) ?? target };
}

/** A delivery body (built in the public platform's names) as an app of `dialect` receives it: in the post dialect, renamed and nothing else. */
export function inAppDialect(dialect: AppDialect, body: Record<string, unknown>): unknown {
  return dialect === 'tweet' ? body : bodyToPost(body);
}

/** The Account Activity router: one delivery per (subscribed webhook, concerned user). */
export async function accountActivityRouter(ctx: PlatformContext, db: DbOrTx, event: EventRow) {
  const deliveries = await deliveriesFor(ctx, db, event);
  if (deliveries.length === 0) return [];
  const subs = await subscribedWebhooks(db, deliveries.map((d) => d.userId));
  const out: Array<{ webhookId: string; body: unknown }> = [];
  const inPostNames = new Map<Delivery, unknown>();
  // Built once per delivery, shared by the webhooks of apps in the post dialect.
  for (const d of deliveries) {
    for (const s of subs) {
      if (s.user_id !== d.userId) continue;
      // An app revocation goes only to the revoked app's webhooks.
      if (event.type === 'oauth.revoke' && s.app_id !== (JSON.parse(event.payload) as { app_id?: string }).app_id) continue;
      // Direct-message activity goes only where the subscribing token could read direct messages.
      if (event.type.startsWith('dm.') && s.direct_messages !== 1) continue;
      if (s.dialect === 'tweet') out.push({ webhookId: s.webhook_id, body: d.body });
      else {
        if (!inPostNames.has(d)) inPostNames.set(d, inAppDialect('post', d.body));
        out.push({ webhookId: s.webhook_id, body: inPostNames.get(d) });
      }
    }
  }
  return out;
}

registerWebhookRouter(accountActivityRouter);
