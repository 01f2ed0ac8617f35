import type { AppRow } from '../auth/store.js';
import type { PlatformContext } from '../platform/context.js';
import { deliveryHeaders } from '../events/delivery.js';
import type { EventRow } from '../events/log.js';
import { selectFields } from '../http/fields.js';
import { invalidParameter } from '../http/params.js';
import { ACTIVITY_EVENT_TYPES, PASCAL_CASE_NAMES } from '../platform/activity/event-types.js';
import { matchDeliveries } from '../platform/activity/fanout.js';
import { parseLogged } from '../platform/activity/event-types.js';
import type { ActivitySubscriptionRow } from '../platform/activity/store.js';
import { appNamed } from './users.js';
import { deliveriesFor, inAppDialect } from '../platform/account-activity/router.js';
import { pairPayload } from '../platform/blocks/service.js';
import { legacyMessage, legacySignal, legacyUsers } from '../platform/dm/legacy.js';
import type { DmEventRow } from '../platform/dm/wire.js';
import { findPostsAnyState } from '../platform/posts/store.js';
import { postDeclaration } from '../platform/posts/wire.js';
import type { UserRow } from '../platform/users/wire.js';
import type { DbOrTx } from '../store/store.js';

/**
 * `plaza trigger`: one sample delivery of an event type, built as a real one is. A log entry is
 * synthesized from the store's real rows (the payload builders the services use where they export
 * them), then handed to the very routers the fan-out runs: the Account Activity router's
 * `deliveriesFor`, the Activity API's `matchDeliveries` with a subscription synthesized for the
 * user. Nothing is written: no log entry, no outbox row.
 */

/** The Account Activity kinds (the keys of `{for_user_id, <kind>: [...]}`) and the log entry each is read from. */
export const ACCOUNT_ACTIVITY_KINDS: Readonly<Record<string, string>> = {
  tweet_create_events: 'post.create',
  tweet_delete_events: 'post.delete',
  favorite_events: 'like.create',
  follow_events: 'follow.follow',
  unfollow_events: 'follow.unfollow',
  block_events: 'block.block',
  unblock_events: 'block.unblock',
  mute_events: 'mute.mute',
  unmute_events: 'mute.unmute',
  direct_message_events: 'dm.sent',
  direct_message_indicate_typing_events: 'dm.indicate_typing',
  direct_message_mark_read_events: 'dm.read',
  user_event: 'oauth.revoke',
};

export interface Sample {
  event_type: string;
  interface: 'account_activity' | 'activity';
  /** The log entry the sample was built from (never written). */
  log_type: string;
  for_user_id: string | null;
  /** The body exactly as sent, and the headers a delivery carries (signed with the app's consumer secret). */
  body: string;
  headers: Record<string, string>;
}

export interface SampleRequest {
  event_type: string;
  app?: string;
  user?: string;
}


/** The user the sample concerns (id or username; the first user when absent) and another user, the one who acts on them. */
async function pickUsers(ctx: PlatformContext, user: string | undefined): Promise<{ user: UserRow; actor: UserRow }> {
  const db = ctx.store.db;
  let q = db.selectFrom('users').selectAll().orderBy('created_at').orderBy('id').limit(1);
  if (user !== undefined) q = q.where((eb) => eb.or([eb('id', '=', user), eb('username', '=', user)]));
  const found = await q.executeTakeFirst();
  if (!found) throw invalidParameter('user', user === undefined ? [] : [user], user === undefined ? 'There is no user yet' : `The \`user\` value [${user}] is neither the id nor the username of a user`);
  const actor = await db.selectFrom('users').selectAll().where('id', '!=', found.id).orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();
  if (!actor) throw invalidParameter('user', [found.username], 'A sample needs a second user to act on this one: create one with POST /admin/users');
  return { user: found, actor };
}

/** The newest post of `authorId` (of anyone when absent or when they have none), as post.create's payload renders it. */
async function samplePost(ctx: PlatformContext, db: DbOrTx, authorId: string, strict = false): Promise<Record<string, any>> {
  const own = await db.selectFrom('posts').select('id').where('author_id', '=', authorId).orderBy('created_at', 'desc').limit(1).executeTakeFirst();
  const any = own ?? (strict ? undefined : await db.selectFrom('posts').select('id').orderBy('created_at', 'desc').limit(1).executeTakeFirst());
  if (!any) throw invalidParameter('user', [authorId], strict ? 'This sample refers to a post of the user, who has none: post one with POST /admin/users/{id}/posts' : 'There is no post yet to build the sample from');
  const [row] = await findPostsAnyState(db, [any.id]);
  // The payload post.create carries (src/platform/posts/build.ts).
  return selectFields(postDeclaration, row!, new Set(Object.keys(postDeclaration.fields)), { now: ctx.clock.now() }) as Record<string, any>;
}

