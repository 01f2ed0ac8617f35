import type { PlatformContext } from '../context.js';
import type { DbOrTx } from '../../store/store.js';
import { eventUser } from '../graph/render.js';
import { findUsersByIds } from '../users/store.js';
import { ACTIVITY_EVENT_TYPES, TYPES_BY_LOG_TYPE, type LoggedEvent, type MatchLookups } from './event-types.js';
import { filterOf } from './service.js';
import { authorsOf, subscriptionsOfTypes, usernamesOf, type ActivitySubscriptionRow } from './store.js';

/**
 * From log entries to activity deliveries: which subscriptions each entry reaches, and the
 * envelope each gets (reference §7: `{data:{event_uuid, filter, event_type, tag, payload, includes}}`).
 * The stream and the webhook router both use it, so an event looks the same either way.
 */

export interface ActivityDelivery {
  event: LoggedEvent;
  subscription: ActivitySubscriptionRow;
  body: { data: Record<string, unknown> };
}

/** The activity types (their names) that read any of these entries. */
export function activityTypesOf(events: readonly LoggedEvent[]): string[] {
  const names = new Set<string>();
  for (const e of events) for (const t of TYPES_BY_LOG_TYPE.get(e.type) ?? []) names.add(t.name);
  return [...names];
}

/** The subscriptions that may want these entries: of the given apps, or of any app with a webhook. */
export async function candidateSubscriptions(db: DbOrTx, events: readonly LoggedEvent[], scope: { appIds: readonly string[] } | { withWebhook: true }) {
  return subscriptionsOfTypes(db, activityTypesOf(events), scope);
}

const POST_TYPES_WITH_AUTHOR = new Set(['post.create', 'post.mention.create', 'post.reply.create', 'post.quote.create', 'post.repost.create']);

/** Everything matching looks up, loaded in a few queries for the whole batch. */
async function lookupsFor(db: DbOrTx, events: readonly LoggedEvent[], subs: readonly ActivitySubscriptionRow[]): Promise<MatchLookups> {
  const mentionUsers = subs.filter((s) => s.canonical_type === 'post.mention.create' && s.user_id).map((s) => s.user_id!);
  const referenced = new Set<string>();
  if (subs.some((s) => s.canonical_type === 'post.quote.create' || s.canonical_type === 'post.repost.create')) {
    for (const e of events) {
      if (e.type !== 'post.create' || !Array.isArray(e.payload?.referenced_posts)) continue;
      for (const r of e.payload.referenced_posts) if (r?.type === 'quoted' || r?.type === 'reposted') referenced.add(String(r.id));
    }
  }
  const [usernames, authors] = await Promise.all([usernamesOf(db, [...new Set(mentionUsers)]), authorsOf(db, [...referenced])]);
  return { usernameOf: (id) => usernames.get(id), authorOf: (id) => authors.get(id) };
}

/**
 * The deliveries of a batch of entries to a set of subscriptions, in log order. Each envelope is
 * built once per (entry, subscription), whatever number of connections then carry it.
 */
export async function matchDeliveries(ctx: PlatformContext, db: DbOrTx, events: readonly LoggedEvent[], subs: readonly ActivitySubscriptionRow[]): Promise<ActivityDelivery[]> {
  if (events.length === 0 || subs.length === 0) return [];
  const byType = new Map<string, ActivitySubscriptionRow[]>();
  for (const s of subs) byType.set(s.canonical_type, [...(byType.get(s.canonical_type) ?? []), s]);
  const lookups = await lookupsFor(db, events, subs);
  const matched: Array<{ event: LoggedEvent; subscription: ActivitySubscriptionRow }> = [];
  for (const event of events) {
    for (const type of TYPES_BY_LOG_TYPE.get(event.type) ?? []) {
      for (const sub of byType.get(type.name) ?? []) {
        if (type.matches({ event, filter: filterOf(sub), appId: sub.app_id, lookups })) matched.push({ event, subscription: sub });
      }
    }
  }
  if (matched.length === 0) return [];
  // includes.users: the author of a post event, in the user shape the follow.* payloads use.
  const authorIds = [...new Set(matched.filter((m) => POST_TYPES_WITH_AUTHOR.has(m.subscription.canonical_type)).map((m) => String(m.event.payload?.author_id ?? '')))].filter(Boolean);
  const authors = new Map((await findUsersByIds(db, authorIds)).map((u) => [u.id, eventUser(ctx, u)]));
  return matched.map(({ event, subscription }) => {
    const author = POST_TYPES_WITH_AUTHOR.has(subscription.canonical_type) ? authors.get(String(event.payload?.author_id)) : undefined;
    const data: Record<string, unknown> = {
      event_uuid: event.id,
      filter: filterOf(subscription),
      event_type: subscription.event_type,
      ...(subscription.tag !== null ? { tag: subscription.tag } : {}),
      payload: event.payload,
      includes: author ? { users: [author] } : {},
    };
    return { event, subscription, body: { data } };
  });
}

/** Whether a type name is one the Activity API knows (for callers outside this folder). */
export const isActivityType = (name: string) => ACTIVITY_EVENT_TYPES.has(name);
