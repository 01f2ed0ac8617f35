import type { ResourceDeclaration } from '../../http/fields.js';
import type { ResourceType } from '../../http/problems.js';
import type { DmEventTable } from '../../store/schema-graph.js';
import { fromJson } from '../../store/store.js';
import { expansionsOf, type ExpansionDeclarations } from '../expansions.js';
import type { View } from '../view.js';
import type { Static } from '@sinclair/typebox';
import type { DmEventSchema } from '../schemas.js';

export type DmEventRow = DmEventTable;

const strings = (text: string | null): string[] => fromJson<string[]>(text) ?? [];
const referencedIds = (e: DmEventRow): string[] => (fromJson<Array<{ id: string }>>(e.referenced_posts) ?? []).map((r) => r.id);

/**
 * The direct-message event: defaults id, event_type and text, as on the public platform.
 * participant_ids appear only on ParticipantsJoin and ParticipantsLeave events and list only who
 * joined or left (spec 000 "Events", Jun 3, 2025).
 */
export const dmEventDeclaration: ResourceDeclaration<DmEventRow, View, Static<typeof DmEventSchema>> = {
  // The spec's resource_type enumeration has no direct-message value; nothing reads it for
  // declarations, and problems about DM events name their parameter instead.
  resource: 'dm_event' as ResourceType,
  fieldsParam: 'dm_event.fields',
  defaults: ['id', 'event_type', 'text'],
  fields: {
    id: (e) => e.id,
    event_type: (e) => e.event_type,
    text: (e) => e.text ?? undefined,
    attachments: (e) => {
      const media_keys = strings(e.media_keys);
      return media_keys.length > 0 ? { media_keys } : undefined;
    },
    created_at: (e) => e.created_at,
    dm_conversation_id: (e) => e.conversation_id,
    entities: (e) => {
      const entities = fromJson<Record<string, unknown[]>>(e.entities) ?? {};
      return Object.keys(entities).length > 0 ? entities : undefined;
    },
    participant_ids: (e) => (e.event_type === 'MessageCreate' ? undefined : strings(e.participant_ids)),
    referenced_posts: (e) => {
      const ids = referencedIds(e);
      return ids.length > 0 ? ids.map((id) => ({ id })) : undefined;
    },
    sender_id: (e) => e.sender_id,
  },
};

const referencedPosts = { target: 'posts' as const, keys: referencedIds };

/** Expansions of a DM event ('referenced_posts' as the reference names it; 'referenced_posts.id' as posts do). */
export const dmEventExpansions: ExpansionDeclarations<DmEventRow> = expansionsOf(dmEventDeclaration, {
  'attachments.media_keys': { target: 'media', keys: (e) => strings(e.media_keys) },
  participant_ids: { target: 'users', keys: (e) => (e.event_type === 'MessageCreate' ? [] : strings(e.participant_ids)) },
  referenced_posts: referencedPosts,
  'referenced_posts.id': referencedPosts,
  sender_id: { target: 'users', keys: (e) => [e.sender_id] },
});

export const DM_EVENT_TYPES = ['MessageCreate', 'ParticipantsJoin', 'ParticipantsLeave'] as const;

/** One-to-one conversations are named by their two participants, smaller id first. */
export function oneToOneId(a: string, b: string): string {
  return BigInt(a) < BigInt(b) ? `${a}-${b}` : `${b}-${a}`;
}

export const DM_CONVERSATION_ID_TEXT = '^([0-9]{1,19}-[0-9]{1,19}|[0-9]{15,19})$';
