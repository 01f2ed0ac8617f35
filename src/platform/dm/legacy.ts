import { Type, type Static } from '@sinclair/typebox';
import type { PostEntities } from '../posts/entities.js';
import type { UserRow } from '../users/wire.js';
import type { DmEventRow } from './wire.js';
import { fromJson } from '../../store/store.js';
import type { MediaRow } from '../media/wire.js';

/**
 * The legacy direct-message shapes the dm.* events carry (spec 000: "legacy direct-message
 * events"; shared/reference/platform.md §7: `{direct_message_events, users}`): the account
 * activity objects of the public platform, with the conversation id added for group messages.
 */

const millis = (iso: string) => String(new Date(iso).getTime());

const Indices = Type.Array(Type.Integer({ minimum: 0 }), { minItems: 2, maxItems: 2, description: 'Start and end, in code points' });
const closed = { additionalProperties: false } as const;
/** The v1.1 entities object, as legacyEntities writes it. */
export const LegacyEntitiesSchema = Type.Object(
  {
    hashtags: Type.Array(Type.Object({ text: Type.String(), indices: Indices }, closed)),
    symbols: Type.Array(Type.Object({ text: Type.String(), indices: Indices }, closed)),
    urls: Type.Array(Type.Object({ url: Type.String(), expanded_url: Type.String(), display_url: Type.String(), indices: Indices }, closed)),
    user_mentions: Type.Array(Type.Object({ screen_name: Type.String(), indices: Indices }, closed)),
  },
  closed,
);

export function legacyEntities(entities: PostEntities): Static<typeof LegacyEntitiesSchema> {
  return {
    hashtags: (entities.hashtags ?? []).map((h) => ({ text: h.tag, indices: [h.start, h.end] })),
    symbols: (entities.cashtags ?? []).map((c) => ({ text: c.tag, indices: [c.start, c.end] })),
    urls: (entities.urls ?? []).map((u) => ({ url: u.url, expanded_url: u.expanded_url, display_url: u.display_url, indices: [u.start, u.end] })),
    user_mentions: (entities.mentions ?? []).map((m) => ({ screen_name: m.username, indices: [m.start, m.end] })),
  };
}

/** A message_create event; `recipientId` when the message has one recipient in view. */
export function legacyMessage(event: DmEventRow, media: readonly MediaRow[], recipientId?: string) {
  const attached = media[0];
  return {
    type: 'message_create',
    id: event.id,
    created_timestamp: millis(event.created_at),
    dm_conversation_id: event.conversation_id,
    message_create: {
      ...(recipientId ? { target: { recipient_id: recipientId } } : {}),
      sender_id: event.sender_id,
      message_data: {
        text: event.text ?? '',
        entities: legacyEntities(fromJson<PostEntities>(event.entities) ?? {}),
        ...(attached ? { attachment: { type: 'media', media: { id_str: attached.id, media_key: attached.media_key, type: attached.type } } } : {}),
      },
    },
  };
}

/** mark_read and indicate_typing items, one per recipient. */
export function legacySignal(type: 'mark_read' | 'indicate_typing', at: string, conversationId: string, senderId: string, recipientId: string, lastReadEventId?: string) {
  return {
    type,
    created_timestamp: millis(at),
    dm_conversation_id: conversationId,
    sender_id: senderId,
    target: { recipient_id: recipientId },
    ...(lastReadEventId ? { last_read_event_id: lastReadEventId } : {}),
  };
}

/** The `users` map: every user the events name, by id, in the legacy user shape. */
export function legacyUsers(users: readonly UserRow[]): Record<string, unknown> {
  return Object.fromEntries(
    users.map((u) => [
      u.id,
      {
        id: u.id,
        created_timestamp: millis(u.created_at),
        name: u.name,
        screen_name: u.username,
        description: u.description,
        protected: u.protected === 1,
        verified: u.verified === 1,
        followers_count: u.followers_count,
        friends_count: u.following_count,
        statuses_count: u.post_count,
        profile_image_url_https: u.profile_image_url,
      },
    ]),
  );
}