/** A direct message from `sender` to `recipient` that is never stored, in the dm.* payload shape. */
function sampleMessage(ctx: PlatformContext, sender: UserRow, recipient: UserRow, recipientInView: string | undefined, type: 'dm.sent' | 'dm.received') {
  const event: DmEventRow = {
    id: ctx.ids.next(),
    conversation_id: [sender.id, recipient.id].sort().join('-'),
    event_type: 'MessageCreate',
    sender_id: sender.id,
    text: `A sample ${type} delivery from Plaza`,
    entities: '{}',
    media_keys: '[]',
    referenced_posts: '[]',
    participant_ids: null,
    created_at: ctx.clock.now().toISOString(),
    deleted_at: null,
  };
  return { direct_message_events: [legacyMessage(event, [], recipientInView)], users: legacyUsers([sender, recipient]) };
}

/** The log entry (type, subject, payload) a sample of `logType` (or Activity type `name`) concerning `user` is read from. */
async function sampleEntry(ctx: PlatformContext, db: DbOrTx, logType: string, name: string, app: AppRow, user: UserRow, actor: UserRow): Promise<{ subject: string; payload: unknown }> {
  const now = ctx.clock.now();
  const conversation = [user.id, actor.id].sort().join('-');
  switch (logType) {
    case 'post.create': {
      if (name === 'post.create' || name === 'tweet_create_events') {
        const post = { ...(await samplePost(ctx, db, user.id)), id: ctx.ids.next(), author_id: user.id };
        return { subject: post.id, payload: post };
      }
      const base = await samplePost(ctx, db, actor.id);
      const post: Record<string, any> = { ...base, id: ctx.ids.next(), author_id: actor.id };
      if (name === 'post.mention.create') {
        const mention = `@${user.username}`;
        post.text = `${mention} ${base.text ?? ''}`.trim();
        post.entities = { mentions: [{ start: 0, end: mention.length, username: user.username, id: user.id }] };
      } else if (name === 'post.reply.create') {
        const replied = await samplePost(ctx, db, user.id);
        post.in_reply_to_user_id = user.id;
        post.referenced_posts = [{ type: 'replied_to', id: replied.id }];
      } else {
        const referenced = await samplePost(ctx, db, user.id, true);
        post.referenced_posts = [{ type: name === 'post.quote.create' ? 'quoted' : 'reposted', id: referenced.id }];
      }
      return { subject: post.id, payload: post };
    }
    case 'post.delete': {
      const post = await samplePost(ctx, db, user.id, true);
      return { subject: post.id, payload: { id: post.id, author_id: user.id } };
    }
    case 'like.create': {
      // The like.create payload of src/platform/likes/service.ts: the actor likes the user's post.
      const post = await samplePost(ctx, db, user.id);
      return { subject: post.id, payload: { id: ctx.ids.next(), created_at: now.toISOString(), timestamp_ms: now.getTime(), liked_post_id: post.id, post_author_id: post.author_id, liking_user_id: actor.id } };
    }
    case 'follow.follow':
      return { subject: user.id, payload: await pairPayload(ctx, db, actor.id, user.id) };
    case 'follow.unfollow':
    case 'block.block':
    case 'block.unblock':
    case 'mute.mute':
    case 'mute.unmute':
      return { subject: actor.id, payload: await pairPayload(ctx, db, user.id, actor.id) };
    case 'dm.sent':
      return { subject: user.id, payload: sampleMessage(ctx, user, actor, actor.id, 'dm.sent') };
    case 'dm.received':
      return { subject: user.id, payload: sampleMessage(ctx, actor, user, user.id, 'dm.received') };
    case 'dm.read':
    case 'dm.indicate_typing': {
      const kind = logType === 'dm.read' ? 'mark_read' : 'indicate_typing';
      return { subject: actor.id, payload: { direct_message_events: [legacySignal(kind, now.toISOString(), conversation, actor.id, user.id)], users: legacyUsers([actor, user]) } };
    }
    case 'chat.conversation_join':
      // The payload of src/platform/dm/service.ts recordMembership: the user added the actor.
      return {
        subject: user.id,
        payload: {
          direct_message_events: [{ type: 'participants_join', id: ctx.ids.next(), created_timestamp: String(now.getTime()), dm_conversation_id: conversation, sender_id: user.id, participant_ids: [actor.id] }],
          users: legacyUsers([user, actor]),
        },
      };
    case 'oauth.revoke':
      return { subject: user.id, payload: { date_time: now.toISOString(), user_id: user.id, app_id: app.id } };
    case 'spaces.start':
    case 'spaces.end': {
      const space = await db.selectFrom('spaces').select('id').where('creator_id', '=', user.id).orderBy('created_at', 'desc').limit(1).executeTakeFirst();
      const id = space?.id ?? ctx.ids.next();
      return { subject: id, payload: { id, state: logType === 'spaces.start' ? 'live' : 'ended', creator_id: user.id, host_ids: [user.id], title: 'A sample space from Plaza', created_at: now.toISOString() } };
    }
    case 'news.new':
      return { subject: ctx.ids.next(), payload: { category: 'Technology', headline: 'A sample story from Plaza', hook: 'What a sample delivery looks like', summary: 'Sent by plaza trigger.' } };
    default:
      if (logType.startsWith('profile.update.')) {
        return { subject: user.id, payload: { before: user.description, after: `${user.description} (changed)`.trim() } };
      }
      // broadcast.*: written by src/platform/broadcasts (go live, chat, end); the entry names the broadcaster only.
      return { subject: user.id, payload: { id: ctx.ids.next(), user_id: user.id } };
  }
}

export async function buildSample(ctx: PlatformContext, request: SampleRequest): Promise<Sample> {
  const app = await appNamed(ctx, request.app);
  const { user, actor } = await pickUsers(ctx, request.user);
  const db = ctx.store.db;
  const name = PASCAL_CASE_NAMES[request.event_type] ?? request.event_type;
  const aaLogType = ACCOUNT_ACTIVITY_KINDS[name];
  const activity = ACTIVITY_EVENT_TYPES.get(name);
  if (!aaLogType && !activity) {
    const known = [...Object.keys(ACCOUNT_ACTIVITY_KINDS), ...ACTIVITY_EVENT_TYPES.keys()].join(', ');
    throw invalidParameter('event_type', [request.event_type], `The \`event_type\` value [${request.event_type}] is neither an Account Activity kind nor an Activity API event type: one of ${known}`);
  }
  const logType = aaLogType ?? activity!.logTypes[0]!;
  const entry = await sampleEntry(ctx, db, logType, name, app, user, actor);
  const row: EventRow = { seq: 0, id: ctx.ids.next(), type: logType, subject: entry.subject, payload: JSON.stringify(entry.payload), created_at: ctx.clock.now().toISOString() };

  let body: unknown;
  let forUser: string | null = null;
  if (aaLogType) {
    const deliveries = await deliveriesFor(ctx, db, row);
    const mine = deliveries.find((d) => d.userId === user.id) ?? deliveries[0];
    if (!mine) throw invalidParameter('event_type', [request.event_type], `No ${name} delivery comes of this sample`);
    body = inAppDialect(app.dialect, mine.body);
    forUser = mine.userId;
  } else {
    const now = ctx.clock.now().toISOString();
    const subscription: ActivitySubscriptionRow = {
      id: ctx.ids.next(),
      app_id: app.id,
      event_type: request.event_type,
      canonical_type: name,
      user_id: activity!.user === 'none' ? null : user.id,
      keyword: null,
      direction: null,
      filter_key: '',
      tag: 'plaza trigger',
      webhook_id: null,
      owner_user_id: null,
      created_at: now,
      updated_at: now,
    };
    const [delivery] = await matchDeliveries(ctx, db, [parseLogged(row)], [subscription]);
    if (!delivery) throw invalidParameter('event_type', [request.event_type], `No ${name} delivery comes of this sample`);
    body = delivery.body;
    forUser = subscription.user_id;
  }
  const text = JSON.stringify(body);
  return { event_type: request.event_type, interface: aaLogType ? 'account_activity' : 'activity', log_type: logType, for_user_id: forUser, body: text, headers: deliveryHeaders(text, app.consumer_secret, ctx.ids.next(), row.id) };
}
